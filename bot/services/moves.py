"""Moves: a player's action, a surrender, a forfeit, an abandonment, a claimed win; each written once.

Correct under concurrency first: each move is checked against the engine and
written with a compare-and-set on the match version (a Lua script), so a move
is never applied twice and never lost. Fast second: the last record this
process wrote is kept in memory (``Records``), so a move usually costs one
round trip (the script); when another writer got there first, the script
answers with the current record and the move is checked again on it (a
bounded retry).
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from bot.codec import StoredDeal
from bot.games import deal_line
from bot.models import Finish, MatchRecord, MoveResult, Rejection, Status
from bot.services.errors import Rejected
from bot.services.finish import Finisher, finishing_note
from bot.services.records import Records
from bot.services.seats import Seats
from bot.services.terms import Terms
from bot.storage.base import StorageUnavailable
from bot.storage.keys import challenge_chat, moved_id
from bot.storage.live import LiveStore
from bot.storage.matches import Commit, MatchStore, Written
from engine import Action, Deal, IllegalAction, Match

log = logging.getLogger(__name__)

Plan = tuple[Match, dict[str, Any], Deal | None]
"""What a write makes of a match: the match after it, the record fields to update, the deal it finished."""
RECENT_REQUESTS = 6
MAX_ATTEMPTS = 5


class Moves:
    """Every change of a match goes through here."""

    def __init__(
        self,
        records: Records,
        store: MatchStore,
        finisher: Finisher,
        seats: Seats,
        terms: Terms,
        *,
        clock: Callable[[], float],
        live: LiveStore | None = None,
    ) -> None:
        self.records = records
        self.store = store
        self.finisher = finisher
        self.seats = seats
        self.terms = terms
        self.clock = clock
        self.live = live
        """Where each change is published for the Mini App's pages (None: no Mini App)."""

    async def submit(
        self,
        match_id: str,
        user_id: int,
        action: Action | str,
        *,
        version: int | None = None,
        request_id: str | None = None,
        message_id: int | None = None,
    ) -> MoveResult:
        """Apply one player's action, exactly once.

        ``version`` is the match version the button was made for (a press on an
        older message is STALE); ``request_id`` (the callback query id) makes a
        repeated delivery a no-op answered as ``duplicate``; ``message_id`` is
        the pressed message: one older than the player's panel is an old panel
        (OLD_PANEL), checked in the move's own script.
        """
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ValueError:
                raise Rejected(Rejection.ILLEGAL) from None
        played = action

        def plan(record: MatchRecord, match: Match) -> Plan:
            seat = _seat_to_act(record, match, user_id, version)
            after = match.copy()
            try:
                finished_deal = after.play(played, seat)
            except IllegalAction as exc:
                raise Rejected(Rejection.ILLEGAL, exc.reason) from None
            pressed = list(record.pressed)
            pressed[seat] = self.clock()
            update: dict[str, Any] = {"deal": StoredDeal.of(after), "pressed": tuple(pressed)}
            if finished_deal is not None:
                update["prev"] = StoredDeal.of_deal(finished_deal)
                update["log"] = (*record.log, deal_line(finished_deal))
            if after.turn is not None and after.turn != seat:
                update["turn_since"] = record.version + 1
            if after.is_over:
                update.update(status=Status.FINISHED, winner=after.winner, finish=Finish.TARGET)
            return after, update, finished_deal

        panel = None if message_id is None else (user_id, message_id)
        return await self._write(match_id, request_id, plan, panel=panel)

    async def hint(self, match_id: str, user_id: int, *, version: int, request_id: str | None = None) -> MoveResult:
        """Count a 💡 the user asked for on their turn in a match against the computer (the panel's ``version``);
        the count is the record's, so the card shows it."""

        def plan(record: MatchRecord, match: Match) -> Plan:
            seat = _seat_to_act(record, match, user_id, version)
            if record.computer_seat is None:
                raise Rejected(Rejection.NOT_ALLOWED)
            hints = list(record.hints)
            hints[seat] += 1
            return match, {"hints": (hints[0], hints[1])}, None

        return await self._write(match_id, request_id, plan)

    async def surrender(self, match_id: str, user_id: int, *, request_id: str | None = None) -> MoveResult:
        """End the user's match with a loss for them."""

        def plan(record: MatchRecord, match: Match) -> Plan:
            seat = record.seat_of(user_id)
            if seat is None:
                raise Rejected(Rejection.NOT_A_PLAYER)
            if record.status is not Status.ACTIVE:
                raise Rejected(Rejection.MATCH_OVER)
            return match, {"status": Status.FINISHED, "winner": 1 - seat, "finish": Finish.SURRENDER}, None

        return await self._write(match_id, request_id, plan)

    async def abandon(self, match_id: str, *, version: int | None = None) -> MoveResult:
        """End an active match nobody moved in: no winner, no rating; posted and kept in the histories.

        With ``version``, only if nothing happened since that version (the scheduler's check)."""

        def plan(record: MatchRecord, match: Match) -> Plan:
            _still(record, version)
            return match, {"status": Status.ABANDONED, "finish": Finish.ABANDONED, "winner": None}, None

        return await self._write(match_id, None, plan)

    async def forfeit(self, match_id: str, seat: int, *, version: int) -> MoveResult:
        """``seat`` ran out of time at ``version``: the match ends with a loss for them, counted and rated."""

        def plan(record: MatchRecord, match: Match) -> Plan:
            _still(record, version)
            return match, {"status": Status.FINISHED, "winner": 1 - seat, "finish": Finish.FORFEIT}, None

        return await self._write(match_id, None, plan)

    async def claim_win(
        self, match_id: str, user_id: int, *, version: int, request_id: str | None = None
    ) -> MoveResult:
        """The waiting player takes the win after ``claim_after`` seconds without a move (a forfeit)."""

        def plan(record: MatchRecord, match: Match) -> Plan:
            seat = record.seat_of(user_id)
            if seat is None:
                raise Rejected(Rejection.NOT_A_PLAYER)
            _still(record, version)
            if match.turn == seat:
                raise Rejected(Rejection.NOT_ALLOWED)
            if self.clock() - record.updated < self.terms.claim_after:
                raise Rejected(Rejection.TOO_EARLY)
            return match, {"status": Status.FINISHED, "winner": seat, "finish": Finish.FORFEIT}, None

        return await self._write(match_id, request_id, plan)

    async def move_chat(self, match_id: str, old: int, new: int) -> bool:
        """The match's group became a supergroup with id ``new``: the match is there now, and so is its
        tournament's (under its new id, ``moved_id``). False when it was not a match of ``old``, or it is gone."""

        def plan(record: MatchRecord, match: Match) -> Plan:
            if record.chat_id != old:
                raise Rejected(Rejection.NOT_ALLOWED)
            update: dict[str, Any] = {"chat_id": new}
            if record.tournament is not None and challenge_chat(record.tournament) == old:
                update["tournament"] = moved_id(record.tournament, new)
            return match, update, None

        try:
            await self._write(match_id, None, plan)
        except Rejected:
            return False
        return True

    async def _write(
        self,
        match_id: str,
        request_id: str | None,
        plan: Callable[[MatchRecord, Match], Plan],
        *,
        panel: tuple[int, int] | None = None,
    ) -> MoveResult:
        """Apply what ``plan`` makes of the match, exactly once, with a bounded retry.

        ``plan`` returns the match after the change, the record fields to
        update and the deal the change finished (if any), or raises
        :class:`Rejected`. A rejection judged on this process's cache is judged
        again on the stored record (another instance may have moved the match
        on); a compare-and-set that lost to another writer is planned again on
        the record the script returned. ``panel``: (user, message) of a press,
        refused as OLD_PANEL when the message is older than the user's panel.
        """
        fresh = False
        for _ in range(MAX_ATTEMPTS):
            record, match, cached = await self.records.load(match_id, fresh=fresh)
            if request_id is not None and request_id in record.recent:
                return MoveResult(record, match, duplicate=True)
            try:
                after, update, finished_deal = plan(record, match)
            except Rejected:
                if cached:
                    fresh = True
                    continue
                raise
            pressed = None
            if panel is not None and (seat := record.seat_of(panel[0])) is not None:
                pressed = (f"p{seat}", panel[1])
            result = await self._commit(record, after, update, request_id, finished_deal, pressed)
            if result is not None:
                result.finished_deal = finished_deal
                await self.announce(match_id, result.record.version)
                return result
            fresh = False
        raise Rejected(Rejection.BUSY)

    async def announce(self, match_id: str, version: int) -> None:
        """Tell the match's open Mini App pages that it changed (best effort: a page that missed it catches up
        when its connection comes back, and the move is made whatever Redis answers here)."""
        if self.live is None:
            return
        try:
            await self.live.publish(match_id, version)
        except (StorageUnavailable, RedisError) as exc:
            log.info("match %s: its pages were not told of version %s (%s)", match_id, version, exc)

    async def _commit(
        self,
        record: MatchRecord,
        match: Match,
        update: dict[str, Any],
        request_id: str | None,
        finished_deal: Deal | None = None,
        pressed: tuple[str, int] | None = None,
    ) -> MoveResult | None:
        """Write ``record`` with ``update`` if its version is still current.

        Returns None when another writer moved the version on (the cache then
        holds the current record and the caller checks its move again).
        ``pressed``: the panel's field and the pressed message (see ``_write``).
        """
        recent = record.recent if request_id is None else [*record.recent, request_id][-RECENT_REQUESTS:]
        new = record.model_copy(
            update={
                **update,
                "version": record.version + 1,
                "rev": secrets.token_hex(4),
                "updated": self.clock(),
                "recent": recent,
            }
        )
        data = new.model_dump_json()
        write: dict[str, Any] = {
            "expected": f"{record.version}/{record.rev}",
            "written": f"{new.version}/{new.rev}",
            "record": data,
            "pressed": pressed,
        }
        posts = [] if finished_deal is None or new.prev is None else [_deal_post(new.prev)]
        if new.status is Status.ACTIVE:
            handed = "turn_since" in update
            return await self._commit_move(record, new, match, write, posts, handed=handed, dealt=finished_deal)
        summary, finishing = finishing_note(record, new, match)
        commit = await self.store.commit_finish(
            record.id, **write, ttl=self.terms.finished_ttl, finishing=finishing, posts=posts
        )
        if commit.outcome is not Written.WRITTEN:
            self._not_written(record, commit)
            return None
        self.records.remember(new, match, raw=data)
        try:
            summary = await self.finisher.count(new, finishing) or summary
        except StorageUnavailable as exc:
            # The move is made; the rest of its finish waits in Redis for the delivery to carry it through.
            log.warning("match %s: finished, its counting waits for Redis (%s)", new.id, exc)
        return MoveResult(new, match, summary=summary)

    async def _commit_move(
        self,
        record: MatchRecord,
        new: MatchRecord,
        match: Match,
        write: dict[str, Any],
        posts: list[str],
        *,
        handed: bool,
        dealt: Deal | None,
    ) -> MoveResult | None:
        """The write of a move that leaves the match on (see ``_commit``); what happens next is asked of the
        seat to act first."""
        await self.seats.before_write(new, match)
        # The turn's panel comes as a new message, except in a match played in the person's private chat: there
        # the one panel is edited in place (the delivery sends it anew only after results were posted under it).
        field = f"p{match.turn}n" if handed and match.turn is not None and new.private_seat is None else ""
        commit = await self.store.commit_move(record.id, **write, ttl=self.terms.keep_ttl, handed=field, posts=posts)
        if commit.outcome is not Written.WRITTEN:
            self._not_written(record, commit)
            return None
        if dealt is not None:
            # Who plays in the chat lives as long as the match (refreshed at each deal's end).
            for player in record.players:
                with contextlib.suppress(StorageUnavailable):
                    await self.store.keep_active(record.chat_id, player.id, ttl=self.terms.keep_ttl)
        self.records.remember(new, match, raw=write["record"])
        return MoveResult(new, match, messages=commit.messages)

    def _not_written(self, record: MatchRecord, commit: Commit) -> None:
        """A write that did not happen: nothing when it lost the compare-and-set (the cache then holds what Redis
        holds, whatever the versions say: a newer write by another process, an older one after Redis lost its
        last second, or the same version made again by other moves since); else why it was refused."""
        if commit.outcome is Written.OLD_PANEL:
            raise Rejected(Rejection.OLD_PANEL)
        if commit.outcome is Written.LOST:
            assert commit.stored is not None
            stored = MatchRecord.model_validate_json(commit.stored)
            self.records.remember(stored, stored.match(), redis_says=True)
            return
        self.records.forget(record.id)
        raise Rejected(Rejection.NO_MATCH)


def _deal_post(deal: StoredDeal) -> str:
    """A finished deal's result, to post in the group."""
    return json.dumps({"k": "deal", "d": deal.model_dump()}, separators=(",", ":"))


def _still(record: MatchRecord, version: int | None) -> None:
    """Refuse unless the match is active and (given a ``version``) nothing happened since."""
    if record.status is not Status.ACTIVE:
        raise Rejected(Rejection.MATCH_OVER)
    if version is not None and record.version != version:
        raise Rejected(Rejection.STALE)


def _seat_to_act(record: MatchRecord, match: Match, user_id: int, version: int | None) -> int:
    """The user's seat if they may act on this record now; else the reason they may not."""
    if record.status is not Status.ACTIVE:
        raise Rejected(Rejection.MATCH_OVER)
    seat = record.seat_of(user_id)
    if seat is None:
        raise Rejected(Rejection.NOT_A_PLAYER)
    if version is not None and record.version != version:
        raise Rejected(Rejection.STALE)
    if match.turn != seat:
        raise Rejected(Rejection.NOT_YOUR_TURN)
    return seat
