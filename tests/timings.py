"""Where the suite's time goes: each test's wall time and CPU time, written when ``TEST_TIMES`` names a file.

    TEST_TIMES=/tmp/times.jsonl python3 dev.py test          # one JSON line a test, from every worker
    .venv/bin/python -m tests.timings /tmp/times.jsonl [N]   # the N slowest (15), and the totals
    .venv/bin/python -m tests.timings /tmp/times.jsonl --durations   # rewrite tests/durations.json

The CPU time is the test process's own (every thread) plus its children's that ended during the test (the bot
processes a test starts and stops, the drawing and review workers a bot stops with it); a child still running
when the test ends (a forkserver) is not counted. docs/testing.md keeps the table this prints.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TIMES = os.environ.get("TEST_TIMES")


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


FAILED = pytest.StashKey[str]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keep how a failed phase failed (its last line), for the test's timing line."""
    outcome: Any = yield
    report: pytest.TestReport = outcome.get_result()
    if report.failed and FAILED not in item.stash:
        item.stash[FAILED] = f"{report.when}: {str(report.longrepr).strip().splitlines()[-1][:300]}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Time the whole of a test: set-up, call and tear-down."""
    if TIMES is None:
        yield
        return
    start, wall, cpu = time.time(), time.perf_counter(), _cpu()
    yield
    line = {
        "test": item.nodeid, "wall": round(time.perf_counter() - wall, 3), "cpu": round(_cpu() - cpu, 3),
        "start": round(start, 3), "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
        "failed": item.stash.get(FAILED, None), "cluster": os.environ.get("TEST_REDIS") == "cluster",
    }  # fmt: skip
    with Path(TIMES).open("a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def _where(row: dict[str, Any]) -> str:
    """The run a line came from: an xdist worker of the main suite or of CI's Cluster step, or one process."""
    worker = str(row.get("worker", "main"))
    where = "one process" if worker == "main" else f"xdist {worker}"
    return f"Cluster step, {where}" if row.get("cluster") else where


def report(path: str, most: int = 15) -> str:
    """The ``most`` slowest tests by wall time, with their CPU time, and the totals, as a Markdown table."""
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    rows.sort(key=lambda row: -row["wall"])
    lines = ["| test | where | wall (s) | CPU (s) |", "|---|---|---|---|"]
    lines += [f"| `{row['test']}` | {_where(row)} | {row['wall']:.1f} | {row['cpu']:.1f} |" for row in rows[:most]]
    wall, cpu = sum(row["wall"] for row in rows), sum(row["cpu"] for row in rows)
    lines.append(f"| all {len(rows)} tests | | {wall:.0f} | {cpu:.0f} |")
    return "\n".join(lines)


LONG_ENOUGH = 0.3
"""Seconds from which a test's time goes into tests/durations.json: the order of shorter ones hardly matters."""


def durations(path: str) -> dict[str, float]:
    """Each test's wall time in the main suite's workers (the Cluster step's are left out), for
    tests/schedule.py: those of ``LONG_ENOUGH`` seconds or more, by test id."""
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    times: dict[str, float] = {}
    for row in rows:
        if row.get("worker", "main") != "main" and not row.get("cluster") and row["wall"] >= LONG_ENOUGH:
            test = str(row["test"]).split("@")[0]
            times[test] = max(times.get(test, 0.0), round(row["wall"], 1))
    return dict(sorted(times.items(), key=lambda kv: -kv[1]))


if __name__ == "__main__":
    if sys.argv[2:] == ["--durations"]:
        from tests.schedule import DURATIONS

        measured = durations(sys.argv[1])
        DURATIONS.write_text(json.dumps(measured, indent=0) + "\n", encoding="utf-8")
        print(f"{DURATIONS}: {len(measured)} tests")
    else:
        print(report(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 15))
