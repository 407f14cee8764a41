"""Webhook mode: ``python -m bot`` with ``WEBHOOK_URL`` serves updates over aiohttp; the fake Bot API posts them."""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest

from bot import render
from bot.i18n import I18n
from bot.services import Services
from bot.storage.redis import create_redis
from tests.e2e import screens
from tests.e2e.browser import init_data
from tests.e2e.driver import move_data, new_match, play_to_end, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.e2e.process import BotProcess, bot_env
from tests.faults.redis_control import ControlledRedis
from tests.ports import free_port

GROUP = -100_444
ANN = FakeUser(4401, "Ann", "ann_hook", "ru")
BOB = FakeUser(4402, "Bob", "bob_hook", "pl")


def serving(line: str) -> bool:
    return "serving the webhook" in line


@pytest.fixture
def own_redis() -> Iterator[ControlledRedis]:
    directory = Path(tempfile.mkdtemp(prefix="domino-hook-"))
    server = ControlledRedis(directory)
    server.start()
    try:
        yield server
    finally:
        server.kill()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def hook_env(fake: FakeTelegram, redis_url: str, port: int, **more: str) -> dict[str, str]:
    return bot_env(
        telegram_api_base=fake.base,
        redis_url=redis_url,
        redis_prefix="hook",
        webhook_url=f"http://127.0.0.1:{port}/tg/updates",
        webhook_host="127.0.0.1",
        webhook_port=str(port),
        **more,
    )


class TestWebhook:
    async def test_a_match_over_the_webhook(
        self, fake: FakeTelegram, own_redis: ControlledRedis, http: aiohttp.ClientSession
    ) -> None:
        """The bot sets the webhook (its URL, a secret, the update types it handles), takes updates posted
        there, refuses a post without the secret, says on /healthz whether Redis answers, and a whole match
        is played through it; SIGINT stops it and leaves the webhook for the other processes."""
        port = free_port()
        env = hook_env(fake, own_redis.url, port, webapp_url="https://tables.example/app", webapp_short_name="table")
        process = await BotProcess(env).start()
        try:
            await process.wait_line(serving, timeout=90, what="the webhook server")
            assert fake.webhook is not None
            assert fake.webhook["url"] == f"http://127.0.0.1:{port}/tg/updates"
            secret = fake.webhook["secret_token"]
            assert secret and len(secret) >= 32 and "TEST-token" not in secret
            assert {"message", "callback_query", "my_chat_member"} <= set(fake.webhook["allowed_updates"])
            base = f"http://127.0.0.1:{port}"
            async with http.post(f"{base}/tg/updates", json={"update_id": 1}) as response:
                assert response.status == 401
            async with http.post(
                f"{base}/tg/updates", json={"update_id": 1}, headers={"X-Telegram-Bot-Api-Secret-Token": "no"}
            ) as response:
                assert response.status == 401
            async with http.get(f"{base}/healthz") as response:
                assert response.status == 200 and (await response.json())["ok"] is True

            for user in (ANN, BOB):
                await start_bot(fake, user)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            await play_to_end(fake, (ANN, BOB), random.Random(3))
            await fake.wait_for(lambda: any(m.text.startswith("🏆") for m in fake.chat_messages(GROUP)))
            # The Mini App on the webhook's server: the page, and the match to a signed-in player only.
            async with http.get(f"{base}/app") as response:
                assert response.status == 200 and "telegram-web-app.js" in await response.text()
            state = f"{base}/app/api/state?m={match_id}"
            async with http.get(state) as response:
                assert response.status == 401
            async with http.get(state, headers={"Authorization": f"tma {init_data(BOB)}"}) as response:
                seen = await response.json()
                assert response.status == 200 and seen["state"] == "over" and seen["lang"] == "pl"
            assert all(status == 200 for _, _, status in fake.posts)
            assert fake.polls == 0

            own_redis.shutdown_nosave()
            async with http.get(f"{base}/healthz") as response:
                # Ok or not, never Redis's error text (it names hosts and ports) to whoever asks.
                assert response.status == 503 and await response.json() == {"ok": False, "redis": "down"}
            own_redis.start()
            async with http.get(f"{base}/healthz") as response:
                assert response.status == 200
            assert await process.interrupt() == 0
        finally:
            await process.close()
        assert fake.webhook is not None, "a stopping process took the webhook away from the others"
        assert "Traceback" not in process.output, process.output

    async def test_port_taken(self, fake: FakeTelegram, own_redis: ControlledRedis) -> None:
        """A port something else listens on: one line saying what to set, exit code 2, no traceback."""
        port = free_port()
        blocker = aiohttp.web.AppRunner(aiohttp.web.Application())
        await blocker.setup()
        await aiohttp.web.TCPSite(blocker, "127.0.0.1", port).start()
        process = await BotProcess(hook_env(fake, own_redis.url, port)).start()
        try:
            assert await process.exit_code(timeout=60) == 2
        finally:
            await process.close()
            await blocker.cleanup()
        assert "Traceback" not in process.output
        assert process.lines[-1].startswith(f"cannot listen on 127.0.0.1:{port}"), process.output
        assert "WEBHOOK_PORT" in process.lines[-1]


