"""Match equity: the chance of winning a match from a score, for valuing a deal's game points.

A deal gives game points to one side; what they are worth depends on the
score (a point that wins the match is worth more than one at 0:0, and a
failed close at 6:0 costs more than at 0:6). The computer values the end of
a deal by the chance of winning the match from the score it leaves, under a
plain model: each deal is won by either side with even chances, for ``k``
game points with the probabilities of a table per game.
"""

from __future__ import annotations

from functools import cache

BINGO_DEAL_POINTS: tuple[float, ...] = (0.0, 0.45, 0.4, 0.15)
"""Bingo: how often the winner of a deal scores 1, 2, 3 game points (index 0 unused)."""
FORTYTWO_DEAL_POINTS: tuple[float, ...] = (0.0, 1.0)
"""42: a deal always gives exactly one game point."""


def stakes(need_me: int, need_opp: int, points: int, table: tuple[float, ...]) -> tuple[float, float]:
    """The equity after a deal that gives ``points`` to this side, and after one that gives them to the other."""
    return equity(need_me - points, need_opp, table), equity(need_me, need_opp - points, table)


@cache
def equity(need_me: int, need_opp: int, table: tuple[float, ...]) -> float:
    """The chance of winning when ``need_me`` more game points win and the opponent needs ``need_opp``."""
    if need_me <= 0:
        return 1.0
    if need_opp <= 0:
        return 0.0
    return sum(
        p * 0.5 * (equity(need_me - k, need_opp, table) + equity(need_me, need_opp - k, table))
        for k, p in enumerate(table)
        if p
    )
