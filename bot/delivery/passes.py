"""One pass of a lane: the group's messages of a match, or one seat's panel, brought to the match's version.

The group: each result still to post (a finished deal's final table first,
the match's result as its card), then the current deal's table (a new deal
gets a new message). A panel: edited for the player who just moved, sent as a
new message at the bottom of the chat when the turn passes to them (so
Telegram notifies them; silently when they moved in the last ``QUIET_AFTER``
seconds), the old one deleted or stripped of its buttons; after the match's
last panel, the match card in private, then the player's post-mortem (``🔎``,
``bot.services.reviews``). What each message shows is recorded in
Redis as it goes (``Ledger.record``), edits lazily.

A match played in a person's private chat (against the computer,
``MatchRecord.private_seat``) has one message there, their panel, which shows
all the table would: the chat gets one message a second, and each move costs
it one edit. So it gets no table; its panel's lane posts the results, after
the panel (the buttons first), and the turn edits the panel in place until
results went under it (then it comes anew below them, at the next move).

Every group message of a match goes out through ``_to_group``: into the
match's forum topic (``MatchRecord.thread_id``), or into the General topic
once Telegram said the topic is closed or deleted; that is recorded on the
match (``Messages.general``), once, and its later messages go straight there.
"""

from __future__ import annotations

import contextlib
import json
import logging
import zlib
from collections.abc import Awaitable, Callable
from typing import TypeVar

from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardMarkup

from bot import keyboards, render, replays, review_text
from bot.codec import StoredDeal
from bot.delivery.ledger import GROUP, Ledger
from bot.i18n import I18n, Translator
from bot.lean import Markup
from bot.models import MatchRecord, Messages, Summary, is_inline_chat
from bot.outbox import Outbox, chat_gone, in_topic, topic_gone
from bot.pictures import build
from bot.pictures.painter import Painter, caption_fits
from bot.services.chats import Chats
from bot.services.reviews import MatchReview, Reviews
from bot.storage.matches import MatchStore
from bot.webapp.links import NO_LINKS, AppLinks
from engine import Match

log = logging.getLogger(__name__)


def inline_slot(match_id: str) -> int:
    """Where the outbox keeps the version an inline message shows of ``match_id`` (its rematch, in the same
    message, counts from 1 again)."""
    return 1 + zlib.crc32(match_id.encode())


async def tidy(outbox: Outbox, chat_id: int, message_id: int) -> None:
    """Delete a replaced panel, or at least take its buttons (best effort)."""
    if not await _quietly(outbox.delete(chat_id, message_id)):
        await _quietly(outbox.strip(chat_id, message_id))


async def _quietly(call: Awaitable[object]) -> bool:
    """Tidying up an old panel is best effort: a failure leaves a panel whose presses are refused anyway."""
    try:
        result = await call
    except Exception as exc:
        log.info("tidying an old panel failed: %s", exc)
        return False
    return result is not False


QUIET_AFTER = 20.0
"""A player who moved this many seconds ago or less is handed the turn without a notification."""
T = TypeVar("T")


