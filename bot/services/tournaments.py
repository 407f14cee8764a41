"""Tournaments in a group: the sign-up, the start, the pairings' matches as their players are free, the results
as the matches end, leavers, and the end.

A tournament lives in its chat's slot (``bot/storage/tournaments.py``) and
changes by compare-and-set only. Its job (``bot.scheduler.tournament_job``)
moves it on: it closes a sign-up nobody started, takes the result of each
pairing whose match ended (read from the match itself, so a result counts
once however often the job runs), decides byes and forfeits, and starts
every pairing whose two players are free. Starting a pairing is one script
with the tournament's new state (so no pairing starts twice); the steps in
the match's own slot are those of an accepted challenge, carried through by
the next run if a process dies between them. A match's finish wakes the job.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.codec import StoredDeal
from bot.models import Entrant, Lang, MatchRecord, Pairing, Player, Rejection, Status, Tournament
from bot.scheduler import Scheduler, tournament_job
from bot.services import bracket
from bot.services.challenges import Challenges
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.services.records import Records
from bot.services.terms import Terms
from bot.storage.keys import challenge_id as new_tournament_id
from bot.storage.matches import MatchStore
from bot.storage.results import ResultStore
from bot.storage.tournaments import Started, TournamentStore
from engine import Match, find_preset

MAX_ATTEMPTS = 8
SIGNUP = 86400
"""Seconds a sign-up stays open unless started."""
NO_CLOCK = 86400
"""Seconds for a move in a tournament match of a group whose clock is off (a tournament always ends)."""
LOOK_AGAIN = 60.0
"""Seconds between two looks at a running tournament (a finish wakes it sooner): a pairing waiting for a
player's match of their own starts at most this late."""
KEPT = 30 * 86400
"""Seconds a tournament stays readable after its end."""
LEAVE_CONFIRM = 30
"""Seconds within which a second press on 🚪 confirms leaving."""


@dataclass
class Progress:
    """What a look at a tournament did."""

    tournament: Tournament | None
    changed: bool = False
    """Its standings changed (a result, a start, a bye): the message is edited."""
    started: list[MatchRecord] = field(default_factory=list)
    """Matches it started: their messages go out."""
    due: float | None = None
    """When the job looks again (None: never)."""


