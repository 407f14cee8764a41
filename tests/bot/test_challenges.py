"""Challenges: opening, accepting, withdrawing, expiring, and racing joiners."""

from __future__ import annotations

import asyncio

import pytest

from bot.models import MatchRecord, Player, Rejection, Status
from bot.services import Services
from bot.services.errors import Rejected
from bot.services.terms import KEEP_AFTER_DEADLINE
from engine import Match
from tests.backends import Backend
from tests.bot.helpers import ALA, BOB, CEZ, CHAT, OTHER_CHAT, Members, start_match
from tests.e2e.simclock import SimClock

DAN = Player(id=104, name="Dan")


class TestOpenChallenge:
    """open_challenge: one per creator and chat, none while the creator plays in that chat."""

    async def test_stored(self, services: Services) -> None:
        """An opened challenge reads back by its id and as the creator's open challenge in the chat."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo-classic", "pl", target=3)
        assert (challenge.chat_id, challenge.creator, challenge.preset) == (CHAT, ALA, "bingo-classic")
        assert (challenge.target, challenge.lang, challenge.opponent_id) == (3, "pl", None)
        assert challenge.expires == challenge.created + services.terms.challenge_ttl
        assert await services.challenges.challenge(challenge.id) == challenge
        assert await services.challenges.open_challenge_of(CHAT, ALA.id) == challenge
        assert await services.challenges.open_challenge_of(CHAT, BOB.id) is None
        assert await services.challenges.open_challenge_of(OTHER_CHAT, ALA.id) is None

    @pytest.mark.parametrize(
        ("preset", "target", "expected"),
        [("bingo", None, 8), ("bingo-classic", None, 7), ("bingo-domino", None, 7), ("42", None, 7), ("42", 2, 2)],
    )
    async def test_target(self, services: Services, preset: str, target: int | None, expected: int) -> None:
        """Without a target the challenge takes its preset's own."""
        challenge = await services.challenges.open(CHAT, ALA, preset, "ru", target=target)
        assert challenge.target == expected

    async def test_second_in_chat(self, services: Services) -> None:
        """A second challenge by the same creator in the same chat is CHALLENGE_OPEN and the first one stays."""
        first = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        with pytest.raises(Rejected) as info:
            await services.challenges.open(CHAT, ALA, "42", "ru")
        assert info.value.reason is Rejection.CHALLENGE_OPEN
        assert await services.challenges.open_challenge_of(CHAT, ALA.id) == first

    async def test_others_may_open(self, services: Services) -> None:
        """The same creator in another chat, and another creator in the same chat, may open their own."""
        await services.challenges.open(CHAT, ALA, "bingo", "ru")
        elsewhere = await services.challenges.open(OTHER_CHAT, ALA, "bingo", "ru")
        other = await services.challenges.open(CHAT, BOB, "bingo", "ru")
        assert await services.challenges.open_challenge_of(OTHER_CHAT, ALA.id) == elsewhere
        assert await services.challenges.open_challenge_of(CHAT, BOB.id) == other

    async def test_while_playing(self, services: Services) -> None:
        """A creator who plays in the chat gets ALREADY_PLAYING there but may challenge in another chat."""
        await start_match(services)
        for player in (ALA, BOB):
            with pytest.raises(Rejected) as info:
                await services.challenges.open(CHAT, player, "bingo", "ru")
            assert info.value.reason is Rejection.ALREADY_PLAYING
        assert (await services.challenges.open(OTHER_CHAT, ALA, "bingo", "ru")).chat_id == OTHER_CHAT

    async def test_unknown_preset(self, services: Services) -> None:
        """An unknown preset is refused before anything is stored."""
        with pytest.raises(KeyError):
            await services.challenges.open(CHAT, ALA, "poker", "ru")
        assert await services.challenges.open_challenge_of(CHAT, ALA.id) is None

    async def test_message_id(self, services: Services) -> None:
        """The challenge's group message id is stored without changing the challenge's expiry."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        updated = await services.challenges.set_message(challenge, 77)
        assert updated == challenge.model_copy(update={"message_id": 77})
        assert await services.challenges.challenge(challenge.id) == updated
        ttl = await services.stores.redis.ttl(services.stores.keys.challenge(challenge.id))
        assert services.terms.challenge_ttl < ttl <= services.terms.challenge_ttl + KEEP_AFTER_DEADLINE


class TestAccept:
    """accept: consumes the challenge and creates the match with its indexes, atomically."""

    async def test_creates_match(self, services: Services) -> None:
        """The match is the engine's match of the preset, seed and target, stored at version 0 and indexed."""
        challenge = await services.challenges.open(CHAT, ALA, "42", "pl", target=3)
        record = await services.challenges.accept(challenge.id, BOB, seed=5)
        assert (record.chat_id, record.players, record.lang) == (CHAT, (ALA, BOB), "pl")
        assert (record.version, record.status, record.recent, record.winner) == (0, Status.ACTIVE, [], None)
        assert record.match() == Match.new("42", 5, 3)
        assert await services.challenges.challenge(challenge.id) is None
        assert await services.challenges.open_challenge_of(CHAT, ALA.id) is None
        stored, match = await services.records.get(record.id)
        assert stored == record
        assert match == Match.new("42", 5, 3)
        assert await services.records.active_match(CHAT, ALA.id) == record.id
        assert await services.records.active_match(CHAT, BOB.id) == record.id
        assert await services.records.active_match(OTHER_CHAT, ALA.id) is None
        assert await services.records.chat_matches(CHAT) == [record.id]
        assert await services.records.user_matches(ALA.id) == await services.records.user_matches(BOB.id) == [record.id]

    async def test_own_challenge(self, services: Services) -> None:
        """The creator cannot accept their own challenge, which stays open."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        with pytest.raises(Rejected) as info:
            await services.challenges.accept(challenge.id, ALA)
        assert info.value.reason is Rejection.OWN_CHALLENGE
        assert await services.challenges.challenge(challenge.id) == challenge

    async def test_invited_only(self, services: Services) -> None:
        """A challenge to one opponent refuses anyone else as NOT_INVITED and takes the invited one."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru", opponent_id=BOB.id)
        with pytest.raises(Rejected) as info:
            await services.challenges.accept(challenge.id, CEZ)
        assert info.value.reason is Rejection.NOT_INVITED
        assert await services.challenges.challenge(challenge.id) == challenge
        record = await services.challenges.accept(challenge.id, BOB)
        assert record.players == (ALA, BOB)

    @pytest.mark.parametrize(
        ("username", "joiner", "joined"),
        [
            ("@Bob", None, False),
            ("@Bob", "cez", False),
            ("@Bob", "bob", True),
            ("bob", "BOB", True),
        ],
    )
    async def test_invited_by_username(
        self, services: Services, username: str, joiner: str | None, joined: bool
    ) -> None:
        """A challenge to an @username takes only the user with that username, in any letter case."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru", opponent_username=username)
        assert challenge.opponent_username == "bob"
        if joined:
            assert (await services.challenges.accept(challenge.id, BOB, username=joiner)).players == (ALA, BOB)
            return
        with pytest.raises(Rejected) as info:
            await services.challenges.accept(challenge.id, BOB, username=joiner)
        assert info.value.reason is Rejection.NOT_INVITED
        assert await services.challenges.challenge(challenge.id) == challenge

    async def test_unknown(self, services: Services) -> None:
        """A challenge id that was never opened is NO_CHALLENGE."""
        with pytest.raises(Rejected) as info:
            await services.challenges.accept("nope", BOB)
        assert info.value.reason is Rejection.NO_CHALLENGE

    async def test_accepted_twice(self, services: Services) -> None:
        """An accepted challenge is consumed: a second joiner gets NO_CHALLENGE."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        await services.challenges.accept(challenge.id, BOB)
        with pytest.raises(Rejected) as info:
            await services.challenges.accept(challenge.id, CEZ)
        assert info.value.reason is Rejection.NO_CHALLENGE

    async def test_after_expiry(self, backend: Backend) -> None:
        """A challenge past its time is gone at once: NO_CHALLENGE; once the scheduler expired it (one caller
        only), its creator may open a new one."""
        clock = SimClock()
        services = backend.services(challenge_ttl=60, clock=clock)
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        clock.now += 59.9
        assert await services.challenges.challenge(challenge.id) is not None
        clock.now += 0.2
        assert await services.challenges.challenge(challenge.id) is None
        assert await services.challenges.open_challenge_of(CHAT, ALA.id) is None
        with pytest.raises(Rejected) as info:
            await services.challenges.accept(challenge.id, BOB)
        assert info.value.reason is Rejection.NO_CHALLENGE
        assert await services.records.active_match(CHAT, BOB.id) is None
        assert await services.challenges.notice(challenge.id) == challenge
        assert [await services.challenges.expire(challenge) for _ in range(3)] == [True, False, False]
        assert await services.challenges.notice(challenge.id) is None
        await services.challenges.open(CHAT, ALA, "bingo", "ru")

    @pytest.mark.parametrize("joiners", [2, 8])
    @pytest.mark.parametrize("shared", [True, False], ids=["one-instance", "own-instances"])
    async def test_racing_joiners(self, backend: Backend, joiners: int, shared: bool) -> None:
        """Joiners pressing at once: exactly one gets the match, every other one NO_CHALLENGE."""
        opener = backend.services()
        challenge = await opener.challenges.open(CHAT, ALA, "bingo", "ru")
        people = [Player(id=200 + i, name=f"P{i}") for i in range(joiners)]
        services = [opener if shared else backend.services() for _ in people]
        results = await asyncio.gather(
            *(s.challenges.accept(challenge.id, p) for s, p in zip(services, people, strict=True)),
            return_exceptions=True,
        )
        won = [r for r in results if isinstance(r, MatchRecord)]
        lost = [r for r in results if isinstance(r, Rejected)]
        assert len(won) == 1
        assert [r.reason for r in lost] == [Rejection.NO_CHALLENGE] * (joiners - 1)
        record = won[0]
        assert await opener.records.chat_matches(CHAT) == [record.id]
        playing = [p for p in people if await opener.records.active_match(CHAT, p.id) is not None]
        assert playing == [record.players[1]]

    async def test_one_match_per_user_per_chat(self, services: Services) -> None:
        """A player in a match cannot join another in the same chat (ALREADY_PLAYING) but may in another chat."""
        record, _ = await start_match(services)
        challenge = await services.challenges.open(CHAT, CEZ, "bingo", "ru")
        with pytest.raises(Rejected) as info:
            await services.challenges.accept(challenge.id, ALA)
        assert info.value.reason is Rejection.ALREADY_PLAYING
        assert await services.challenges.challenge(challenge.id) == challenge
        assert await services.records.active_match(CHAT, ALA.id) == record.id
        other = await services.challenges.accept(challenge.id, DAN)
        assert await services.records.chat_matches(CHAT) == sorted([record.id, other.id])
        elsewhere = await services.challenges.open(OTHER_CHAT, CEZ, "bingo", "ru")
        third = await services.challenges.accept(elsewhere.id, ALA)
        assert await services.records.active_match(OTHER_CHAT, ALA.id) == third.id
        assert await services.records.user_matches(ALA.id) == sorted([record.id, third.id])

    async def test_creator_started_playing(self, services: Services) -> None:
        """A challenge whose creator has since joined another match in the chat is CREATOR_PLAYING (the one who
        pressed is told it is the creator who plays, not them)."""
        mine = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        theirs = await services.challenges.open(CHAT, CEZ, "bingo", "ru")
        await services.challenges.accept(theirs.id, ALA)
        with pytest.raises(Rejected) as info:
            await services.challenges.accept(mine.id, BOB)
        assert info.value.reason is Rejection.CREATOR_PLAYING
        assert await services.records.active_match(CHAT, BOB.id) is None


