"""What the scheduler's jobs do: challenges that expire, and each match's turn clock.

Every handler reads the state from Redis and acts only on what is still true
there, so that a job run twice (by two processes, or again after a crash)
does its work once: an expiry is taken by one script call, a reminder and an
offer are marked per match version before they are sent, a forfeit or an
abandonment is a compare-and-set on the version the handler read.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import render
from bot.callbacks import ClaimWinCb
from bot.clock import Clock
from bot.computer import ComputerSeat
from bot.delivery import Delivery
from bot.i18n import I18n
from bot.outbox import Outbox
from bot.scheduler import Scheduler
from bot.services.matches import MatchService, Rejected
from bot.services.models import MatchRecord, MoveResult
from engine import Match

log = logging.getLogger(__name__)


class Timers:
    def __init__(
        self,
        service: MatchService,
        delivery: Delivery,
        outbox: Outbox,
        i18n: I18n,
        clock: Clock,
        computer: ComputerSeat | None = None,
    ) -> None:
        self.computer = computer
        self.service = service
        self.delivery = delivery
        self.outbox = outbox
        self.i18n = i18n
        self.clock = clock

    def register(self, scheduler: Scheduler) -> None:
        scheduler.on("x", self.challenge_due)
        scheduler.on("t", self.match_due)

    # -- challenges ------------------------------------------------------------

    async def challenge_due(self, challenge_id: str) -> float | None:
        """A challenge's time is up: its message says it expired, then the challenge is taken out.

        The message goes first, so that a process dying in between leaves the notice to the next run (a
        second edit to the same text changes nothing); nobody can join meanwhile, since an accept checks
        the challenge's time."""
        challenge = await self.service.notice(challenge_id)
        if challenge is None:
            return None  # joined, withdrawn or announced
        record = await self.service.accepted(challenge)
        if record is not None:
            # Joined. Here only when the accept's process died midway (its job was due a few seconds after):
            # carried through now, the challenge's message says so and the match's messages go out.
            if challenge.message_id is not None:
                _, match = await self.service.peek(record.id)
                text = render.challenge_accepted_text(self.i18n[record.lang], record, match.rules.name,
                                                      match.deal.target)  # fmt: skip
                with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                    await self.outbox.edit_now(challenge.chat_id, challenge.message_id, text, None, version=1)
            self.delivery.kick(record.id)
            return None
        if challenge.expires > self.clock.time():
            return challenge.expires
        if challenge.message_id is not None:
            text = render.challenge_closed_text(self.i18n[challenge.lang], challenge, "challenge-expired")
            with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                await self.outbox.edit_now(challenge.chat_id, challenge.message_id, text, None, version=1)
        await self.service.expire_challenge(challenge)
        return None

    # -- the turn clock ----------------------------------------------------------

    async def match_due(self, match_id: str) -> float | None:
        """Look at a match's clock: remind, forfeit, offer the win, or end it as abandoned, as its time says."""
        try:
            record, match = await self.service.get(match_id)
        except Rejected:
            return None  # gone
        if not record.is_active or match.turn is None:
            return None
        now = self.clock.time()
        idle = now - record.updated
        seat = match.turn
        if idle >= self.service.active_ttl:
            return None if await self._finish(self.service.abandon(match_id, version=record.version), record) else now
        if self.computer is not None and self.computer.to_act(record, match) is not None:
            return await self._computer_moves(record, match, seat)
        timeout = record.turn_timeout
        if timeout and idle >= timeout:
            ending = self.service.forfeit(match_id, seat, version=record.version)
            return None if await self._finish(ending, record) else now
        if timeout and idle >= timeout / 2 and await self.service.mark_clock(match_id, "r", record.version):
            await self._remind(record, seat, timeout - idle)
        if (
            not timeout
            and idle >= self.service.claim_after
            and await self.service.mark_clock(match_id, "o", record.version)
            and not record.players[1 - seat].computer  # the computer never claims a win
        ):
            await self._offer_win(record, 1 - seat)
        return self.service.clock_due(record, await self.service.clock_marks(match_id))

    async def _computer_moves(self, record: MatchRecord, match: Match, seat: int) -> float | None:
        """The computer's turn: its move once the pause after the last one is over; then the clock as usual."""
        assert self.computer is not None
        due = self.computer.due(record)
        if self.clock.time() < due:
            return due
        result = await self.computer.move(record, match, seat)
        if result is None:
            return self.clock.time()  # the match moved on meanwhile: look at it again
        snapshot = None if result.messages is None else (result.record, result.match, result.messages)
        self.delivery.kick(record.id, snapshot=snapshot)
        if self.computer.to_act(result.record, result.match) is not None:
            return self.computer.due(result.record)
        return self.service.clock_due(result.record, await self.service.clock_marks(record.id))

    async def _finish(self, ending: Awaitable[MoveResult], record: MatchRecord) -> bool:
        """Run a forfeit or an abandonment; its result goes out with the match's other messages, and both
        players get their panel as a new message (so Telegram tells them). False when the match moved on
        meanwhile (the clock looks again)."""
        try:
            await ending
        except Rejected as exc:
            log.info("match %s: the clock's end was not applied (%s)", record.id, exc.reason.value)
            return False
        log.info("match %s ended by its clock", record.id)
        for seat in (0, 1):
            await self.service.resend_panel(record.id, seat)
        self.delivery.kick(record.id)
        return True

    async def _remind(self, record: MatchRecord, seat: int, left: float) -> None:
        """Half the time is gone: the player to act gets a private message, the group a line naming them."""
        private, group = render.reminder_texts(self.i18n[record.lang], record, seat, left)
        with contextlib.suppress(TelegramForbiddenError, TelegramBadRequest):
            await self.outbox.send(record.players[seat].id, private)
        if not await self.service.group_gone(record.chat_id):
            with contextlib.suppress(TelegramForbiddenError, TelegramBadRequest):
                await self.outbox.send(record.chat_id, group)

    async def _offer_win(self, record: MatchRecord, seat: int) -> None:
        """The clock is off and nobody moved for a day: the waiting player may take the win."""
        tr = self.i18n[record.lang]
        button = InlineKeyboardButton(
            text=tr("btn-claim-win"), callback_data=ClaimWinCb(m=record.id, v=record.version).pack()
        )
        text = tr("claim-offer", idle=render.duration(tr, self.service.claim_after))
        with contextlib.suppress(TelegramForbiddenError, TelegramBadRequest):
            await self.outbox.send(record.players[seat].id, text, InlineKeyboardMarkup(inline_keyboard=[[button]]))
