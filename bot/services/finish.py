"""The finish of a match: what its last write leaves for the counting, and the counting chain.

The move that ends a match is written with a note of what the rest of the
finish needs (``finishing``: how it counts, the players, the summary). The
steps after it are each in one slot and each done once however often they
run: the chat's table, indexes and history, the two players' head-to-head
record and the chat's season (the summary gets the chat's rating change and
the series there; a season's first match schedules its end), the global
table, each player's indexes and history, the match's clock job, a
tournament match's result written into its tournament (``TournamentBook``);
last, the summary kept with the match and its result posted. A process that dies
between them leaves the rest to whoever reads the match's screens next
(``Records.screens``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.models import OUTSIDE_GROUPS, Finish, MatchRecord, Status, Summary, is_inline_chat
from bot.scheduler import Scheduler, clock_job, season_job, tournament_job
from bot.seasons import season_end
from bot.services.terms import Terms
from bot.services.tournament_book import TournamentBook
from bot.storage.matches import MatchStore
from bot.storage.results import ResultStore
from engine import Match


def finishing_note(record: MatchRecord, new: MatchRecord, match: Match) -> tuple[Summary | None, str]:
    """The summary of a match that ``new`` ends (None for one that neither counts nor is kept) and the note the
    finish's write leaves for the steps after it (JSON)."""
    counted = new.status is Status.FINISHED and new.winner is not None
    abandoned = new.finish is Finish.ABANDONED
    winner_seat = new.winner if new.winner is not None else 0
    w, lo = record.players[winner_seat], record.players[1 - winner_seat]
    summary = None
    if counted or abandoned:
        summary = Summary(
            id=record.id,
            chat_id=record.chat_id,
            preset=match.rules.name,
            players=record.players,
            score=match.score,
            winner=new.winner if counted else None,
            finish=new.finish or Finish.TARGET,
            finished=new.updated,
        )
    partial = "" if summary is None else summary.model_dump_json(exclude={"rating_change", "ratings", "series"})[:-1]
    computer = record.computer_seat
    note = json.dumps(
        {
            "c": ("v" if computer is not None else "1") if counted else "h" if abandoned else "0",
            "w": [w.id, w.name],
            "l": [lo.id, lo.name],
            "g": match.rules.game,
            "s": partial,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return summary, note


class Finisher:
    """Carries a finish through its steps, each once."""

    def __init__(
        self, matches: MatchStore, results: ResultStore, scheduler: Scheduler, terms: Terms, tournaments: TournamentBook
    ) -> None:
        self.matches = matches
        self.tournaments = tournaments
        self.results = results
        self.scheduler = scheduler
        self.terms = terms

    async def count(self, record: MatchRecord, finishing: str) -> Summary | None:
        """The steps of a finish after its write (see the module's text). Returns the summary as counted (with
        the chat's rating change, the ratings and the series), None for a match not kept."""
        f = json.loads(finishing)
        winner, loser = (f["w"][0], f["w"][1]), (f["l"][0], f["l"][1])
        match_id, ttl, finished = record.id, self.terms.counted_ttl, record.updated
        a, b = record.players
        chats = [record.chat_id]
        inline = is_inline_chat(record.chat_id)
        if inline:
            # A match begun in inline mode: its own chat's step (its players play there no longer), then the
            # table of matches played outside groups (``/top`` in private; its series is the friends' across
            # their inline challenges), which has no seasons. Each step is counted once, in its own slot.
            chats.append(OUTSIDE_GROUPS)
        for chat in chats:
            counted = await self.results.count_chat(
                chat, match_id, (a.id, b.id), winner, loser,
                game=f["g"], counts=f["c"], summary=f["s"], finished=finished, ttl=ttl, lang=record.lang,
                score=_score(f["s"], winner[0]),
            )  # fmt: skip
        summary = counted.summary
        if counted.season_began is not None and not inline:
            # The chat's first counted match of a season: its final table is due at its end (once, whichever
            # process counts; a step run again schedules nothing new).
            season = counted.season_began
            await self.scheduler.schedule(season_job(record.chat_id, season), season_end(season), if_missing=True)
        steps: list[Any] = [
            self.results.count_user(p.id, match_id, summary=summary, ttl=ttl) for p in (a, b) if not p.computer
        ]
        if f["c"] == "1":
            steps.append(self.results.count_global(match_id, winner, loser, game=f["g"], finished=finished, ttl=ttl))
        elif f["c"] == "v":
            # Against the computer: the person's record at its level, never the rating.
            person, level = (a, b.level) if b.computer else (b, a.level)
            assert level is not None
            won = person.id == winner[0]
            steps.append(self.results.count_computer(person.id, match_id, level=level, won=won, ttl=ttl))
        await _together(steps)
        await self.scheduler.unschedule(clock_job(match_id))
        if record.tournament is not None:
            # The result counts in the tournament now (not read from the match later: its record expires), and its
            # players are free in the chat: the tournament's job starts what waited (and announces an end).
            await self.tournaments.record_result(record)
            await self.scheduler.schedule(tournament_job(record.tournament), self.scheduler.clock.time())
            self.scheduler.wake()
        await self.matches.finished(match_id, summary, ttl=self.terms.finished_ttl)
        return Summary.model_validate_json(summary) if summary else None


def _score(partial: str, winner: int) -> tuple[int, int]:
    """The winner's and the loser's game points, from the summary the finish's note carries ((0, 0): none)."""
    if not partial:
        return 0, 0
    summary = Summary.model_validate_json(partial + "}")
    seat = 0 if summary.players[0].id == winner else 1
    return summary.score[seat], summary.score[1 - seat]


async def _together(steps: list[Any]) -> None:
    """Steps whose order does not matter, sent at once (one round trip on one connection); the first failure
    reaches the caller once every step has answered."""
    answers = await asyncio.gather(*steps, return_exceptions=True)
    for answer in answers:
        if isinstance(answer, BaseException):
            raise answer