class TestWithdraw:
    """withdraw: by the creator or an admin of the challenge's own chat, nobody else."""

    @pytest.mark.parametrize(
        ("user", "admin"), [(ALA, False), (ALA, True), (BOB, True)], ids=["creator", "creator-admin", "admin"]
    )
    async def test_allowed(self, services: Services, members: Members, user: Player, admin: bool) -> None:
        """The challenge is gone: accepting it is NO_CHALLENGE and its creator may open a new one."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        if admin:
            members.admins[CHAT] = {user.id}
        assert await services.challenges.withdraw(challenge.id, user.id) == challenge
        assert await services.challenges.challenge(challenge.id) is None
        assert await services.challenges.open_challenge_of(CHAT, ALA.id) is None
        with pytest.raises(Rejected) as info:
            await services.challenges.accept(challenge.id, CEZ)
        assert info.value.reason is Rejection.NO_CHALLENGE
        await services.challenges.open(CHAT, ALA, "bingo", "ru")

    async def test_not_allowed(self, services: Services) -> None:
        """Anyone else gets NOT_ALLOWED and the challenge stays open."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru", opponent_id=BOB.id)
        for user in (BOB, CEZ):
            with pytest.raises(Rejected) as info:
                await services.challenges.withdraw(challenge.id, user.id)
            assert info.value.reason is Rejection.NOT_ALLOWED
        assert await services.challenges.challenge(challenge.id) == challenge

    async def test_an_admin_elsewhere(self, services: Services, members: Members) -> None:
        """An admin of another chat (the creator of a group of their own) is refused: the challenge's own chat is
        asked, whatever chat the request came from."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        members.admins[OTHER_CHAT] = {BOB.id}
        with pytest.raises(Rejected) as info:
            await services.challenges.withdraw(challenge.id, BOB.id)
        assert info.value.reason is Rejection.NOT_ALLOWED
        assert (CHAT, BOB.id) in members.asked and (OTHER_CHAT, BOB.id) not in members.asked
        assert await services.challenges.challenge(challenge.id) == challenge

    async def test_unknown(self, services: Services) -> None:
        """Withdrawing a challenge that is not open is NO_CHALLENGE."""
        with pytest.raises(Rejected) as info:
            await services.challenges.withdraw("nope", ALA.id)
        assert info.value.reason is Rejection.NO_CHALLENGE

    async def test_racing_accept(self, services: Services) -> None:
        """A withdraw racing an accept, started in either order: exactly one succeeds, the other is NO_CHALLENGE."""
        for accept_first in (True, False, True, False):
            challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
            accept = services.challenges.accept(challenge.id, BOB)
            withdraw = services.challenges.withdraw(challenge.id, ALA.id)
            calls = (accept, withdraw) if accept_first else (withdraw, accept)
            results = await asyncio.gather(*calls, return_exceptions=True)
            failed = [r for r in results if isinstance(r, BaseException)]
            assert len(failed) == 1, f"accept first: {accept_first}, results: {results}"
            assert isinstance(failed[0], Rejected) and failed[0].reason is Rejection.NO_CHALLENGE
            match_id = await services.records.active_match(CHAT, ALA.id)
            if match_id is not None:
                await services.moves.abandon(match_id)
