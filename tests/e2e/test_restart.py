"""A match survives a restart of the bot: the panels already sent keep working."""

from __future__ import annotations

import random

from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import new_match, panel_of, play, play_to_end, start_bot, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser

GROUP = -100888
ANN = FakeUser(4001, "Ann", "ann_restart", "pl")
BOB = FakeUser(4002, "Bob", "bob_restart", "pl")


class TestRestart:
    """The bot stops mid-deal and a new process takes over from Redis."""

    async def test_play_on_after_a_restart(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Moves before the stop stay made; the old panels' buttons drive the match to its end after it."""
        rng = random.Random(11)
        async with running_bot(fake, prefix) as app:
            await start_bot(fake, ANN)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            await play(fake, (ANN, BOB), rng, max_moves=9)
            await app.settled()
            before, _ = await app.services.records.get(match_id)
        assert before.version >= 9
        panels = [panel_of(fake, u) for u in (ANN, BOB)]
        assert all(p is not None and version_of(p) == before.version for p in panels)
        async with running_bot(fake, prefix) as app:
            after, _ = await app.services.records.get(match_id)
            assert after.version == before.version
            playout = await play_to_end(fake, (ANN, BOB), rng)
            await app.settled()
            final, match = await app.services.records.get(match_id)
        assert playout.moves > 0 and match.is_over and final.version == before.version + playout.moves
        texts = [m.text for m in fake.chat_messages(GROUP)]
        assert any("🏆" in t for t in texts)
        await invariants.all_well(fake)
