"""Challenges: opening one, accepting it (the match is created), withdrawing it, its expiry.

An accept spans slots: the challenge is consumed in its chat's slot (where
who plays there lives), with the new match's record kept beside it; then the
match is written in its own slot, its indexes, its screens due and its
clock. Each later step is harmless to repeat, and the challenge's job looks a
few seconds after the accept whether they were all done (a process may die in
between): ``accepted`` carries them through.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from bot.codec import StoredDeal
from bot.models import Challenge, Lang, Level, MatchRecord, Player, Rejection, is_inline_chat, new_inline_chat
from bot.scheduler import Scheduler, clock_job, expiry_job
from bot.services.authority import Authority
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.services.fairness import Fairness, draw_key
from bot.services.records import Records
from bot.services.seats import Seats
from bot.services.terms import KEEP_AFTER_DEADLINE, Terms
from bot.services.turn_clock import next_look
from bot.storage.challenges import Accepted, ChallengeStore, Opened
from bot.storage.keys import challenge_id as new_challenge_id
from bot.storage.matches import MatchStore
from engine import find_preset

MAX_ATTEMPTS = 5
ACCEPT_CHECK = 5.0
OFFERING_KEPT = 10_000
"""How many people's inline locks a process keeps (the oldest go first)."""
"""Seconds after an accept at which the challenge's job looks whether the accept was carried through (a
process may die between the steps in the challenge's and the match's slots)."""


