"""A running tournament moved on by its job (``bot.scheduler.tournament_job``): the sign-up that nobody started
closes, the results of matches whose finish did not write them are taken (read from the match), pairings that
waited too long for a player busy in another match are forfeited, the matches of players who left are given up,
every pairing whose two players are free starts, and a tournament whose group became a supergroup moves there.

Starting a pairing is one script with the tournament's new state (so no pairing
starts twice); the steps in the match's own slot are those of an accepted
challenge, carried through by the next run if a process dies between them, and
the copy of the record kept for them is dropped once they are done: a match is
never created again from it after its record expired. A match's finish writes
its result into the tournament (``TournamentBook.record_result``) and wakes the
job.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.codec import StoredDeal
from bot.models import MatchRecord, Pairing, Tournament
from bot.scheduler import Scheduler, tournament_job
from bot.services import bracket
from bot.services.challenges import Challenges
from bot.services.chats import Chats
from bot.services.records import Records
from bot.services.terms import Terms
from bot.services.tournament_book import MAX_ATTEMPTS, TournamentBook, take_result
from bot.storage.keys import challenge_chat, moved_id
from bot.storage.matches import MatchStore
from bot.storage.tournaments import Started, TournamentStore
from engine import Match

log = logging.getLogger(__name__)

LOOK_AGAIN = 60.0
"""Seconds between two looks at a running tournament (a finish wakes it sooner): a pairing waiting for a
player's match of their own starts at most this late."""


@dataclass(frozen=True)
class BusyForfeit:
    """A pairing decided without a match: ``busy`` (entrants) played other matches in the chat for longer than
    the tournament's clock."""

    pairing: int
    busy: tuple[int, ...]


@dataclass
class Progress:
    """What a look at a tournament did."""

    tournament: Tournament | None
    started: list[MatchRecord] = field(default_factory=list)
    """Matches it started: their messages go out."""
    forfeits: list[BusyForfeit] = field(default_factory=list)
    """Pairings forfeited by busy players: the group is told."""
    give_up: list[tuple[str, int]] = field(default_factory=list)
    """Matches of this tournament still played by someone who left it (match, user): given up for them."""
    due: float | None = None
    """When the job looks again (None: never)."""


