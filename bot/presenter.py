"""Shows a match in Telegram: the group's table, the players' panels, the results.

Called by the handlers after the service changed a match. Texts come from
``render`` (views only), markups from ``keyboards``; everything is sent
through the ``Outbox``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from html import escape

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardMarkup

from bot import keyboards, render
from bot.i18n import I18n, Translator
from bot.outbox import FINAL, Outbox
from bot.services.matches import MatchService
from bot.services.models import Challenge, MatchRecord, Messages, MoveResult, Summary
from engine import Match

log = logging.getLogger(__name__)


class Presenter:
    def __init__(self, outbox: Outbox, service: MatchService, i18n: I18n, bot_username: str) -> None:
        self.outbox = outbox
        self.service = service
        self.i18n = i18n
        self.bot_username = bot_username
        self._expiry: dict[str, asyncio.Task[None]] = {}

    def tr(self, record: MatchRecord) -> Translator:
        return self.i18n[record.lang]

    def _table(self, record: MatchRecord, match: Match) -> str:
        return render.table_text(self.tr(record), record, match.deal.view(None))

    def _panel(self, record: MatchRecord, match: Match, seat: int) -> tuple[str, InlineKeyboardMarkup | None]:
        tr = self.tr(record)
        view = match.deal.view(seat)
        markup = keyboards.panel_keyboard(tr, record.id, record.version, view) if record.is_active else None
        return render.panel_text(tr, record, view), markup

    async def start_match(self, record: MatchRecord, match: Match) -> None:
        """A new match: the table in the group, a panel for each player."""
        message = await self.outbox.send(record.chat_id, self._table(record, match))
        await self.service.set_table_message(record.id, message.message_id)
        for seat in (0, 1):
            await self.send_panel(record, match, seat)

    async def send_panel(self, record: MatchRecord, match: Match, seat: int, *, old: int | None = None) -> bool:
        """Send a fresh panel; the old one (if any) loses its buttons. False if the user never started the bot."""
        text, markup = self._panel(record, match, seat)
        player = record.players[seat]
        try:
            message = await self.outbox.send(player.id, text, markup)
        except (TelegramForbiddenError, TelegramBadRequest) as exc:
            log.info("match %s: no panel for seat %s (%s)", record.id, seat, type(exc).__name__)
            tr = self.tr(record)
            await self.outbox.send(
                record.chat_id,
                tr("need-start", name=escape(player.name)),
                keyboards.open_bot_keyboard(tr, self.bot_username, f"m_{record.id}"),
            )
            return False
        await self.service.set_panel_message(record.id, seat, message.message_id)
        if old is not None:
            self.outbox.edit(player.id, old, self.tr(record)("panel-moved"), None, version=FINAL)
        return True

    async def show(self, result: MoveResult, messages: Messages | None = None) -> None:
        """After a move: results if a deal or the match ended, then the table and both panels.

        ``messages``: the match's message ids when the caller has just read them.
        """
        record, match = result.record, result.match
        tr = self.tr(record)
        if messages is None:
            messages = await self.service.messages(record.id)
        finished = result.finished_deal
        deal_ended = finished is not None
        if finished is not None:
            if messages.table is not None:
                # The finished deal's table keeps its final state.
                final = render.table_text(tr, record, finished.view(None))
                self.outbox.edit(record.chat_id, messages.table, final, None, record.version)
            await self.outbox.send(record.chat_id, render.deal_result_text(tr, record, finished))
        if deal_ended and result.summary is None:
            message = await self.outbox.send(record.chat_id, self._table(record, match))
            await self.service.set_table_message(record.id, message.message_id)
        elif not deal_ended and messages.table is not None:
            self.outbox.edit(record.chat_id, messages.table, self._table(record, match), None, record.version)
        if result.summary is not None:
            await self._announce_result(record, result.summary)
        for seat in (0, 1):
            panel = messages.panel(seat)
            if panel is not None:
                text, markup = self._panel(record, match, seat)
                self.outbox.edit(record.players[seat].id, panel, text, markup, record.version)

    async def _announce_result(self, record: MatchRecord, summary: Summary) -> None:
        tr = self.tr(record)
        lines = [render.match_result_text(tr, record, summary)]
        rating = render.rating_text(tr, record, summary)
        if rating is not None:
            lines.append(rating)
        await self.outbox.send(record.chat_id, "\n".join(lines))

    # -- challenges ------------------------------------------------------------

    def challenge_message(self, challenge: Challenge) -> tuple[str, InlineKeyboardMarkup]:
        tr = self.i18n[challenge.lang]
        minutes = max(1, round((challenge.expires - challenge.created) / 60))
        opponent = challenge.opponent_name or (
            f"@{challenge.opponent_username}" if challenge.opponent_username else None
        )
        game = render.game_name(tr, challenge.preset)
        creator = escape(challenge.creator.name)
        if opponent:
            head = tr(
                "challenge-invite", creator=creator, opponent=escape(opponent), game=game, target=challenge.target
            )
        else:
            head = tr("challenge-anyone", creator=creator, game=game, target=challenge.target)
        text = head + "\n" + tr("challenge-expires", n=minutes)
        return text, keyboards.challenge_keyboard(tr, challenge, self.bot_username)

    def close_challenge(self, challenge: Challenge, key: str) -> None:
        """Replace a challenge's message by a line saying why it is gone (withdrawn, cancelled, expired)."""
        self.cancel_expiry(challenge.id)
        if challenge.message_id is not None:
            text = self.i18n[challenge.lang](key, creator=escape(challenge.creator.name))
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
