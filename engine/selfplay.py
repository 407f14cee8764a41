"""Self-play with a seeded random policy, and the replay of deal records."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterable
from typing import IO, Any

from engine.deal import Deal
from engine.match import Match, next_first
from engine.outcomes import IllegalAction
from engine.rules import find_preset


def selfplay(
    preset: str,
    matches: int,
    seed: int,
    log: IO[str] | None = None,
    target: int | None = None,
) -> dict[str, Any]:
    """Play ``matches`` whole matches choosing uniformly among legal actions.

    Writes one deal record per line to ``log`` and returns the figures.
    """
    rules = find_preset(preset)
    rng = random.Random(seed)
    deals = actions = 0
    started = time.perf_counter()
    for _ in range(matches):
        match = Match.new(rules, rng.getrandbits(48), target)
        while not match.is_over:
            finished = match.push_unchecked(rng.choice(match.legal_actions()))
            actions += 1
            if finished is not None:
                deals += 1
                if log is not None:
                    log.write(json.dumps(finished.record(), separators=(",", ":")) + "\n")
    seconds = time.perf_counter() - started
    return {
        "game": rules.game,
        "preset": rules.name,
        "seed": seed,
        "matches": matches,
        "deals": deals,
        "actions": actions,
        "seconds": round(seconds, 3),
        "deals_per_second": round(deals / seconds, 1) if seconds else None,
        "actions_per_second": round(actions / seconds, 1) if seconds else None,
    }


def check_record(record: dict[str, Any]) -> tuple[Deal | None, list[str]]:
    """Replay one record; return the deal and what is wrong with the record."""
    try:
        deal = Deal.from_record(record)
    except IllegalAction as exc:
        return None, [f"illegal action {exc.action} ({exc.reason.value})"]
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        return None, [f"malformed record: {exc}"]
    problems = [
        f"{field} differ (recorded {record[field]}, replayed {deal.record()[field]})"
        for field in deal.mismatches(record)
    ]
    if not deal.is_over:
        problems.append("the actions do not finish the deal")
    return deal, problems


def replay(lines: Iterable[str]) -> list[str]:
    """Check every record of a deal-record file; return one message per bad record."""
    failures: list[str] = []
    previous: Deal | None = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            failures.append(f"line {number}: not JSON ({exc.msg})")
            previous = None
            continue
        deal, problems = check_record(record)
        if deal is not None and previous is not None and _same_match(previous, deal):
            if deal.score_before != tuple(previous.score):
                problems.append(f"match score before the deal {deal.score_before} is not {tuple(previous.score)}")
            if deal.first != next_first(previous):
                problems.append(f"first seat {deal.first} does not follow the previous deal")
        if problems:
            where = f"line {number} (seed {record.get('seed')}, deal {record.get('deal')})"
            failures.extend(f"{where}: {p}" for p in problems)
        previous = deal
    return failures


def _same_match(previous: Deal, deal: Deal) -> bool:
    return previous.rules.name == deal.rules.name and previous.seed == deal.seed and deal.number == previous.number + 1