class TournamentPlay:
    """A tournament's job: see the module's text."""

    def __init__(
        self,
        book: TournamentBook,
        store: TournamentStore,
        challenges: Challenges,
        matches: MatchStore,
        records: Records,
        chats: Chats,
        scheduler: Scheduler,
        terms: Terms,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.book = book
        self.store = store
        self.challenges = challenges
        self.matches = matches
        self.records = records
        self.chats = chats
        self.scheduler = scheduler
        self.terms = terms
        self.clock = clock

    async def progress(self, tournament_id: str) -> Progress:
        """Move the tournament on (see the module's text)."""
        for _ in range(MAX_ATTEMPTS):
            raw = await self.store.read(tournament_id)
            if raw is None:
                return Progress(None)
            t = Tournament.model_validate_json(raw)
            if t.status == "moved":
                await self._moved_on(t)
                return Progress(None)
            if t.ended:
                return Progress(t)
            new_chat = await self.chats.migrated_to(t.chat_id)
            if new_chat is not None:
                if await self._move(t, raw, new_chat):
                    return Progress(None)
                continue
            if t.status == "signup":
                if t.expires > self.clock():
                    return Progress(t, due=t.expires)
                t.status = "cancelled"
                if not await self.book.write(t, raw):
                    continue
                return Progress(t)
            done = await self._running(t, raw)
            if done is not None:
                return done
        return Progress(await self.book.get(tournament_id), due=self.clock() + 1)

    async def _running(self, t: Tournament, raw: str | bytes) -> Progress | None:
        """One look at a running tournament; None when it changed meanwhile (read it again)."""
        before = t.model_copy(deep=True)
        await self._results(t)
        forfeited = bracket.wait_for_busy(t, await self._busy(t), self.clock())
        bracket.settle(t)
        if t != before:
            if not await self.book.write(t, raw):
                return None
            raw = t.model_dump_json()
        forfeits = [BusyForfeit(p.n, tuple(sorted(busy))) for p, busy in forfeited]
        if t.status != "running":
            return Progress(t, forfeits=forfeits)
        done = await self._start_ready(t, raw)
        if done is None:
            return None
        t, started = done
        due = min(self.clock() + LOOK_AGAIN, bracket.waiting_until(t) or float("inf"))
        return Progress(t, started=started, forfeits=forfeits, give_up=_given_up(t), due=due)

    async def _busy(self, t: Tournament) -> set[int]:
        """The entrants still in it who play a match in the chat that is not one of this tournament's."""
        mine = {p.match for p in t.pairings if p.match is not None}
        here = [x for x, e in enumerate(t.entrants) if not e.left]
        playing = await asyncio.gather(*(self.records.active_match(t.chat_id, t.entrants[x].player.id) for x in here))
        return {x for x, match in zip(here, playing, strict=True) if match is not None and match not in mine}

    async def _results(self, t: Tournament) -> None:
        """The results of the pairings whose match ended and whose finish did not write them (read from the
        matches); a match whose record a process did not write after the start is written now, and one that
        is gone without its result reaching the tournament gives nobody the win."""
        for p in t.pairings:
            if p.match is None or p.done:
                continue
            data = await self.matches.record(p.match)
            kept = await self.store.accepted(t.chat_id, _accepted_name(t, p))
            if kept is not None:
                # A started match whose steps a process did not finish (killed after its record, before its
                # screens were marked due: nobody would ever see it): they are carried through, each harmless again.
                await self._created(t, p, MatchRecord.model_validate_json(kept))
                data = await self.matches.record(p.match)
            if data is None:
                if await self.matches.record(p.match) is None:
                    # Created (its copy is dropped only after) and gone since: it can never count now.
                    log.warning("tournament %s: match %s is gone without its result", t.id, p.match)
                    bracket.record_result(t, p, None, (0, 0))
                continue
            record = MatchRecord.model_validate_json(data)
            if not record.is_active:
                take_result(t, p, record)

    async def _created(self, t: Tournament, p: Pairing, record: MatchRecord) -> None:
        """The steps of a started pairing's match in its own slot; then its kept record goes."""
        await self.challenges.created(record, _accepted_name(t, p))
        await self.store.forget_accepted(t.chat_id, _accepted_name(t, p))

    async def _start_ready(self, t: Tournament, raw: str | bytes) -> tuple[Tournament, list[MatchRecord]] | None:
        """Start every pairing whose players are free; None when the tournament changed meanwhile."""
        started: list[MatchRecord] = []
        busy: set[int] = set()
        while True:
            ready = bracket.startable(t, busy)
            if not ready:
                return t, started
            p = ready[0]
            assert p.a is not None and p.b is not None
            record, match = await self._new_match(t, p)
            new = t.model_copy(deep=True)
            new.pairings[p.n].match = record.id
            new.pairings[p.n].waiting = None
            new.version += 1
            data = new.model_dump_json()
            players = (t.entrants[p.a].player.id, t.entrants[p.b].player.id)
            answer, playing = await self.store.start(
                t.id, t.chat_id, raw, data, players, record.id, record.model_dump_json(),
                accepted=_accepted_name(t, p), ttl=self.terms.keep_ttl,
            )  # fmt: skip
            if answer is Started.CHANGED:
                return None
            if answer is Started.PLAYING:
                busy.update(p.b if seat else p.a for seat in playing)  # a match of their own: the next look waits
                continue
            await self._created(new, new.pairings[p.n], record)
            self.records.remember(record, match)
            started.append(record)
            t, raw = new, data

    async def _new_match(self, t: Tournament, p: Pairing) -> tuple[MatchRecord, Match]:
        assert p.a is not None and p.b is not None
        # Its key is drawn now, with no challenge to commit it on: its first panels and table show its commitment.
        players = (t.entrants[p.a].player, t.entrants[p.b].player)
        match, fair = await self.challenges.fairness.new_match(t.preset, t.target, players)
        now = self.clock()
        record = MatchRecord(
            id=secrets.token_urlsafe(8),
            chat_id=t.chat_id,
            players=players,
            lang=t.lang,
            created=now,
            updated=now,
            deal=StoredDeal.of(match),
            thread_id=t.thread_id,
            turn_timeout=t.clock,
            opener=match.deal.first,
            tournament=t.id,
            fair=fair,
        )
        return record, match

    # -- a group that became a supergroup --------------------------------------------------

    async def _move(self, t: Tournament, raw: str | bytes, new_chat: int) -> bool:
        """Move the tournament to the supergroup its group became: its matches started but not yet written are
        carried through first (their copies are named by the old id), then the old one is marked moved (in the
        old chat's slot), then the new one is written there (``_moved_on``, which a job of the old id carries
        through if a process dies in between). False when it changed meanwhile."""
        for p in t.pairings:
            if p.match is not None and not p.done:
                kept = await self.store.accepted(t.chat_id, _accepted_name(t, p))
                if kept is not None:
                    await self._created(t, p, MatchRecord.model_validate_json(kept))
        await self.store.move_wins(t.chat_id, new_chat)
        old = t.model_copy(deep=True)
        old.status, old.moved_to = "moved", moved_id(t.id, new_chat)
        if not await self.book.write(old, raw):
            return False
        await self._moved_on(old)
        return True

    async def _moved_on(self, old: Tournament) -> None:
        """The new tournament of a moved one, written in its supergroup (once), its job due now: it posts the
        tournament's message there (the old group's messages cannot be edited any more)."""
        new_chat = challenge_chat(old.moved_to or "")
        assert old.moved_to is not None and new_chat is not None
        status = "running" if old.format else "signup"
        t = old.model_copy(
            deep=True,
            update={"id": old.moved_to, "chat_id": new_chat, "moved_to": None, "message_id": None, "status": status},
        )
        current = await self.store.open(t.id, new_chat, t.model_dump_json())
        if current not in (None, t.id):
            # Somebody opened another there before this one came: it cannot go on (one a chat at a time).
            log.warning("tournament %s: chat %s has tournament %s already; not moved", old.id, new_chat, current)
            return
        log.info("tournament %s moved to %s (chat %s)", old.id, t.id, new_chat)
        await self.scheduler.schedule(tournament_job(t.id), self.clock())
        self.scheduler.wake()


def _given_up(t: Tournament) -> list[tuple[str, int]]:
    """The matches being played for ``t`` by someone who left it (or was removed), with who."""
    found = []
    for p in t.pairings:
        if p.match is None or p.done:
            continue
        for x in (p.a, p.b):
            if x is not None and t.entrants[x].left:
                found.append((p.match, t.entrants[x].player.id))
    return found


def _accepted_name(t: Tournament, p: Pairing) -> str:
    """The name its started match's record is kept under in the chat's slot (as an accepted challenge's)."""
    return f"{t.id}.{p.n}"
