"""Tournaments in a group: the sign-up, the start, leavers, and what its organiser (or an admin of its chat) may do:
start it, cancel the sign-up, remove an entrant, stop it.

A tournament lives in its chat's slot (``bot/storage/tournaments.py``) and
changes by compare-and-set only (``TournamentBook``). Its job
(``TournamentPlay``) moves it on once started; a match's finish writes its
result into it. Who may manage it is asked of its own chat (``Authority``),
never of where the command was written.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from bot.models import Entrant, Lang, Player, Rejection, Tournament
from bot.scheduler import Scheduler, tournament_job
from bot.services import bracket
from bot.services.authority import Authority
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.services.terms import Terms
from bot.services.tournament_book import KEPT, TournamentBook
from bot.storage.keys import challenge_id as new_tournament_id
from bot.storage.results import ResultStore
from bot.storage.tournaments import TournamentStore
from engine import find_preset

MAX_WRITES = 8
"""Attempts of a compare-and-set write before ``BUSY``."""
SIGNUP = 86400
"""Seconds a sign-up stays open unless started."""
NO_CLOCK = 86400
"""Seconds for a move in a tournament match of a group whose clock is off (a tournament always ends); also how
long a pairing there waits for a player busy in another match before it is forfeited."""


@dataclass(frozen=True)
class Binding:
    """What binding a message to its tournament did (``Tournaments.bind_message``)."""

    tournament: Tournament
    """The tournament as it is now."""
    current: bool
    """Whether the message is the tournament's message (now, or already)."""
    retire: int | None
    """A message of the tournament that is not its message: the one the message replaced, or the message itself when
    a newer one is the tournament's; it loses its buttons."""
    behind: bool
    """The tournament changed after the poster rendered the message (a press came between): it is edited to now."""


