"""Matches against the computer in the service: who may start one, and how the result is counted."""

from __future__ import annotations

from bot.models import Finish, Rejection, Status
from bot.services import Services
from bot.services.errors import Rejected
from tests.bot.helpers import ALA, BOB, CHAT


async def computer_match(services: Services, level: str = "hard") -> str:
    challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
    record = await services.challenges.play_computer(challenge.id, ALA.id, level, "🤖")  # type: ignore[arg-type]
    return record.id


class TestStart:
    async def test_only_the_creator(self, services: Services) -> None:
        """Only the challenge's creator may hand it to the computer; the challenge stays open meanwhile."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru", opponent_id=BOB.id)
        try:
            await services.challenges.play_computer(challenge.id, BOB.id, "easy", "🤖")
        except Rejected as exc:
            assert exc.reason is Rejection.NOT_ALLOWED
        else:
            raise AssertionError("Bob played the computer on Ala's challenge")
        assert await services.challenges.challenge(challenge.id) is not None
        # A challenge to Bob may still be played against the computer by Ala herself.
        record = await services.challenges.play_computer(challenge.id, ALA.id, "easy", "🤖")
        assert record.players[0] == ALA and record.players[1].level == "easy"
        assert record.players[1].id < 0 and record.turn_timeout == 0
        assert await services.challenges.challenge(challenge.id) is None

    async def test_one_computer_per_match(self, services: Services) -> None:
        """Two people play the computer in one chat at once: each computer seat is its own."""
        first = await computer_match(services)
        challenge = await services.challenges.open(CHAT, BOB, "42", "pl")
        second = await services.challenges.play_computer(challenge.id, BOB.id, "hard", "🤖")
        a, _ = await services.records.get(first)
        assert a.players[1].id != second.players[1].id
        assert set(await services.records.chat_matches(CHAT)) == {first, second.id}
        assert await services.records.user_matches(ALA.id) == [first]


class TestCounted:
    async def test_outside_the_rating(self, services: Services) -> None:
        """A match against the computer counts in the person's record at its level, never in a leaderboard
        or the rating; it is in the histories."""
        match_id = await computer_match(services, "normal")
        result = await services.moves.surrender(match_id, ALA.id)
        assert result.record.status is Status.FINISHED and result.record.finish is Finish.SURRENDER
        for chat_id in (CHAT, None):
            stats = await services.results.stats(ALA.id, chat_id)
            assert stats.computer == {"normal": (1, 0)}
            assert stats.played == 0 and stats.rating == 1500
            assert await services.results.leaderboard(chat_id) == []
        assert [s.id for s in await services.results.history(chat_id=CHAT)] == [match_id]
        assert [s.id for s in await services.results.history(user_id=ALA.id)] == [match_id]
        assert await services.records.active_match(CHAT, ALA.id) is None
        # A win (here the computer's seat forfeits) counts as won at that level.
        won = await computer_match(services, "normal")
        record, _ = await services.records.get(won)
        await services.moves.forfeit(won, 1, version=record.version)
        assert (await services.results.stats(ALA.id)).computer == {"normal": (2, 1)}
        assert await services.results.leaderboard(None) == []