class Passes:
    """What a pass of each lane sends and edits."""

    def __init__(
        self,
        outbox: Outbox,
        i18n: I18n,
        matches: MatchStore,
        chats: Chats,
        ledger: Ledger,
        *,
        time: Callable[[], float],
        bot_username: str,
        painter: Painter | None,
        reviewer: Reviews,
        links: AppLinks = NO_LINKS,
    ) -> None:
        self.outbox = outbox
        self.i18n = i18n
        self.matches = matches
        self.chats = chats
        self.ledger = ledger
        self.time = time
        self.bot_username = bot_username
        self.painter = painter
        """Draws the match cards (None: pictures are off, results go as text)."""
        self.reviewer = reviewer
        """Makes each finished match's post-mortem (the accuracy on its card, each person's ``🔎``)."""
        self.links = links
        """The Mini App's buttons (the table's direct link, the panels' ``web_app``), when it is set up."""

    # -- the group -----------------------------------------------------------------

    async def group(self, record: MatchRecord, match: Match, messages: Messages) -> None:
        """The results still to post, then the table (a group that removed the bot gets nothing; one that
        blocks it now is marked so)."""
        chat = record.chat_id
        if record.private_seat is not None:
            # Played in the person's private chat: their panel there is the table too, and brings the results
            # (``panel``); the table is as current as it.
            self.ledger.edit_done(record.id, "tv", record.version)
            return
        if record.inline_message_id is not None:
            await self._inline(record, match, messages)
            return
        if is_inline_chat(chat):  # an inline challenge's match whose message nobody knows: no group, nothing sent
            log.info("match %s: an inline match without a table; it goes on in private", record.id)
            await self.chats.set_group_gone(chat, True)
            return
        if await self.chats.group_gone(chat):
            return
        tr = self.i18n[record.lang]
        try:
            for post in messages.posts:
                if json.loads(post)["k"] == "match":
                    messages = await self._table(record, match, messages, tr)  # the final table, then the result
                await self._post(record, messages, post, tr)
                await self.ledger.record(record.id, GROUP, self.matches.posted(record.id, post))
            await self._table(record, match, messages, tr)
        except (TelegramForbiddenError, TelegramBadRequest) as exc:  # removed the bot, or no such chat: gone
            if isinstance(exc, TelegramBadRequest) and not chat_gone(exc):
                raise
            log.info("group %s: %s; its matches go on in private", chat, exc.message)
            await self.chats.set_group_gone(chat, True)

    async def _table(self, record: MatchRecord, match: Match, messages: Messages, tr: Translator) -> Messages:
        """Bring the current deal's table to the match's version (a new deal gets a new message)."""
        chat, number, version = record.chat_id, match.deal.number, record.version
        text = render.table_text(tr, record, match.deal.view(None))
        markup = keyboards.table_keyboard(tr, self.links.direct(record.id))
        if messages.table is not None and messages.table_deal == number:
            if messages.table_version >= version:
                return messages
            if messages.table_version < 0:  # shown again from what Redis holds (``Delivery.resync``)
                self.outbox.forget(chat, messages.table)
            if await self._edit(chat, messages.table, text, markup, version):
                self.ledger.edit_done(record.id, "tv", version)
                return messages.model_copy(update={"table_version": version})
        sent = await self._to_group(
            record, messages, lambda thread: self.outbox.send(chat, text, markup, thread=thread)
        )
        shown = self.matches.shown(record.id, t=sent.message_id, tn=number, tv=version)
        await self.ledger.record(record.id, GROUP, shown)
        return messages.model_copy(update={"table": sent.message_id, "table_deal": number, "table_version": version})

    async def _post(self, record: MatchRecord, messages: Messages, post: str, tr: Translator) -> None:
        """Post one result; a finished deal's table first shows the deal's end."""
        data = json.loads(post)
        chat = record.chat_id
        if data["k"] == "deal":
            deal = StoredDeal.model_validate(data["d"]).to_match().deal
            if messages.table is not None and messages.table_deal == deal.number:
                final = render.table_text(tr, record, deal.view(None))
                await self._edit(chat, messages.table, final, None, record.version)
            text = render.deal_result_text(tr, record, deal)
            self.reviewer.prepare(record)  # the deal's review starts in the background
            await self._to_group(record, messages, lambda thread: self.outbox.send(chat, text, thread=thread))
        elif (summary := messages.summary) is not None:
            # A match someone won is offered again (``bot.services.rematches``): the button under its result; not a
            # tournament's (its players have the tournament's next pairings to play).
            rematch = summary.winner is not None and record.tournament is None
            markup = keyboards.rematch_keyboard(tr, record.id) if rematch else None
            review = await self._review(record, summary)
            caption = await self.result_caption(tr, record, summary)
            shown, photo = await self._to_group(
                record,
                messages,
                lambda thread: self._card(record, summary, chat, caption, tr, review, markup=markup, thread=thread),
            )
            await self.ledger.record(record.id, GROUP, self.matches.shown(record.id, r=shown, rp=int(photo)))

    async def _inline(self, record: MatchRecord, match: Match, messages: Messages) -> None:
        """A match begun in inline mode: its one message, posted via the bot in a chat the bot is not in, is its
        table, edited to the match's version (the chat's budget: the match's own chat id); a finished deal's
        result stays under the table until the next deal's first move, and the match's result (with the rematch
        button) is the message's last state. The results' posts are shown so, never sent. A message that is gone
        (``MESSAGE_ID_INVALID``) is marked so: the match goes on in private and ends normally."""
        assert record.inline_message_id is not None
        for post in messages.posts:  # shown in the table's text below
            await self.ledger.record(record.id, GROUP, self.matches.posted(record.id, post))
        if await self.chats.group_gone(record.chat_id):
            self.ledger.edit_done(record.id, "tv", record.version)
            return
        tr = self.i18n[record.lang]
        lines = [render.table_text(tr, record, match.deal.view(None))]
        prev = record.prev.to_match().deal if record.prev is not None and not record.deal.a else None
        if prev is not None:
            lines += ["", render.deal_result_text(tr, record, prev)]
        markup = keyboards.table_keyboard(tr, self.links.direct(record.id)) if record.is_active else None
        if not record.is_active and (summary := messages.summary) is not None:
            lines += ["", await self.result_caption(tr, record, summary)]
            if summary.winner is not None and record.tournament is None:
                markup = keyboards.rematch_keyboard(tr, record.id)
        try:
            await self.outbox.edit_inline(record.chat_id, record.inline_message_id, "\n".join(lines), markup,
                                          record.version, slot=inline_slot(record.id))  # fmt: skip
        except TelegramBadRequest as exc:
            if "MESSAGE_ID_INVALID" not in exc.message and "message to edit not found" not in exc.message:
                raise
            log.info("match %s: its inline message is gone (%s); it goes on in private", record.id, exc.message)
            await self.chats.set_group_gone(record.chat_id, True)
        self.ledger.edit_done(record.id, "tv", record.version)
        await self.ledger.record(record.id, GROUP, self.matches.shown(record.id, tv=record.version))

    async def result_caption(
        self, tr: Translator, record: MatchRecord, summary: Summary, line: str | None = None
    ) -> str:
        """The group's match result with each person's accuracy and hints under it, the match's key and seeds, the
        link to its replay, then ``line`` (what became of the rematch)."""
        notes = tuple(review_text.card_lines(tr, record, await self._review(record, summary)))
        link = replays.replay_link(tr, self.bot_username, record.id)
        return render.result_caption(tr, record, summary, line, link=link, notes=notes)

    async def _card(
        self,
        record: MatchRecord,
        summary: Summary,
        chat: int,
        caption: str,
        tr: Translator,
        review: MatchReview | None,
        *,
        markup: InlineKeyboardMarkup | None = None,
        thread: int | None = None,
        silent: bool = False,
    ) -> tuple[int, bool]:
        """The match card with its caption; the caption alone when pictures are off or the card cannot be drawn
        or sent (a 429 is waited out; a 403, a migration or a topic closed or gone reach the caller). The
        message's id, and whether it is the card."""
        png = None
        if self.painter is not None and caption_fits(caption):
            card = build.match_card(tr, record, summary, review)
            png = await self.painter.png(card, key=f"{record.id}:{tr.lang}")
        if png is not None:
            try:
                return await self.outbox.send_photo(chat, png, caption, markup, thread=thread, silent=silent), True
            except TelegramBadRequest as exc:
                if "upgraded to a supergroup" in exc.message or topic_gone(exc):
                    raise
                log.warning("match %s: Telegram refused its card (%s); its text goes alone", record.id, exc.message)
        return (await self.outbox.send(chat, caption, markup, thread=thread, silent=silent)).message_id, False

    # -- where the group's messages go -------------------------------------------------------

    async def say(self, record: MatchRecord, text: str, markup: Markup | None = None) -> None:
        """A line of the match's own in the group, beside its table and results (a reminder, a player who
        blocked the bot; a rematch offer goes the same way), where the match's group messages go now. A match
        begun in inline mode has no group: nothing (its players are told in private)."""
        if is_inline_chat(record.chat_id):
            return
        messages = Messages()
        if record.thread_id is not None:
            messages = await self.matches.messages(record.id)
        await self._to_group(
            record, messages, lambda thread: self.outbox.send(record.chat_id, text, markup, thread=thread)
        )

    def _topic(self, record: MatchRecord, messages: Messages) -> int | None:
        """The forum topic the match's group messages go to (None: the group has none, or the General topic)."""
        if messages.general or record.id in self.ledger.general:
            return None
        return record.thread_id

    async def _to_group(self, record: MatchRecord, messages: Messages, send: Callable[[int | None], Awaitable[T]]) -> T:
        """Send one group message of the match (``send`` takes the topic): into the match's topic, or, once
        Telegram answers that the topic is closed or deleted, into the General topic, for good: that is
        recorded on the match (in this process at once, in Redis for the others and a restart)."""
        sent, fell_back = await in_topic(self._topic(record, messages), send)
        if fell_back:
            log.info("match %s of %s: on in the General topic", record.id, record.chat_id)
            self.ledger.general.add(record.id)
            await self.ledger.record(record.id, GROUP, self.matches.shown(record.id, g=1))
        return sent

    async def _edit(self, chat: int, message_id: int, text: str, markup: Markup | None, version: int) -> bool:
        """Edit a match message; False when it is gone (deleted by someone), so a new one is due."""
        try:
            await self.outbox.edit_now(chat, message_id, text, markup, version)
        except TelegramBadRequest as exc:
            if "not found" in exc.message or "can't be edited" in exc.message:
                return False
            raise
        return True

    # -- a seat's panel ------------------------------------------------------------------

    async def panel(self, record: MatchRecord, match: Match, messages: Messages, seat: int) -> None:
        """The seat's panel (and, after the match's last one, its private card); nothing for a seat the bot
        cannot write to."""
        if await self.blocked(record, seat):
            return
        if not await self._panel_message(record, match, messages, seat):
            return
        if record.private_seat == seat and not await self._results_here(record, match, messages, seat):
            return
        if messages.summary is not None and await self._private_card(record, messages, seat):
            await self._post_mortem(record, messages, seat)

    async def _results_here(self, record: MatchRecord, match: Match, messages: Messages, seat: int) -> bool:
        """A match played in the player's private chat: its results there, after the panel (so the buttons are
        back first, the chat's one message a second spent on them), and while the computer is to act, after its
        move's panel (it is due within seconds: the results wait for it, the match stays due meanwhile). The
        next panel then comes as a new message below them (marked before they go: a process that dies meanwhile
        leaves it so). False when the player cannot be written to."""
        if not messages.posts or (record.is_active and match.turn not in (seat, None)):
            return True
        if record.is_active:
            await self.ledger.record(record.id, seat, self.matches.shown(record.id, **{f"p{seat}n": -1}))
        tr = self.i18n[record.lang]
        try:
            for post in messages.posts:
                await self._post(record, messages, post, tr)
                await self.ledger.record(record.id, seat, self.matches.posted(record.id, post))
        except TelegramForbiddenError as exc:
            await self._player_gone(record, seat, exc)
            return False
        return True

    async def blocked(self, record: MatchRecord, seat: int) -> bool:
        """Whether the seat gets no panel: the person blocked the bot, or the seat is the computer's."""
        player = record.players[seat]
        return player.computer or await self.chats.is_blocked(player.id)

    async def _review(self, record: MatchRecord, summary: Summary) -> MatchReview | None:
        """The match's post-mortem, for a match someone won (an abandoned one has none)."""
        return None if summary.winner is None else await self.reviewer.review(record)

    async def _private_card(self, record: MatchRecord, messages: Messages, seat: int) -> bool:
        """After the match's last panel, the match card in the player's private chat with their own result
        and rating change (once: recorded as ``c0``/``c1``). None for a match played in that chat, or one
        that nobody won. False when the player cannot be written to."""
        summary = messages.summary
        player = record.players[seat]
        if messages.cards[seat] or summary is None:
            return summary is not None
        if summary.winner is not None and record.chat_id != player.id:
            tr = self.i18n[record.lang_of(seat)]
            review = await self._review(record, summary)
            link = replays.replay_link(tr, self.bot_username, record.id)
            text = render.private_result_text(tr, record, summary, seat)
            text = "\n".join([text, *review_text.card_lines(tr, record, review), link])
            quiet = self.time() - record.pressed[seat] < QUIET_AFTER  # who just made the last move knows
            try:
                await self._card(record, summary, player.id, text, tr, review, silent=quiet)
            except TelegramForbiddenError as exc:
                await self._player_gone(record, seat, exc)
                return False
        await self.ledger.record(record.id, seat, self.matches.shown(record.id, **{f"c{seat}": 1}))
        return True

    async def _post_mortem(self, record: MatchRecord, messages: Messages, seat: int) -> None:
        """After the private card, the person's ``🔎`` message in their language (once: recorded as ``q0``/``q1``;
        none for a match nobody won, nor when post-mortems are off). Sent before it is recorded: a process killed
        between the two sends it again, never loses it."""
        summary = messages.summary
        if messages.reviews[seat] or summary is None:
            return
        if summary.winner is not None and self.reviewer.made:
            tr = self.i18n[record.lang_of(seat)]
            text = review_text.review_text(tr, await self._review(record, summary), seat)
            try:
                await self.outbox.send(record.players[seat].id, text, silent=True)
            except TelegramForbiddenError as exc:
                await self._player_gone(record, seat, exc)
                return
        await self.ledger.record(record.id, seat, self.matches.shown(record.id, **{f"q{seat}": 1}))

    async def _panel_message(self, record: MatchRecord, match: Match, messages: Messages, seat: int) -> bool:
        """Bring the seat's panel to the match's version; False when the player cannot be written to."""
        player = record.players[seat]
        tr = self.i18n[record.panel_lang(seat)]
        view = match.deal.view(seat)
        prev = record.prev.to_match().deal if record.prev is not None and not record.deal.a else None
        text = render.panel_text(tr, record, view, prev=prev, summary=messages.summary)
        if record.is_active:
            hint = record.computer_seat is not None
            app = self.links.panel(record.id)
            markup: Markup | None = keyboards.panel_json(tr, record.id, record.version, view, hint=hint, app=app)
        else:  # the last panel of a match someone won offers the rematch
            won = messages.summary is not None and messages.summary.winner is not None
            markup = keyboards.rematch_keyboard(tr, record.id) if won and record.tournament is None else None
        old = messages.panel(seat)
        since = messages.panel_since[seat]
        handed = record.is_active and match.turn == seat and since < record.turn_since
        if record.private_seat == seat:
            # In the match's own chat the panel is the newest message unless results went under it (then it is
            # marked to come anew): the turn edits it, unless the player has been away (then Telegram tells them).
            handed = handed and self.time() - record.pressed[seat] >= QUIET_AFTER
        left = messages.panels_replaced[seat]
        if left is not None and left != old:
            # A panel replaced by a process that died before tidying it: its buttons go now.
            await tidy(self.outbox, player.id, left)
            self.ledger.tidied(record.id, seat, left)
        try:
            if old is not None and since >= 0 and not handed:
                if messages.panel_versions[seat] >= record.version:
                    return True
                if await self._edit(player.id, old, text, markup, record.version):
                    self.ledger.edit_done(record.id, f"p{seat}v", record.version)
                    return True
            replaced = await self._new_panel(record, seat, old, since, text, markup)
        except (TelegramForbiddenError, TelegramBadRequest) as exc:  # blocked, or no such chat: gone
            if isinstance(exc, TelegramBadRequest) and not chat_gone(exc):
                raise
            await self._player_gone(record, seat, exc)
            return False
        if replaced is not None:
            await tidy(self.outbox, player.id, replaced)
            self.ledger.tidied(record.id, seat, replaced)
        return True

    async def _new_panel(
        self, record: MatchRecord, seat: int, old: int | None, since: int, text: str, markup: Markup | None
    ) -> int | None:
        """Send the seat's panel as a new message and record it; the panel it replaced, to tidy."""
        quiet = self.time() - record.pressed[seat] < QUIET_AFTER
        if since >= 0:
            # Should the process die after Telegram took the new panel but before it is recorded, the
            # next pass sends one more: the panel that works is always the newest in the chat.
            await self.ledger.record(record.id, seat, self.matches.shown(record.id, **{f"p{seat}n": -1}))
        sent = await self.outbox.send(record.players[seat].id, text, markup, silent=quiet)
        fields = {f"p{seat}": sent.message_id, f"p{seat}v": record.version, f"p{seat}n": record.version}
        replaced = old if old != sent.message_id else None
        if replaced is not None:
            fields[f"p{seat}x"] = replaced  # to tidy: a process that dies first leaves it to the next pass
        await self.ledger.record(record.id, seat, self.matches.shown(record.id, **fields))
        return replaced

    async def _player_gone(self, record: MatchRecord, seat: int, exc: TelegramAPIError) -> None:
        """The player blocked the bot: say so once to the opponent and the group; their panel waits for /hand."""
        player = record.players[seat]
        log.info("match %s: %s cannot be written to (%s)", record.id, player.id, exc.message)
        if not await self.chats.set_blocked(player.id, True):
            return
        tr = self.i18n[record.lang]
        if "initiate" in exc.message:  # never started the bot: a button in the group opens it
            text = render.player_notice(tr, record, seat, started=False)
            markup = keyboards.open_bot_keyboard(tr, self.bot_username, f"m_{record.id}")
        else:
            text, markup = render.player_notice(tr, record, seat, started=True), None
            opponent = record.players[1 - seat]
            # Only while the match waits for them, and only to a person (the computer has no chat).
            if record.is_active and not opponent.computer:
                private = render.player_notice(self.i18n[record.lang_of(1 - seat)], record, seat, started=True)
                with contextlib.suppress(TelegramForbiddenError, TelegramBadRequest):
                    await self.outbox.send(opponent.id, private)
        if record.is_active and not await self.chats.group_gone(record.chat_id):
            with contextlib.suppress(TelegramForbiddenError, TelegramBadRequest):
                await self.say(record, text, markup)
