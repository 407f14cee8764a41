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
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from bot.models import MatchRecord
from bot.pictures.painter import ended_within, one_worker
from engine import Action
from engine.ai import evaluate
from engine.games import View
from engine.review import Decision, deal_json, summarize

log = logging.getLogger(__name__)

TIMEOUT = 20.0
"""Seconds a match's end waits for its review, the worker's start included (the deals before the last one
were reviewed as they ended)."""
KEPT = 32
"""About how many matches' deal reviews are kept (ten deals a match)."""


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


def deal_records(record: MatchRecord, *, unfinished: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """The match's deals as deal records, each with the key it is reviewed under: each finished deal kept in its
    log, then the deal the match ended in when it ended before that deal did (a surrender, a forfeit: its key
    counts its actions). Deals not kept (a match begun before) are left out."""
    stored = [(f"{record.id}/{line.n}", line.d) for line in record.log if line.d is not None]
    if unfinished and all(line.n != record.deal.n for line in record.log):
        stored.append((f"{record.id}/{record.deal.n}/{len(record.deal.a.split())}", record.deal))
    return [(key, deal.to_match().deal.record()) for key, deal in stored]


def people(record: MatchRecord) -> list[int]:
    return [seat for seat, player in enumerate(record.players) if not player.computer]


def summary_of(seats: list[int], decisions: list[dict[str, Any]]) -> MatchReview:
    """The match's review from its decisions (as the worker sends them)."""
    judged = [Decision.from_json(d) for d in decisions]
    return MatchReview(seats=tuple(SeatReview.model_validate(summarize(s, judged).to_json()) for s in seats))


class Reviews(Protocol):
    """What makes a finished match's post-mortem (:class:`Reviewer`; :class:`NoReviews` when the operator turned
    them off; the tests' own in the process)."""

    made: bool
    """Whether post-mortems are made at all (off: no 🔎 message and no accuracy)."""

    def prepare(self, record: MatchRecord) -> None: ...

    async def review(self, record: MatchRecord) -> MatchReview | None: ...


class NoReviews:
    """No post-mortems (``POSTMORTEMS=false``): nothing is reviewed, results carry no accuracy, no 🔎 is sent."""

    made = False

    def prepare(self, record: MatchRecord) -> None:
        return None

    async def review(self, record: MatchRecord) -> MatchReview | None:
        return None

    async def close(self) -> None:
        return None


def review_now(record: MatchRecord) -> MatchReview:
    """The post-mortem made here and now (tests)."""
    seats = people(record)
    return summary_of(seats, [d for _, r in deal_records(record) for d in deal_json(r, seats)])


class Reviewer:
    """Reviews the deals of matches with people in a worker process, each deal once, as soon as it ends."""

    made = True

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
        self._deals: OrderedDict[str, asyncio.Future[list[dict[str, Any]]]] = OrderedDict()
        """Each deal's decisions, by ``<match>/<deal>``, being made or made (the last ``kept`` matches' worth)."""

    def prepare(self, record: MatchRecord) -> None:
        """Start reviewing the match's finished deals not yet begun (a deal's end: the match's end then waits
        for its last deal only). Nothing for a match without a person."""
        if any(not player.computer for player in record.players):
            self._deals_of(record, unfinished=False)

    def _deals_of(self, record: MatchRecord, *, unfinished: bool = True) -> list[asyncio.Future[list[dict[str, Any]]]]:
        seats = people(record)
        futures = []
        for key, deal in deal_records(record, unfinished=unfinished):
            future = self._deals.get(key)
            if future is None:
                future = self._deals[key] = self._submit(deal, seats)
                while len(self._deals) > self.kept * 10:
                    self._deals.popitem(last=False)
            futures.append(future)
        return futures

    async def review(self, record: MatchRecord) -> MatchReview | None:
        """The post-mortem of ``record``'s people; None when it could not be made in time."""
        deals = asyncio.gather(*self._deals_of(record))
        if not await ended_within(deals, self.sleep, self.timeout):
            log.warning("match %s: its review took over %s s; the worker is replaced", record.id, self.timeout)
            self._stop(record.id)
            return None
        try:
            return summary_of(people(record), [d for decisions in deals.result() for d in decisions])
        except Exception:
            log.exception("match %s: its review failed", record.id)
            self._stop(record.id)
            return None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = one_worker()
        return self._pool

    def _submit(self, deal: dict[str, Any], seats: list[int]) -> asyncio.Future[list[dict[str, Any]]]:
        """The deal's review in the worker. A worker that died while idle (killed, out of memory) is known only
        when the next deal is handed to it (the pool refuses it): a new worker takes it."""
        loop = asyncio.get_running_loop()
        try:
            return loop.run_in_executor(self._executor(), deal_json, deal, seats)
        except BrokenProcessPool:
            log.warning("the review worker had died; a new one starts")
            self._replace()
            return loop.run_in_executor(self._executor(), deal_json, deal, seats)

    def _stop(self, match_id: str) -> None:
        """Forget the match's deals (made again when asked again) and replace the worker."""
        for key in [k for k in self._deals if k.startswith(f"{match_id}/")]:
            self._deals.pop(key).cancel()
        self._replace()

    def _replace(self) -> None:
        """Stop the worker (the next deal starts a new one)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
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
