"""A test that hangs says where: tests/conftest.py prints every thread's stack and every asyncio task's, and
pytest-timeout fails it. Run here on two hanging tests in a pytest of their own, with the limits at 1 and 3 s."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HANGING = """
import asyncio
import threading


async def deeper() -> None:
    await asyncio.Event().wait()  # awaited forever


async def test_awaits_forever() -> None:
    await deeper()  # the test awaits a helper


def test_blocks() -> None:
    threading.Event().wait()  # blocked forever
"""


def test_a_hanging_test_prints_its_stacks_and_fails(tmp_path: Path) -> None:
    (tmp_path / "test_hanging.py").write_text(HANGING)
    (tmp_path / "pytest.ini").write_text("[pytest]\nasyncio_mode = auto\ntimeout = 3\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TEST_STUCK_AFTER": "1"}
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("TEST_TIMES", None)
    # No short summary (-rN): its lines repeat the failure's message, or not, as the terminal's width
    # (COLUMNS) lets them; each failure's own section says it once.
    command = [sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider", "-rN"]
    run = subprocess.run(
        [*command, "test_hanging.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "2 failed" in out and out.count("Timeout (>3.0s) from pytest-timeout") == 2, out
    # The blocked one: its thread's stack names the line it is blocked on.
    assert "test_hanging.py::test_blocks: still running after 1 s; its threads:" in out, out
    assert "threading.Event().wait()  # blocked forever" in out, out
    # The awaiting one: its threads, and its task's stack with the await it never gets past.
    assert "test_hanging.py::test_awaits_forever: still running after 1 s; its threads:" in out, out
    assert "test_hanging.py::test_awaits_forever: still running after 1 s; its asyncio tasks:" in out, out
    # The whole chain of awaits, from the test's coroutine to the innermost one (Task.print_stack shows only the
    # outermost).
    chain = out[out.index("its asyncio tasks:") :]
    assert chain.index("await deeper()  # the test awaits a helper") < chain.index("# awaited forever"), out
