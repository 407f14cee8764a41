"""Who sits in a match's seats: a person, whose moves come from their presses, or a computer policy, whose
moves are a job of the scheduler.

After every write of a match the move service asks the seat to act what
happens next: a person needs nothing; the computer's move is scheduled a
short, human-like pause after the last move (the match's clock job brought
forward, never put back). It is asked before the write, so that a process
dying right after the write leaves the computer's move due in Redis; a
write that then loses its compare-and-set leaves a job that finds nothing to
do and goes back to the clock. The job (``bot/timers.py``) asks the policy
for a move, given only what that seat sees (``deal.view(seat)``), and
submits it like a press: checked against the version it was chosen for, with
a request id of its own, so that a job run twice moves once.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

from bot.models import Level, MatchRecord, Player
from bot.scheduler import Scheduler, clock_job
from engine import Action, Match
from engine.ai import choose


@dataclass(frozen=True)
class Person:
    """A seat a person holds: their moves come from their presses."""

    player: Player


@dataclass(frozen=True)
class Computer:
    """A seat the computer holds, at one of its levels."""

    player: Player
    level: Level
    pause: float
    """Seconds the computer waits after the last move before its own (it should not feel like a machine)."""

    def due(self, record: MatchRecord) -> float:
        """When it moves at this version: 0.6 to 1.4 times the pause after the last move (a person does not
        answer like a metronome), the same in every process."""
        return record.updated + self.pause * (0.6 + 0.8 * random.Random(f"{record.id}/{record.version}/pause").random())

    async def choose(self, record: MatchRecord, match: Match, seat: int) -> Action:
        """Its move at this version, from what its seat sees; the same match and version give the same move,
        whichever process chooses it. A hard move is up to a second of CPU: off the event loop, which keeps
        answering presses meanwhile."""
        rng = random.Random(f"{record.id}/{record.version}")
        return await asyncio.to_thread(choose, self.level, match.deal.view(seat), rng)

    def request_id(self, record: MatchRecord) -> str:
        """The request id of its move at this version (a job run twice moves once)."""
        return f"cpu:{record.version}"


Seat = Person | Computer


class Seats:
    """The seats of every match, and what happens next after a write."""

    def __init__(self, scheduler: Scheduler, *, pause: float) -> None:
        self.scheduler = scheduler
        self.pause = pause

    def seat(self, record: MatchRecord, index: int) -> Seat:
        player = record.players[index]
        if player.level is None:
            return Person(player)
        return Computer(player, player.level, self.pause)

    def computer_to_act(self, record: MatchRecord, match: Match) -> Computer | None:
        """The computer's seat when it is the one to act now."""
        if not record.is_active or match.turn is None:
            return None
        seat = self.seat(record, match.turn)
        return seat if isinstance(seat, Computer) else None

    def next_due(self, record: MatchRecord, match: Match) -> float | None:
        """When the seat to act moves by itself (the computer), None when a person is to act."""
        computer = self.computer_to_act(record, match)
        return None if computer is None else computer.due(record)

    async def before_write(self, record: MatchRecord, match: Match) -> None:
        """``record`` and ``match`` are about to be written: when they leave the computer to act, its move is
        made due (brought forward, never put back), and this process looks for it then."""
        due = self.next_due(record, match)
        if due is not None:
            await self.scheduler.schedule(clock_job(record.id), due, only_sooner=True)
            self.scheduler.wake_at(due)
