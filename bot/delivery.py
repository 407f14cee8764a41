"""Brings every message of a match to the match's version: the group's table and results, each panel.

What each message should show is state in Redis, not a memory: the match's
version (written by the move itself), the results still to post (appended
by the same script) and what each message shows now (``Messages``). A
match whose messages are behind is in the service's due set; ``kick`` runs
its delivery now, ``resume`` picks up every due match after a start, and a
sweep retries any that a failure left behind.

Each match has three lanes that never wait for one another: the group (the
finished deal's final table, its result, the new deal's table, the match
result, in that order) and one per panel, so a group waiting for its budget
or in a flood wait never holds up a player's hand. A lane renders from the
newest record on each pass, so older versions are skipped, never shown
after a newer one; a failure (429, network, Redis) is retried with backoff
until Telegram takes the newest version.

The turn: when it passes to a player, their panel comes as a new message at
the bottom of their chat (so Telegram notifies them; silently when they moved
in the last ``QUIET_AFTER`` seconds); the old one is deleted, or loses its
buttons where deleting fails. The player who just moved gets an edit.

Telegram cannot make a send idempotent: if the process dies after Telegram
took a message but before Redis recorded it, the next pass sends it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramMigrateToChat, TelegramRetryAfter

from bot import keyboards, render
from bot.clock import BACKOFF_FIRST, next_backoff
from bot.i18n import I18n, Translator
from bot.lean import Markup
from bot.outbox import Outbox
from bot.pictures import build
from bot.pictures.painter import Painter, caption_fits
from bot.services.matches import MatchService, Rejected, StorageUnavailable
from bot.services.models import MatchRecord, Messages, Summary
from bot.storage.codec import StoredDeal
from engine import Match

log = logging.getLogger(__name__)

QUIET_AFTER = 20.0
"""A player who moved this many seconds ago or less is handed the turn without a notification."""
SWEEP_EVERY = 15.0
RECENT_WRITES = 60.0
"""Seconds during which a match shown lately is looked at by the sweep for having gone back in Redis."""
SWEEP_SLICE = 64
LANE_LEASE = 120.0
"""Seconds a process's hold on a lane of a match lasts unless renewed; a process killed holding it loses it
sooner, once its heartbeat (``HEARTBEAT_TTL``) is gone."""
HEARTBEAT_EVERY = 1.0
HEARTBEAT_TTL = 3.0
SHOWN_MATCHES = 4096
"""How many recent matches the delivery remembers the shown version of (to notice Redis losing writes)."""
GROUP = "group"
Lane = str | int
"""``GROUP`` or a seat."""
LANES: tuple[Lane, ...] = (GROUP, 0, 1)
Screens = tuple[MatchRecord, Match, Messages]
"""A match as stored and what its messages show."""
Ticket = dict[Lane, int]
"""For each lane of a match with no write of its messages under way before a write of the match, how many
it had made (``Delivery.ticket``)."""


@dataclass
class _Job:
    """One match's lanes: which must run again, and the tasks running them."""

    dirty: dict[Lane, bool] = field(default_factory=lambda: {GROUP: True, 0: True, 1: True})
    tasks: dict[Lane, asyncio.Task[None]] = field(default_factory=dict)
    kicked: dict[Lane, asyncio.Event] = field(
        default_factory=lambda: {GROUP: asyncio.Event(), 0: asyncio.Event(), 1: asyncio.Event()}
    )
    """Set by each kick: a lane waiting on another process's lease asks it again at once."""
    snapshot: dict[Lane, tuple[Screens, int]] = field(default_factory=dict)
    """What a lane's next pass may start from instead of reading Redis: the match and its messages as the
    move that kicked it wrote them, while nothing else can have changed the lane's messages since (see
    ``Delivery.kick``)."""