class Tournaments:
    def __init__(
        self,
        book: TournamentBook,
        store: TournamentStore,
        chats: Chats,
        results: ResultStore,
        scheduler: Scheduler,
        terms: Terms,
        authority: Authority,
        *,
        clock: Callable[[], float],
    ) -> None:
        self.book = book
        self.store = store
        self.authority = authority
        self.chats = chats
        self.results = results
        self.scheduler = scheduler
        self.terms = terms
        self.clock = clock

    # -- reading -------------------------------------------------------------------------

    async def get(self, tournament_id: str) -> Tournament | None:
        return await self.book.get(tournament_id)

    async def current(self, chat_id: int) -> Tournament | None:
        """The chat's tournament that signs up or runs."""
        return await self.book.current(chat_id)

    async def organised(self, chat_id: int, user_id: int) -> Tournament | None:
        """The chat's tournament that signs up or runs, if ``user_id`` opened it."""
        t = await self.current(chat_id)
        return t if t is not None and t.creator.id == user_id else None

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

    async def bind_message(
        self, tournament_id: str, chat_id: int, message_id: int, *, seen: int | None = None
    ) -> Binding:
        """A message of the tournament's (one just posted, or one pressed that the bot had not yet written down)
        is its message from now on, unless a newer one is: message ids only grow in a chat, so the newest message
        that carries the tournament's buttons is its message, whoever learns of it first (the poster from
        Telegram's answer, or a press from the message itself). ``seen``: the version the poster rendered.
        Nothing is written when the message is the tournament's already, or older than its message."""
        for _ in range(MAX_WRITES):
            raw = await self.store.read(tournament_id)
            if raw is None:
                raise Rejected(Rejection.NO_TOURNAMENT)
            t = Tournament.model_validate_json(raw)
            behind = seen is not None and t.version != seen
            if t.chat_id != chat_id or (t.message_id is not None and message_id < t.message_id):
                # Another chat's (the group became a supergroup), or an older message than the tournament's.
                return Binding(t, current=False, retire=message_id, behind=False)
            if t.message_id == message_id:
                return Binding(t, current=True, retire=None, behind=behind)
            before, t.message_id = t.message_id, message_id
            if await self.book.write(t, raw):
                return Binding(t, current=True, retire=before, behind=behind)
        raise Rejected(Rejection.BUSY)

    async def _may_join(self, tournament_id: str, user_id: int) -> None:
        """Refuse ``user_id`` unless they are in the tournament's own chat."""
        found = await self.get(tournament_id)
        outside = found is not None and found.entrant_of(user_id) is None
        if outside and found is not None and not await self.authority.belongs(found.chat_id, user_id):
            raise Rejected(Rejection.NOT_MEMBER)

    async def toggle(self, tournament_id: str, player: Player) -> tuple[Tournament, bool]:
        """Join the sign-up (one who is in its chat), or leave it (True: joined)."""
        await self._may_join(tournament_id, player.id)
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

        t = await self.book.update(tournament_id, change)
        return t, joined

    async def join(self, tournament_id: str, player: Player) -> Tournament:
        """Join the sign-up (a deep link from the group; one who is in its chat); already in is fine."""
        await self._may_join(tournament_id, player.id)

        def change(t: Tournament) -> None:
            self._signing_up(t)
            if t.entrant_of(player.id) is None:
                if len(t.entrants) >= bracket.PLAYERS_MAX:
                    raise Rejected(Rejection.TOURNAMENT_FULL)
                t.entrants.append(Entrant(player=player))

        return await self.book.update(tournament_id, change)

    def _signing_up(self, t: Tournament) -> None:
        if t.status != "signup" or t.expires <= self.clock():
            raise Rejected(Rejection.NO_TOURNAMENT)

    async def begin(self, tournament_id: str, user_id: int) -> Tournament:
        """Start the tournament (its creator, or an admin of its chat): the format for its number of players, the
        knockout seeded by the group's rating, the group's clock for its matches. Its job then starts the
        pairings."""
        found = await self.get(tournament_id)
        if found is None or found.status != "signup":
            raise Rejected(Rejection.NO_TOURNAMENT)
        await self._may_manage(found, user_id)
        ratings = {e.player.id: await self._rating(found.chat_id, e.player.id) for e in found.entrants}
        settings = await self.chats.settings(found.chat_id)
        clock = settings.turn_clock(self.terms.turn_timeout) or NO_CLOCK

        def change(t: Tournament) -> None:
            self._signing_up(t)
            if len(t.entrants) < bracket.PLAYERS_MIN:
                raise Rejected(Rejection.TOURNAMENT_SMALL)
            for e in t.entrants:
                e.rating = ratings.get(e.player.id, self.results.elo_start)
            t.status, t.clock = "running", clock
            t.format = bracket.format_for(len(t.entrants))
            rr = t.format == "rr"
            t.pairings = bracket.round_robin(len(t.entrants)) if rr else bracket.knockout(bracket.seeds(t))
            bracket.settle(t)

        t = await self.book.update(tournament_id, change)
        await self._look_now(t)
        return t

    async def _rating(self, chat_id: int, user_id: int) -> int:
        data = await self.results.stats(chat_id, user_id)
        return int(data.get("rating", self.results.elo_start))

    async def _may_manage(self, t: Tournament, user_id: int) -> None:
        """Refuse ``user_id`` unless they created ``t`` or are an admin of its own chat."""
        if not await self.authority.may_manage(t.chat_id, t.creator.id, user_id):
            raise Rejected(Rejection.NOT_ALLOWED)

    async def _look_now(self, t: Tournament) -> None:
        """Its job runs now (it starts, gives up or announces what the change calls for)."""
        await self.scheduler.schedule(tournament_job(t.id), self.clock())
        self.scheduler.wake()

    # -- its organiser's (or an admin's) say ------------------------------------------------

    async def cancel(self, tournament_id: str, user_id: int) -> Tournament:
        """Cancel a sign-up (its creator, or an admin of its chat); a started one is refused
        (``TOURNAMENT_RUNNING``: it is stopped instead)."""
        found = await self.get(tournament_id)
        if found is None or found.ended:
            raise Rejected(Rejection.NO_TOURNAMENT)
        await self._may_manage(found, user_id)

        def change(t: Tournament) -> None:
            if t.status == "running":
                raise Rejected(Rejection.TOURNAMENT_RUNNING)
            if t.status != "signup":
                raise Rejected(Rejection.NO_TOURNAMENT)
            t.status = "cancelled"

        t = await self.book.update(tournament_id, change)
        await self.scheduler.unschedule(tournament_job(t.id))
        return t

    async def stop(self, tournament_id: str, by: Player) -> Tournament:
        """Stop a running tournament (its creator, or an admin of its chat): it ends with the standings so far and
        no champion; its matches being played go on as ordinary ones. A sign-up is cancelled."""
        found = await self.get(tournament_id)
        if found is None or found.ended:
            raise Rejected(Rejection.NO_TOURNAMENT)
        await self._may_manage(found, by.id)

        def change(t: Tournament) -> None:
            if t.status == "signup":
                t.status = "cancelled"
            elif t.status == "running":
                t.status, t.stopped_by = "stopped", by
            else:
                raise Rejected(Rejection.NO_TOURNAMENT)

        t = await self.book.update(tournament_id, change)
        if t.status == "cancelled":
            await self.scheduler.unschedule(tournament_job(t.id))
        else:
            await self._look_now(t)  # the standings so far are announced
        return t

    async def remove(self, tournament_id: str, user_id: int, entrant_id: int) -> Tournament:
        """Remove an entrant (the tournament's creator, or an admin of its chat): off the sign-up; from a running
        tournament as if they left (``leave``), marked removed."""
        found = await self.get(tournament_id)
        if found is None or found.ended:
            raise Rejected(Rejection.NO_TOURNAMENT)
        await self._may_manage(found, user_id)
        return await self._drop(tournament_id, entrant_id, removed=True)

    async def leave(self, tournament_id: str, user_id: int) -> Tournament:
        """Leave a running tournament, in one step: the pairings left to the player are decided for their
        opponents at once, and their match being played for it is given up by its job (woken now)."""
        return await self._drop(tournament_id, user_id, removed=False)

    async def _drop(self, tournament_id: str, user_id: int, *, removed: bool) -> Tournament:
        def change(t: Tournament) -> None:
            at = t.entrant_of(user_id)
            if at is None or t.entrants[at].left:
                raise Rejected(Rejection.NOT_ENTERED)
            if t.status == "signup" and removed:
                del t.entrants[at]
                return
            if t.status != "running":
                raise Rejected(Rejection.NOT_ENTERED if not removed else Rejection.NO_TOURNAMENT)
            bracket.leave(t, at)
            t.entrants[at].removed = removed
            bracket.settle(t)

        t = await self.book.update(tournament_id, change)
        if t.status != "signup":
            await self._look_now(t)
        return t

    # -- a group that became a supergroup ------------------------------------------------

    async def migrated(self, old: int, new: int) -> None:
        """Group ``old`` became supergroup ``new``: its tournament wins move there, and its tournament's job runs
        now (it moves the tournament there: ``TournamentPlay``)."""
        await self.store.move_wins(old, new)
        current = await self.store.current(old)
        if current is not None:
            await self.scheduler.schedule(tournament_job(current), self.clock())
            self.scheduler.wake()

    # -- the end -------------------------------------------------------------------------

    async def claim_announcement(self, t: Tournament) -> bool:
        """The end is announced once: True for the one caller that may."""
        return await self.store.mark(t.id, "announced", ttl=KEPT)

    async def release_announcement(self, t: Tournament) -> None:
        await self.store.unmark(t.id, "announced")

    async def announcement_tries(self, t: Tournament) -> int:
        """One more announcement of the end failed: how many did, this one included."""
        return await self.store.tries(t.id, "announce", ttl=KEPT)
