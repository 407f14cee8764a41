"""The suite's own plumbing for running at once: the longest-first order of tests/schedule.py and the port blocks
of tests/ports.py (the main suite's workers and the Cluster step's never share one)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from tests import ports
from tests.schedule import DURATIONS, longest_first


@dataclass
class Item:
    """What ``longest_first`` reads of a pytest item: its id and its ``xdist_group`` mark."""

    nodeid: str
    group: str | None = None
    marks: list[Any] = field(default_factory=list)

    def get_closest_marker(self, name: str) -> pytest.Mark | None:
        if name == "xdist_group" and self.group is not None:
            return pytest.mark.xdist_group(self.group).mark
        return None


def order(items: list[Item], durations: dict[str, float]) -> list[str]:
    return [item.nodeid for item in longest_first(cast(list[pytest.Item], items), durations)]


def test_the_longest_first_the_unknown_in_their_order() -> None:
    items = [Item("a.py::short"), Item("a.py::long"), Item("b.py::new"), Item("b.py::middle"), Item("c.py::x")]
    durations = {"a.py::long": 30.0, "b.py::middle": 4.0, "a.py::short": 0.1}
    assert order(items, durations) == ["a.py::long", "b.py::middle", "a.py::short", "b.py::new", "c.py::x"]


def test_a_group_goes_by_its_sum_and_stays_together() -> None:
    """Three tests of 5 s that share one fixture (one worker) outweigh a test of 12 s, and keep their order;
    xdist's ``@group`` suffix of a worker's test id is not part of the measured id."""
    items = [
        Item("s.py::first@series", "series"),
        Item("s.py::second@series", "series"),
        Item("l.py::twelve"),
        Item("s.py::third@series", "series"),
    ]
    durations = {"s.py::first": 5.0, "s.py::second": 5.0, "s.py::third": 5.0, "l.py::twelve": 12.0}
    assert order(items, durations) == [
        "s.py::first@series", "s.py::second@series", "s.py::third@series", "l.py::twelve",
    ]  # fmt: skip


def test_the_kept_durations_name_tests_that_exist(request: pytest.FixtureRequest) -> None:
    """tests/durations.json is read as it is; most of what it names must still be a test of this suite (an
    out-of-date file makes the run slower, never wrong: this says when to measure again)."""
    kept = json.loads(DURATIONS.read_text(encoding="utf-8"))
    assert kept and all(isinstance(seconds, float | int) and seconds >= 0 for seconds in kept.values())
    collected = {item.nodeid.split("@")[0] for item in request.session.items}
    if len(collected) < 1000:
        pytest.skip("only a part of the suite was collected: the comparison needs all of it")
    known = sum(1 for test in kept if test in collected)
    assert known >= 0.8 * len(kept), f"{len(kept) - known} of {len(kept)} measured tests are gone: measure again"


@pytest.mark.parametrize(
    ("worker", "redis", "block"),
    [
        ("gw0", "", 0),
        ("gw5", "", 5),
        ("gw0", "cluster", ports.CLUSTER_WORKERS),
        ("gw1", "cluster", ports.CLUSTER_WORKERS + 1),
        ("", "cluster", ports.CLUSTER_BLOCK),
        ("", "", ports.SOLO_BLOCK),
    ],
)
def test_port_blocks(monkeypatch: pytest.MonkeyPatch, worker: str, redis: str, block: int) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    monkeypatch.setenv("TEST_REDIS", redis)
    assert ports.block() == block


def test_no_two_blocks_meet() -> None:
    """Every block, and the Cluster nodes' bus ports of the blocks the Cluster step uses, below the kernel's
    ephemeral range (32768) and apart."""
    blocks = [*range(ports.WORKER_BLOCKS), ports.CLUSTER_BLOCK, ports.SOLO_BLOCK]
    spans = [range(ports.FIRST + b * ports.BLOCK, ports.FIRST + (b + 1) * ports.BLOCK) for b in blocks]
    cluster = [*range(ports.CLUSTER_WORKERS, ports.WORKER_BLOCKS), ports.CLUSTER_BLOCK]
    bus = ports.FIRST + ports.BUS_OFFSET
    spans += [range(bus + b * ports.BLOCK, bus + (b + 1) * ports.BLOCK) for b in cluster]
    taken = [port for span in spans for port in span]
    assert len(taken) == len(set(taken)) and max(taken) < 32768
