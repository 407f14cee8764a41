"""Rematches: the 🔁 under a finished match's result (in its chat, and on each player's last panel).

The first player's press opens a challenge in the match's chat that is the
match's rematch: its message is the match's result, its only opponent the
other player, with the same game, target and clock, and the player who did
not open the match opens the next. The other player's press accepts it (the
accept is a challenge's accept: atomic, refused to one who plays there
already). Two first presses at the same moment open two challenges; the
match's rematch is the one claimed first, and the other is withdrawn. Against
the computer one press starts the next match at the same level. A rematch is
offered for the challenges' lifetime after the match ended; its challenge
lives as long as any challenge. It is nobody's open challenge: ``/play`` or a
match against the computer meanwhile never takes it (the other player's press
is then told that the first plays another match, and the rematch waits). A
tournament's match has none.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.models import Challenge, MatchRecord, Player, Rejection, Status
from bot.services.challenges import Challenges
from bot.services.errors import Rejected
from bot.services.records import Records
from bot.services.terms import KEEP_AFTER_DEADLINE, Terms
from bot.storage.challenges import ChallengeStore
from bot.storage.matches import MatchStore
from engine import Match


class Step(enum.Enum):
    """What a press on the rematch button did."""

    ASKED = "asked"
    """The first press: the rematch waits for the other player."""
    WAITING = "waiting"
    """The same player again: it still waits."""
    STARTED = "started"
    """The other player's press (or one against the computer): the next match began."""


@dataclass(frozen=True)
class Pressed:
    """The message a rematch button was pressed on."""

    chat_id: int
    message_id: int
    photo: bool
    """Whether it is a picture (the match card, whose caption is the result)."""


@dataclass
class Rematch:
    step: Step
    old: MatchRecord
    """The finished match."""
    challenge: Challenge
    """The rematch's challenge."""
    record: MatchRecord | None = None
    """The next match, once it began."""


class Rematches:
    def __init__(
        self,
        challenges: Challenges,
        store: ChallengeStore,
        matches: MatchStore,
        records: Records,
        terms: Terms,
        *,
        clock: Callable[[], float],
        announce: Callable[[str, int], Awaitable[None]] | None = None,
    ) -> None:
        self.challenges = challenges
        self.store = store
        self.matches = matches
        self.records = records
        self.terms = terms
        self.clock = clock
        self.announce = announce
        """Tells the finished match's open Mini App pages (``Moves.announce``) that its rematch was asked for or
        begun, from whichever button: the page's own, the group's, the inline message's."""

    async def press(self, match_id: str, presser: Player, *, on: Pressed | None = None) -> Rematch:
        """A player of the finished match ``match_id`` pressed its rematch button (``presser``: as they are now,
        their name and language); ``on``: the message it was on."""
        if on is not None:
            await self._pressed_on(match_id, on)
        done = await self._press(match_id, presser)
        if done.step is not Step.WAITING and self.announce is not None:
            await self.announce(done.old.id, -1)
        return done

    async def _pressed_on(self, match_id: str, on: Pressed) -> None:
        """A press on the match's result in its group, newer than the result Redis knows: the group lane has just
        posted it and not yet recorded it (the press came first). It is the result now, as it will be a moment
        later, so what the press edits (who asked for the rematch) goes on it."""
        old, _ = await self.records.peek(match_id)
        if on.chat_id == old.chat_id and old.private_seat is None and not old.is_active:
            await self.matches.result_pressed(match_id, on.message_id, photo=on.photo)

    async def _press(self, match_id: str, presser: Player) -> Rematch:
        old, match = await self.records.peek(match_id)
        seat = old.seat_of(presser.id)
        if seat is None:
            raise Rejected(Rejection.NOT_A_PLAYER)
        if old.is_active:
            raise Rejected(Rejection.NO_MATCH)
        if old.tournament is not None:  # its button is not shown; a forged press is refused here all the same
            raise Rejected(Rejection.NO_REMATCH)
        if old.status is Status.ABANDONED or self._late(old):
            raise Rejected(Rejection.REMATCH_OVER)
        held = await self.store.rematch(old.chat_id, old.id)
        if held is None:
            mine = await self._open(old, match, seat, presser)
            held = await self.store.claim_rematch(
                old.chat_id, old.id, mine.id, ttl=self.terms.challenge_ttl + KEEP_AFTER_DEADLINE
            )
            if held == mine.id:
                computer = old.computer_seat
                if computer is None:
                    return Rematch(Step.ASKED, old, mine)
                level, name = old.players[computer].level, old.players[computer].name
                assert level is not None
                record = await self.challenges.play_computer(mine.id, presser.id, level, name)
                return Rematch(Step.STARTED, old, mine, record)
            await self.challenges.withdraw(mine.id, presser.id)  # the other's first press came first
        challenge = await self.challenges.challenge(held)
        if challenge is None:  # taken, or its time ran out
            raise Rejected(Rejection.REMATCH_OVER)
        if challenge.creator.id == presser.id:
            return Rematch(Step.WAITING, old, challenge)
        record = await self.challenges.accept(held, presser)
        return Rematch(Step.STARTED, old, challenge, record)

    def offered(self, old: MatchRecord) -> bool:
        """Whether the finished match ``old`` still offers its rematch (someone won it, not in a tournament, not
        later than the challenges' lifetime): what ``press`` takes."""
        return (
            old.tournament is None and old.status is Status.FINISHED and old.winner is not None and not self._late(old)
        )

    def _late(self, old: MatchRecord) -> bool:
        return self.clock() > old.updated + self.terms.challenge_ttl

    async def _open(self, old: MatchRecord, match: Match, seat: int, presser: Player) -> Challenge:
        """The rematch's challenge, opened by the presser: the other player its only opponent, the match's game,
        target, clock and topic, the player who did not open the match opening the next (the presser is its
        seat 0)."""
        other = old.players[1 - seat]
        messages = await self.matches.messages(old.id)
        return await self.challenges.open(
            old.chat_id, presser, match.rules.name, old.lang, target=match.deal.target,
            opponent_id=None if other.computer else other.id, opponent_name=other.name,
            # The match's topic, unless Telegram closed it under the match (then the General topic).
            thread_id=None if messages.general else old.thread_id,
            message_id=messages.result, rematch_of=old.id, clock=old.turn_timeout,
            inline_message_id=old.inline_message_id,
            opener=None if old.opener is None else (0 if old.players[1 - old.opener].id == presser.id else 1),
        )  # fmt: skip
