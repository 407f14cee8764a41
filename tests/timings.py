"""Where the suite's time goes: each test's wall time and CPU time, written when ``TEST_TIMES`` names a file.

    TEST_TIMES=/tmp/times.jsonl python3 dev.py test          # one JSON line a test, from every worker
    .venv/bin/python -m tests.timings /tmp/times.jsonl [N]   # the N slowest (15), and the totals

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
        "failed": item.stash.get(FAILED, None),
    }  # fmt: skip
    with Path(TIMES).open("a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def _where(row: dict[str, Any]) -> str:
    """The run a line came from: an xdist worker of the main suite, or a run in one process (CI's Cluster step)."""
    worker = str(row.get("worker", "main"))
    return "one process" if worker == "main" else f"xdist {worker}"


def report(path: str, most: int = 15) -> str:
    """The ``most`` slowest tests by wall time, with their CPU time, and the totals, as a Markdown table."""
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    rows.sort(key=lambda row: -row["wall"])
    lines = ["| test | where | wall (s) | CPU (s) |", "|---|---|---|---|"]
    lines += [f"| `{row['test']}` | {_where(row)} | {row['wall']:.1f} | {row['cpu']:.1f} |" for row in rows[:most]]
    wall, cpu = sum(row["wall"] for row in rows), sum(row["cpu"] for row in rows)
    lines.append(f"| all {len(rows)} tests | | {wall:.0f} | {cpu:.0f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 15))
