"""A tournament as stored: reading it, changing it by compare-and-set, and a tournament match's result written into
it when the match finishes.

The result is one step of the match's finish chain (``Finisher.count``), before the
match is marked finished: once the chain is through, the result is in the
tournament, so the match's record may expire afterwards (``Terms.finished_ttl``)
without harm. The step runs again as often as the chain does and writes once
(a pairing decided already is left as it is).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.models import MatchRecord, Pairing, Rejection, Status, Tournament
from bot.services import bracket
from bot.services.errors import Rejected
from bot.storage.tournaments import TournamentStore

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
KEPT = 30 * 86400
"""Seconds a tournament stays readable after its end."""


class TournamentBook:
    """The tournaments' reads and compare-and-set writes, shared by the sign-up, the job and the finish chain."""

    def __init__(self, store: TournamentStore, *, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    async def get(self, tournament_id: str) -> Tournament | None:
        raw = await self.store.read(tournament_id)
        return None if raw is None else Tournament.model_validate_json(raw)

    async def current(self, chat_id: int) -> Tournament | None:
        """The chat's tournament that signs up or runs."""
        found = await self.store.current(chat_id)
        return None if found is None else await self.get(found)

    async def update(self, tournament_id: str, change: Callable[[Tournament], None]) -> Tournament:
        """Read, change (may raise ``Rejected``) and write back, again while another write came between."""
        for _ in range(MAX_ATTEMPTS):
            raw = await self.store.read(tournament_id)
            if raw is None:
                raise Rejected(Rejection.NO_TOURNAMENT)
            t = Tournament.model_validate_json(raw)
            change(t)
            if await self.write(t, raw):
                return t
        raise Rejected(Rejection.BUSY)

    async def write(self, t: Tournament, raw: str | bytes) -> bool:
        """Write ``t`` (one version on) over ``raw``; one that ended (or moved) stops being current, and a
        finished one counts its champion."""
        t.version += 1
        if t.status in ("finished", "stopped") and t.finished is None:
            t.finished = self.clock()
        champion = t.entrants[t.champion].player.id if t.status == "finished" and t.champion is not None else None
        return await self.store.write(t.id, t.chat_id, raw, t.model_dump_json(), ends=t.ended or t.status == "moved",
                                      champion=champion, ttl=KEPT)  # fmt: skip

    async def record_result(self, record: MatchRecord) -> bool:
        """A tournament match ended: its result into its pairing, with what it decides (the next knockout round,
        the end and its champion). True when written; False when there was nothing to write (not a running
        tournament's pending pairing any more) or the tournament stayed busy (its job reads the result from the
        match instead)."""
        if record.tournament is None or record.is_active:
            return False
        for _ in range(MAX_ATTEMPTS):
            raw = await self.store.read(record.tournament)
            if raw is None:
                return False
            t = Tournament.model_validate_json(raw)
            p = t.pairing_of(record.id)
            if t.status != "running" or p is None or p.done:
                return False
            take_result(t, p, record)
            bracket.settle(t)
            if await self.write(t, raw):
                return True
        log.warning("tournament %s: the result of match %s waits for its job (busy)", record.tournament, record.id)
        return False


def take_result(t: Tournament, p: Pairing, record: MatchRecord) -> None:
    """The pairing's result from its ended match (no winner when it was abandoned)."""
    score = record.match().score
    bracket.record_result(t, p, record.winner if record.status is Status.FINISHED else None, (score[0], score[1]))
