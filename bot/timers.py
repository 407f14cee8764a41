"""What the scheduler's jobs do: challenges that expire, each match's turn clock, the computer's moves, and the
final table of a group's season.

Every handler reads the state from Redis and acts only on what is still true
there, so that a job run twice (by two processes, or again after a crash)
does its work once: an expiry is taken by one script call, a reminder and an
offer are marked per match version before they are sent, a forfeit, an
abandonment or the computer's move is a compare-and-set on the version the
handler read, a season's final table is marked for good before it is posted.
Handlers ask the services and hand what Telegram must show to the presenter.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable

from bot.clock import Clock
from bot.metrics import Metrics
from bot.models import LANGS, MatchRecord, MoveResult, Tournament
from bot.presenter import Presenter
from bot.scheduler import CLOCK, EXPIRY, SEASON, TOURNAMENT, Scheduler, season_of_job
from bot.services import Services
from bot.services.errors import Rejected
from bot.services.seats import Computer
from bot.services.turn_clock import next_look
from engine import Match

log = logging.getLogger(__name__)
SEASON_TABLE = 10
"""How many of a season's players its final table lists."""
RESULTS_WAIT = 2.0
"""Seconds between two looks whether a finished tournament's last results are in its group."""
RESULTS_PATIENCE = 120.0
"""Seconds a tournament's end waits at most for its matches' results to be posted."""
ANNOUNCE_TRIES = 6
"""How often a tournament's end is tried in its group before it is given up."""
ANNOUNCE_AGAIN = 30.0
"""Seconds before a failed announcement of a tournament's end is tried again (doubled each time)."""


