"""Open challenges wait in the notice index until they are joined, withdrawn or announced as expired."""

from __future__ import annotations

from bot.services import Services
from tests.bot.helpers import ALA, BOB, CHAT


class TestNotices:
    """pending_notices lists exactly the challenges whose message may still need an expiry notice."""

    async def test_open_join_withdraw(self, services: Services) -> None:
        """Opening adds (with the message id once known); joining and withdrawing remove; forgetting removes."""
        first = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        first = await services.challenges.set_message(first, 77)
        second = await services.challenges.open(CHAT + 1, BOB, "42", "pl")
        assert sorted((c.id, c.message_id) for c in await services.challenges.pending_notices()) == sorted(
            [(first.id, 77), (second.id, None)]
        )
        await services.challenges.accept(first.id, BOB, seed=1)
        assert [c.id for c in await services.challenges.pending_notices()] == [second.id]
        await services.challenges.withdraw(second.id, BOB.id)
        assert await services.challenges.pending_notices() == []
        third = await services.challenges.open(CHAT + 2, ALA, "bingo", "ru")
        await services.challenges.forget_notice(third.id)
        assert await services.challenges.pending_notices() == []
