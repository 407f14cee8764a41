"""The operator's view: ``python -m bot`` serves ``/metrics`` (on ``METRICS_PORT`` when polling, on the webhook
server as a worker), scraped with prometheus-client's own parser while a match is played over the fake Bot API:
the figures are what the match implies. Polling, it logs JSON (``LOG_FORMAT=json``), one object a line."""

from __future__ import annotations

import json
import random

import aiohttp.web
import pytest

from bot.services import Services
from tests.e2e.driver import challenge, join_by_link, panel_of, play_to_end, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.e2e.process import BotProcess, bot_env
from tests.e2e.scrape import Families, bot_calls, fake_calls, kinds, process_label, scrape, value
from tests.e2e.test_clock_faults import EPOCH, FileClock, file_clock
from tests.ports import free_port
from tests.redis_server import redis_url

GROUP = -100_5151
ANN = FakeUser(5151, "Ann", "ann_metrics", "ru")
BOB = FakeUser(5152, "Bob", "bob_metrics", "pl")
PAST_THE_CACHE = 10.0
"""Seconds the test moves the bot's clock between two scrapes: more than the census keeps a reading (5 s)."""
__all__ = ["file_clock"]  # the fixture, shared with test_clock_faults

UPDATE_FIELDS = {"update", "kind", "match", "action", "result", "ms", "chat", "user"}


@pytest.fixture
def clock(file_clock: FileClock) -> FileClock:
    """The wall time the bot process reads (``CLOCK_FILE``), from test_clock_faults."""
    return file_clock


def process_env(fake: FakeTelegram, prefix: str, clock: FileClock, **more: str) -> dict[str, str]:
    return bot_env(
        telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix, clock_file=str(clock.path),
        pictures="false", **more,
    )  # fmt: skip


async def play_a_match(fake: FakeTelegram, outside: Services, clock: FileClock, url: str, pid: int) -> Families:
    """A challenge, its accept and a one-deal match played to its end, scraping ``url`` on the way (the challenge
    open; the match under way; the end); the first message the bot sends gets a 429. The last scrape."""
    process = process_label(pid)
    fake.calls_429 = {"sendMessage": {1}}
    await outside.chats.update_settings(GROUP, target=1)
    for user in (ANN, BOB):
        await start_bot(fake, user)
    message = await challenge(fake, ANN, GROUP)
    opened = await scrape(url)
    assert value(opened, "domino_open_challenges", process=process) == 1
    assert value(opened, "domino_active_matches", process=process) == 0

    clock.set(EPOCH + PAST_THE_CACHE)
    await join_by_link(fake, BOB, message)
    await fake.wait_for(lambda: panel_of(fake, ANN) and panel_of(fake, BOB), what="both panels")
    playing = await scrape(url)
    assert value(playing, "domino_active_matches", process=process) == 1
    assert value(playing, "domino_open_challenges", process=process) == 0

    await play_to_end(fake, (ANN, BOB), random.Random(11))
    await fake.wait_for(lambda: any(m.text.startswith("🏆") for m in fake.chat_messages(GROUP)), what="the result")
    await fake.quiet(period=1.0, timeout=30)
    clock.set(EPOCH + 2 * PAST_THE_CACHE)
    ended = await scrape(url)
    assert value(ended, "domino_active_matches", process=process) == 0
    assert value(ended, "domino_delivery_matches_due", process=process) == 0
    assert value(ended, "domino_delivery_oldest_due_seconds", process=process) == 0
    assert value(ended, "domino_delivery_lanes_running") == 0
    return ended


