"""How long the post-mortem of a match takes: in this process, and through the bot's ``Reviewer``.

    .venv/bin/python -m bench.review [--deals 8] [--seed 1]

Plays one match of each game until it has ``--deals`` finished deals (the
seats play the normal level, so the review has mistakes to find), then
prints the review's time in this process and through the ``Reviewer`` (a
worker process): the whole match at once, the worker's start included
(``cold_s``), and what the match's end waits for when the deals before the
last were reviewed as they ended, as the bot does (``end_wait_s``). Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from typing import Any

from bot.codec import StoredDeal
from bot.models import DealLine, MatchRecord
from bot.services.reviews import Reviewer
from engine import Deal, Match
from engine.ai import choose
from engine.review import review_json
from engine.rules import find_preset
from tests.bot.helpers import ALA, BOB


def records_of(preset: str, deals: int, seed: int) -> list[dict[str, Any]]:
    """``deals`` finished deals of one long match between two normal computers."""
    match = Match.new(find_preset(preset), seed, 99)
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    while len(records) < deals:
        deal = match.deal
        finished = match.play(choose("normal", deal.view(deal.turn), rng), deal.turn)
        if finished is not None:
            records.append(finished.record())
    return records


async def through_reviewer(preset: str, records: list[dict[str, Any]]) -> tuple[float, float]:
    """Seconds for a match's review at once (the worker's start included), and for one whose deals but the last
    were reviewed as they ended."""

    def record(match_id: str, deals: int) -> MatchRecord:
        played = [Deal.from_record(r) for r in records[:deals]]
        log = tuple(DealLine(n=d.number, g=(0, 0), d=StoredDeal.of_deal(d)) for d in played)
        return MatchRecord(id=match_id, chat_id=1, players=(ALA, BOB), lang="ru", created=0, updated=0,
                           deal=StoredDeal.of_deal(played[-1]), log=log)  # fmt: skip

    reviewer = Reviewer()
    try:
        started = time.perf_counter()
        assert await reviewer.review(record("cold", len(records))) is not None
        cold = time.perf_counter() - started
        for deals in range(1, len(records)):
            reviewer.prepare(record("warm", deals))
        await reviewer.review(record("warm", len(records) - 1))
        started = time.perf_counter()
        assert await reviewer.review(record("warm", len(records))) is not None
        warm = time.perf_counter() - started
    finally:
        await reviewer.close()
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.review")
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for preset in ("bingo", "42"):
        records = records_of(preset, args.deals, args.seed)
        started = time.perf_counter()
        seats = review_json(records, (0, 1))
        here = time.perf_counter() - started
        cold, warm = asyncio.run(through_reviewer(preset, records))
        decisions = sum(s["decisions"] for s in seats)
        print(json.dumps({"preset": preset, "deals": args.deals, "decisions": decisions, "in_process_s": round(here, 2),
                          "cold_s": round(cold, 2), "end_wait_s": round(warm, 2)}))  # fmt: skip


if __name__ == "__main__":
    main()
