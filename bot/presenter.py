"""Shows matches and challenges in Telegram: the one door of the routers and the timers to Telegram.

What a match's messages must show is already in Redis when a handler or a
job has changed it, so showing it is asking the delivery (``bot/delivery``) to
bring them up to date. Challenges' messages, reminders and the other replies
that are not a match's screens go out here, through the outbox (within
Telegram's limits).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import keyboards, render, texts, tournament_text
from bot.callbacks import ClaimWinCb
from bot.delivery import Delivery, Ticket
from bot.delivery.passes import inline_slot
from bot.i18n import I18n
from bot.lean import Markup, Posted
from bot.models import Challenge, Lang, MatchRecord, MoveResult, SeasonStanding, Summary, Tournament
from bot.outbox import Outbox, chat_gone, in_topic
from bot.pictures.painter import Painter, caption_fits
from bot.services.chats import Chats
from bot.services.records import Records
from bot.services.tournaments import Binding

log = logging.getLogger(__name__)


class Presenter:
    def __init__(
        self,
        outbox: Outbox,
        delivery: Delivery,
        records: Records,
        chats: Chats,
        i18n: I18n,
        *,
        bot_username: str,
        painter: Painter | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.outbox = outbox
        self.delivery = delivery
        self.records = records
        self.chats = chats
        self.i18n = i18n
        self.bot_username = bot_username
        self.painter = painter
        """Draws a tournament's final picture (None: pictures off, the end is a text)."""
        self.clock = clock

    # -- matches ------------------------------------------------------------------------

    def ticket(self, match_id: str) -> Ticket:
        """Taken before a move, for ``show`` to start from what the move's script read."""
        return self.delivery.ticket(match_id)

    def start_match(self, record: MatchRecord) -> None:
        """A new match: the table in the group, a panel for each player (the accept marked them due)."""
        self.delivery.kick(record.id)

    def show(self, result: MoveResult, ticket: Ticket | None = None) -> None:
        """After a move: results if a deal or the match ended, then the table and both panels (starting from
        what the move's script said the messages show, when it did: ``ticket`` from ``ticket`` before the
        move)."""
        snapshot = None if result.messages is None else (result.record, result.match, result.messages)
        self.delivery.kick(result.record.id, snapshot=snapshot, ticket=ticket)

    def show_matches(self, match_ids: list[str]) -> None:
        """Bring these matches' messages up to date (a group that let the bot back in)."""
        for match_id in match_ids:
            self.delivery.kick(match_id)

    async def resend_panel(self, record: MatchRecord, seat: int) -> None:
        """The seat's panel again, as a new message at the bottom of the chat; the old one stops working."""
        await self.chats.set_blocked(record.players[seat].id, False)
        await self.delivery.resend_panel(record.id, seat)

    async def resend_panels(self, record: MatchRecord) -> None:
        """Both panels again as new messages (a match ended by its clock or a claimed win: Telegram tells both
        players), with the group's messages."""
        for seat in (0, 1):
            await self.delivery.resend_panel(record.id, seat)
        self.delivery.kick(record.id)

    async def resync(self, record: MatchRecord) -> None:
        """Redis went back to an earlier moment than the messages show: both panels again as new messages,
        and the table edited, to what Redis holds."""
        await self.delivery.resync(record.id)
        self.delivery.kick(record.id)

    async def migrated(self, old: int, new: int) -> None:
        """The group became a supergroup: everything of the chat moves to its new id, its matches show there."""
        await self.delivery.migrated(old, new)

    # -- challenges ------------------------------------------------------------

    async def post_challenge(self, challenge: Challenge) -> int:
        """The challenge's message in its chat (in its forum topic), with its buttons; the message's id."""
        tr = self.i18n[challenge.lang]
        text, markup = render.challenge_text(tr, challenge), keyboards.challenge_keyboard(tr, challenge)
        sent = await self._to_topic(challenge.chat_id, text, markup, challenge.thread_id)
        return sent.message_id

    async def challenge_taken(self, challenge: Challenge, record: MatchRecord) -> None:
        """A challenge became ``record``: its message says the match began (and loses its buttons)."""
        if challenge.message_id is not None:
            self.outbox.edit(record.chat_id, challenge.message_id, await self._accepted_text(record), None)

    async def challenge_ended_unseen(self, challenge: Challenge, record: MatchRecord | None) -> None:
        """A challenge ended before its message's id was stored (whatever ended it had no message to edit): the
        message says the match ``record`` began, or, with no match, that its creator withdrew it."""
        if record is not None:
            await self.challenge_taken(challenge, record)
        else:
            await self.close_challenge(challenge, "challenge-withdrawn")

    async def challenge_carried_through(self, challenge: Challenge, record: MatchRecord) -> None:
        """An accept whose process died midway was carried through: the challenge's message says the match
        began, and the match's messages go out."""
        if challenge.rematch_of is not None:
            await self.rematch_result(challenge.rematch_of, "rematch-started")
        elif challenge.message_id is not None:
            text = await self._accepted_text(record)
            with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                await self.outbox.edit_now(challenge.chat_id, challenge.message_id, text, None, version=1)
        self.delivery.kick(record.id)

    async def _accepted_text(self, record: MatchRecord) -> str:
        _, match = await self.records.peek(record.id)
        return render.challenge_accepted_text(self.i18n[record.lang], record, match.rules.name, match.deal.target)

    async def close_challenge(self, challenge: Challenge, key: str) -> None:
        """Replace a challenge's message by a line saying why it is gone (withdrawn, cancelled); a rematch's
        message is the match's result: it says the rematch is off."""
        if challenge.rematch_of is not None:
            await self.rematch_result(challenge.rematch_of, "rematch-off")
        elif challenge.inline_message_id is not None:
            await self._inline_closed(challenge, key)
        elif challenge.message_id is not None:
            text = render.challenge_closed_text(self.i18n[challenge.lang], challenge, key)
            self.outbox.edit(challenge.chat_id, challenge.message_id, text, None)

    async def challenge_expired(self, challenge: Challenge) -> None:
        """The challenge's time is up: its message says so (now: the expiry is taken out after it)."""
        if challenge.rematch_of is not None:
            await self.rematch_result(challenge.rematch_of, "rematch-off")
        elif challenge.inline_message_id is not None:
            await self._inline_closed(challenge, "challenge-expired")
        elif challenge.message_id is not None:
            text = render.challenge_closed_text(self.i18n[challenge.lang], challenge, "challenge-expired")
            with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
                await self.outbox.edit_now(challenge.chat_id, challenge.message_id, text, None, version=1)

    async def _inline_closed(self, challenge: Challenge, key: str) -> None:
        """An inline challenge's message (posted via the bot) says why it is gone, without its buttons (best effort:
        it may be deleted)."""
        assert challenge.inline_message_id is not None
        text = render.challenge_closed_text(self.i18n[challenge.lang], challenge, key)
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await self.outbox.edit_inline(challenge.chat_id, challenge.inline_message_id, text, None, version=0)

    # -- rematches -----------------------------------------------------------------------

    async def rematch_asked(self, old: MatchRecord, seat: int) -> None:
        """The seat's player wants a rematch: the result says so, and keeps its button for the other."""
        await self.rematch_result(
            old.id, "rematch-asked", button=True, name=texts.name(old, seat), other=texts.name(old, 1 - seat)
        )

    async def rematch_started(self, old: MatchRecord, record: MatchRecord) -> None:
        """The rematch began: the old result says so and loses its button; the new match's messages go out."""
        await self.rematch_result(old.id, "rematch-started")
        self.delivery.kick(record.id)

    async def rematch_result(self, match_id: str, key: str, *, button: bool = False, **args: str) -> None:
        """A finished match's result again, with the line ``key`` under it (who asked for the rematch, that it
        began, that it is off), with the rematch button or without (best effort: the result may be gone)."""
        record, _, messages = await self.records.screens(match_id)
        summary = messages.summary
        if record.inline_message_id is not None and summary is not None:
            await self._inline_result(record, summary, key, button, **args)
            return
        if messages.result is None or summary is None:
            return
        tr = self.i18n[record.lang]
        caption = await self.delivery.result_caption(tr, record, summary, tr(key, **args))
        if messages.result_photo and not caption_fits(caption):
            caption = await self.delivery.result_caption(tr, record, summary)
        markup = keyboards.rematch_keyboard(tr, record.id) if button else None
        if not messages.result_photo:
            self.outbox.edit(record.chat_id, messages.result, caption, markup)
            return
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await self.outbox.edit_caption(record.chat_id, messages.result, caption, markup)

    async def _inline_result(self, record: MatchRecord, summary: Summary, key: str, button: bool, **args: str) -> None:
        """``rematch_result`` of a match begun in inline mode: its message's last state, the line under it (best
        effort: the message may be gone)."""
        assert record.inline_message_id is not None
        tr = self.i18n[record.lang]
        _, match = await self.records.peek(record.id)
        caption = await self.delivery.result_caption(tr, record, summary, tr(key, **args))
        text = "\n".join([render.table_text(tr, record, match.deal.view(None)), "", caption])
        markup = keyboards.rematch_keyboard(tr, record.id) if button else None
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await self.outbox.edit_inline(record.chat_id, record.inline_message_id, text, markup,
                                          record.version + 1, slot=inline_slot(record.id))  # fmt: skip

    # -- the turn clock ------------------------------------------------------------

    async def remind(self, record: MatchRecord, seat: int, left: float) -> None:
        """Half the time is gone: the player to act gets a private message, the group a line naming them."""
        tr, own = self.i18n[record.lang], self.i18n[record.lang_of(seat)]
        private, group = render.reminder_texts(tr, record, seat, left, own)
        with contextlib.suppress(TelegramForbiddenError, TelegramBadRequest):
            await self.outbox.send(record.players[seat].id, private)
        if not await self.chats.group_gone(record.chat_id):
            with contextlib.suppress(TelegramForbiddenError, TelegramBadRequest):
                await self.delivery.say(record, group)

    async def offer_win(self, record: MatchRecord, seat: int, after: float) -> None:
        """The clock is off and nobody moved for ``after`` seconds: the waiting player may take the win."""
        tr = self.i18n[record.lang_of(seat)]
        button = InlineKeyboardButton(
            text=tr("btn-claim-win"), callback_data=ClaimWinCb(m=record.id, v=record.version).pack()
        )
        text = tr("claim-offer", idle=render.duration(tr, after))
        with contextlib.suppress(TelegramForbiddenError, TelegramBadRequest):
            await self.outbox.send(record.players[seat].id, text, InlineKeyboardMarkup(inline_keyboard=[[button]]))

    # -- seasons -------------------------------------------------------------------------

    async def season_over(self, chat_id: int, lang: Lang, season: str, rows: list[SeasonStanding]) -> None:
        """A group's season ended: its final table and its champion (``rows``: best first), within the group's
        budget. A group that removed the bot, or is gone, gets nothing; other failures reach the caller."""
        if await self.chats.group_gone(chat_id):
            return
        try:
            await self.outbox.send(chat_id, render.season_final_text(self.i18n[lang], season, rows))
        except TelegramForbiddenError as exc:
            log.info("group %s: %s; the final table of %s is dropped", chat_id, exc.message, season)
            await self.chats.set_group_gone(chat_id, True)
        except TelegramBadRequest as exc:
            log.info("group %s: %s; the final table of %s is dropped", chat_id, exc.message, season)
            if chat_gone(exc):
                await self.chats.set_group_gone(chat_id, True)

    # -- tournaments ---------------------------------------------------------------------

    async def post_tournament(self, t: Tournament) -> int:
        """The tournament's message in its chat (its topic), with its buttons: a new sign-up's, or the message of one
        on posted again (``/tournament``, a group that became a supergroup); the message's id."""
        tr = self.i18n[t.lang]
        text = tournament_text.board_text(tr, t, self.clock())
        sent = await self._to_topic(t.chat_id, text, tournament_text.board_keyboard(tr, t), t.thread_id)
        return sent.message_id

    async def tournament_message(self, t: Tournament) -> int | None:
        """The message of a tournament that has none (its first post failed, or its group became a supergroup);
        None when the group removed the bot or Telegram refused it (tried again at the tournament's next look)."""
        if await self.chats.group_gone(t.chat_id):
            return None
        try:
            return await self.post_tournament(t)
        except TelegramForbiddenError as exc:
            log.info("group %s: %s; tournament %s has no message", t.chat_id, exc.message, t.id)
            await self.chats.set_group_gone(t.chat_id, True)
        except TelegramBadRequest as exc:
            log.info("group %s refused the message of tournament %s (%s)", t.chat_id, t.id, exc.message)
            if chat_gone(exc):
                await self.chats.set_group_gone(t.chat_id, True)
        return None

    async def tournament_bound(self, binding: Binding) -> None:
        """A message just posted was bound to its tournament (``Tournaments.bind_message``): the one it replaced
        loses its buttons (or it does, when a newer one is the tournament's), and it is edited to the tournament as
        it is now when that changed after it was rendered (a press came between)."""
        t = binding.tournament
        if binding.retire is not None:
            await self.retire_tournament_message(t, binding.retire)
        if binding.current and binding.behind:
            self.tournament_board(t)

    async def retire_tournament_message(self, t: Tournament, message_id: int) -> None:
        """A message of the tournament that is not its message any more loses its buttons (nothing happens when it
        is gone)."""
        await self.outbox.strip(t.chat_id, message_id)

    def tournament_board(self, t: Tournament) -> None:
        """Edit the tournament's message to ``t`` when the group's budget allows (an older state never replaces
        a newer one, nor one shown already: the edit's version is the tournament's)."""
        if t.message_id is None:
            return
        tr = self.i18n[t.lang]
        text = tournament_text.board_text(tr, t, self.clock())
        self.outbox.edit(t.chat_id, t.message_id, text, tournament_text.board_keyboard(tr, t), version=t.version)

    async def tournament_forfeits(self, t: Tournament, forfeits: list[tuple[int, tuple[int, ...]]]) -> None:
        """Tell the group of pairings forfeited by players busy in other matches (pairing, busy entrants)."""
        if await self.chats.group_gone(t.chat_id):
            return
        tr = self.i18n[t.lang]
        lines = [tournament_text.busy_forfeit_line(tr, t, t.pairings[n], set(busy)) for n, busy in forfeits]
        await self._to_topic(t.chat_id, "\n".join(lines), None, t.thread_id)

    async def tournament_over(self, t: Tournament) -> None:
        """The end: the champion with a picture of the final standings or bracket (drawn off the event loop; a
        text when pictures are off, the drawing failed or the group refused the picture), and the message edited
        to its final state; a stopped one: the standings so far, as a text. A group that removed the bot gets
        nothing; other failures reach the caller."""
        self.tournament_board(t)
        if await self.chats.group_gone(t.chat_id):
            return
        tr = self.i18n[t.lang]
        try:
            if t.status == "stopped":
                await self._to_topic(t.chat_id, tournament_text.stopped_text(tr, t), None, t.thread_id)
                return
            caption = tournament_text.over_caption(tr, t)
            if not await self._tournament_picture(t, caption):
                await self._to_topic(t.chat_id, caption, None, t.thread_id)
        except TelegramForbiddenError as exc:
            log.info("group %s: %s; the end of tournament %s is dropped", t.chat_id, exc.message, t.id)
            await self.chats.set_group_gone(t.chat_id, True)

    async def _tournament_picture(self, t: Tournament, caption: str) -> bool:
        """The end's picture with its caption; False when there is none (pictures off, the drawing failed) or the
        group refused it (any 400: members may not send pictures there, say)."""
        if self.painter is None:
            return False
        tr = self.i18n[t.lang]
        png = await self.painter.png(tournament_text.picture(tr, t), key=f"tn:{t.id}:{t.lang}")
        if png is None:
            return False
        try:
            await in_topic(t.thread_id, lambda topic: self.outbox.send_photo(t.chat_id, png, caption, thread=topic))
        except TelegramBadRequest as exc:
            log.info("group %s refused the picture of tournament %s (%s); its end goes as a text", t.chat_id, t.id,
                     exc.message)  # fmt: skip
            return False
        return True

    # -- other messages ------------------------------------------------------------------

    async def send(self, chat_id: int, text: str, markup: Markup | None = None, *, thread: int | None = None) -> None:
        """A message of the bot's own (within the chat's budget), in the forum topic ``thread`` if given."""
        await self._to_topic(chat_id, text, markup, thread)

    async def _to_topic(self, chat_id: int, text: str, markup: Markup | None, thread: int | None) -> Posted:
        """Send into a forum topic; into the General topic when that one is closed or gone."""
        sent, _ = await in_topic(thread, lambda topic: self.outbox.send(chat_id, text, markup, thread=topic))
        return sent

    def edit(self, chat_id: int, message_id: int, text: str, markup: Markup | None = None) -> None:
        """Replace a message's text (and buttons) when the chat's budget allows (a newer edit of it wins)."""
        self.outbox.edit(chat_id, message_id, text, markup)

    async def strip(self, chat_id: int, message_id: int) -> None:
        """Take a message's buttons away (an outdated panel or offer)."""
        await self.outbox.strip(chat_id, message_id)
