"""Shows matches and challenges in Telegram.

Called by the handlers after the service changed a match: what a match's
messages must show is already in Redis, so showing it is asking the
``Delivery`` to bring them up to date. Challenges' messages are handled here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from aiogram.types import InlineKeyboardMarkup

from bot import keyboards, render
from bot.delivery import Delivery
from bot.i18n import I18n
from bot.outbox import Outbox
from bot.services.matches import MatchService
from bot.services.models import Challenge, MatchRecord, MoveResult

log = logging.getLogger(__name__)


class Presenter:
    def __init__(
        self, outbox: Outbox, service: MatchService, i18n: I18n, bot_username: str, delivery: Delivery
    ) -> None:
        self.outbox = outbox
        self.service = service
        self.i18n = i18n
        self.bot_username = bot_username
        self.delivery = delivery
        self._expiry: dict[str, asyncio.Task[None]] = {}

    def start_match(self, record: MatchRecord) -> None:
        """A new match: the table in the group, a panel for each player (the accept marked them due)."""
        self.delivery.kick(record.id)

    def show(self, result: MoveResult) -> None:
        """After a move: results if a deal or the match ended, then the table and both panels."""
        self.delivery.kick(result.record.id)

    async def resend_panel(self, record: MatchRecord, seat: int) -> None:
        """The seat's panel again, as a new message at the bottom of the chat; the old one stops working."""
        await self.service.set_blocked(record.players[seat].id, False)
        await self.service.resend_panel(record.id, seat)
        self.delivery.kick(record.id, (seat,))

    async def migrate(self, old: int, new: int) -> None:
        """The group became a supergroup: everything of the chat moves to its new id, its matches show there."""
        log.info("chat %s migrated to %s", old, new)
        for match_id in await self.service.migrate_chat(old, new):
            self.delivery.kick(match_id)

    # -- challenges ------------------------------------------------------------

    def challenge_message(self, challenge: Challenge) -> tuple[str, InlineKeyboardMarkup]:
        tr = self.i18n[challenge.lang]
        return render.challenge_text(tr, challenge), keyboards.challenge_keyboard(tr, challenge)

    def close_challenge(self, challenge: Challenge, key: str) -> None:
        """Replace a challenge's message by a line saying why it is gone (withdrawn, cancelled, expired)."""
        self.cancel_expiry(challenge.id)
        if challenge.message_id is not None:
            text = render.challenge_closed_text(self.i18n[challenge.lang], challenge, key)
            self.outbox.edit(challenge.chat_id, challenge.message_id, text, None)

    def schedule_expiry(self, challenge: Challenge) -> None:
        self._expiry[challenge.id] = asyncio.create_task(self._expire(challenge))

    def cancel_expiry(self, challenge_id: str) -> None:
        task = self._expiry.pop(challenge_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _expire(self, challenge: Challenge) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            # A little after Redis drops the key, so that a late join cannot race the notice.
            await asyncio.sleep(max(0.0, challenge.expires - time.time()) + 0.5)
            while await self.service.challenge(challenge.id) is not None:
                await asyncio.sleep(1.0)
            self._expiry.pop(challenge.id, None)
            self.close_challenge(challenge, "challenge-expired")
            await self.service.forget_notice(challenge.id)

    def close(self) -> None:
        """Stop watching challenges (the next start resumes from Redis)."""
        for challenge_id in list(self._expiry):
            self.cancel_expiry(challenge_id)

    async def resume_expiries(self) -> None:
        """After a start: watch the challenges opened before it (announcing those that expired meanwhile)."""
        for challenge in await self.service.pending_notices():
            if challenge.id not in self._expiry:
                self.schedule_expiry(challenge)