class Delivery:
    def __init__(
        self,
        service: MatchService,
        outbox: Outbox,
        i18n: I18n,
        *,
        time: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_migrate: Callable[[int, int], Awaitable[None]] | None = None,
        on_shown: Callable[[MatchRecord, Match], Awaitable[None]] | None = None,
        bot_username: str = "",
        shared: bool = True,
        painter: Painter | None = None,
    ) -> None:
        self.painter = painter
        """Draws the match cards (None: pictures are off, results go as text)."""
        self.shared = shared
        """Whether other processes deliver too (webhook workers): then each lane is run under a lease in
        Redis. One polling process needs none."""
        self.bot_username = bot_username
        self.service = service
        self.outbox = outbox
        self.i18n = i18n
        self.time = time
        self.sleep = sleep
        self.on_migrate = on_migrate
        self.on_shown = on_shown
        """Called with the match at each pass of its group lane (the computer's move is made due there)."""
        self._jobs: dict[str, _Job] = {}
        self.token = secrets.token_hex(8)
        """This process's name on the lanes it delivers (``LANE_LEASE``)."""
        self._shown: OrderedDict[str, int] = OrderedDict()
        """The newest version of each match (the most recent ``SHOWN_MATCHES``) this process showed."""
        self._shown_at: dict[str, float] = {}
        """When each of those was last shown (``time``)."""
        self._settling: set[asyncio.Task[Any]] = set()
        """Lanes settling their match (its job is gone already): ``idle`` waits for them too."""
        self._sweeper: asyncio.Task[None] | None = None
        self._heart: asyncio.Task[None] | None = None
        self._closed = False
        self._writes: OrderedDict[tuple[str, Lane], int] = OrderedDict()
        """How many writes of its messages each lane of the recent matches began (``ticket``)."""
        self._writing: dict[tuple[str, Lane], int] = {}
        """The lanes' writes under way."""
        self._edited: dict[str, dict[str, int]] = {}
        """The versions edits brought each match's table and panels to (``tv``, ``p0v``, ``p1v``) that Redis
        does not hold yet: recorded with the match's settle (an edit is recorded lazily: done again after a
        restart, it changes nothing), and meanwhile what the lanes take as shown; ``p0x``, ``p1x``: a replaced
        panel this process tidied."""

    # -- scheduling -----------------------------------------------------------

    def ticket(self, match_id: str) -> Ticket:
        """Taken before a write of the match whose script reads what its messages show (a snapshot, see
        ``kick``): each lane with no write of its messages under way, and how many it began."""
        return {
            lane: self._writes.get((match_id, lane), 0) for lane in LANES if not self._writing.get((match_id, lane))
        }

    def _wrote(self, match_id: str, lane: Lane) -> None:
        """Count one more write of the lane's messages (begun now, or made elsewhere: a kick without snapshot)."""
        key = (match_id, lane)
        self._writes[key] = self._writes.get(key, 0) + 1
        self._writes.move_to_end(key)
        while len(self._writes) > 3 * SHOWN_MATCHES:
            self._writes.popitem(last=False)

    async def _record(self, match_id: str, lane: Lane, write: Awaitable[None]) -> None:
        """Make a write of what the lane's messages show (counted: a snapshot older than it is not used)."""
        key = (match_id, lane)
        self._wrote(match_id, lane)
        self._writing[key] = self._writing.get(key, 0) + 1
        try:
            await write
        finally:
            if self._writing[key] == 1:
                del self._writing[key]
            else:
                self._writing[key] -= 1

    def kick(
        self,
        match_id: str,
        lanes: tuple[Lane, ...] = (GROUP, 0, 1),
        *,
        snapshot: Screens | None = None,
        ticket: Ticket | None = None,
    ) -> None:
        """Bring the match's messages up to date now (a lane already running passes once more).

        ``snapshot``: the match and its messages as the write that kicked read them in its script, and the
        ``ticket`` taken before that write. A lane's next pass begins from it instead of reading Redis when
        nothing can have changed the lane's messages since the script read them: one polling process (its
        lanes are the only writers of their messages, and anything else that writes them kicks the match
        after), and no write of the lane's messages was under way at the ticket or began after it."""
        if self._closed:
            return
        job = self._jobs.setdefault(match_id, _Job())
        for lane in lanes:
            job.dirty[lane] = True
            job.kicked[lane].set()
            written = None if ticket is None else ticket.get(lane)
            if snapshot is not None and written is not None and not self.shared:
                job.snapshot[lane] = (snapshot, written)
            else:
                # Something else changed the match (a panel to send again, a resync...): read it.
                job.snapshot.pop(lane, None)
                self._wrote(match_id, lane)
            task = job.tasks.get(lane)
            if task is None or task.done():
                job.tasks[lane] = asyncio.create_task(self._run(match_id, job, lane))

    async def resume(self) -> None:
        """Start delivering every due match (after a start), and keep sweeping for any left behind."""
        if self.shared:
            await self.service.beat(self.token, HEARTBEAT_TTL)
            if self._heart is None:
                self._heart = asyncio.create_task(self._beat())
        await self._sweep_once()
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep())

    async def _beat(self) -> None:
        """Say every second that this process is alive: a lane it holds is taken over soon after it dies.
        (Real time, whatever the clock: the heartbeat's TTL is Redis's.)"""
        while not self._closed:
            await asyncio.sleep(HEARTBEAT_EVERY)
            with contextlib.suppress(StorageUnavailable):
                await self.service.beat(self.token, HEARTBEAT_TTL)

    async def _sweep_once(self) -> None:
        for match_id in await self.service.screens_due():
            if match_id not in self._jobs:
                self.kick(match_id)
        # Redis that went back to an earlier moment (a restart that lost its last second, a failover)
        # shows itself nowhere but in what this process showed since: a match behind that is looked at.
        # Only the matches shown lately can be ahead of it (Redis loses its last second, a replica its last few),
        # looked at a slice at a time: a sweep never holds the loop for long, however many matches there are.
        since = self.time() - RECENT_WRITES
        ids = list(itertools.takewhile(lambda m: self._shown_at.get(m, since) > since, reversed(self._shown)))
        for start in range(0, len(ids), SWEEP_SLICE):
            chunk = ids[start : start + SWEEP_SLICE]
            for match_id, version in zip(chunk, await self.service.versions(chunk), strict=True):
                if version is not None and version < self._shown.get(match_id, -1):
                    self.kick(match_id)
            await asyncio.sleep(0)

    async def _sweep(self) -> None:
        while not self._closed:
            await self.sleep(SWEEP_EVERY)
            try:
                await self._sweep_once()
            except StorageUnavailable:
                log.warning("delivery sweep: storage unavailable")

    async def close(self) -> None:
        """Stop delivering (what is due stays due in Redis for the next start)."""
        self._closed = True
        tasks = [t for job in self._jobs.values() for t in job.tasks.values() if not t.done()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        if self._heart is not None:
            tasks.append(self._heart)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until no lane has work and no match is being settled (tests)."""
        while True:
            tasks = [t for job in self._jobs.values() for t in job.tasks.values() if not t.done()]
            tasks += [t for t in self._settling if not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, match_id: str, job: _Job, lane: Lane) -> None:
        """Run the lane while it has work, holding its lease (another process that holds it instead is asked
        to run it once more)."""
        backoff = BACKOFF_FIRST
        name = str(lane)
        keeper: asyncio.Task[None] | None = None
        waited_out = False
        try:
            while job.dirty[lane] and not self._closed:
                job.dirty[lane] = False
                try:
                    if keeper is None and self.shared:
                        job.kicked[lane].clear()
                        if not await self.service.take_lane(match_id, name, self.token, LANE_LEASE):
                            if waited_out and not job.kicked[lane].is_set():
                                break  # a live process holds it, and runs it once more
                            # The holder was asked to run it once more. It may have died this very moment (its
                            # heartbeat not gone yet): once more after the heartbeat's time; and at once on a
                            # kick meanwhile (a newer version: the holder, done by then, must be asked again).
                            job.dirty[lane] = True
                            try:
                                await asyncio.wait_for(job.kicked[lane].wait(), HEARTBEAT_TTL)
                                waited_out = False
                            except TimeoutError:
                                waited_out = True
                            continue
                        keeper = asyncio.create_task(self._keep(match_id, name))
                    await self._pass(match_id, lane, self._snapshot(match_id, job, lane))
                    backoff = BACKOFF_FIRST
                    if keeper is not None and not job.dirty[lane]:
                        if await self.service.leave_lane(match_id, name, self.token, LANE_LEASE):
                            job.dirty[lane] = True  # another process asked meanwhile
                        else:
                            keeper.cancel()
                            keeper = None
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    job.dirty[lane] = True
                    wait = float(exc.retry_after) if isinstance(exc, TelegramRetryAfter) else backoff
                    log.warning("match %s %s: delivery failed (%s: %s), again in %.0f s", match_id, lane,
                                type(exc).__name__, exc, wait)  # fmt: skip
                    await self.sleep(wait)
                    backoff = next_backoff(backoff)
        finally:
            if keeper is not None:
                keeper.cancel()
                # Stopping (or failing) while holding the lane: another process may take it at once.
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.service.leave_lane(match_id, name, self.token, 0.001), 2)
        if all(t.done() or t is asyncio.current_task() for t in job.tasks.values()) and not any(job.dirty.values()):
            self._jobs.pop(match_id, None)
            settling = asyncio.current_task()
            assert settling is not None
            self._settling.add(settling)
            try:
                with contextlib.suppress(StorageUnavailable, Rejected):
                    await self._settle(match_id)
            finally:
                self._settling.discard(settling)

    def _snapshot(self, match_id: str, job: _Job, lane: Lane) -> Screens | None:
        """The snapshot the lane's pass may start from (``kick``), if any."""
        found = job.snapshot.pop(lane, None)
        if found is None or self._writing.get((match_id, lane)) or self._writes.get((match_id, lane), 0) != found[1]:
            return None
        return found[0]

    async def resync(self, match_id: str) -> None:
        """Every message of the match must show it again (Redis holds an older version than they show): new
        panels, the table edited; the edits this process has not recorded yet are forgotten."""
        self._edited.pop(match_id, None)
        await self.service.resync(match_id)

    def _edit_done(self, match_id: str, field: str, version: int) -> None:
        """An edit brought a message of the match to ``version`` (recorded with the settle)."""
        edited = self._edited.setdefault(match_id, {})
        edited[field] = max(version, edited.get(field, -1))

    def _tidied(self, match_id: str, seat: int, message_id: int) -> None:
        """A replaced panel was deleted or stripped of its buttons (recorded with the settle)."""
        self._edited.setdefault(match_id, {})[f"p{seat}x"] = message_id

    def _with_edits(self, match_id: str, messages: Messages) -> Messages:
        """What the match's messages show: as Redis says, and the edits not recorded there yet."""
        edited = self._edited.get(match_id)
        if not edited:
            return messages
        tv, p0v, p1v = (edited.get(f, -1) for f in ("tv", "p0v", "p1v"))
        replaced = tuple(
            None if message == edited.get(f"p{seat}x") else message
            for seat, message in enumerate(messages.panels_replaced)
        )
        return messages.model_copy(
            update={
                "table_version": max(messages.table_version, tv),
                "panel_versions": (max(messages.panel_versions[0], p0v), max(messages.panel_versions[1], p1v)),
                "panels_replaced": replaced,
            }
        )

    async def _keep(self, match_id: str, lane: str) -> None:
        """Renew the lane's lease while this process runs it (a pass may wait out long 429s)."""
        while True:
            await self.sleep(LANE_LEASE / 4)
            try:
                if not await self.service.keep_lane(match_id, lane, self.token, LANE_LEASE):
                    log.warning("match %s %s: the lane's lease was lost (Redis down for long?)", match_id, lane)
            except StorageUnavailable:
                pass

    async def _settle(self, match_id: str) -> None:
        """Take the match out of the due set if its messages are all up to date, recording the edits made."""
        edited = dict(self._edited.get(match_id, {}))
        try:
            record, _ = await self.service.peek(match_id)
        except Rejected:
            await self.service.settle(match_id, group_gone=True, blocked=(True, True))
            self._edited.pop(match_id, None)
            return
        blocked = (await self._blocked(record, 0), await self._blocked(record, 1))
        gone = await self.service.group_gone(record.chat_id)
        await self.service.settle(match_id, group_gone=gone, blocked=blocked, edited=edited)
        left = self._edited.get(match_id)
        if left is not None:
            for name, version in edited.items():
                if left.get(name) == version:
                    del left[name]
            if not left:
                del self._edited[match_id]

    async def _blocked(self, record: MatchRecord, seat: int) -> bool:
        """Whether the seat gets no panel: the person blocked the bot, or the seat is the computer's."""
        player = record.players[seat]
        return player.computer or await self.service.is_blocked(player.id)

    # -- one pass of one lane --------------------------------------------------

    async def _pass(self, match_id: str, lane: Lane, snapshot: Screens | None = None) -> None:
        if snapshot is not None:
            record, match, messages = snapshot
        else:
            try:
                record, match, messages = await self.service.screens(match_id)
            except Rejected:
                self._shown.pop(match_id, None)
                self._shown_at.pop(match_id, None)
                self._edited.pop(match_id, None)
                return  # expired: nothing left to show
        messages = self._with_edits(match_id, messages)
        if await self._went_back(record):
            return
        if lane == GROUP:
            if self.on_shown is not None:
                await self.on_shown(record, match)
            await self._group(record, match, messages)
        else:
            assert isinstance(lane, int)
            await self._panel(record, match, messages, lane)

    async def _went_back(self, record: MatchRecord) -> bool:
        """Whether Redis holds an older version of the match than this process showed (it lost writes): then
        every message of the match is shown again from what Redis holds (new panels, the table edited)."""
        shown = self._shown.get(record.id, -1)
        if record.version < shown:
            # A read that crossed a newer write would say the same: only a fresh read after it tells.
            fresh, _ = await self.service.get(record.id)
            if fresh.version < shown:
                log.warning(
                    "match %s: Redis holds version %s, older than the %s shown (it lost writes); showing it again",
                    record.id, fresh.version, shown,
                )  # fmt: skip
                self._shown[record.id] = fresh.version
                if fresh.is_active:
                    await self.resync(record.id)
                self.kick(record.id)
                return True
        if record.version > shown:
            self._shown[record.id] = record.version
        self._shown.move_to_end(record.id)
        self._shown_at[record.id] = self.time()
        while len(self._shown) > SHOWN_MATCHES:
            gone, _ = self._shown.popitem(last=False)
            self._shown_at.pop(gone, None)
        return False

    async def _group(self, record: MatchRecord, match: Match, messages: Messages) -> None:
        chat = record.chat_id
        if await self.service.group_gone(chat):
            return
        tr = self.i18n[record.lang]
        try:
            for post in messages.posts:
                if json.loads(post)["k"] == "match":
                    messages = await self._table(record, match, messages, tr)  # the final table, then the result
                await self._post(record, messages, post, tr)
                await self._record(record.id, GROUP, self.service.posted(record.id, post))
            await self._table(record, match, messages, tr)
        except TelegramMigrateToChat as exc:
            if self.on_migrate is not None:
                await self.on_migrate(chat, exc.migrate_to_chat_id)
            raise
        except TelegramForbiddenError as exc:
            log.info("group %s: %s; its matches go on in private", chat, exc.message)
            await self.service.set_group_gone(chat, True)

    async def _table(self, record: MatchRecord, match: Match, messages: Messages, tr: Translator) -> Messages:
        """Bring the current deal's table to the match's version (a new deal gets a new message)."""
        chat, number, version = record.chat_id, match.deal.number, record.version
        text = render.table_text(tr, record, match.deal.view(None))
        if messages.table is not None and messages.table_deal == number:
            if messages.table_version >= version:
                return messages
            if await self._edit(chat, messages.table, text, None, version):
                self._edit_done(record.id, "tv", version)
                return messages.model_copy(update={"table_version": version})
        sent = await self.outbox.send(chat, text)
        await self._record(record.id, GROUP, self.service.shown(record.id, t=sent.message_id, tn=number, tv=version))
        return messages.model_copy(update={"table": sent.message_id, "table_deal": number, "table_version": version})

    async def _post(self, record: MatchRecord, messages: Messages, post: str, tr: Translator) -> None:
        """Post one result; a finished deal's table first shows the deal's end."""
        data = json.loads(post)
        chat = record.chat_id
        if data["k"] == "deal":
            deal = StoredDeal.model_validate(data["d"]).to_match().deal
            if messages.table is not None and messages.table_deal == deal.number:
                final = render.table_text(tr, record, deal.view(None))
                await self._edit(chat, messages.table, final, None, record.version)
            await self.outbox.send(chat, render.deal_result_text(tr, record, deal))
        elif messages.summary is not None:
            lines = [render.match_result_text(tr, record, messages.summary)]
            rating = render.rating_text(tr, record, messages.summary)
            if rating is not None:
                lines.append(rating)
            await self._card(record, messages.summary, chat, "\n".join(lines), tr)

    async def _card(
        self, record: MatchRecord, summary: Summary, chat: int, caption: str, tr: Translator, *, silent: bool = False
    ) -> None:
        """The match card with its caption; the caption alone when pictures are off or the card cannot be drawn
        or sent (a 429 is waited out, a 403 reaches the caller)."""
        png = None
        if self.painter is not None and caption_fits(caption):
            png = await self.painter.png(build.match_card(tr, record, summary), key=f"{record.id}:{tr.lang}")
        if png is not None:
            try:
                await self.outbox.send_photo(chat, png, caption, silent=silent)
                return
            except TelegramBadRequest as exc:
                if "upgraded to a supergroup" in exc.message:
                    raise
                log.warning("match %s: Telegram refused its card (%s); its text goes alone", record.id, exc.message)
        await self.outbox.send(chat, caption, silent=silent)

    async def _edit(self, chat: int, message_id: int, text: str, markup: Markup | None, version: int) -> bool:
        """Edit a match message; False when it is gone (deleted by someone), so a new one is due."""
        try:
            await self.outbox.edit_now(chat, message_id, text, markup, version)
        except TelegramBadRequest as exc:
            if "not found" in exc.message or "can't be edited" in exc.message:
                return False
            raise
        return True

    async def _panel(self, record: MatchRecord, match: Match, messages: Messages, seat: int) -> None:
        if await self._blocked(record, seat):
            return
        if await self._panel_message(record, match, messages, seat) and messages.summary is not None:
            await self._private_card(record, messages, seat)

    async def _private_card(self, record: MatchRecord, messages: Messages, seat: int) -> None:
        """After the match's last panel, the match card in the player's private chat with their own result
        and rating change (once: recorded as ``c0``/``c1``). None for a match played in that chat, or one
        that nobody won."""
        summary = messages.summary
        player = record.players[seat]
        if messages.cards[seat] or summary is None:
            return
        if summary.winner is not None and record.chat_id != player.id:
            tr = self.i18n[record.lang]
            text = render.private_result_text(tr, record, summary, seat)
            quiet = self.time() - record.pressed[seat] < QUIET_AFTER  # who just made the last move knows
            try:
                await self._card(record, summary, player.id, text, tr, silent=quiet)
            except TelegramForbiddenError as exc:
                await self._player_gone(record, seat, exc)
                return
        await self._record(record.id, seat, self.service.shown(record.id, **{f"c{seat}": 1}))

    async def _panel_message(self, record: MatchRecord, match: Match, messages: Messages, seat: int) -> bool:
        """Bring the seat's panel to the match's version; False when the player cannot be written to."""
        player = record.players[seat]
        tr = self.i18n[record.lang]
        view = match.deal.view(seat)
        prev = record.prev.to_match().deal if record.prev is not None and not record.deal.a else None
        text = render.panel_text(tr, record, view, prev=prev, summary=messages.summary)
        markup = keyboards.panel_json(tr, record.id, record.version, view) if record.is_active else None
        old = messages.panel(seat)
        since = messages.panel_since[seat]
        handed = record.is_active and match.turn == seat and since < record.turn_since
        left = messages.panels_replaced[seat]
        if left is not None and left != old:
            # A panel replaced by a process that died before tidying it: its buttons go now.
            await self._tidy(player.id, left)
            self._tidied(record.id, seat, left)
        try:
            if old is not None and since >= 0 and not handed:
                if messages.panel_versions[seat] < record.version:
                    if await self._edit(player.id, old, text, markup, record.version):
                        self._edit_done(record.id, f"p{seat}v", record.version)
                        return True
                else:
                    return True
            quiet = self.time() - record.pressed[seat] < QUIET_AFTER
            if since >= 0:
                # Should the process die after Telegram took the new panel but before it is recorded, the
                # next pass sends one more: the panel that works is always the newest in the chat.
                await self._record(record.id, seat, self.service.shown(record.id, **{f"p{seat}n": -1}))
            sent = await self.outbox.send(player.id, text, markup, silent=quiet)
            fields = {f"p{seat}": sent.message_id, f"p{seat}v": record.version, f"p{seat}n": record.version}
            replaced = old if old != sent.message_id else None
            if replaced is not None:
                fields[f"p{seat}x"] = replaced  # to tidy: a process that dies first leaves it to the next pass
            await self._record(record.id, seat, self.service.shown(record.id, **fields))
        except TelegramForbiddenError as exc:
            await self._player_gone(record, seat, exc)
            return False
        if replaced is not None:
            await self._tidy(player.id, replaced)
            self._tidied(record.id, seat, replaced)
        return True

    async def _tidy(self, chat_id: int, message_id: int) -> None:
        """Delete a replaced panel, or at least take its buttons (best effort)."""
        if not await self._quietly(self.outbox.delete(chat_id, message_id)):
            await self._quietly(self.outbox.strip(chat_id, message_id))

    async def _quietly(self, call: Awaitable[object]) -> bool:
        """Tidying up an old panel is best effort: a failure leaves a panel whose presses are refused anyway."""
        try:
            result = await call
        except Exception as exc:
            log.info("tidying an old panel failed: %s", exc)
            return False
        return result is not False

    async def _player_gone(self, record: MatchRecord, seat: int, exc: TelegramForbiddenError) -> None:
        """The player blocked the bot: say so once to the opponent and the group; their panel waits for /hand."""
        player = record.players[seat]
        log.info("match %s: %s cannot be written to (%s)", record.id, player.id, exc.message)
        if not await self.service.set_blocked(player.id, True):
            return
        tr = self.i18n[record.lang]
        if "initiate" in exc.message:  # never started the bot: a button in the group opens it
            text = render.player_notice(tr, record, seat, started=False)
            markup = keyboards.open_bot_keyboard(tr, self.bot_username, f"m_{record.id}")
        else:
            text, markup = render.player_notice(tr, record, seat, started=True), None
            with contextlib.suppress(TelegramForbiddenError, TelegramBadRequest):
                await self.outbox.send(record.players[1 - seat].id, text)
        if record.is_active and not await self.service.group_gone(record.chat_id):
            with contextlib.suppress(TelegramForbiddenError, TelegramBadRequest):
                await self.outbox.send(record.chat_id, text, markup)
