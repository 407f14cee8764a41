"""Brings every message of a match to the match's version: the group's table and results, each panel.

What each message should show is state in Redis, not a memory: the match's
version (written by the move itself), the results still to post (appended
by the same script) and what each message shows now (``Messages``). A
match whose messages are behind is in the due set (``bot/storage/matches.py``);
``kick`` runs its delivery now, ``resume`` picks up every due match after a
start, and a sweep retries any that a failure left behind.

Each match has three lanes that never wait for one another: the group (the
finished deal's final table, its result, the new deal's table, the match
result, in that order) and one per panel, so a group waiting for its budget
or in a flood wait never holds up a player's hand (a match played in a
person's private chat has no table, and its results go with the panel's lane,
after the panel: ``bot/delivery/passes.py``). A lane renders from the
newest record on each pass (``bot/delivery/passes.py``), so older versions are
skipped, never shown after a newer one; a failure (429, network, Redis) is
retried with backoff until Telegram takes the newest version.

Telegram cannot make a send idempotent: if the process dies after Telegram
took a message but before Redis recorded it, the next pass sends it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiogram.exceptions import (
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from redis.exceptions import RedisError

from bot.clock import BACKOFF_FIRST, next_backoff
from bot.delivery.ledger import GROUP, LANES, Lane, Screens, Ticket
from bot.delivery.passes import Passes
from bot.i18n import Translator
from bot.metrics import DELIVERY_TRIES, Metrics
from bot.models import MatchRecord, Summary
from bot.outbox import GUARD
from bot.runtime import cancel_and_wait
from bot.services.chats import Chats
from bot.services.errors import Rejected
from bot.services.records import Records
from bot.storage.base import StorageUnavailable
from bot.storage.lanes import LaneStore
from bot.storage.matches import MatchStore

log = logging.getLogger(__name__)

SWEEP_EVERY = 15.0
RECENT_WRITES = 60.0
"""Seconds during which a match shown lately is looked at by the sweep for having gone back in Redis."""
SWEEP_SLICE = 64
LANE_LEASE = 120.0
"""Seconds a process's hold on a lane of a match lasts unless renewed; a process killed holding it loses it
sooner, once its heartbeat (``HEARTBEAT_TTL``) is gone."""
HEARTBEAT_EVERY = 1.0
HEARTBEAT_TTL = 3.0


TRANSIENT = (TelegramNetworkError, TelegramServerError, TelegramUnauthorizedError, StorageUnavailable, RedisError,
             OSError)  # fmt: skip
"""Failures that pass by themselves (Telegram or Redis away, a token being replaced): a lane that stops after them
leaves its match due, for the sweep to take up again. Any other failure (Telegram refusing the call, a bug) no
retry mends: the lane gives up at that version."""


def lane_field(lane: Lane) -> str:
    """The match hash's field that holds the version a lane gave up at (``xg``, ``x0``, ``x1``)."""
    return f"x{'g' if lane == GROUP else lane}"


class LaneTaken(Exception):
    """The lane this process was running is no longer its own: another process took it for dead and holds it,
    or Redis lost the lease (``Delivery._guard``)."""


@dataclass
class _Job:
    """One match's lanes: which must run again, and the tasks running them."""

    dirty: dict[Lane, bool] = field(default_factory=lambda: {GROUP: False, 0: False, 1: False})
    """Set by ``Delivery.kick`` for the lanes it names: a lane not kicked has nothing to run."""
    tasks: dict[Lane, asyncio.Task[None]] = field(default_factory=dict)
    kicked: dict[Lane, asyncio.Event] = field(
        default_factory=lambda: {GROUP: asyncio.Event(), 0: asyncio.Event(), 1: asyncio.Event()}
    )
    """Set by each kick: a lane waiting on another process's lease asks it again at once."""
    snapshot: dict[Lane, tuple[Screens, int]] = field(default_factory=dict)
    """What a lane's next pass may start from instead of reading Redis: the match and its messages as the
    move that kicked it wrote them, while nothing else can have changed the lane's messages since (see
    ``Delivery.kick``)."""
    waited_out: dict[Lane, bool] = field(default_factory=dict)
    """A lane that waited the heartbeat's time for the process holding it (it is alive: it runs it)."""
    attempted: dict[Lane, int] = field(default_factory=dict)
    """The version each lane's last pass tried to bring its messages to."""