class Timers:
    def __init__(self, services: Services, presenter: Presenter, clock: Clock, metrics: Metrics | None = None) -> None:
        self.records = services.records
        self.moves = services.moves
        self.challenges = services.challenges
        self.seats = services.seats
        self.matches = services.stores.matches
        self.terms = services.terms
        self.results = services.results
        self.tournaments = services.tournaments
        self.tournament_play = services.tournament_play
        self.presenter = presenter
        self.clock = clock
        self.metrics = metrics or Metrics()
        """Where the computer's thinking time is counted."""

    def register(self, scheduler: Scheduler) -> None:
        scheduler.on(EXPIRY, self.challenge_due)
        scheduler.on(CLOCK, self.match_due)
        scheduler.on(SEASON, self.season_due)
        scheduler.on(TOURNAMENT, self.tournament_due)

    # -- challenges ------------------------------------------------------------

    async def challenge_due(self, challenge_id: str) -> float | None:
        """A challenge's time is up: its message says it expired, then the challenge is taken out.

        The message goes first, so that a process dying in between leaves the notice to the next run (a
        second edit to the same text changes nothing); nobody can join meanwhile, since an accept checks
        the challenge's time."""
        challenge = await self.challenges.notice(challenge_id)
        if challenge is None:
            return None  # joined, withdrawn or announced
        record = await self.challenges.accepted(challenge)
        if record is not None:
            # Joined. Here only when the accept's process died midway (its job was due a few seconds after):
            # carried through now, the challenge's message says so and the match's messages go out.
            await self.presenter.challenge_carried_through(challenge, record)
            return None
        if challenge.expires > self.clock.time():
            return challenge.expires
        await self.presenter.challenge_expired(challenge)
        await self.challenges.expire(challenge)
        return None

    # -- seasons -----------------------------------------------------------------

    async def season_due(self, argument: str) -> float | None:
        """A group's season is over: its final table and champion, posted once. The mark goes first, so that a
        job run again (after a crash, or by another process) posts nothing; a post Telegram did not take
        clears it, and the job runs again. A group without a counted match in the season gets nothing."""
        chat_id, season = season_of_job(argument)
        rows, lang = await self.results.season(chat_id, season, SEASON_TABLE)
        if not rows or lang not in LANGS or not await self.results.claim_season_post(chat_id, season):
            return None
        try:
            await self.presenter.season_over(chat_id, lang, season, rows)
        except Exception:
            await self.results.release_season_post(chat_id, season)
            raise
        log.info("chat %s: the final table of season %s posted", chat_id, season)
        return None

    # -- tournaments -------------------------------------------------------------

    async def tournament_due(self, tournament_id: str) -> float | None:
        """Move a tournament on (``TournamentPlay.progress``): its message posted where it has none (its first
        post failed, or its group became a supergroup), the matches it started go out, the group is told of
        pairings forfeited by busy players, matches of players who left are given up, its message is edited, and
        its end is announced once (``_announce``)."""
        progress = await self.tournament_play.progress(tournament_id)
        t = progress.tournament
        if t is None:
            return None
        posted = t.message_id is None and t.status in ("signup", "running")
        if posted:
            message_id = await self.presenter.tournament_message(t)
            if message_id is not None:
                binding = await self.tournaments.bind_message(t.id, t.chat_id, message_id, seen=t.version)
                await self.presenter.tournament_bound(binding)
                t = binding.tournament
        for record in progress.started:
            self.presenter.start_match(record)
        if progress.forfeits:
            await self.presenter.tournament_forfeits(t, [(f.pairing, f.busy) for f in progress.forfeits])
        for match_id, user_id in progress.give_up:
            with contextlib.suppress(Rejected):  # it ended meanwhile
                self.presenter.show(await self.moves.surrender(match_id, user_id))
        if t.status not in ("finished", "stopped"):  # an ended one's message is edited with its announcement
            if not posted:
                self.presenter.tournament_board(t)
            return progress.due
        if t.status == "finished" and not await self._results_out(t):
            return self.clock.time() + RESULTS_WAIT
        return await self._announce(t)

    async def _announce(self, t: Tournament) -> float | None:
        """The end announced once: the mark first, as a season's (a job run again announces nothing). A post
        Telegram did not take clears it and is tried again later, ``ANNOUNCE_TRIES`` times at most (then it is
        given up, and the message alone shows the end)."""
        if not await self.tournaments.claim_announcement(t):
            return None
        try:
            await self.presenter.tournament_over(t)
        except Exception as exc:
            tries = await self.tournaments.announcement_tries(t)
            if tries >= ANNOUNCE_TRIES:
                log.warning("chat %s: the end of tournament %s given up after %s tries (%s: %s)", t.chat_id, t.id,
                            tries, type(exc).__name__, exc)  # fmt: skip
                return None
            await self.tournaments.release_announcement(t)
            log.warning("chat %s: the end of tournament %s failed (%s: %s); try %s of %s", t.chat_id, t.id,
                        type(exc).__name__, exc, tries, ANNOUNCE_TRIES)  # fmt: skip
            return self.clock.time() + ANNOUNCE_AGAIN * 2.0 ** (tries - 1)
        log.info("chat %s: tournament %s %s, champion %s", t.chat_id, t.id, t.status,
                 None if t.champion is None else t.entrants[t.champion].player.id)  # fmt: skip
        return None

    async def _results_out(self, t: Tournament) -> bool:
        """Whether the results of the tournament's matches are in the group (so that its end is read after
        them), or it ended long enough ago not to wait any more (a group that removed the bot)."""
        if self.clock.time() >= (t.finished or 0) + RESULTS_PATIENCE:
            return True
        for p in t.pairings:
            if p.match is None:
                continue
            try:
                _, _, messages = await self.records.screens(p.match)
            except Rejected:
                continue  # gone long ago
            if messages.result is None:
                return False
        return True

    # -- the turn clock ----------------------------------------------------------

    async def match_due(self, match_id: str) -> float | None:
        """Look at a match's clock: the computer's move, a reminder, a forfeit, the offer of the win, or its end
        as abandoned, as its time says."""
        try:
            record, match = await self.records.get(match_id)
        except Rejected:
            return None  # gone
        if not record.is_active or match.turn is None:
            return None
        now = self.clock.time()
        idle = now - record.updated
        seat = match.turn
        if idle >= self.terms.active_ttl:
            return None if await self._end(self.moves.abandon(match_id, version=record.version), record) else now
        computer = self.seats.computer_to_act(record, match)
        if computer is not None:
            return await self._computer_moves(record, match, seat, computer)
        timeout = record.turn_timeout
        if timeout and idle >= timeout:
            ending = self.moves.forfeit(match_id, seat, version=record.version)
            return None if await self._end(ending, record) else now
        if timeout and idle >= timeout / 2 and await self._mark(record, "r"):
            await self.presenter.remind(record, seat, timeout - idle)
        if (
            not timeout
            and idle >= self.terms.claim_after
            and await self._mark(record, "o")
            and not record.players[1 - seat].computer  # the computer never claims a win
        ):
            await self.presenter.offer_win(record, 1 - seat, self.terms.claim_after)
        return next_look(record, await self.matches.clock_marks(match_id), self.terms)

    async def _mark(self, record: MatchRecord, field: str) -> bool:
        """Mark that the clock did ``field`` at this version; False when it was done already (by any process)."""
        return await self.matches.mark_clock(record.id, field, record.version, ttl=self.terms.keep_ttl)

    async def _computer_moves(self, record: MatchRecord, match: Match, seat: int, computer: Computer) -> float | None:
        """The computer's turn: its move once the pause after the last move is over; then the clock as usual."""
        due = computer.due(record)
        if self.clock.time() < due:
            return due
        started = time.perf_counter()
        action = await computer.choose(record, match, seat)
        self.metrics.computer_move_seconds.labels(computer.level).observe(time.perf_counter() - started)
        try:
            result = await self.moves.submit(
                record.id, computer.player.id, action, version=record.version, request_id=computer.request_id(record)
            )
        except Rejected as exc:
            log.info("match %s: the computer's move at version %s was refused (%s)", record.id, record.version,
                     exc.reason.value)  # fmt: skip
            return self.clock.time()  # the match moved on meanwhile: look at it again
        log.info("match %s: the computer (%s) played %s", record.id, computer.level, action)
        self.presenter.show(result)
        following = self.seats.next_due(result.record, result.match)
        if following is not None:
            return following
        return next_look(result.record, await self.matches.clock_marks(record.id), self.terms)

    async def _end(self, ending: Awaitable[MoveResult], record: MatchRecord) -> bool:
        """Run a forfeit or an abandonment; its result goes out with the match's other messages, and both
        players get their panel as a new message (so Telegram tells them). False when the match moved on
        meanwhile (the clock looks again)."""
        try:
            await ending
        except Rejected as exc:
            log.info("match %s: the clock's end was not applied (%s)", record.id, exc.reason.value)
            return False
        log.info("match %s ended by its clock", record.id)
        await self.presenter.resend_panels(record)
        return True
