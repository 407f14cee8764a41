"""The services, by concern, over the storage repositories; ``Services.build`` wires them.

- ``records``: reading matches (the record cache), who plays where.
- ``moves``: every change of a match, written once (compare-and-set).
- ``finisher``: the counting chain of a finished match.
- ``challenges``: opening, accepting, withdrawing and expiring challenges.
- ``chats``: settings, profiles, languages, flags, migrations.
- ``results``: leaderboards, stats, histories.
- ``rematches``: the rematch button under a finished match (a challenge of its own kind).
- ``seats``: a person or a computer policy in each seat, and what happens next after a write.
- ``tournaments``: a group's tournaments (their plan: ``bracket``, pure).
- ``turn_clock``: when a match's clock looks at it next (a pure function).
"""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis

from bot.clock import Clock
from bot.scheduler import Scheduler
from bot.services.challenges import Challenges
from bot.services.chats import Chats
from bot.services.finish import Finisher
from bot.services.moves import Moves
from bot.services.records import Records
from bot.services.rematches import Rematches
from bot.services.results import Results
from bot.services.seats import Seats
from bot.services.terms import Terms
from bot.services.tournaments import Tournaments
from bot.storage.budgets import BudgetStore
from bot.storage.challenges import ChallengeStore
from bot.storage.chats import ChatStore
from bot.storage.jobs import JobStore
from bot.storage.keys import Keys
from bot.storage.lanes import LaneStore
from bot.storage.matches import MatchStore
from bot.storage.results import ResultStore
from bot.storage.tournaments import TournamentStore
from bot.storage.updates import UpdateMarks


@dataclass(frozen=True)
class Stores:
    """Every repository, over one Redis under one key prefix."""

    redis: Redis
    keys: Keys
    matches: MatchStore
    challenges: ChallengeStore
    results: ResultStore
    chats: ChatStore
    lanes: LaneStore
    updates: UpdateMarks
    jobs: JobStore
    budgets: BudgetStore
    tournaments: TournamentStore

    @classmethod
    def build(cls, redis: Redis, *, prefix: str = "dom", clock: Clock | None = None) -> Stores:
        keys = Keys(prefix)
        time = (clock or Clock()).time
        return cls(
            redis=redis,
            keys=keys,
            matches=MatchStore(redis, keys, clock=time),
            challenges=ChallengeStore(redis, keys),
            results=ResultStore(redis, keys),
            chats=ChatStore(redis, keys),
            lanes=LaneStore(redis, keys),
            updates=UpdateMarks(redis, keys),
            jobs=JobStore(redis, keys),
            budgets=BudgetStore(redis, keys),
            tournaments=TournamentStore(redis, keys),
        )


@dataclass(frozen=True)
class Services:
    """Every service of one bot process, and the repositories and scheduler they share."""

    stores: Stores
    scheduler: Scheduler
    terms: Terms
    records: Records
    finisher: Finisher
    moves: Moves
    chats: Chats
    challenges: Challenges
    results: Results
    seats: Seats
    rematches: Rematches
    tournaments: Tournaments

    @classmethod
    def build(
        cls, redis: Redis, *, prefix: str = "dom", clock: Clock | None = None, cache_size: int = 4096, **options: float
    ) -> Services:
        """The services over ``redis`` under ``prefix``; ``options``: any field of ``Terms`` (the operator's)."""
        clock = clock or Clock()
        stores = Stores.build(redis, prefix=prefix, clock=clock)
        scheduler = Scheduler(stores.jobs, clock)
        terms = Terms(**options)  # type: ignore[arg-type]
        finisher = Finisher(stores.matches, stores.results, scheduler, terms)
        records = Records(stores.matches, finisher, cache_size=cache_size)
        seats = Seats(scheduler, pause=terms.computer_pause)
        moves = Moves(records, stores.matches, finisher, seats, terms, clock=clock.time)
        chats = Chats(stores.chats, stores.matches, stores.results, records, moves)
        challenges = Challenges(
            stores.challenges, stores.matches, records, chats, seats, scheduler, terms, clock=clock.time
        )
        return cls(
            stores=stores,
            scheduler=scheduler,
            terms=terms,
            records=records,
            finisher=finisher,
            moves=moves,
            chats=chats,
            challenges=challenges,
            results=Results(stores.results, clock=clock.time),
            seats=seats,
            rematches=Rematches(challenges, stores.challenges, stores.matches, records, terms, clock=clock.time),
            tournaments=Tournaments(
                stores.tournaments,
                challenges,
                stores.matches,
                records,
                chats,
                stores.results,
                scheduler,
                terms,
                clock=clock.time,
            ),
        )