def assert_counted(families: Families, fake: FakeTelegram) -> None:
    """Every update the fake sent counted once, by kind, with its handler time; every Bot API call by method and
    outcome as the fake answered it (the 429 with its wait)."""
    updates = kinds(fake.updates)
    assert updates["callback_query"] >= 1 and updates["message"] >= 3  # presses; /start twice and /play at least
    for kind, count in updates.items():
        assert value(families, "domino_updates_total", kind=kind) == count, kind
        assert value(families, "domino_handler_seconds_count", kind=kind) == count, kind
        assert value(families, "domino_handler_seconds_bucket", kind=kind, le="+Inf") == count, kind
        assert value(families, "domino_handler_seconds_sum", kind=kind) > 0
    assert value(families, "domino_updates_total") == len(fake.updates)
    assert value(families, "domino_updates_total", result="ok") >= updates["callback_query"] // 2
    assert bot_calls(families) == fake_calls(fake)
    assert value(families, "domino_telegram_calls_total", method="sendMessage", outcome="429") == 1
    assert value(families, "domino_telegram_retry_after_seconds_total", method="sendMessage") == fake.retry_after
    assert value(families, "domino_redis_errors_total") == 0


class TestMetrics:
    async def test_polling(self, fake: FakeTelegram, prefix: str, outside: Services, clock: FileClock) -> None:
        """Polling with ``METRICS_PORT``: a match's figures at ``/metrics``; every log line a JSON object, the
        update lines with their fields and the chat and user of each update."""
        port = free_port()
        env = process_env(fake, prefix, clock, metrics_port=str(port), metrics_host="127.0.0.1", log_format="json")
        process = await BotProcess(env).start()
        try:
            await process.wait_line(lambda line: "polling" in line, what="polling")
            ended = await play_a_match(fake, outside, clock, f"http://127.0.0.1:{port}/metrics", process.pid)
            assert_counted(ended, fake)
        finally:
            await process.close()
        lines = [json.loads(line) for line in process.lines]
        assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
        handled = [line for line in lines if line["logger"] == "bot.updates" and "update" in line]
        assert sorted(line["update"] for line in handled) == list(range(1, len(fake.updates) + 1))
        by_id = {update["update_id"]: update for update in fake.updates}
        for line in handled:
            assert line.keys() >= UPDATE_FIELDS and isinstance(line["ms"], float)
            update = by_id[line["update"]]
            assert line["kind"] in update
            event = update[line["kind"]]
            assert line["user"] == event["from"]["id"]
            chat = event["message"]["chat"] if line["kind"] == "callback_query" else event["chat"]
            assert line["chat"] == chat["id"]
            assert line["message"].startswith(f"update={line['update']} kind={line['kind']} ")

    async def test_webhook_worker(self, fake: FakeTelegram, prefix: str, outside: Services, clock: FileClock) -> None:
        """A webhook worker serves ``/metrics`` beside the updates, with the same figures."""
        port = free_port()
        env = process_env(
            fake, prefix, clock, webhook_url=f"http://127.0.0.1:{port}/tg/updates", webhook_host="127.0.0.1",
            webhook_port=str(port),
        )  # fmt: skip
        process = await BotProcess(env).start()
        try:
            await process.wait_line(lambda line: "serving the webhook" in line, what="the webhook server")
            ended = await play_a_match(fake, outside, clock, f"http://127.0.0.1:{port}/metrics", process.pid)
            assert_counted(ended, fake)
            assert value(ended, "domino_telegram_calls_total", method="setWebhook", outcome="ok") == 1
            assert fake.polls == 0
        finally:
            await process.close()
        assert "Traceback" not in process.output, process.output

    async def test_metrics_port_taken(
        self, fake: FakeTelegram, prefix: str, outside: Services, clock: FileClock
    ) -> None:
        """A ``METRICS_PORT`` something else listens on: one line saying what to set, exit code 2, no traceback."""
        port = free_port()
        blocker = aiohttp.web.AppRunner(aiohttp.web.Application())
        await blocker.setup()
        await aiohttp.web.TCPSite(blocker, "127.0.0.1", port).start()
        process = await BotProcess(
            process_env(fake, prefix, clock, metrics_port=str(port), metrics_host="127.0.0.1")
        ).start()
        try:
            assert await process.exit_code(timeout=60) == 2
        finally:
            await process.close()
            await blocker.cleanup()
        assert "Traceback" not in process.output, process.output
        assert process.lines[-1].startswith(f"cannot serve the metrics on 127.0.0.1:{port}"), process.output
        assert "METRICS_PORT" in process.lines[-1]
