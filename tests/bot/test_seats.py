"""Who sits in a seat (``bot/services/seats.py``): a person, or the computer at its level, whose move is scheduled
a human-like pause after the last one and chosen from what its seat sees."""

from __future__ import annotations

from typing import Any

import pytest

from bot.codec import StoredDeal
from bot.models import Level, MatchRecord, Player, Status
from bot.scheduler import clock_job
from bot.services import Services
from bot.services.seats import Computer, Person
from engine import Action, Match
from engine.ai import choose
from tests.bot.helpers import ALA, CHAT

PAUSE = 1.5
"""The operator's ``computer_pause`` (the default)."""
UPDATED = 1_700_000_000.0
"""When the records here were last written."""
FAR = UPDATED + 86400
"""Long after any computer's move."""
COMPUTER = Player(id=-7, name="🤖", level="easy")


def seated(opponent: Player, *, computer_to_act: bool = True, match_id: str = "m1") -> tuple[MatchRecord, Match]:
    """A new match of Ala against ``opponent``, with the seats so that the opponent is (or is not) to act."""
    match = Match.new("bingo", 1)
    players = (ALA, opponent) if match.turn == 1 else (opponent, ALA)
    if not computer_to_act:
        players = (players[1], players[0])
    record = MatchRecord(id=match_id, chat_id=CHAT, players=players, lang="ru", created=UPDATED, updated=UPDATED,
                         deal=StoredDeal.of(match))  # fmt: skip
    return record, match


class TestSeat:
    """``Seats.seat``: a player without a level is a person, one with a level the computer at it."""

    @pytest.mark.parametrize("level", [None, "easy", "normal", "hard"])
    def test_by_level(self, services: Services, level: Level | None) -> None:
        """The seat follows the player's level, and the computer waits the operator's pause."""
        opponent = Player(id=-7, name="🤖", level=level)
        record, match = seated(opponent)
        seat = services.seats.seat(record, match.turn or 0)
        expected = Person(opponent) if level is None else Computer(opponent, level, PAUSE)
        assert seat == expected
        assert services.seats.seat(record, 1 - (match.turn or 0)) == Person(ALA)

    def test_to_act(self, services: Services) -> None:
        """``computer_to_act`` and ``next_due`` name the computer only when it is to act in an active match."""
        record, match = seated(COMPUTER)
        computer = services.seats.computer_to_act(record, match)
        assert computer == Computer(COMPUTER, "easy", PAUSE)
        assert services.seats.next_due(record, match) == computer.due(record)
        person, _ = seated(COMPUTER, computer_to_act=False)
        over = record.model_copy(update={"status": Status.FINISHED})
        for other in (person, over):
            assert services.seats.computer_to_act(other, match) is None
            assert services.seats.next_due(other, match) is None


class TestDue:
    """``Computer.due``: a pause of 0.6 to 1.4 times the operator's after the last move, the same in every process."""

    def test_within_the_pause(self) -> None:
        """Across versions each due time lies within 0.6..1.4 pauses after the last move, and they vary."""
        record, _ = seated(COMPUTER)
        computer = Computer(COMPUTER, "easy", PAUSE)
        pauses = [computer.due(record.model_copy(update={"version": v})) - UPDATED for v in range(200)]
        assert all(0.6 * PAUSE <= p <= 1.4 * PAUSE for p in pauses)
        assert max(pauses) - min(pauses) > 0.5 * PAUSE

    def test_deterministic(self) -> None:
        """The same match and version give the same time to any computer seat (any process); another match, another
        version or a later last move give another."""
        record, _ = seated(COMPUTER)
        due = Computer(COMPUTER, "easy", PAUSE).due(record)
        assert Computer(COMPUTER, "hard", PAUSE).due(record.model_copy()) == due
        assert Computer(COMPUTER, "easy", PAUSE).due(record.model_copy(update={"id": "m2"})) != due
        assert Computer(COMPUTER, "easy", PAUSE).due(record.model_copy(update={"version": 1})) != due
        later = record.model_copy(update={"updated": UPDATED + 100})
        assert Computer(COMPUTER, "easy", PAUSE).due(later) == pytest.approx(due + 100)


class TestBeforeWrite:
    """``Seats.before_write``: the computer's move made due before the write that leaves it to act, never later."""

    async def test_brought_forward(self, services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
        """A clock job due later is brought forward to the computer's move, and this process looks for it then."""
        record, match = seated(COMPUTER)
        woken: list[float] = []
        monkeypatch.setattr(services.scheduler, "wake_at", woken.append)
        await services.scheduler.schedule(clock_job(record.id), FAR)
        await services.seats.before_write(record, match)
        due = Computer(COMPUTER, "easy", PAUSE).due(record)
        assert await services.scheduler.due_at(clock_job(record.id)) == due
        assert woken == [due]

    async def test_new_job(self, services: Services) -> None:
        """Without a clock job, one is made for the computer's move."""
        record, match = seated(COMPUTER)
        await services.seats.before_write(record, match)
        assert await services.scheduler.due_at(clock_job(record.id)) == Computer(COMPUTER, "easy", PAUSE).due(record)

    async def test_never_later(self, services: Services) -> None:
        """A clock job due sooner keeps its time (only sooner)."""
        record, match = seated(COMPUTER)
        await services.scheduler.schedule(clock_job(record.id), UPDATED)
        await services.seats.before_write(record, match)
        assert await services.scheduler.due_at(clock_job(record.id)) == UPDATED

    @pytest.mark.parametrize("case", ["person-to-act", "person-only", "over"])
    async def test_not_the_computer(self, services: Services, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
        """A person to act (in a match against the computer or not), or a match over: the clock job is untouched."""
        woken: list[float] = []
        monkeypatch.setattr(services.scheduler, "wake_at", woken.append)
        opponent = Player(id=8, name="Ola") if case == "person-only" else COMPUTER
        record, match = seated(opponent, computer_to_act=case != "person-to-act")
        if case == "over":
            record = record.model_copy(update={"status": Status.FINISHED})
        await services.seats.before_write(record, match)
        assert await services.scheduler.due_at(clock_job(record.id)) is None
        await services.scheduler.schedule(clock_job(record.id), FAR)
        await services.seats.before_write(record, match)
        assert await services.scheduler.due_at(clock_job(record.id)) == FAR
        assert woken == []


class TestChoose:
    """``Computer.choose``: a legal move from what its own seat sees, the same for the same match and version."""

    @pytest.mark.parametrize("level", ["easy", "normal", "hard"])
    async def test_legal_and_repeatable(self, level: Level) -> None:
        """The move is legal, and chosen again for the same version it is the same."""
        record, match = seated(COMPUTER)
        computer = Computer(COMPUTER.model_copy(update={"level": level}), level, PAUSE)
        seat = match.turn
        assert seat is not None
        action = await computer.choose(record, match, seat)
        assert action in match.legal_actions()
        assert await computer.choose(record, match.copy(), seat) == action

    async def test_from_its_view(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The policy is given the seat's view (its own hand, not the opponent's) and the computer's level."""
        record, match = seated(COMPUTER)
        seat = match.turn
        assert seat is not None
        asked: list[tuple[Any, ...]] = []

        def spy(level: Level, view: Any, rng: Any) -> Action:
            asked.append((level, view))
            return choose(level, view, rng)

        monkeypatch.setattr("bot.services.seats.choose", spy)
        await Computer(COMPUTER, "easy", PAUSE).choose(record, match, seat)
        [(level, view)] = asked
        assert level == "easy"
        assert view == match.deal.view(seat) and view.seat == seat
        assert view != match.deal.view(1 - seat)
