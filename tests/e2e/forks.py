"""``python -m bot`` without paying for its imports each time: a child forked from a process that imported the
bot once.

Importing aiogram builds some six hundred pydantic models: 4-5 s of CPU per process on the CI machine, and
the end-to-end and fault suites start about fifty bot processes, which made this the largest single cost of
CI. ``ForkedProcess.start`` asks a forkserver (``multiprocessing``'s, one per test worker, which imported the
modules in ``PRELOAD``) for a child, and the child runs the module exactly as ``python -m`` does
(``runpy.run_module`` as ``__main__``, with ``sys.argv``, the environment and the directory it is given).
The child is a real process of its own: SIGKILL and SIGINT reach it, its stdout and stderr are the test's to
read (a socket pair each, as a pipe would be), its exit code is what ``python -m`` would exit with (negative
for a signal). What it does not repeat is the interpreter's start and the imports, which is why the tests of
the start itself (``test_startup.py``, ``test_main.py``) still run ``python -m bot`` (``BotProcess(fork=False)``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import runpy
import signal
import socket
import sys
from multiprocessing.process import BaseProcess
from pathlib import Path

PRELOAD = ["bot.cli", "bot.app", "bot.webhook", "tests.e2e.forks"]
"""What the forkserver imports before its first fork (``bot.app`` brings aiogram, redis and the rest)."""

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(PRELOAD)


def _run(
    module: str, args: tuple[str, ...], env: dict[str, str], cwd: str, out: socket.socket, err: socket.socket
) -> None:
    """In the child: become ``python -m module args`` with this environment and directory."""
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    out.close()
    err.close()
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


class ForkedProcess:
    """The part of ``asyncio.subprocess.Process`` the tests use, for a forked ``python -m``."""

    def __init__(self, process: BaseProcess, stdout: asyncio.StreamReader, stderr: asyncio.StreamReader,
                 closers: list[asyncio.StreamWriter]) -> None:  # fmt: skip
        self._process = process
        self.stdout = stdout
        self.stderr = stderr
        self._closers = closers

    @classmethod
    async def start(cls, module: str, args: tuple[str, ...], env: dict[str, str], cwd: Path) -> ForkedProcess:
        out_parent, out_child = socket.socketpair()
        err_parent, err_child = socket.socketpair()
        process = _context.Process(target=_run, args=(module, args, env, str(cwd), out_child, err_child))
        try:
            # The first start waits for the forkserver's imports: not on the event loop.
            await asyncio.to_thread(process.start)
        finally:
            out_child.close()
            err_child.close()
        stdout, out_writer = await asyncio.open_connection(sock=out_parent)
        stderr, err_writer = await asyncio.open_connection(sock=err_parent)
        return cls(process, stdout, stderr, [out_writer, err_writer])

    @property
    def pid(self) -> int:
        pid = self._process.pid
        assert pid is not None
        return pid

    @property
    def returncode(self) -> int | None:
        return self._process.exitcode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def wait(self) -> int:
        loop = asyncio.get_running_loop()
        while (code := self.returncode) is None:
            ended = loop.create_future()
            loop.add_reader(self._process.sentinel, _resolve, ended)
            try:
                await ended
            finally:
                loop.remove_reader(self._process.sentinel)
        return code

    def close_pipes(self) -> None:
        """Close the test's ends of stdout and stderr (once what it reads from them is read)."""
        for writer in self._closers:
            writer.close()


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
