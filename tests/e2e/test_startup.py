"""``python -m bot`` as an operator meets it: its own Redis that keeps matches, and a start that explains itself."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
from pathlib import Path

import pytest
import redis

from bot.config import Settings
from bot.storage.embedded import redis_server_binary
from tests.e2e.driver import new_match, play, play_to_end, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.e2e.process import TOKEN, BotProcess, bot_env
from tests.ports import free_port
from tests.redis_server import redis_url

GROUP = -100777
ANN = FakeUser(7001, "Ann", "ann_start", "ru")
BOB = FakeUser(7002, "Bob", "bob_start", "ru")


def polling(line: str) -> bool:
    return "polling" in line and "bot.app" in line


async def launch(processes: list[BotProcess], env: dict[str, str], *args: str, fork: bool = False) -> BotProcess:
    """``python -m bot`` itself (the start is what these tests are about); ``fork``: forked from a process that
    imported the bot (tests/e2e/forks.py), for the tests of what comes after the imports."""
    process = await BotProcess(env, args=args, fork=fork).start()
    processes.append(process)
    return process


def one_line_error(process: BotProcess) -> str:
    assert "Traceback" not in process.output, process.output
    assert len(process.lines) == 1, process.output
    return process.lines[0]


async def refused_start(processes: list[BotProcess], fake: FakeTelegram) -> str:
    """The bot started against ``fake``, which refuses it: it must exit 2 with one line; that line."""
    await fake.start()
    try:
        process = await launch(processes, bot_env(telegram_api_base=fake.base, redis_url=redis_url()), fork=True)
        assert await process.exit_code() == 2
    finally:
        await fake.stop()
    return one_line_error(process)


class TestEmbeddedRedis:
    """Without REDIS_URL the bot runs a real Redis of its own in DATA_DIR, and matches survive a SIGKILL."""

    async def test_match_survives_sigkill(
        self, fake: FakeTelegram, tmp_path: Path, processes: list[BotProcess]
    ) -> None:
        """A few moves, kill -9, a new process on the same DATA_DIR finishes the match from the same panels."""
        data = tmp_path / "data"
        env = bot_env(telegram_api_base=fake.base, redis_url=None, data_dir=str(data))
        rng = random.Random(5)
        first = await launch(processes, env)
        await first.wait_line(polling, what="polling")
        said = [line for line in first.lines if "data:" in line]
        assert len(said) == 1 and str(data) in said[0] and "REDIS_URL" in said[0]
        await start_bot(fake, ANN)
        await new_match(fake, ANN, BOB, GROUP)
        playout = await play(fake, (ANN, BOB), rng, max_moves=6)
        assert playout.moves == 6
        # Telegram stops answering, then kill -9: what reached Telegram is what the bot recorded (a message
        # Telegram took in the very moment of a crash would be sent again: see bot.delivery).
        fake.freeze()
        await asyncio.sleep(0.3)
        await first.kill()
        fake.thaw()

        # The first start was python -m bot itself; the one after the kill is forked (tests/e2e/forks.py).
        second = await launch(processes, env, fork=True)
        await second.wait_line(polling, what="polling after the restart")
        try:
            rest = await play_to_end(fake, (ANN, BOB), rng)
        except AssertionError as error:
            raise AssertionError(f"{error}\nfirst:\n{first.output}\nsecond:\n{second.output}") from None
        assert rest.moves > 0
        # The result waits for the match card and the last deal's review, each drawn or computed in a worker
        # process the new bot spawns first: on a loaded machine that takes a while.
        await fake.wait_for(lambda: any("🏆" in m.text for m in fake.chat_messages(GROUP)), timeout=60,
                            what="the match result")  # fmt: skip
        assert await second.interrupt() == 0, second.output
        assert "Traceback" not in first.output + second.output
        # The bot's Redis stopped with it and left its data behind.
        assert (data / "appendonly.aof").stat().st_size > 0
        client = redis.Redis(unix_socket_path=str(data / "redis.sock"), socket_connect_timeout=0.5)
        with pytest.raises(redis.ConnectionError):
            client.ping()
        client.close()

    async def test_data_dir_of_a_running_bot_is_refused(
        self, fake: FakeTelegram, tmp_path: Path, processes: list[BotProcess]
    ) -> None:
        """Two bots cannot share one DATA_DIR's Redis: the second says so in one line and exits 2."""
        env = bot_env(telegram_api_base=fake.base, redis_url=None, data_dir=str(tmp_path / "data"))
        first = await launch(processes, env, fork=True)
        await first.wait_line(polling, what="polling")
        second = await launch(processes, env, fork=True)
        assert await second.exit_code() == 2
        assert "in use by another running bot" in one_line_error(second)
        assert await first.interrupt() == 0


