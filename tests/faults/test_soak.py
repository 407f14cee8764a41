"""A short run of the soak (``bench/soak.py``): concurrent matches of every preset through the bot process on
real Redis, with stale and repeated presses, 429s on a tenth of the calls and a kill -9 restart."""

from __future__ import annotations

import pytest

from bench import soak

pytestmark = pytest.mark.faults

BINGO = ("bingo", "bingo-classic", "bingo-domino")


async def test_short_soak() -> None:
    """Every match finishes, no press is lost or applied twice, every group gets its result (twice at most
    where the kill struck as Telegram took it) and the leaderboards equal a replay of the finished matches."""
    # Bingo only: a 42 match to its 7 takes minutes of 429s (bench/soak.py plays every preset, 42 included).
    figures = await soak.run(
        matches=6, kills=1, flood_ratio=0.10, seed=3, presets=BINGO, bingo_target=1, kill_within=(2.0, 6.0)
    )
    print(figures.table())
    assert figures.problems == []
    assert figures.finished == figures.matches == figures.groups_with_result
    assert figures.results_posted - figures.matches <= figures.kills
    assert figures.lost == 0 and figures.doubled == 0
    assert figures.kills == 1 and figures.stale_sent + figures.repeats_sent > 0
    assert figures.leaderboards_exact