class Challenges:
    """Open challenges and the matches they become."""

    def __init__(
        self,
        store: ChallengeStore,
        matches: MatchStore,
        records: Records,
        chats: Chats,
        seats: Seats,
        scheduler: Scheduler,
        terms: Terms,
        authority: Authority,
        fairness: Fairness,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.authority = authority
        self.matches = matches
        self.records = records
        self.chats = chats
        self.seats = seats
        self.scheduler = scheduler
        self.terms = terms
        self.fairness = fairness
        """The players' seeds, and new matches dealt from a key and the seeds."""
        self.clock = clock
        self._offering: dict[int, asyncio.Lock] = {}
        """Each person's inline queries, taken one at a time (``offer_inline``)."""

    # -- reading ---------------------------------------------------------------------

    async def challenge(self, challenge_id: str) -> Challenge | None:
        """An open challenge (None once joined, withdrawn or expired)."""
        data = await self.store.read(challenge_id)
        if data is None:
            return None
        challenge = Challenge.model_validate_json(data)
        return challenge if challenge.expires > self.clock() else None

    async def open_challenge_of(self, chat_id: int, user_id: int) -> Challenge | None:
        found = await self.store.open_of(chat_id, user_id)
        return None if found is None else await self.challenge(found)

    async def notice(self, challenge_id: str) -> Challenge | None:
        """A challenge whose message has not yet said how it ended (open, or expired and not yet announced)."""
        data = await self.store.notice(challenge_id)
        return None if data is None else Challenge.model_validate_json(data)

    async def pending_notices(self) -> list[Challenge]:
        """Challenges whose message has not yet said that they expired (open ones included)."""
        return [Challenge.model_validate_json(value) for value in await self.store.notices()]

    async def forget_notice(self, challenge_id: str) -> None:
        """The expiry of this challenge has been announced."""
        await self.store.drop_notice(challenge_id)

    # -- opening and closing -----------------------------------------------------------

    async def open(
        self,
        chat_id: int,
        creator: Player,
        preset: str,
        lang: Lang,
        *,
        target: int | None = None,
        opponent_id: int | None = None,
        opponent_username: str | None = None,
        opponent_name: str | None = None,
        thread_id: int | None = None,
        **fields: Any,
    ) -> Challenge:
        """Open a challenge in a chat (in its forum topic ``thread_id``); one per creator and chat, none while the
        creator plays there. ``fields``: the rest of a rematch's (``Challenge.rematch_of`` and what follows it,
        its ``message_id``)."""
        rules = find_preset(preset)
        now = self.clock()
        challenge = Challenge(
            id=new_challenge_id(secrets.token_urlsafe(6), chat_id),
            chat_id=chat_id,
            creator=creator,
            opponent_id=opponent_id,
            opponent_username=opponent_username.lstrip("@").lower() if opponent_username else None,
            opponent_name=opponent_name,
            preset=rules.name,
            target=target or rules.target,
            lang=lang,
            created=now,
            expires=now + self.terms.challenge_ttl,
            thread_id=thread_id,
            # The key of the match it becomes, committed on its message before anyone can accept.
            key=draw_key(),
            **fields,
        )
        # Its notice and its expiry first (their own slots), so that no open challenge lacks them; taken
        # back when the challenge is refused (one left by a process dying in between expires as nothing).
        await asyncio.gather(
            self.store.add_notice(challenge), self.scheduler.schedule(expiry_job(challenge.id), challenge.expires)
        )
        opened = await self.store.open(challenge, ttl=self.terms.challenge_ttl + KEEP_AFTER_DEADLINE)
        if opened is not Opened.OPENED:
            await self._drop_traces(challenge.id)
            raise Rejected(Rejection.ALREADY_PLAYING if opened is Opened.PLAYING else Rejection.CHALLENGE_OPEN)
        return challenge

    async def _drop_traces(self, challenge_id: str) -> None:
        """A challenge's notice and expiry job go (it was refused, withdrawn or accepted)."""
        await asyncio.gather(self.store.drop_notice(challenge_id), self.scheduler.unschedule(expiry_job(challenge_id)))

    async def offer_inline(
        self, creator: Player, preset: str, lang: Lang, *, fresh: bool, cap: int
    ) -> Challenge | None:
        """An inline challenge of ``preset`` for ``creator`` to post: the one offered last if it is still open and
        not posted (a query at every keystroke offers the same one), else a new one when ``fresh`` and the person
        has fewer than ``cap`` open; None when neither. One person's queries are taken one at a time in a process
        (Telegram sends one at every keystroke, several at once)."""
        lock = self._offering.pop(creator.id, None) or asyncio.Lock()
        self._offering[creator.id] = lock  # the newest last: the oldest go first past OFFERING_KEPT
        while len(self._offering) > OFFERING_KEPT:
            del self._offering[next(iter(self._offering))]
        async with lock:
            return await self._offer_inline(creator, preset, lang, fresh=fresh, cap=cap)

    async def _offer_inline(
        self, creator: Player, preset: str, lang: Lang, *, fresh: bool, cap: int
    ) -> Challenge | None:
        store = self.store
        offered = await store.inline_offer(creator.id, preset)
        if offered is not None:
            challenge = await self.challenge(offered)
            if challenge is not None and challenge.inline_message_id is None and challenge.lang == lang:
                return challenge
        if not fresh:
            return None
        now = self.clock()
        opened = await store.open_inline(creator.id, now)
        if len(opened) >= cap:
            ended = [i for i in opened if await store.read(i) is None]
            await store.closed_inline(creator.id, ended)
            if len(opened) - len(ended) >= cap:
                return None
        try:
            challenge = await self.open(new_inline_chat(), creator, preset, lang)
        except Rejected:
            return None
        ttl = self.terms.challenge_ttl + KEEP_AFTER_DEADLINE
        await store.offered_inline(creator.id, preset, challenge.id, expires=challenge.expires, ttl=ttl)
        return challenge

    async def bind_inline(self, challenge_id: str, inline_message_id: str) -> Challenge | None:
        """Bind an open inline challenge to its message (its creator posted it: ``chosen_inline_result``): the
        match's table. Once only: a known message is never replaced (a press carried from another inline message
        must not move the challenge there). The challenge as it is now (None: it is not open)."""
        for _ in range(MAX_ATTEMPTS):
            raw = await self.store.read(challenge_id)
            if raw is None:
                return None
            challenge = Challenge.model_validate_json(raw)
            if challenge.inline_message_id is not None or not is_inline_chat(challenge.chat_id):
                return challenge
            updated = challenge.model_copy(update={"inline_message_id": inline_message_id})
            if await self.store.rewrite(updated, raw):
                return updated
        raise Rejected(Rejection.BUSY)

    async def set_message(self, challenge: Challenge, message_id: int) -> Challenge:
        """Remember the group message of a challenge (keeping its expiry)."""
        updated, _ = await self.posted(challenge, message_id)
        return updated

    async def posted(self, challenge: Challenge, message_id: int) -> tuple[Challenge, bool]:
        """Remember the group message of a challenge just posted: the challenge with its message id, and whether
        it was still open. The message is in the chat before its id is stored, so a friend may accept (or the
        creator withdraw) in between; the accept then read no message to edit, and the caller must show what
        became of the challenge on it (``accepted``)."""
        updated = challenge.model_copy(update={"message_id": message_id})
        return updated, await self.store.set_message(updated)

    async def withdraw(self, challenge_id: str, user_id: int) -> Challenge:
        """Remove an open challenge (its creator, or an admin of the challenge's own chat); atomic against a
        join."""
        allowed: bool | None = None
        for _ in range(MAX_ATTEMPTS):
            raw = await self.store.read(challenge_id)
            if raw is None:
                raise Rejected(Rejection.NO_CHALLENGE)
            challenge = Challenge.model_validate_json(raw)
            if allowed is None:
                allowed = await self.authority.may_manage(challenge.chat_id, challenge.creator.id, user_id)
            if not allowed:
                raise Rejected(Rejection.NOT_ALLOWED)
            if await self.store.withdraw(challenge, raw):
                await self._drop_traces(challenge_id)
                return challenge
        raise Rejected(Rejection.BUSY)

    async def expire(self, challenge: Challenge) -> bool:
        """End a challenge whose time is up; True for the one caller that did. False also when it was accepted
        (the accept is then carried through, if its process died midway)."""
        accepted = await self.store.expire(challenge)
        if accepted:
            await self.created(MatchRecord.model_validate_json(accepted), challenge.id)
            return False
        return await self.store.drop_notice(challenge.id)

    # -- accepting -------------------------------------------------------------------

    async def accept(
        self, challenge_id: str, joiner: Player, *, username: str | None = None, seed: int | None = None
    ) -> MatchRecord:
        """Join a challenge: the challenge is consumed and the match created, atomically. A person must be in the
        challenge's own chat (a deep link or a button carried elsewhere opens no match there)."""
        record, _ = await self.take(challenge_id, joiner, username=username, seed=seed)
        return record

    async def take(
        self,
        challenge_id: str,
        joiner: Player,
        *,
        username: str | None = None,
        seed: int | None = None,
        inline_message_id: str | None = None,
    ) -> tuple[MatchRecord, Challenge]:
        """``accept``, with the challenge as it was consumed: its message id as stored at that moment (a copy
        read before the accept may predate it: /play stores the id after its message is in the chat).

        An inline challenge is accepted by a press on its message (``inline_message_id``, the press's): the match's
        table. Bound already (its creator posted it), the press must be on that very message; not bound yet, the
        press binds it, in the accept's own write. A deep link has no message: refused until the message is known
        (``INLINE_UNKNOWN``: press accept on the message)."""
        member: bool | None = None if not joiner.computer else True
        for _ in range(MAX_ATTEMPTS):
            raw = await self.store.read(challenge_id)
            if raw is None:
                raise Rejected(Rejection.NO_CHALLENGE)
            challenge = Challenge.model_validate_json(raw)
            if is_inline_chat(challenge.chat_id):
                bound = challenge.inline_message_id
                if bound is None and inline_message_id is None:
                    raise Rejected(Rejection.INLINE_UNKNOWN)
                if bound is not None and inline_message_id is not None and inline_message_id != bound:
                    raise Rejected(Rejection.NOT_ON_MESSAGE)
            if member is None:
                member = await self.authority.belongs(challenge.chat_id, joiner.id)
            if not member:
                raise Rejected(Rejection.NOT_MEMBER)
            record = await self._accept_as_read(raw, joiner, username, seed, inline_message_id)
            if record is not None:
                return record, challenge
        raise Rejected(Rejection.BUSY)

    async def play_computer(
        self, challenge_id: str, user_id: int, level: Level, name: str, *, seed: int | None = None
    ) -> MatchRecord:
        """The creator of an open challenge plays the computer at ``level`` instead (``name``: the computer's
        name in the match's language); anyone else is refused."""
        challenge = await self.challenge(challenge_id)
        if challenge is None:
            raise Rejected(Rejection.NO_CHALLENGE)
        if challenge.creator.id != user_id:
            raise Rejected(Rejection.NOT_ALLOWED)
        if challenge.rematch_of is not None and challenge.opponent_id is not None:
            raise Rejected(Rejection.NOT_ALLOWED)  # a rematch waits for its person; the computer never takes it
        # The computer's id is this match's own, so that it never counts as playing elsewhere.
        computer = Player(id=-1 - secrets.randbits(48), name=name, level=level)
        return await self.accept(challenge_id, computer, seed=seed)

    async def _accept_as_read(
        self, raw: bytes | str, joiner: Player, username: str | None, seed: int | None, pressed: str | None = None
    ) -> MatchRecord | None:
        """Accept the challenge as it was read; None when it changed meanwhile (read it again)."""
        challenge = Challenge.model_validate_json(raw)
        if challenge.expires <= self.clock():
            raise Rejected(Rejection.NO_CHALLENGE)
        if challenge.creator.id == joiner.id:
            raise Rejected(Rejection.OWN_CHALLENGE)
        if not joiner.computer:  # the creator may always play the computer instead
            if challenge.opponent_id is not None and challenge.opponent_id != joiner.id:
                raise Rejected(Rejection.NOT_INVITED)
            if challenge.opponent_username is not None and challenge.opponent_username != (username or "").lower():
                raise Rejected(Rejection.NOT_INVITED)
        # Every deal is shuffled from a secret derived from the challenge's key, committed on its message, and
        # both players' seeds as they stand now (engine/fairness.py).
        match, fair = await self.fairness.new_match(
            challenge.preset, challenge.target, (challenge.creator, joiner), key=challenge.key,
            first=challenge.opener, seed=seed,
        )  # fmt: skip
        settings = await self.chats.settings(challenge.chat_id)
        clock = settings.turn_clock(self.terms.turn_timeout) if challenge.clock is None else challenge.clock
        now = self.clock()
        record = MatchRecord(
            id=secrets.token_urlsafe(8),
            chat_id=challenge.chat_id,
            players=(challenge.creator, joiner),
            lang=challenge.lang,
            created=now,
            updated=now,
            deal=StoredDeal.of(match),
            thread_id=challenge.thread_id,
            # An inline challenge's table: its message as bound, else the one the accepting press came on.
            inline_message_id=challenge.inline_message_id or (pressed if is_inline_chat(challenge.chat_id) else None),
            # Against the computer, no clock: nobody waits for the person but the computer.
            turn_timeout=0 if joiner.computer else clock,
            opener=match.deal.first,
            fair=fair,
        )
        # The challenge's job looks in a moment whether this accept was carried through (see created).
        await self.scheduler.schedule(expiry_job(challenge.id), now + ACCEPT_CHECK)
        answer = await self.store.accept(
            challenge, raw, joiner.id, record.id, record.model_dump_json(), ttl=self.terms.keep_ttl
        )
        if answer is Accepted.CHANGED:
            return None
        if answer is Accepted.PLAYING:
            raise Rejected(Rejection.ALREADY_PLAYING)
        if answer is Accepted.CREATOR_PLAYING:
            raise Rejected(Rejection.CREATOR_PLAYING)
        await self.created(record, challenge.id)
        self.records.remember(record, match)
        return record

    async def accepted(self, challenge: Challenge) -> MatchRecord | None:
        """The match a challenge became, if it was accepted (the accept is carried through first, if its process
        died midway: the match written, its indexes, its screens due, its clock)."""
        data = await self.store.accepted(challenge.chat_id, challenge.id)
        if data is None:
            return None
        record = MatchRecord.model_validate_json(data)
        await self.created(record, challenge.id)
        return record

    async def created(self, record: MatchRecord, challenge_id: str) -> None:
        """The steps of an accept after the one in the chat's slot, each harmless to repeat: the match's record
        in its own slot, the players' indexes, its screens due, its clock (or the computer's first move); the
        challenge's notice and job go."""
        await self.matches.create(record.id, record.model_dump_json(), ttl=self.terms.keep_ttl)
        await self.matches.mark_due(record.id)
        people = [p.id for p in record.players if not p.computer]
        computer = self.seats.next_due(record, record.match())
        first = computer or next_look(record, {}, self.terms) or record.created
        await asyncio.gather(
            self.matches.add_player_matches(record.id, people),
            self.scheduler.schedule(clock_job(record.id), first, if_missing=True),
        )
        if computer is not None:
            self.scheduler.wake_at(computer)
        await self._drop_traces(challenge_id)
