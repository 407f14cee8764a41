"""The computer's seat: its moves are a job of the scheduler.

A match against the computer has a Player with a ``level`` in one seat. When
that seat is to act, the match's clock job (``t:<match>``, bot/timers.py) is
brought forward to a short, human-like pause after the last move; the job
asks the engine's policy for a move, given only what that seat sees
(``deal.view(seat)``), and submits it like a press: checked against the
version it was chosen for, with a request id of its own, so that a job run
twice (two processes, or again after a crash) moves once.

Who brings the job forward is the match's delivery pass, which runs after
every write and is itself durable (the write marks the match due in the same
script); so a process that dies between a person's move and the computer's
leaves the move to whoever delivers the match next.
"""

from __future__ import annotations

import asyncio
import logging
import random

from bot.clock import Clock
from bot.scheduler import Scheduler
from bot.services.matches import MatchService, Rejected
from bot.services.models import MatchRecord, MoveResult
from engine import Match
from engine.ai import choose

log = logging.getLogger(__name__)


class ComputerSeat:
    def __init__(self, service: MatchService, scheduler: Scheduler, clock: Clock, *, pause: float) -> None:
        self.service = service
        self.scheduler = scheduler
        self.clock = clock
        self.pause = pause
        """Seconds the computer waits after the last move before its own (it should not feel like a machine)."""

    @staticmethod
    def to_act(record: MatchRecord, match: Match) -> int | None:
        """The computer's seat when it is the one to act now."""
        seat = match.turn
        if not record.is_active or seat is None or not record.players[seat].computer:
            return None
        return seat

    async def wake_for(self, record: MatchRecord, match: Match) -> None:
        """After a write: when the computer is to act, its move is due a pause after the last move (the match's
        clock job brought forward, never put back)."""
        if self.to_act(record, match) is None:
            return
        due = self.due(record)
        await self.scheduler.schedule(f"t:{record.id}", due, only_sooner=True)
        # The scheduler looks every second; this process looks again right when the move is due.
        asyncio.get_running_loop().call_later(max(0.0, due - self.clock.time()), self.scheduler.wake)

    def due(self, record: MatchRecord) -> float:
        """When the computer moves at this version: 0.6 to 1.4 times the pause after the last move (a person does
        not answer like a metronome), the same in every process."""
        return record.updated + self.pause * (0.6 + 0.8 * random.Random(f"{record.id}/{record.version}/pause").random())

    async def move(self, record: MatchRecord, match: Match, seat: int) -> MoveResult | None:
        """Choose and submit the computer's move at this version; None when the match moved on meanwhile (the
        move is then not made)."""
        player = record.players[seat]
        assert player.level is not None
        view = match.deal.view(seat)
        # The same match and version give the same move, whichever process chooses it.
        rng = random.Random(f"{record.id}/{record.version}")
        # A hard move is up to a second of CPU: off the event loop, which keeps answering presses meanwhile.
        action = await asyncio.to_thread(choose, player.level, view, rng)
        try:
            result = await self.service.submit(
                record.id, player.id, action, version=record.version, request_id=f"cpu:{record.version}"
            )
        except Rejected as exc:
            log.info("match %s: the computer's move at version %s was refused (%s)", record.id, record.version,
                     exc.reason.value)  # fmt: skip
            return None
        log.info("match %s: the computer (%s) played %s", record.id, player.level, action)
        return result
