"""Fixtures every suite that talks to the fake Bot API shares."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.fake_telegram import FakeTelegram


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    """A fake Bot API server on a loopback port, stopped at the end of the test."""
    server = FakeTelegram()
    await server.start()
    yield server
    await server.stop()