class TestStartupErrors:
    """Each start-up problem: one line that says what to do, the right exit code, no traceback."""

    @pytest.mark.parametrize(
        ("token", "says"),
        [(None, "BOT_TOKEN is not set"), ("", "BOT_TOKEN is not set"), ("not a token", "BOT_TOKEN is malformed")],
    )
    async def test_bad_token(self, token: str | None, says: str, processes: list[BotProcess]) -> None:
        """A missing or malformed token: exit 2 before anything starts."""
        process = await launch(processes, bot_env(bot_token=token, redis_url=redis_url()))
        assert await process.exit_code() == 2
        line = one_line_error(process)
        assert line.startswith(says) and "@BotFather" in line

    async def test_rejected_token(self, processes: list[BotProcess]) -> None:
        """A token Telegram answers 401 to: exit 2, one line."""
        line = await refused_start(processes, FakeTelegram(rejected_tokens=frozenset({TOKEN})))
        assert "401" in line and "BOT_TOKEN" in line

    async def test_getme_not_found(self, processes: list[BotProcess]) -> None:
        """A wrong TELEGRAM_API_BASE (a path that is no Bot API server): getMe answers 404; exit 2, one line that names
        what to check."""
        fake = FakeTelegram()
        fake.raw_answers["getMe"] = [
            (404, "application/json", '{"ok":false,"error_code":404,"description":"Not Found"}')
        ]
        line = await refused_start(processes, fake)
        assert "404" in line and "TELEGRAM_API_BASE" in line and "BOT_TOKEN" in line

    async def test_a_429_at_the_webhooks_check_is_waited_out(
        self, fake: FakeTelegram, prefix: str, processes: list[BotProcess], cleanup_redis: None
    ) -> None:
        """Telegram answering 429 to getWebhookInfo and to deleteWebhook as the bot starts (a restart in a flood):
        waited out as asked, said in a line, and the bot polls (it exited with a traceback, fresh-clone run g1)."""
        too_many = json.dumps(
            {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 1",
             "parameters": {"retry_after": 1}}
        )  # fmt: skip
        fake.raw_answers["getWebhookInfo"] = [(429, "application/json", too_many)]
        fake.raw_answers["deleteWebhook"] = [(429, "application/json", too_many)]
        fake.webhook = {"url": "https://bot.example.org/tg", "secret_token": None, "allowed_updates": None}
        env = bot_env(telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix)
        process = await launch(processes, env, fork=True)
        await process.wait_line(polling, what="polling")
        assert any("the webhook was not checked" in line for line in process.lines)
        assert any("the webhook was not deleted" in line for line in process.lines)
        assert fake.webhook is None
        assert await process.interrupt() == 0
        assert "Traceback" not in process.output

    async def test_an_html_502_is_waited_out(
        self, fake: FakeTelegram, prefix: str, processes: list[BotProcess], cleanup_redis: None
    ) -> None:
        """A proxy's HTML 502 before a local Bot API server is up: said in a line and retried, no traceback; and a
        webhook left set by webhook workers is deleted, saying so, so that polling works."""
        fake.raw_answers["getMe"] = [(502, "text/html", "<html><body>502 Bad Gateway</body></html>")] * 2
        fake.webhook = {"url": "https://bot.example.org/tg", "secret_token": None, "allowed_updates": None}
        env = bot_env(telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix)
        process = await launch(processes, env, fork=True)
        await process.wait_line(polling, what="polling")
        assert sum("does not answer" in line for line in process.lines) == 2
        assert any("a webhook was set" in line for line in process.lines) and fake.webhook is None
        user = FakeUser(7103, "Ann", "ann_html", "ru")
        fake.send_text(user, user.id, "/start")
        await fake.wait_for(lambda: fake.last_message(user.id), what="the welcome")
        assert await process.interrupt() == 0
        assert "Traceback" not in process.output

    async def test_api_base_is_checked(self, processes: list[BotProcess]) -> None:
        """TELEGRAM_API_BASE without a scheme (or with /bot<token> in it): exit 2, one line, the token never shown."""
        for base in ("localhost:8081", "http://127.0.0.1:8081/bot123456:TEST-token"):
            process = await launch(processes, bot_env(telegram_api_base=base, redis_url=redis_url()))
            assert await process.exit_code() == 2
            line = one_line_error(process)
            assert line.startswith("TELEGRAM_API_BASE") and "TEST-token" not in line

    async def test_telegram_unreachable(self, prefix: str, processes: list[BotProcess], cleanup_redis: None) -> None:
        """Nothing listens at the API address: a line, retries with backoff, and polling once it answers."""
        port = free_port()
        env = bot_env(telegram_api_base=f"http://127.0.0.1:{port}", redis_url=redis_url(), redis_prefix=prefix)
        process = await launch(processes, env, fork=True)
        line = await process.wait_line(lambda s: "does not answer" in s, what="the complaint")
        assert f"127.0.0.1:{port}" in line and "retrying in 1 s" in line
        await process.wait_line(lambda s: "retrying in 2 s" in s, what="the backoff")
        fake = FakeTelegram()
        await fake.start(port)
        try:
            await process.wait_line(polling, what="polling")
            user = FakeUser(7101, "Ann", "ann_late", "ru")
            fake.send_text(user, user.id, "/start")
            await fake.wait_for(lambda: fake.last_message(user.id), what="the welcome")
            assert await process.interrupt() == 0
        finally:
            await fake.stop()
        assert "Traceback" not in process.output and "Unclosed" not in process.output

    async def test_flood_at_start(
        self, fake: FakeTelegram, prefix: str, processes: list[BotProcess], cleanup_redis: None
    ) -> None:
        """Telegram answering 429 to the command menus and to getMe at a start (a restart in a flood): the bot
        polls and answers anyway, and sets the menus once Telegram lets it (it used to exit with a traceback:
        after the menus, and when aiogram's polling asked for getMe again and got a 429)."""
        fake.method_429 = {"setMyCommands": 3}
        fake.calls_429 = {"getMe": {1, 3, 4, 5}}
        env = bot_env(telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix)
        process = await launch(processes, env, fork=True)
        await process.wait_line(polling, what="polling")
        user = FakeUser(7102, "Ann", "ann_flood", "ru")
        fake.send_text(user, user.id, "/start")
        await fake.wait_for(lambda: fake.last_message(user.id), what="the welcome")
        await fake.wait_for(lambda: len(fake.commands) == 6, timeout=30, what="the command menus")
        assert fake.method_429 == {"setMyCommands": 0}
        assert [c.status for c in fake.calls if c.method == "getMe"] == [429, 200]
        assert await process.interrupt() == 0
        assert "Traceback" not in process.output
        assert sum("menus were not set" in line for line in process.lines) == 3

    async def test_redis_unreachable(self, fake: FakeTelegram, prefix: str, processes: list[BotProcess]) -> None:
        """A Redis that does not answer: a line naming its URL (password hidden), retries, then polling."""
        port = free_port()
        url = f"redis://:secret@127.0.0.1:{port}/0"
        process = await launch(
            processes, bot_env(telegram_api_base=fake.base, redis_url=url, redis_prefix=prefix), fork=True
        )
        line = await process.wait_line(lambda s: "does not answer" in s, what="the complaint")
        assert f"redis://:***@127.0.0.1:{port}/0" in line and "secret" not in process.output
        server = subprocess.Popen(
            [redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--requirepass", "secret"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            await process.wait_line(polling, what="polling")
            assert await process.interrupt() == 0
        finally:
            server.terminate()
            server.wait()
        assert "Traceback" not in process.output

    async def test_help(self, processes: list[BotProcess]) -> None:
        """--help lists every setting with its default, and starts nothing."""
        process = await launch(processes, bot_env(bot_token=None), "--help")
        assert await process.exit_code() == 0
        printed = " ".join(process.stdout.split())
        for name, field in Settings.model_fields.items():
            assert name.upper() in process.stdout
            assert field.description and " ".join(field.description.split()) in printed
        assert "default: 300" in process.stdout and "(required)" in process.stdout

    async def test_unknown_argument(self, processes: list[BotProcess]) -> None:
        process = await launch(processes, bot_env(), "--port", "80")
        assert await process.exit_code() == 2
        assert "--help" in one_line_error(process)
