"""Reading a bot's ``/metrics`` as Prometheus does (the client library's own parser), and what the fake Bot API
saw, in the same words (method and outcome)."""

from __future__ import annotations

import socket
from collections import Counter
from typing import Any

import aiohttp
from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.fake_telegram import FakeTelegram

Families = dict[str, Metric]
UNCOUNTED = frozenset({"getMe", "getUpdates"})
"""Calls the metrics cannot match with the fake's: the first ``getMe`` is made before the bot's metrics exist
(the start asks who the bot is), and a long poll is always under way."""


async def scrape(url: str) -> Families:
    """Every metric family ``url`` serves, by name (a counter's without its ``_total``)."""
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 200, await response.text()
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {family.name: family for family in text_string_to_metric_families(text)}


def value(families: Families, sample: str, **labels: str) -> float:
    """The sum of the samples named ``sample`` whose labels include ``labels`` (0 when there is none)."""
    family = families[sample.removesuffix("_total").removesuffix("_bucket").removesuffix("_count").removesuffix("_sum")]
    return sum(
        s.value for s in family.samples if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items())
    )


def labelled(families: Families, sample: str) -> dict[tuple[tuple[str, str], ...], float]:
    """The samples named ``sample``, by their labels."""
    family = families[sample.removesuffix("_total")]
    return {tuple(sorted(s.labels.items())): s.value for s in family.samples if s.name == sample}


def outcome_of(status: int) -> str:
    """The ``outcome`` label of a call the fake answered with ``status``."""
    return "ok" if status == 200 else str(status)


def fake_calls(fake: FakeTelegram) -> Counter[tuple[str, str]]:
    """The calls the fake answered, by method and outcome (less ``UNCOUNTED``)."""
    return Counter((c.method, outcome_of(c.status)) for c in fake.calls if c.method not in UNCOUNTED)


def bot_calls(families: Families) -> Counter[tuple[str, str]]:
    """The calls the bot counted, by method and outcome (less ``UNCOUNTED``; none of zero)."""
    found: Counter[tuple[str, str]] = Counter()
    for labels, count in labelled(families, "domino_telegram_calls_total").items():
        named = dict(labels)
        if named["method"] not in UNCOUNTED and count:
            found[(named["method"], named["outcome"])] += int(count)
    return found


def kinds(updates: list[dict[str, Any]]) -> Counter[str]:
    """The fake's updates by kind (``message``, ``callback_query``...), as aiogram names them."""
    return Counter(next(k for k in update if k != "update_id") for update in updates)


def process_label(pid: int) -> str:
    """The ``process`` label of the bot process ``pid`` on this machine."""
    return f"{socket.gethostname()}:{pid}"