class Delivery:
    """The lanes of the matches this process delivers."""

    def __init__(
        self,
        records: Records,
        matches: MatchStore,
        lanes: LaneStore,
        chats: Chats,
        passes: Passes,
        *,
        time: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        shared: bool = True,
        metrics: Metrics | None = None,
    ) -> None:
        self.metrics = metrics or Metrics()
        self.records = records
        self.matches = matches
        self.lanes = lanes
        self.chats = chats
        self.passes = passes
        self.ledger = passes.ledger
        self.time = time
        self.sleep = sleep
        self.shared = shared
        """Whether other processes deliver too (webhook workers): then each lane is run under a lease in
        Redis. One polling process needs none."""
        self._jobs: dict[str, _Job] = {}
        self.token = secrets.token_hex(8)
        """This process's name on the lanes it delivers (``LANE_LEASE``)."""
        self._settling: set[asyncio.Task[Any]] = set()
        """Lanes settling their match (its job is gone already): ``idle`` waits for them too."""
        self._sweeper: asyncio.Task[None] | None = None
        self._heart: asyncio.Task[None] | None = None
        self._closed = False

    # -- scheduling -----------------------------------------------------------

    def ticket(self, match_id: str) -> Ticket:
        """Taken before a write of the match whose script reads what its messages show (``Ledger.ticket``)."""
        return self.ledger.ticket(match_id)

    def kick(
        self,
        match_id: str,
        lanes: tuple[Lane, ...] = LANES,
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
                self.ledger.wrote(match_id, lane)
            task = job.tasks.get(lane)
            if task is None or task.done():
                job.tasks[lane] = asyncio.create_task(self._run(match_id, job, lane))

    async def resend_panel(self, match_id: str, seat: int) -> None:
        """The seat's panel must arrive again as a new message (its screens are due), now."""
        await self.matches.shown_due(match_id, **{f"p{seat}n": -1})
        self.kick(match_id, (seat,))

    async def resync(self, match_id: str) -> None:
        """Every message of the match must show it again (Redis holds an older version than they show): new
        panels, the table edited; the edits this process has not recorded yet are forgotten."""
        self.ledger.edited.pop(match_id, None)
        await self.matches.shown_due(match_id, tv=-1, p0v=-1, p1v=-1, p0n=-1, p1n=-1)

    async def say(self, record: MatchRecord, text: str) -> None:
        """A line of the match's own in the group (a reminder), where its group messages go now (its topic, or
        General once the topic is gone); errors reach the caller."""
        await self.passes.say(record, text)

    async def result_caption(
        self, tr: Translator, record: MatchRecord, summary: Summary, line: str | None = None
    ) -> str:
        """The match's result as the group reads it, with each person's accuracy and hints, then ``line``."""
        return await self.passes.result_caption(tr, record, summary, line)

    async def migrated(self, old: int, new: int) -> None:
        """The group became a supergroup: everything of the chat moves to its new id, its matches show there."""
        for match_id in await self.chats.migrate(old, new):
            self.kick(match_id)

    # -- start, sweep, stop ---------------------------------------------------------

    async def resume(self) -> None:
        """Start delivering every due match (after a start), and keep sweeping for any left behind."""
        if self.shared:
            await self.lanes.beat(self.token, HEARTBEAT_TTL)
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
                await self.lanes.beat(self.token, HEARTBEAT_TTL)

    async def _sweep_once(self) -> None:
        for match_id in await self.matches.screens_due():
            if match_id not in self._jobs:
                self.kick(match_id)
        # Redis that went back to an earlier moment (a restart that lost its last second, a failover)
        # shows itself nowhere but in what this process showed since: a match behind that is looked at.
        # Only the matches shown lately can be ahead of it (Redis loses its last second, a replica its last few),
        # looked at a slice at a time: a sweep never holds the loop for long, however many matches there are.
        since = self.time() - RECENT_WRITES
        shown, shown_at = self.ledger.shown, self.ledger.shown_at
        ids = list(itertools.takewhile(lambda m: shown_at.get(m, since) > since, reversed(shown)))
        for start in range(0, len(ids), SWEEP_SLICE):
            chunk = ids[start : start + SWEEP_SLICE]
            for match_id, version in zip(chunk, await self.matches.versions(chunk), strict=True):
                if version is not None and version < shown.get(match_id, -1):
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
        await cancel_and_wait(tasks)

    def lanes_running(self) -> int:
        """How many lanes this process is delivering now (the operator's ``domino_delivery_lanes_running``)."""
        return sum(not t.done() for job in self._jobs.values() for t in job.tasks.values())

    def busy(self) -> dict[str, asyncio.Task[Any]]:
        """The tasks delivering or settling now, each by what it does (``match lane``, ``settling``)."""
        found = {f"match {m} lane {lane}": t for m, job in self._jobs.items() for lane, t in job.tasks.items()}
        found |= {f"settling {t.get_name()}": t for t in self._settling}
        return {name: task for name, task in found.items() if not task.done()}

    async def idle(self) -> None:
        """Wait until no lane has work and no match is being settled (tests)."""
        while tasks := list(self.busy().values()):
            await asyncio.wait(tasks)  # not gather: a waiter given up on (a deadline) leaves the lanes running

    # -- one lane ----------------------------------------------------------------------

    async def _run(self, match_id: str, job: _Job, lane: Lane) -> None:
        """Run the lane while it has work, holding its lease (another process that holds it instead is asked
        to run it once more)."""
        backoff = BACKOFF_FIRST
        failures = 0
        keeper: asyncio.Task[None] | None = None
        try:
            while job.dirty[lane] and not self._closed:
                job.dirty[lane] = False
                try:
                    if keeper is None and self.shared:
                        held = await self._take(match_id, job, lane)
                        if held is None:
                            break  # a live process holds it, and runs it once more
                        if not held:
                            continue
                        keeper = asyncio.create_task(self._keep(match_id, str(lane)))
                        GUARD.set(self._guard(match_id, str(lane)))
                    await self._pass(match_id, lane, self._snapshot(match_id, job, lane))
                    backoff, failures = BACKOFF_FIRST, 0
                    if keeper is not None and not job.dirty[lane]:
                        if await self.lanes.leave(match_id, str(lane), self.token, LANE_LEASE):
                            job.dirty[lane] = True  # another process asked meanwhile
                        else:
                            keeper.cancel()
                            keeper = None
                            GUARD.set(None)
                except asyncio.CancelledError:
                    raise
                except LaneTaken:
                    log.warning("match %s %s: the lane is no longer this process's (taken over while it was silent "
                                "past its heartbeat, or lost by Redis): pass stopped", match_id, lane)  # fmt: skip
                    assert keeper is not None
                    keeper.cancel()
                    keeper = None
                    GUARD.set(None)  # kicked meanwhile: the lane is taken (or its holder asked) again; else done
                except Exception as exc:
                    # A 429 is waited out however often it comes; any other failure is tried again a few times.
                    flood = isinstance(exc, TelegramRetryAfter)
                    failures += 0 if flood else 1
                    if failures >= DELIVERY_TRIES:
                        await self._give_up(match_id, job, lane, exc)
                        break
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
                    await asyncio.wait_for(self.lanes.leave(match_id, str(lane), self.token, 0.001), 2)
        await self._done(match_id, job)

    async def _give_up(self, match_id: str, job: _Job, lane: Lane, exc: Exception) -> None:
        """A lane failed ``DELIVERY_TRIES`` passes in a row: it stops, and says so once (logged and counted). After
        a failure that passes by itself (``TRANSIENT``) the match stays due and the sweep tries it again; after any
        other, no retry would mend it: the lane is given up at the version it failed at (recorded, so the match
        settles and nothing is sent for it again; its next version is tried afresh)."""
        transient = isinstance(exc, TRANSIENT)
        kind = "transient" if transient else "permanent"
        self.metrics.delivery_given_up.labels("group" if lane == GROUP else "panel", kind).inc()
        version = job.attempted.get(lane)
        log.error("match %s %s: delivery given up after %d failures in a row at version %s (%s): %s: %s", match_id,
                  lane, DELIVERY_TRIES, version, kind, type(exc).__name__, exc)  # fmt: skip
        job.dirty[lane] = False
        if not transient and version is not None:
            with contextlib.suppress(StorageUnavailable):
                await self.matches.shown(match_id, **{lane_field(lane): version})

    def _guard(self, match_id: str, lane: str) -> Callable[[], Awaitable[None]]:
        """What the lane's task checks right before each call to Telegram while it holds the lane
        (``outbox.GUARD``): that it still does. A process whose event loop stood still past its heartbeat
        (seconds of CPU on a loaded machine) is taken for dead and its lane taken over; without this check it
        would then send the same table or panel as the process that took it.

        A lease Redis lost stops the pass too: the match is still due, and the next sweep takes it up.
        """
        task = asyncio.current_task()

        async def still_held() -> None:
            if asyncio.current_task() is not task:
                return  # a task started from the pass (it inherits the guard) is not the lane's
            with contextlib.suppress(StorageUnavailable):  # Redis away: as before, the send goes on
                if not await self.lanes.keep(match_id, lane, self.token, LANE_LEASE):
                    raise LaneTaken(f"{match_id} {lane}")

        return still_held

    async def _take(self, match_id: str, job: _Job, lane: Lane) -> bool | None:
        """Take the lane's lease: True when this process holds it now; False when another process holds it and
        was asked to run it once more (look again); None when that process is alive and will."""
        job.kicked[lane].clear()
        if await self.lanes.take(match_id, str(lane), self.token, LANE_LEASE):
            return True
        if job.waited_out.get(lane) and not job.kicked[lane].is_set():
            job.waited_out[lane] = False
            return None
        # The holder was asked to run it once more. It may have died this very moment (its heartbeat not gone
        # yet): once more after the heartbeat's time; and at once on a kick meanwhile (a newer version: the
        # holder, done by then, must be asked again).
        job.dirty[lane] = True
        try:
            await asyncio.wait_for(job.kicked[lane].wait(), HEARTBEAT_TTL)
            job.waited_out[lane] = False
        except TimeoutError:
            job.waited_out[lane] = True
        return False

    async def _done(self, match_id: str, job: _Job) -> None:
        """A lane ran out of work: the last of the match's lanes to stop settles the match."""
        if not all(t.done() or t is asyncio.current_task() for t in job.tasks.values()) or any(job.dirty.values()):
            return
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
        if found is None or not self.ledger.current(match_id, lane, found[1]):
            return None
        return found[0]

    async def _keep(self, match_id: str, lane: str) -> None:
        """Renew the lane's lease while this process runs it (a pass may wait out long 429s)."""
        while True:
            await self.sleep(LANE_LEASE / 4)
            try:
                if not await self.lanes.keep(match_id, lane, self.token, LANE_LEASE):
                    log.warning("match %s %s: the lane's lease was lost (Redis down for long?)", match_id, lane)
            except StorageUnavailable:
                pass

    async def _settle(self, match_id: str) -> None:
        """Take the match out of the due set if its messages are all up to date, recording the edits made."""
        edited = dict(self.ledger.edited.get(match_id, {}))
        try:
            record, _ = await self.records.peek(match_id)
        except Rejected:
            await self.matches.settle(match_id, group_gone=True, blocked=(True, True))
            self.ledger.edited.pop(match_id, None)
            return
        blocked = (await self.passes.blocked(record, 0), await self.passes.blocked(record, 1))
        gone = await self.chats.group_gone(record.chat_id)
        if (seat := record.private_seat) is not None:
            gone = blocked[seat]  # played in a person's private chat: its results go there with their panel
        await self.matches.settle(match_id, group_gone=gone, blocked=blocked, edited=edited)
        self.ledger.recorded(match_id, edited)

    # -- one pass of one lane --------------------------------------------------------------

    async def _pass(self, match_id: str, lane: Lane, snapshot: Screens | None = None) -> None:
        if snapshot is not None:
            record, match, messages = snapshot
        else:
            try:
                record, match, messages = await self.records.screens(match_id)
            except Rejected:
                self.ledger.forget(match_id)
                return  # expired: nothing left to show
        messages = self.ledger.with_edits(match_id, messages)
        if await self._went_back(record):
            return
        if messages.given_up.get(lane_field(lane)[1:]) == record.version:
            return  # given up at this version (``_give_up``): it counts as delivered; the next version is tried
        if (job := self._jobs.get(match_id)) is not None:
            job.attempted[lane] = record.version
        if lane != GROUP:
            assert isinstance(lane, int)
            await self.passes.panel(record, match, messages, lane)
            return
        try:
            await self.passes.group(record, match, messages)
        except TelegramMigrateToChat as exc:
            await self.migrated(record.chat_id, exc.migrate_to_chat_id)
            raise

    async def _went_back(self, record: MatchRecord) -> bool:
        """Whether Redis holds an older version of the match than this process showed (it lost writes): then
        every message of the match is shown again from what Redis holds (new panels, the table edited)."""
        shown = self.ledger.shown.get(record.id, -1)
        if record.version < shown:
            # A read that crossed a newer write would say the same: only a fresh read after it tells.
            fresh, _ = await self.records.get(record.id)
            if fresh.version < shown:
                log.warning(
                    "match %s: Redis holds version %s, older than the %s shown (it lost writes); showing it again",
                    record.id, fresh.version, shown,
                )  # fmt: skip
                self.ledger.shown[record.id] = fresh.version
                if fresh.is_active:
                    await self.resync(record.id)
                self.kick(record.id)
                return True
        self.ledger.showing(record.id, record.version, self.time())
        return False
