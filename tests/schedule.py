"""The order the suite's workers take its tests in: the longest first, so that no long test starts last.

``python3 dev.py test`` runs five workers with ``--dist loadgroup``: xdist hands each worker the next test of the
collection (a test marked ``xdist_group`` goes with the rest of its group, to one worker) whenever it has two or
fewer left, so in the order of the collection. In the file order a long test that waits (a Redis outage of 10 s,
the soak) could start in the last half minute, with three workers done and both cores idle; and the CPU-bound
tests (the engine's arena, the pictures) ran at the start side by side, the waiting ones at the end side by side.
Longest first (the classic longest-processing-time rule) ends the workers together and mixes the two kinds.

The durations are measured, not guessed: ``tests/durations.json`` holds each test's wall time from a run with
``TEST_TIMES`` (``python -m tests.timings TIMES --durations`` writes it). A test it does not know (new, renamed)
counts as short and keeps its place among the short ones; an out-of-date file changes only the speed, never what
runs. A run in one process (``-n 0``, CI's Cluster step) keeps the file order.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).with_name("durations.json")
"""Test id (without xdist's ``@group``) to its wall time in seconds, from a measured run."""


def _group(item: pytest.Item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    if mark is None:
        return None
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


def longest_first(items: list[pytest.Item], durations: dict[str, float]) -> list[pytest.Item]:
    """The items by their unit's expected time, longest first (a group is one unit: its tests' sum); a stable
    sort, so a group's tests, and the unknown (short) tests of a file, stay in their order."""
    units = [(item, _group(item), durations.get(item.nodeid.split("@")[0], 0.0)) for item in items]
    totals: dict[str, float] = defaultdict(float)
    for _, group, seconds in units:
        if group is not None:
            totals[group] += seconds
    units.sort(key=lambda unit: -(totals[unit[1]] if unit[1] is not None else unit[2]))
    return [item for item, _, _ in units]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not hasattr(config, "workerinput") or not DURATIONS.exists():
        return  # not an xdist worker: the file order
    durations = json.loads(DURATIONS.read_text(encoding="utf-8"))
    items[:] = longest_first(items, durations)