PLAYERS = [FakeUser(4410 + i, f"P{i}", f"p{i}_hook", ("ru", "pl")[i % 2]) for i in range(6)]


class TestTwoProcesses:
    async def test_interleaved_updates(self, fake: FakeTelegram, own_redis: ControlledRedis) -> None:
        """Two webhook processes on one Redis, odd updates to one and even to the other, three matches in one
        group played at once: every update is handled by one process, whole matches finish with their results
        counted once, every panel ends final with no panel sent twice, and the group never gets more than its
        budget across both (20 in any 2 s: the e2e suite's compressed window)."""
        ports = [free_port(), free_port()]
        env = hook_env(fake, own_redis.url, ports[0])
        processes = [await BotProcess({**env, "WEBHOOK_PORT": str(port)}).start() for port in ports]
        fake.route = lambda update: f"http://127.0.0.1:{ports[update['update_id'] % 2]}/tg/updates"
        redis = create_redis(own_redis.url)
        outside = Services.build(redis, prefix="hook")
        try:
            for process in processes:
                await process.wait_line(serving, timeout=90, what="the webhook server")
            for user in PLAYERS:
                await start_bot(fake, user)
            await outside.chats.update_settings(GROUP, target=1)
            pairs = [(PLAYERS[i], PLAYERS[i + 1]) for i in range(0, 6, 2)]
            ids = [await new_match(fake, a, b, GROUP) for a, b in pairs]
            await asyncio.gather(*(play_to_end(fake, pair, random.Random(n)) for n, pair in enumerate(pairs)))
            tr = I18n()["ru"]
            for match_id in ids:
                await screens.assert_screens_caught_up(fake, outside, match_id)
                record, match = await outside.records.get(match_id)
                messages = await outside.stores.matches.messages(match_id)
                assert not record.is_active and messages.summary is not None and messages.posts == []
                assert messages.table is not None
                table = fake.messages[(GROUP, messages.table)].text
                assert table == render.table_text(tr, record, match.deal.view(None))
                result = render.match_result_text(tr, record, messages.summary)
                assert sum(m.text.startswith(result) for m in fake.chat_messages(GROUP)) == 1
                for seat, player in enumerate(record.players):
                    stats = await outside.results.stats(player.id, GROUP)
                    assert (stats.played, stats.won) == (1, int(record.winner == seat))
            for user in PLAYERS:
                left = [m for m in fake.chat_messages(user.id) if any(move_data(b) for b in m.buttons())]
                assert left == [], f"{user.first_name} holds a panel with buttons after the end"
            assert len(await outside.results.history(chat_id=GROUP, limit=10)) == 3
            assert fake.max_in_window(GROUP, 2.0) <= 20
            handled = [
                [int(line.split("update=")[1].split()[0]) for line in p.lines if "bot.updates: update=" in line
                 and " kind=" in line]
                for p in processes
            ]  # fmt: skip
            assert all(handled), "one process handled nothing"
            assert sorted(handled[0] + handled[1]) == list(range(1, len(fake.updates) + 1))
            assert all(u % 2 == 0 for u in handled[0]) and all(u % 2 == 1 for u in handled[1])
            for process in processes:
                assert "Traceback" not in process.output, process.output
        finally:
            for process in processes:
                await process.close()
            await redis.aclose()
