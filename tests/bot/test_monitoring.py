"""The operator's view as units: a Bot API call's outcome, the JSON log line, the census's cache."""

from __future__ import annotations

import json
import logging
import sys

import pytest
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import SendMessage

from bot.logs import JsonFormatter
from bot.metrics import REDIS_ERRORS, UPDATE_RESULTS, Metrics, label_of
from bot.models import Rejection
from bot.monitor import outcome
from bot.services import Services
from bot.services.census import CACHE, Census
from tests.e2e.simclock import SimClock

METHOD = SendMessage(chat_id=1, text="x")


class TestOutcome:
    """A call that raised is labelled by what Telegram answered."""

    @pytest.mark.parametrize(
        ("error", "label"),
        [
            (TelegramRetryAfter(METHOD, "Too Many Requests", retry_after=3), "429"),
            (TelegramForbiddenError(METHOD, "Forbidden: bot was blocked by the user"), "403"),
            (TelegramBadRequest(METHOD, "Bad Request: message is not modified"), "400"),
            (TelegramNetworkError(METHOD, "timeout"), "network"),
            (TelegramServerError(METHOD, "Bad Gateway"), "5xx"),
            (RuntimeError("?"), "other"),
        ],
    )
    def test_label(self, error: Exception, label: str) -> None:
        assert outcome(error) == label


def record(message: str, *args: object, **extra: object) -> logging.LogRecord:
    made = logging.LogRecord("bot.updates", logging.INFO, __file__, 1, message, args, None)
    made.__dict__.update(extra)
    return made


class TestLabels:
    """A metric's label values come from fixed sets: what a handler or Redis says otherwise counts as ``other``."""

    @pytest.mark.parametrize(
        ("value", "label"),
        [("ok", "ok"), (Rejection.STALE.value, "stale"), ("started", "started"), ("66*", "other"), ("B30", "other"),
         ("<script>", "other")],
    )  # fmt: skip
    def test_update_results(self, value: str, label: str) -> None:
        assert label_of(value, UPDATE_RESULTS) == label

    def test_every_rejection_is_a_result(self) -> None:
        assert {r.value for r in Rejection} <= UPDATE_RESULTS

    def test_redis_errors(self) -> None:
        metrics = Metrics()

        class Weird(Exception):
            pass

        metrics.redis_failed(ConnectionError("redis.example:6379 refused"))
        metrics.redis_failed(Weird())
        page = metrics.page().decode()
        assert 'error="ConnectionError"' in page and 'error="other"' in page and "Weird" not in page
        assert "ConnectionError" in REDIS_ERRORS


class TestJsonFormatter:
    """One JSON object a line: the time, level, logger and message, the record's fields, a traceback."""

    def test_fields(self) -> None:
        fields = {"update": 7, "kind": "message", "match": "-", "action": "-", "result": "ok", "ms": 1.5,
                  "chat": -100, "user": 42}  # fmt: skip
        line = JsonFormatter().format(record("update=%s kind=%s", 7, "message", fields=fields))
        assert "\n" not in line
        parsed = json.loads(line)
        assert parsed["message"] == "update=7 kind=message" and parsed["level"] == "INFO"
        assert parsed["logger"] == "bot.updates" and parsed["time"].endswith("+00:00")
        assert {k: parsed[k] for k in fields} == fields

    def test_traceback(self) -> None:
        try:
            raise ValueError("Ала <b>")
        except ValueError:
            made = record("failed", exc_info=sys.exc_info())
        parsed = json.loads(JsonFormatter().format(made))
        assert parsed["message"] == "failed" and "ValueError: Ала <b>" in parsed["exc"]


class TestCensus:
    """The figures are read from Redis at most once per ``CACHE`` seconds of the bot's clock."""

    async def test_cached(self, services: Services) -> None:
        stores, clock = services.stores, SimClock()
        census = Census(stores.matches, stores.challenges, stores.jobs, clock=clock.time)
        first = await census.read()
        assert (first.active_matches, first.open_challenges, first.matches_due, first.jobs_due) == (0, 0, 0, 0)
        assert first.screens_lag == first.jobs_lag == 0
        await stores.jobs.add("t:m1", clock.time() - 30)
        await stores.jobs.add("x:c1", clock.time() + 30)
        clock.advance(CACHE - 0.1)
        assert await census.read() is first
        clock.advance(0.1)
        second = await census.read()
        assert (second.active_matches, second.jobs_due) == (1, 1)
        assert second.jobs_lag == pytest.approx(30 + CACHE)


def test_no_log_line_shows_the_token() -> None:
    """A token in any line (an error naming a URL with it, a traceback) is masked, its bot id kept; text and JSON."""
    import logging

    from bot.logs import JsonFormatter, Masking, masked

    token = "123456789:AAEfakefakefakefakefakefakefakefake1"
    assert masked(f"GET http://x/bot{token}/getMe failed") == "GET http://x/bot123456789:***/getMe failed"
    record = logging.LogRecord("bot.app", logging.WARNING, __file__, 1, "no answer from %s", (f"/bot{token}/",), None)
    for inner in (logging.Formatter("%(message)s"), JsonFormatter()):
        line = Masking(inner).format(record)
        assert "AAEfake" not in line and "123456789:***" in line
