"""``python -m bot`` as a real process: its environment, its stderr line by line, SIGINT and SIGKILL."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.forks import ForkedProcess

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456:TEST-token"
HANDLED = re.compile(r'\bupdate=(\d+) kind=|"update": (\d+), "kind"')
"""The line the bot logs when it is done with an update (``UpdateMiddleware``; text or JSON logs)."""


def bot_env(**settings: str | None) -> dict[str, str]:
    """The environment of a bot process: this one's, less every setting, plus ``settings`` (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    env.update(
        {
            "BOT_TOKEN": TOKEN,
            # The e2e limiter runs on a compressed clock (see conftest), here too.
            "GROUP_WINDOW": "2",
            "GROUP_BUDGET": "20",
            "PRIVATE_GAP": "0.02",
            "COMMAND_LIMIT": "1000",  # as in conftest
            "PICTURES": "false",  # as in conftest: drawn where a test asks (pictures="true")
            "POSTMORTEMS": "false",  # as in conftest: made where a test asks (postmortems="true")
            "WORKER_TIMEOUT": "600",  # as in conftest: a test waits for the worker
        }
    )
    for name, value in settings.items():
        if value is None:
            env.pop(name.upper(), None)
        else:
            env[name.upper()] = value
    return env


SETTING_NAMES = frozenset(
    {
        "BOT_TOKEN",
        "REDIS_URL",
        "DATA_DIR",
        "TELEGRAM_API_BASE",
        "REDIS_PREFIX",
        "CHALLENGE_TTL",
        "FINISHED_TTL",
        "ACTIVE_TTL",
        "GROUP_BUDGET",
        "COMMAND_LIMIT",
        "COMMAND_WINDOW",
        "GROUP_WINDOW",
        "PRIVATE_GAP",
        "LOG_LEVEL",
        "LOG_FORMAT",
        "METRICS_PORT",
        "METRICS_HOST",
        "TURN_TIMEOUT",
        "CLAIM_AFTER",
        "CLOCK_FILE",
        "PICTURES",
        "POSTMORTEMS",
        "WORKER_TIMEOUT",
        "WEBHOOK_URL",
        "WEBHOOK_SECRET",
        "WEBHOOK_HOST",
        "WEBHOOK_PORT",
    }
)


class BotProcess:
    """One ``python -m bot``; ``lines`` is what it wrote to stderr so far."""

    def __init__(
        self,
        env: dict[str, str],
        *,
        cwd: Path = ROOT,
        args: tuple[str, ...] = (),
        log: Path | None = None,
        module: str = "bot",
        fork: bool = True,
        fake: FakeTelegram | None = None,
    ) -> None:
        self.env = env
        self.fake = fake
        """The fake Bot API the bot talks to: told of each update the bot is done with, by the line the bot logs
        when it is (``UpdateMiddleware``), so that a step that sends an update waits for the bot
        (``FakeTelegram.done``)."""
        self.module = module
        self.fork = fork
        """Forked from a process that imported the bot (``forks.py``), else a new ``python -m``."""
        self.log = log
        """A file that gets every line too (appended), for a look while the process runs."""
        self.cwd = cwd
        self.args = args
        self.lines: list[str] = []
        self.stdout = ""
        self._process: asyncio.subprocess.Process | ForkedProcess | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> BotProcess:
        if self.fake is not None:
            self.fake.listening += 1
        if self.fork:
            self._process = await ForkedProcess.start(self.module, self.args, self.env, self.cwd)
            self._reader = asyncio.create_task(self._read())
            return self
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            self.module,
            *self.args,
            cwd=self.cwd,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        with contextlib.ExitStack() as stack:
            if self.fake is not None:
                stack.callback(self._deaf)
            file = stack.enter_context(self.log.open("a", encoding="utf-8")) if self.log is not None else None
            async for line in self._process.stderr:
                text = line.decode(errors="replace").rstrip("\n")
                self.lines.append(text)
                if self.fake is not None and (done := HANDLED.search(text)) is not None:
                    self.fake.update_done(int(done.group(1) or done.group(2)))
                if file is not None:
                    print(text, file=file, flush=True)

    def _deaf(self) -> None:
        """The process ended (its stderr closed): it tells the fake of no more updates."""
        assert self.fake is not None
        self.fake.listening -= 1

    @property
    def pid(self) -> int:
        assert self._process is not None
        return self._process.pid

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    async def wait_line(self, predicate: Callable[[str], bool], timeout: float = 90.0, what: str = "a line") -> str:
        deadline = time.monotonic() + timeout
        while True:
            for line in self.lines:
                if predicate(line):
                    return line
            if self._process is not None and self._process.returncode is not None:
                raise AssertionError(f"the bot exited ({self._process.returncode}) before {what}:\n{self.output}")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}:\n{self.output}")
            await asyncio.sleep(0.02)

    async def exit_code(self, timeout: float = 90.0) -> int:
        """Wait for the process to end by itself; its exit code."""
        assert self._process is not None and self._process.stdout is not None
        self.stdout = (await asyncio.wait_for(self._process.stdout.read(), timeout)).decode()
        code = await asyncio.wait_for(self._process.wait(), timeout)
        if self._reader is not None:
            await asyncio.wait_for(self._reader, timeout)
        self._close_pipes()
        return code

    async def interrupt(self, timeout: float = 30.0) -> int:
        """SIGINT (Ctrl-C), then its exit code."""
        assert self._process is not None
        self._process.send_signal(signal.SIGINT)
        return await self.exit_code(timeout)

    @property
    def exited(self) -> bool:
        """Whether the process has ended (by itself, or killed)."""
        return self._process is not None and self._process.returncode is not None

    async def kill(self) -> None:
        """SIGKILL: no clean-up of any kind (a process that ended by itself is left as it is)."""
        assert self._process is not None
        with contextlib.suppress(ProcessLookupError):
            self._process.kill()
        await self._process.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)
        self._close_pipes()

    def _close_pipes(self) -> None:
        if isinstance(self._process, ForkedProcess):
            self._process.close_pipes()

    async def close(self) -> None:
        if self._process is not None and self._process.returncode is None:
            await self.kill()


class RestartingBot:
    """``python -m bot`` that a test kills (-9) and starts again; ``outputs`` has each process's log."""

    def __init__(self, env: dict[str, str], log: Path | None = None, *, fake: FakeTelegram | None = None) -> None:
        self.env = env
        self.log = log
        self.fake = fake
        """Told of each update a process is done with (``BotProcess.fake``)."""
        self.process: BotProcess | None = None
        self.outputs: list[str] = []
        self.starts = 0
        self.started_at: list[float] = []
        """When each process was started (``time.monotonic``, just before it was spawned)."""
        self.killed_at: list[float] = []
        """When each kill was made (``time.monotonic``)."""

    async def start(self) -> None:
        self.started_at.append(time.monotonic())
        self.process = await BotProcess(self.env, log=self.log, fake=self.fake).start()
        self.starts += 1
        await self.process.wait_line(lambda s: "polling" in s and "bot.app" in s, what="polling")

    async def kill(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            self.killed_at.append(time.monotonic())
            await process.kill()
            self.outputs.append(process.output)

    def exited_by_itself(self) -> bool:
        """Whether the running process ended without being killed (it crashed)."""
        return self.process is not None and self.process.exited

    async def close(self) -> None:
        if self.process is not None:
            await self.process.close()
            self.outputs.append(self.process.output)
            self.process = None

    @property
    def output(self) -> str:
        """Every process's log so far, the running one's last."""
        return "\n".join([*self.outputs, *([self.process.output] if self.process is not None else [])])
