"""The post-mortem of a finished match and the 💡 hints, computed off the event loop.

The review (``engine.review``) of a match's people runs in a worker process
of its own (spawned at the first review; it imports the engine only), so the
event loop never waits on the search: the group's card and each person's
``🔎`` message await it. Reviews are kept by match id, so the group's card and
both players' messages make it once, and the same match reviewed again (after
a restart) gives the same review (it is seeded by the match). A review that
fails, or takes longer than ``timeout``, is None: the card goes without the
accuracy and the message says the review could not be made.

A hint is one evaluation of the player's view (``engine.ai.evaluate``, some
milliseconds) in a thread, seeded by the match and its version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from bot.models import MatchRecord
from bot.pictures.painter import watch_parent
from engine import Action
from engine.ai import evaluate
from engine.games import View
from engine.review import review_json

log = logging.getLogger(__name__)

TIMEOUT = 20.0
"""Seconds a review may take, the worker's start included (a match of 8 deals takes 1 to 3)."""
KEPT = 32
"""How many reviews are kept by match id."""


class Costly(BaseModel):
    """One of a person's costliest decisions."""

    model_config = ConfigDict(frozen=True)

    deal: int
    trick: int | None
    played: str
    best: str
    cost: float
    """Chance to win the match given away (0..1)."""


class SeatReview(BaseModel):
    """One person's post-mortem of a match."""

    model_config = ConfigDict(frozen=True)

    seat: int
    decisions: int
    accuracy: int | None
    costliest: tuple[Costly, ...] = ()


class MatchReview(BaseModel):
    """The post-mortem of a match's people (the computer is not reviewed)."""

    model_config = ConfigDict(frozen=True)

    seats: tuple[SeatReview, ...]

    def of(self, seat: int) -> SeatReview | None:
        return next((s for s in self.seats if s.seat == seat), None)

    def accuracy(self, seat: int) -> int | None:
        found = self.of(seat)
        return None if found is None else found.accuracy


def deal_records(record: MatchRecord) -> list[dict[str, Any]]:
    """The match's deals as deal records: each finished deal kept in its log, then the deal the match ended in
    when it ended before that deal did (a surrender, a forfeit). Deals not kept (a match begun before) are
    left out."""
    stored = [line.d for line in record.log if line.d is not None]
    if all(line.n != record.deal.n for line in record.log):
        stored.append(record.deal)
    return [deal.to_match().deal.record() for deal in stored]


def people(record: MatchRecord) -> list[int]:
    return [seat for seat, player in enumerate(record.players) if not player.computer]


class Reviews(Protocol):
    """What makes a finished match's post-mortem (:class:`Reviewer`; the tests' own in the process)."""

    async def review(self, record: MatchRecord) -> MatchReview | None: ...


def review_now(record: MatchRecord) -> MatchReview:
    """The post-mortem made here and now (tests, and ``python -m engine review``'s equal in the bot's terms)."""
    seats = people(record)
    return MatchReview(seats=tuple(SeatReview.model_validate(s) for s in review_json(deal_records(record), seats)))


class Reviewer:
    """Reviews finished matches in a worker process, each once."""

    def __init__(
        self,
        *,
        timeout: float = TIMEOUT,
        kept: int = KEPT,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.timeout = timeout
        self.kept = kept
        self.sleep = sleep
        """How the timeout is waited (the bot's clock: a test moves it)."""
        self._pool: ProcessPoolExecutor | None = None
        self._done: OrderedDict[str, MatchReview] = OrderedDict()
        self._making: dict[str, asyncio.Future[MatchReview | None]] = {}

    async def review(self, record: MatchRecord) -> MatchReview | None:
        """The post-mortem of ``record``'s people; None when it could not be made in time."""
        if (kept := self._done.get(record.id)) is not None:
            return kept
        making = self._making.get(record.id)
        if making is None:
            making = self._making[record.id] = asyncio.ensure_future(self._make(record))
            making.add_done_callback(lambda done: self._made(record.id, done))
        return await asyncio.shield(making)

    def _made(self, match_id: str, making: asyncio.Future[MatchReview | None]) -> None:
        del self._making[match_id]
        made = None if making.cancelled() or making.exception() else making.result()
        if made is not None:
            self._done[match_id] = made
            while len(self._done) > self.kept:
                self._done.popitem(last=False)

    async def _make(self, record: MatchRecord) -> MatchReview | None:
        seats = people(record)
        records = deal_records(record)
        pool = self._executor()
        making = asyncio.get_running_loop().run_in_executor(pool, review_json, records, seats)
        timer = asyncio.ensure_future(self.sleep(self.timeout))
        try:
            await asyncio.wait((making, timer), return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
        if not making.done():
            making.cancel()
            log.warning("match %s: its review took over %s s; the worker is replaced", record.id, self.timeout)
            self._stop(pool)
            return None
        try:
            return MatchReview(seats=tuple(SeatReview.model_validate(s) for s in making.result()))
        except Exception:
            log.exception("match %s: its review failed", record.id)
            self._stop(pool)
            return None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=watch_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    def _stop(self, pool: ProcessPoolExecutor) -> None:
        if self._pool is pool:
            self._pool = None
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            with contextlib.suppress(Exception):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


async def hint(record: MatchRecord, view: View) -> tuple[Action, list[tuple[Action, float]]]:
    """The move the hard level prefers in ``view`` and its evaluation of every candidate (in a thread)."""
    rng = random.Random(f"hint/{record.id}/{record.version}")
    values = await asyncio.to_thread(evaluate, view, rng)
    best = max(values, key=lambda mv: mv[1])[0]
    return best, values
