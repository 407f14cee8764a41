"""Matches between two levels of the computer, with a confidence interval on the win rate.

At a table of two the levels alternate seats from match to match; at a table of four ``a`` is the team of seats
0 and 2 and ``b`` of seats 1 and 3 (the first shaker is drawn by lot in every match, so no seat is favoured).
"""

from __future__ import annotations

import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from engine.ai import choose
from engine.match import Match
from engine.rules import find_preset

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Game:
    """One arena match and what it cost: who won, and every move's CPU time per level."""

    a_won: bool
    a_seconds: tuple[float, ...]
    b_seconds: tuple[float, ...]
    deals: int


def play_match(preset: str, a: str, b: str, seed: int, index: int, target: int | None = None) -> Game:
    """Match ``index`` of an arena: level ``a`` plays side ``index % 2`` at a table of two (seat ``index % 2``),
    side 0 at a table of four (seats 0 and 2); each seat has its own generator."""
    rules = find_preset(preset)
    match = Match.new(rules, _match_seed(seed, index), target)
    side_a = index % 2 if rules.seats == 2 else 0
    levels = {s: a if s % 2 == side_a else b for s in range(rules.seats)}
    rngs = {s: random.Random(f"{seed}/{index}/{s}") for s in range(rules.seats)}
    spent: dict[int, list[float]] = {0: [], 1: []}
    deals = 0
    while not match.is_over:
        seat = match.deal.turn
        view = match.deal.view(seat)
        started = time.process_time()
        action = choose(levels[seat], view, rngs[seat])
        spent[seat % 2].append(time.process_time() - started)
        if match.play(action, seat) is not None:
            deals += 1
    return Game(match.winner == side_a, tuple(spent[side_a]), tuple(spent[1 - side_a]), deals)


def _match_seed(seed: int, index: int) -> int:
    return random.Random(f"{seed}/{index}").getrandbits(48)


def _play_many(args: tuple[str, str, str, int, list[int], int | None]) -> list[Game]:
    preset, a, b, seed, indices, target = args
    return [play_match(preset, a, b, seed, i, target) for i in indices]


def arena(
    preset: str,
    a: str,
    b: str,
    matches: int,
    seed: int,
    *,
    jobs: int = 1,
    target: int | None = None,
) -> dict[str, Any]:
    """Play ``matches`` matches of level ``a`` against ``b``; the figures as one JSON-able dict.

    Match ``i`` is seeded from ``seed`` and ``i`` alone, so the figures do not depend on ``jobs``.
    """
    rules = find_preset(preset)
    started = time.perf_counter()
    if jobs > 1:
        chunks = [(preset, a, b, seed, list(range(j, matches, jobs)), target) for j in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            games = [g for part in pool.map(_play_many, chunks) for g in part]
    else:
        games = _play_many((preset, a, b, seed, list(range(matches)), target))
    wins_a = sum(g.a_won for g in games)
    low, high = wilson(wins_a, matches)
    figures: dict[str, Any] = {
        "game": rules.game,
        "preset": rules.name,
        "target": target or rules.target,
        "a": a,
        "b": b,
        "matches": matches,
        "seed": seed,
        "wins_a": wins_a,
        "wins_b": matches - wins_a,
        "rate_a": round(wins_a / matches, 4) if matches else None,
        "ci_low": round(low, 4),
        "ci_high": round(high, 4),
        "deals": sum(g.deals for g in games),
    }
    for side, times in (("a", [t for g in games for t in g.a_seconds]), ("b", [t for g in games for t in g.b_seconds])):
        figures.update(_timing(side, times))
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


def _timing(side: str, seconds: list[float]) -> dict[str, Any]:
    """Per-move CPU milliseconds of one side: moves, mean, median, p99, max."""
    if not seconds:
        return {f"{side}_moves": 0}
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, math.ceil(0.99 * len(ms)) - 1)]
    return {
        f"{side}_moves": len(ms),
        f"{side}_ms_mean": round(sum(ms) / len(ms), 3),
        f"{side}_ms_median": round(ms[len(ms) // 2], 3),
        f"{side}_ms_p99": round(p99, 3),
        f"{side}_ms_max": round(ms[-1], 3),
    }
