"""Open challenges wait in the notice index until they are joined, withdrawn or announced as expired."""

from __future__ import annotations

from bot.services.matches import MatchService
from tests.bot.helpers import ALA, BOB, CHAT


class TestNotices:
    """pending_notices lists exactly the challenges whose message may still need an expiry notice."""

    async def test_open_join_withdraw(self, service: MatchService) -> None:
        """Opening adds (with the message id once known); joining and withdrawing remove; forgetting removes."""
        first = await service.open_challenge(CHAT, ALA, "bingo", "ru")
        first = await service.set_challenge_message(first, 77)
        second = await service.open_challenge(CHAT + 1, BOB, "42", "pl")
        assert sorted((c.id, c.message_id) for c in await service.pending_notices()) == sorted(
            [(first.id, 77), (second.id, None)]
        )
        await service.accept(first.id, BOB, seed=1)
        assert [c.id for c in await service.pending_notices()] == [second.id]
        await service.withdraw(second.id, BOB.id)
        assert await service.pending_notices() == []
        third = await service.open_challenge(CHAT + 2, ALA, "bingo", "ru")
        await service.forget_notice(third.id)
        assert await service.pending_notices() == []