class Tournaments:
    def __init__(
        self,
        store: TournamentStore,
        challenges: Challenges,
        matches: MatchStore,
        records: Records,
        chats: Chats,
        results: ResultStore,
        scheduler: Scheduler,
        terms: Terms,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.challenges = challenges
        self.matches = matches
        self.records = records
        self.chats = chats
        self.results = results
        self.scheduler = scheduler
        self.terms = terms
        self.clock = clock

    # -- reading -------------------------------------------------------------------------

    async def get(self, tournament_id: str) -> Tournament | None:
        raw = await self.store.read(tournament_id)
        return None if raw is None else Tournament.model_validate_json(raw)

    async def current(self, chat_id: int) -> Tournament | None:
        """The chat's tournament that signs up or runs."""
        found = await self.store.current(chat_id)
        return None if found is None else await self.get(found)

    async def wins(self, chat_id: int, user_id: int) -> int:
        return await self.store.wins(chat_id, user_id)

    # -- the sign-up ---------------------------------------------------------------------

    async def open(
        self, chat_id: int, creator: Player, preset: str, target: int | None, lang: Lang, *, thread_id: int | None
    ) -> Tournament:
        """A new tournament signing up, its creator its first player; refused while the chat has one (the
        exception's ``tournament`` is it)."""
        rules = find_preset(preset)
        now = self.clock()
        t = Tournament(
            id=new_tournament_id(secrets.token_urlsafe(6), chat_id),
            chat_id=chat_id,
            thread_id=thread_id,
            creator=creator,
            preset=rules.name,
            target=target or rules.target,
            lang=lang,
            created=now,
            expires=now + SIGNUP,
            entrants=[Entrant(player=creator)],
        )
        await self.scheduler.schedule(tournament_job(t.id), t.expires)
        if await self.store.open(t.id, chat_id, t.model_dump_json()) is not None:
            await self.scheduler.unschedule(tournament_job(t.id))
            raise Rejected(Rejection.TOURNAMENT_ON)
        return t

    async def set_message(self, tournament_id: str, message_id: int) -> Tournament:
        def change(t: Tournament) -> None:
            t.message_id = message_id

        return await self._update(tournament_id, change)

    async def toggle(self, tournament_id: str, player: Player) -> tuple[Tournament, bool]:
        """Join the sign-up, or leave it (True: joined)."""
        joined = False

        def change(t: Tournament) -> None:
            nonlocal joined
            self._signing_up(t)
            at = t.entrant_of(player.id)
            if at is not None:
                del t.entrants[at]
                joined = False
                return
            if len(t.entrants) >= bracket.PLAYERS_MAX:
                raise Rejected(Rejection.TOURNAMENT_FULL)
            t.entrants.append(Entrant(player=player))
            joined = True

        t = await self._update(tournament_id, change)
        return t, joined

    async def join(self, tournament_id: str, player: Player) -> Tournament:
        """Join the sign-up (a deep link from the group); already in is fine."""

        def change(t: Tournament) -> None:
            self._signing_up(t)
            if t.entrant_of(player.id) is None:
                if len(t.entrants) >= bracket.PLAYERS_MAX:
                    raise Rejected(Rejection.TOURNAMENT_FULL)
                t.entrants.append(Entrant(player=player))

        return await self._update(tournament_id, change)

    def _signing_up(self, t: Tournament) -> None:
        if t.status != "signup" or t.expires <= self.clock():
            raise Rejected(Rejection.NO_TOURNAMENT)

    async def begin(self, tournament_id: str, user_id: int, *, admin: bool = False) -> Tournament:
        """Start the tournament (its creator, or an admin): the format for its number of players, the knockout
        seeded by the group's rating, the group's clock for its matches. Its job then starts the pairings."""
        found = await self.get(tournament_id)
        if found is None or found.status != "signup":
            raise Rejected(Rejection.NO_TOURNAMENT)
        ratings = {e.player.id: await self._rating(found.chat_id, e.player.id) for e in found.entrants}
        settings = await self.chats.settings(found.chat_id)
        clock = settings.turn_clock(self.terms.turn_timeout) or NO_CLOCK

        def change(t: Tournament) -> None:
            self._signing_up(t)
            if t.creator.id != user_id and not admin:
                raise Rejected(Rejection.NOT_ALLOWED)
            if len(t.entrants) < bracket.PLAYERS_MIN:
                raise Rejected(Rejection.TOURNAMENT_SMALL)
            for e in t.entrants:
                e.rating = ratings.get(e.player.id, self.results.elo_start)
            t.status, t.clock = "running", clock
            t.format = bracket.format_for(len(t.entrants))
            if t.format == "rr":
                t.pairings = bracket.round_robin(len(t.entrants))
            else:
                seeded = sorted(range(len(t.entrants)), key=lambda x: (-t.entrants[x].rating, x))
                t.pairings = bracket.knockout(seeded)
            bracket.settle(t)

        t = await self._update(tournament_id, change)
        await self.scheduler.schedule(tournament_job(t.id), self.clock())
        self.scheduler.wake()
        return t

    async def _rating(self, chat_id: int, user_id: int) -> int:
        data = await self.results.stats(chat_id, user_id)
        return int(data.get("rating", self.results.elo_start))

    async def cancel(self, tournament_id: str, user_id: int, *, admin: bool = False) -> Tournament:
        """Cancel a sign-up (its creator, or an admin)."""

        def change(t: Tournament) -> None:
            if t.status != "signup":
                raise Rejected(Rejection.NO_TOURNAMENT)
            if t.creator.id != user_id and not admin:
                raise Rejected(Rejection.NOT_ALLOWED)
            t.status = "cancelled"

        t = await self._update(tournament_id, change)
        await self.scheduler.unschedule(tournament_job(t.id))
        return t

    async def ask_to_leave(self, tournament_id: str, user_id: int) -> bool:
        """The first press on 🚪: True when it confirms one made within ``LEAVE_CONFIRM`` seconds."""
        if await self.store.mark(tournament_id, f"leave:{user_id}", ttl=LEAVE_CONFIRM):
            return False
        await self.store.unmark(tournament_id, f"leave:{user_id}")
        return True

    async def leave(self, tournament_id: str, user_id: int) -> tuple[Tournament, str | None]:
        """Leave a running tournament: the remaining pairings are forfeited. Returns the tournament and the match
        the player is playing in it now (for the caller to give up), if any."""
        playing: str | None = None

        def change(t: Tournament) -> None:
            nonlocal playing
            at = t.entrant_of(user_id)
            if t.status != "running" or at is None or t.entrants[at].left:
                raise Rejected(Rejection.NOT_ENTERED)
            now = bracket.leave(t, at)
            playing = now[0].match if now else None
            bracket.settle(t)

        t = await self._update(tournament_id, change)
        await self.scheduler.schedule(tournament_job(t.id), self.clock())
        self.scheduler.wake()
        return t, playing

    # -- the job -------------------------------------------------------------------------

    async def progress(self, tournament_id: str) -> Progress:
        """Move the tournament on (see the module's text)."""
        for _ in range(MAX_ATTEMPTS):
            raw = await self.store.read(tournament_id)
            if raw is None:
                return Progress(None)
            t = Tournament.model_validate_json(raw)
            if t.status == "signup":
                if t.expires > self.clock():
                    return Progress(t, due=t.expires)
                t.status = "cancelled"
                if not await self._write_raw(t, raw):
                    continue
                return Progress(await self.get(tournament_id), changed=True)
            if t.status != "running":
                return Progress(t)
            changed = await self._results(t)
            changed = bracket.settle(t) or changed
            if changed:
                if not await self._write_raw(t, raw):
                    continue
                raw = t.model_dump_json()
            if t.status != "running":
                return Progress(t, changed=True)
            done = await self._start_ready(t, raw)
            if done is None:
                continue
            return Progress(done[0], changed=changed or bool(done[1]), started=done[1], due=self.clock() + LOOK_AGAIN)
        return Progress(await self.get(tournament_id), due=self.clock() + 1)

    async def _results(self, t: Tournament) -> bool:
        """The results of the pairings whose match ended (read from the matches); a match whose record a
        process did not write after the start is written now."""
        changed = False
        for p in t.pairings:
            if p.match is None or p.done:
                continue
            data = await self.matches.record(p.match)
            if data is None:
                kept = await self.store.accepted(t.chat_id, _accepted_name(t, p))
                if kept is not None:
                    await self.challenges.created(MatchRecord.model_validate_json(kept), _accepted_name(t, p))
                continue
            record = MatchRecord.model_validate_json(data)
            if record.status is Status.ACTIVE:
                continue
            score = record.match().score
            bracket.record_result(t, p, record.winner if record.status is Status.FINISHED else None,
                                  (score[0], score[1]))  # fmt: skip
            changed = True
        return changed

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
                busy.add(p.b if playing == 1 else p.a)  # a match of their own: their pairings wait
                continue
            await self.challenges.created(record, _accepted_name(t, p))
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

    # -- writing -------------------------------------------------------------------------

    async def _update(self, tournament_id: str, change: Callable[[Tournament], None]) -> Tournament:
        """Read, change (may raise ``Rejected``) and write back, again while another write came between."""
        for _ in range(MAX_ATTEMPTS):
            raw = await self.store.read(tournament_id)
            if raw is None:
                raise Rejected(Rejection.NO_TOURNAMENT)
            t = Tournament.model_validate_json(raw)
            change(t)
            if await self._write_raw(t, raw):
                return t
        raise Rejected(Rejection.BUSY)

    async def _write_raw(self, t: Tournament, raw: str | bytes) -> bool:
        """Write ``t`` (one version on) over ``raw``; an ended one stops being current and counts its champion."""
        t.version += 1
        ends = t.status in ("finished", "cancelled")
        if t.status == "finished" and t.finished is None:
            t.finished = self.clock()
        champion = t.entrants[t.champion].player.id if t.status == "finished" and t.champion is not None else None
        return await self.store.write(t.id, t.chat_id, raw, t.model_dump_json(), ends=ends, champion=champion,
                                      ttl=KEPT)  # fmt: skip

    async def claim_announcement(self, t: Tournament) -> bool:
        """The champion is announced once: True for the one caller that may."""
        return await self.store.mark(t.id, "announced", ttl=KEPT)

    async def release_announcement(self, t: Tournament) -> None:
        await self.store.unmark(t.id, "announced")


def _accepted_name(t: Tournament, p: Pairing) -> str:
    """The name its started match's record is kept under in the chat's slot (as an accepted challenge's)."""
    return f"{t.id}.{p.n}"
