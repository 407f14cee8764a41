"""Shows matches and challenges in Telegram.

Called by the handlers after the service changed a match: what a match's
messages must show is already in Redis, so showing it is asking the
``Delivery`` to bring them up to date. Challenges' messages are handled here
(their expiry is a job of the scheduler, ``bot/timers.py``).
"""

from __future__ import annotations

import logging

from aiogram.types import InlineKeyboardMarkup

from bot import keyboards, render
from bot.delivery import Delivery, Ticket
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

    def start_match(self, record: MatchRecord) -> None:
        """A new match: the table in the group, a panel for each player (the accept marked them due)."""
        self.delivery.kick(record.id)

    def show(self, result: MoveResult, ticket: Ticket | None = None) -> None:
        """After a move: results if a deal or the match ended, then the table and both panels (starting from
        what the move's script said the messages show, when it did: ``ticket`` from ``Delivery.ticket``
        before the move)."""
        snapshot = None if result.messages is None else (result.record, result.match, result.messages)
        self.delivery.kick(result.record.id, snapshot=snapshot, ticket=ticket)

    async def resend_panel(self, record: MatchRecord, seat: int) -> None:
        """The seat's panel again, as a new message at the bottom of the chat; the old one stops working."""
        await self.service.set_blocked(record.players[seat].id, False)
        await self.service.resend_panel(record.id, seat)
        self.delivery.kick(record.id, (seat,))

    async def resync(self, record: MatchRecord) -> None:
        """Redis went back to an earlier moment than the messages show: both panels again as new messages,
        and the table edited, to what Redis holds."""
        await self.delivery.resync(record.id)
        self.delivery.kick(record.id)

    async def migrate(self, old: int, new: int) -> None:
        """The group became a supergroup: everything of the chat moves to its new id, its matches show there."""
        log.info("chat %s migrated to %s", old, new)
        for match_id in await self.service.migrate_chat(old, new):
            self.delivery.kick(match_id)

    # -- challenges ------------------------------------------------------------

    def challenge_message(self, challenge: Challenge) -> tuple[str, InlineKeyboardMarkup]:
        tr = self.i18n[challenge.lang]
        return render.challenge_text(tr, challenge), keyboards.challenge_keyboard(tr, challenge)

    async def challenge_taken(self, challenge: Challenge, record: MatchRecord) -> None:
        """A challenge became ``record``: its message says the match began (and loses its buttons)."""
        if challenge.message_id is not None:
            _, match = await self.service.peek(record.id)
            text = render.challenge_accepted_text(self.i18n[record.lang], record, match.rules.name, match.deal.target)
            self.outbox.edit(record.chat_id, challenge.message_id, text, None)

    def close_challenge(self, challenge: Challenge, key: str) -> None:
        """Replace a challenge's message by a line saying why it is gone (withdrawn, cancelled, expired)."""
        if challenge.message_id is not None:
            text = render.challenge_closed_text(self.i18n[challenge.lang], challenge, key)
            self.outbox.edit(challenge.chat_id, challenge.message_id, text, None)
