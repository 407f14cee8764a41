"""The services, by concern, over the storage repositories; ``Services.build`` wires them.

- ``records``: reading matches (the record cache), who plays where.
- ``moves``: every change of a match, written once (compare-and-set).
- ``finisher``: the counting chain of a finished match.
- ``challenges``: opening, accepting, withdrawing and expiring challenges.
- ``fairness``: the players' seeds (``/seed``), and new matches dealt from a committed key and the seeds.
- ``chats``: settings, profiles, languages, flags, migrations.
- ``results``: leaderboards, stats, histories.
- ``rematches``: the rematch button under a finished match (a challenge of its own kind).
- ``seats``: a person or a computer policy in each seat, and what happens next after a write.
- ``tournaments``: a group's tournaments, their sign-up and their organiser's say (their plan: ``bracket``, pure;
  reads and writes: ``tournament_book``); ``tournament_play``: a running tournament's job.
- ``turn_clock``: when a match's clock looks at it next (a pure function).
- ``census``: what the operator's gauges read from Redis (matches, challenges, screens and jobs due).
- ``authority``: who may manage or join an object, asked of the object's own chat.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis

from bot.clock import Clock
from bot.metrics import Metrics
from bot.scheduler import Scheduler
from bot.services.authority import Authority, MembershipOf, everyone_a_member
from bot.services.census import Census
from bot.services.challenges import Challenges
from bot.services.chats import Chats
from bot.services.fairness import Fairness
from bot.services.finish import Finisher
from bot.services.moves import Moves
from bot.services.records import Records
from bot.services.rematches import Rematches
from bot.services.results import Results
from bot.services.seats import Seats
from bot.services.terms import Terms
from bot.services.tournament_book import TournamentBook
from bot.services.tournament_play import TournamentPlay
from bot.services.tournaments import Tournaments
from bot.storage.base import Failed, ignore
from bot.storage.budgets import LINGER_MS, SIMULATED_LINGER_MS, BudgetStore
from bot.storage.challenges import ChallengeStore
from bot.storage.chats import ChatStore
from bot.storage.jobs import JobStore
from bot.storage.keys import Keys
from bot.storage.lanes import LaneStore
from bot.storage.live import LiveStore
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
    live: LiveStore

    @classmethod
    def build(cls, redis: Redis, *, prefix: str = "dom", clock: Clock | None = None, failed: Failed = ignore) -> Stores:
        """The repositories; ``failed`` is told of every Redis command that fails."""
        keys = Keys(prefix)
        clock = clock or Clock()
        time = clock.time
        linger = LINGER_MS if clock.real else SIMULATED_LINGER_MS
        return cls(
            redis=redis,
            keys=keys,
            matches=MatchStore(redis, keys, clock=time, failed=failed),
            challenges=ChallengeStore(redis, keys, failed=failed),
            results=ResultStore(redis, keys, failed=failed),
            chats=ChatStore(redis, keys, failed=failed),
            lanes=LaneStore(redis, keys, failed=failed),
            updates=UpdateMarks(redis, keys, failed=failed),
            jobs=JobStore(redis, keys, failed=failed),
            budgets=BudgetStore(redis, keys, failed=failed, linger_ms=linger),
            tournaments=TournamentStore(redis, keys, failed=failed),
            live=LiveStore(redis, keys, failed=failed),
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
    fairness: Fairness
    challenges: Challenges
    results: Results
    seats: Seats
    rematches: Rematches
    tournaments: Tournaments
    tournament_play: TournamentPlay
    census: Census
    authority: Authority

    @classmethod
    def build(
        cls,
        redis: Redis,
        *,
        prefix: str = "dom",
        clock: Clock | None = None,
        cache_size: int = 4096,
        metrics: Metrics | None = None,
        membership: MembershipOf = everyone_a_member,
        live: bool = False,
        **options: float,
    ) -> Services:
        """The services over ``redis`` under ``prefix``; ``options``: any field of ``Terms`` (the operator's);
        ``metrics``: where Redis's errors and the scheduler's lateness are counted; ``membership``: what Telegram
        says of a user in a chat (``bot.members``; without it nobody is an admin); ``live``: each change of a match is
        published for the Mini App's pages (``bot.storage.live``)."""
        clock = clock or Clock()
        metrics = metrics or Metrics()
        stores = Stores.build(redis, prefix=prefix, clock=clock, failed=metrics.redis_failed)
        scheduler = Scheduler(stores.jobs, clock, metrics=metrics)
        terms = Terms(**options)  # type: ignore[arg-type]
        book = TournamentBook(stores.tournaments, clock=clock.time)
        finisher = Finisher(stores.matches, stores.results, scheduler, terms, book)
        records = Records(stores.matches, finisher, cache_size=cache_size)
        seats = Seats(scheduler, pause=terms.computer_pause)
        published = stores.live if live else None
        moves = Moves(records, stores.matches, finisher, seats, terms, clock=clock.time, live=published)
        chats = Chats(stores.chats, stores.matches, stores.results, records, moves)
        authority = Authority(membership)
        fairness = Fairness(stores.chats)
        challenges = Challenges(
            stores.challenges, stores.matches, records, chats, seats, scheduler, terms, authority, fairness,
            clock=clock.time,
        )  # fmt: skip
        return cls(
            stores=stores,
            scheduler=scheduler,
            terms=terms,
            records=records,
            finisher=finisher,
            moves=moves,
            chats=chats,
            fairness=fairness,
            challenges=challenges,
            results=Results(stores.results, clock=clock.time),
            seats=seats,
            rematches=Rematches(
                challenges, stores.challenges, stores.matches, records, terms, clock=clock.time, announce=moves.announce
            ),
            tournaments=Tournaments(
                book, stores.tournaments, chats, stores.results, scheduler, terms, authority, clock=clock.time
            ),
            tournament_play=TournamentPlay(
                book, stores.tournaments, challenges, stores.matches, records, chats, scheduler, terms, clock=clock.time
            ),
            census=Census(stores.matches, stores.challenges, stores.jobs, clock=clock.time),
            authority=authority,
        )
