"""The delivery over the match repository on fakeredis: what each pass of a lane sends, edits and records, with a
recording outbox in place of Telegram and a clock the test moves.

The recording outbox and the bot's objects wired as ``bot/app.py`` wires them (``world``) serve the timer and
presenter tests too.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, cast

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramNetworkError, TelegramRetryAfter
from aiogram.methods import SendMessage

from bot import keyboards, render, replays, review_text
from bot.delivery import Delivery, Ledger, Passes
from bot.delivery.passes import QUIET_AFTER
from bot.i18n import I18n
from bot.lean import Markup, Posted
from bot.metrics import DELIVERY_TRIES
from bot.models import MatchRecord, Messages, MoveResult, Status
from bot.outbox import Outbox, topic_gone
from bot.presenter import Presenter
from bot.services import Services
from bot.services.reviews import review_now
from bot.timers import Timers
from engine import Action, Kind, Match
from tests.backends import Backend
from tests.bot.helpers import ALA, BOB, CHAT, InlineReviews, start_match, to_move
from tests.e2e.simclock import SimClock
from tests.outbox_fakes import Clock as OutboxClock
from tests.outbox_fakes import FakeBot

I18N = I18n()
BOT_USERNAME = "domino_test_bot"


def forbidden(message: str = "Forbidden: bot was blocked by the user") -> TelegramForbiddenError:
    """Telegram's 403 (a user who blocked the bot, a group that removed it)."""
    return TelegramForbiddenError(SendMessage(chat_id=0, text=""), message)


def bad_request(message: str) -> TelegramBadRequest:
    """Telegram's 400 with its message."""
    return TelegramBadRequest(SendMessage(chat_id=0, text=""), message)


def retry_after(seconds: int) -> TelegramRetryAfter:
    """Telegram's 429: try again after ``seconds``."""
    return TelegramRetryAfter(SendMessage(chat_id=0, text=""), "Too Many Requests", seconds)


@dataclass(frozen=True)
class Call:
    """One call the bot made of the outbox."""

    kind: str
    """``send``, ``photo``, ``edit_now``, ``edit``, ``strip`` or ``delete``."""
    chat: int
    message_id: int
    """The message sent (a send) or acted on (the others)."""
    text: str = ""
    markup: Markup | None = None
    silent: bool = False
    version: int | None = None
    thread: int | None = None
    """The forum topic a send went to."""


@dataclass
class FakeOutbox:
    """Stands in for ``bot.outbox.Outbox``: records each call, gives each send the next message id, and raises
    an error on demand (``fail``)."""

    calls: list[Call] = field(default_factory=list)
    attempts: list[tuple[str, int]] = field(default_factory=list)
    """Every call's kind and chat, refused ones too."""
    failures: dict[tuple[str, int], list[tuple[Exception, int | None]]] = field(default_factory=dict)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def fail(self, kind: str, chat: int, error: Exception, *, times: int | None = 1) -> None:
        """The next ``times`` calls of ``kind`` to ``chat`` raise ``error`` (None: every one from now on)."""
        self.failures.setdefault((kind, chat), []).append((error, times))

    def _maybe_fail(self, kind: str, chat: int) -> None:
        self.attempts.append((kind, chat))
        queue = self.failures.get((kind, chat))
        if not queue:
            return
        error, times = queue[0]
        if times is not None:
            if times <= 1:
                queue.pop(0)
            else:
                queue[0] = (error, times - 1)
        raise error

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: Markup | None = None,
        *,
        thread: int | None = None,
        reply_to: int | None = None,
        silent: bool = False,
    ) -> Posted:
        await asyncio.sleep(0)  # a real send lets the other lanes run meanwhile
        self._maybe_fail("send", chat_id)
        message_id = next(self.ids)
        self.calls.append(Call("send", chat_id, message_id, text, markup, silent, thread=thread))
        return Posted(message_id=message_id)

    async def send_photo(
        self, chat_id: int, png: bytes, caption: str, *, thread: int | None = None, silent: bool = False
    ) -> int:
        await asyncio.sleep(0)
        self._maybe_fail("photo", chat_id)
        message_id = next(self.ids)
        self.calls.append(Call("photo", chat_id, message_id, caption, None, silent, thread=thread))
        return message_id

    async def edit_now(self, chat_id: int, message_id: int, text: str, markup: Markup | None, version: int) -> None:
        await asyncio.sleep(0)
        self._maybe_fail("edit_now", chat_id)
        self.calls.append(Call("edit_now", chat_id, message_id, text, markup, version=version))

    def edit(self, chat_id: int, message_id: int, text: str, markup: Markup | None, version: int | None = None) -> None:
        self.attempts.append(("edit", chat_id))
        self.calls.append(Call("edit", chat_id, message_id, text, markup, version=version))

    def forget(self, chat_id: int, message_id: int) -> None:
        """Nothing to forget: this outbox keeps no versions (it records every edit)."""

    async def strip(self, chat_id: int, message_id: int) -> None:
        self._maybe_fail("strip", chat_id)
        self.calls.append(Call("strip", chat_id, message_id))

    async def delete(self, chat_id: int, message_id: int) -> bool:
        self._maybe_fail("delete", chat_id)
        self.calls.append(Call("delete", chat_id, message_id))
        return True

    async def drain(self) -> None:
        return None

    def to(self, chat: int, *kinds: str) -> list[Call]:
        """The calls to ``chat`` (of these kinds, if any are named), in order."""
        return [c for c in self.calls if c.chat == chat and (not kinds or c.kind in kinds)]

    def clear(self) -> None:
        self.calls.clear()
        self.attempts.clear()


class Clock(SimClock):
    """The simulated clock, noting every wait asked of it."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        await super().sleep(seconds)


@dataclass
class World:
    """The bot's objects around one Redis, as ``bot.app.create_app`` wires them (one polling process)."""

    services: Services
    clock: Clock
    outbox: FakeOutbox
    delivery: Delivery
    presenter: Presenter
    timers: Timers


@contextlib.asynccontextmanager
async def world_on(backend: Backend, **terms: Any) -> AsyncIterator[World]:
    """Services on ``backend`` with a simulated clock (and these ``terms``), and the delivery, presenter and
    timers over them; the delivery is closed after."""
    clock = Clock()
    services = backend.services(clock=clock, **terms)
    outbox = FakeOutbox()
    box = cast(Outbox, outbox)
    stores = services.stores
    passes = Passes(box, I18N, stores.matches, services.chats, Ledger(), time=clock.time, bot_username=BOT_USERNAME,
                    painter=None, reviewer=InlineReviews())  # fmt: skip
    delivery = Delivery(services.records, stores.matches, stores.lanes, services.chats, passes, time=clock.time,
                        sleep=clock.sleep, shared=False)  # fmt: skip
    presenter = Presenter(box, delivery, services.records, services.chats, I18N, bot_username=BOT_USERNAME)
    timers = Timers(services, presenter, clock)
    try:
        yield World(services, clock, outbox, delivery, presenter, timers)
    finally:
        await delivery.close()


async def until(check: Callable[[], bool]) -> None:
    """Let the event loop run until ``check`` holds (no real time passes)."""
    for _ in range(10_000):
        if check():
            return
        await asyncio.sleep(0)
    raise AssertionError("it never happened")


# -- playing a match with its deliveries -------------------------------------------------------------------------

TR = I18N["ru"]
NEW_CHAT = -1009


@pytest.fixture
async def world(backend: Backend) -> AsyncIterator[World]:
    async with world_on(backend) as built:
        yield built


async def shown_match(world: World, *, target: int | None = None) -> tuple[MatchRecord, Match, Messages]:
    """A new match whose first pass is delivered; the calls it made are cleared."""
    record, match = await start_match(world.services, target=target)
    world.presenter.start_match(record)
    await world.delivery.idle()
    world.outbox.clear()
    return record, match, await world.services.stores.matches.messages(record.id)


async def play(world: World, record: MatchRecord, match: Match, action: Action) -> MoveResult:
    """The player to act plays ``action``; its delivery starts from the move's snapshot, as a press's does."""
    ticket = world.presenter.ticket(record.id)
    result = await world.services.moves.submit(record.id, to_move(record, match).id, action, version=record.version)
    world.presenter.show(result, ticket)
    await world.delivery.idle()
    return result


def lead(match: Match) -> Action:
    """A tile led: the turn passes to the other seat."""
    return next(a for a in match.legal_actions() if a.kind is Kind.PLAY)


async def messages_of(world: World, match_id: str) -> Messages:
    return await world.services.stores.matches.messages(match_id)


async def due(world: World) -> list[str]:
    return await world.services.stores.matches.screens_due()


async def until_deal_ends(world: World, record: MatchRecord, match: Match, rng: random.Random) -> MoveResult:
    """Random moves, each delivered, until one ends a deal; that move's result."""
    while True:
        result = await play(world, record, match, rng.choice(match.legal_actions()))
        if result.finished_deal is not None:
            return result
        record, match = result.record, result.match


class TestFirstPass:
    """A new match's first pass: the table in the group, a panel for each player, recorded, and settled."""

    async def test_table_and_panels(self, world: World) -> None:
        """The accept left the match due; its pass sends the table and both panels, records them, and settles it."""
        record, match = await start_match(world.services)
        assert await due(world) == [record.id]
        world.presenter.start_match(record)
        await world.delivery.idle()
        [table] = world.outbox.to(CHAT)
        assert (table.kind, table.text, table.markup) == (
            "send",
            render.table_text(TR, record, match.deal.view(None)),
            None,
        )
        panels = []
        for seat, player in enumerate(record.players):
            [panel] = world.outbox.to(player.id)
            view = match.deal.view(seat)
            assert (panel.kind, panel.text, panel.markup) == (
                "send",
                render.panel_text(TR, record, view),
                keyboards.panel_json(TR, record.id, 0, view),
            )
            assert not panel.silent  # nobody has moved yet: Telegram tells both
            panels.append(panel.message_id)
        messages = await messages_of(world, record.id)
        assert (messages.table, messages.table_deal, messages.table_version) == (table.message_id, 1, 0)
        assert messages.panels == tuple(panels)
        assert messages.panel_versions == (0, 0) and messages.panel_since == (0, 0)
        assert await due(world) == []

    async def test_resume(self, world: World) -> None:
        """A match left due (no kick: say the process restarted) is delivered by ``resume``."""
        record, _ = await start_match(world.services)
        await world.delivery.resume()
        await world.delivery.idle()
        assert [c.kind for c in world.outbox.to(CHAT)] == ["send"]
        assert (await messages_of(world, record.id)).panel_versions == (0, 0)
        assert await due(world) == []


class TestMove:
    """A move's pass: the table and the mover's panel edited, the turn handed over as a new panel."""

    async def test_turn_handed_over(self, world: World) -> None:
        """The mover's panel is edited, the other player's comes anew (Telegram tells them) and the old one goes."""
        record, match, before = await shown_match(world)
        mover = match.turn
        assert mover is not None and before.table is not None
        result = await play(world, record, match, lead(match))
        assert result.match.turn == 1 - mover
        other = record.players[1 - mover]
        [table] = world.outbox.to(CHAT)
        assert (table.kind, table.message_id, table.version) == ("edit_now", before.table, 1)
        assert table.text == render.table_text(TR, result.record, result.match.deal.view(None))
        [edited] = world.outbox.to(record.players[mover].id)
        assert (edited.kind, edited.message_id, edited.version) == ("edit_now", before.panels[mover], 1)
        sent, deleted = world.outbox.to(other.id)
        assert (sent.kind, sent.silent) == ("send", False)
        assert sent.markup == keyboards.panel_json(TR, record.id, 1, result.match.deal.view(1 - mover))
        assert (deleted.kind, deleted.message_id) == ("delete", before.panels[1 - mover])
        after = await messages_of(world, record.id)
        assert after.table_version == 1 and after.panel_versions == (1, 1)
        assert after.panels[mover] == before.panels[mover] and after.panels[1 - mover] == sent.message_id
        assert after.panel_since[1 - mover] == 1 and after.panels_replaced == (None, None)
        assert await due(world) == []
        assert record.id not in world.delivery.ledger.edited  # recorded in Redis with the settle: forgotten here

    async def test_deal_end(self, world: World) -> None:
        """A deal's end: its table edited to the final state, then its result, then the next deal's new table."""
        record, match, before = await shown_match(world)
        result = await until_deal_ends(world, record, match, random.Random(3))
        deal = result.finished_deal
        assert deal is not None and not result.match.is_over
        table_id = (await messages_of(world, record.id)).table
        calls = world.outbox.to(CHAT)[-3:]
        assert [c.kind for c in calls] == ["edit_now", "send", "send"]
        final, posted, table = calls
        assert final.message_id == before.table and final.text == render.table_text(TR, result.record, deal.view(None))
        assert posted.text == render.deal_result_text(TR, result.record, deal)
        assert table.message_id == table_id != before.table
        assert table.text == render.table_text(TR, result.record, result.match.deal.view(None))
        messages = await messages_of(world, record.id)
        assert messages.posts == [] and messages.table_deal == 2
        assert await due(world) == []

    async def test_match_end(self, world: World) -> None:
        """The match's end: its result in the group after the final table (as text: pictures are off), and each
        player's card in private (silent for who just moved), recorded (c0, c1) so that the match settles."""
        record, match, _ = await shown_match(world, target=1)
        rng = random.Random(5)
        while not match.is_over:
            last = match.turn
            world.clock.advance(QUIET_AFTER + 1)
            result = await play(world, record, match, rng.choice(match.legal_actions()))
            record, match = result.record, result.match
        assert record.status is Status.FINISHED and record.winner is not None
        messages = await messages_of(world, record.id)
        summary = messages.summary
        assert summary is not None and summary.winner == record.winner
        group = world.outbox.to(CHAT)
        head = render.match_result_text(TR, record, summary)
        [result_post] = [c for c in group if c.text.startswith(head)]
        assert result_post.kind == "send"
        assert group.index(result_post) == len(group) - 1
        assert group[-2].kind == "edit_now" and group[-2].text == render.table_text(TR, record, match.deal.view(None))
        review = review_now(record)
        assert (review_text.accuracy_line(TR, record, review) or "no accuracy") in result_post.text
        for seat, player in enumerate(record.players):
            card, post_mortem = world.outbox.to(player.id)[-2:]
            link = replays.replay_link(TR, BOT_USERNAME, record.id)
            own = [render.private_result_text(TR, record, summary, seat), *review_text.card_lines(TR, record, review)]
            assert (card.kind, card.text) == ("send", "\n".join([*own, link]))
            assert card.silent is (seat == last)
            assert (post_mortem.kind, post_mortem.text) == ("send", review_text.review_text(TR, review, seat))
            assert post_mortem.text.startswith("🔎")
        messages = await messages_of(world, record.id)
        assert messages.cards == (True, True) and messages.reviews == (True, True) and messages.posts == []
        assert await due(world) == []
        world.outbox.clear()
        world.delivery.kick(record.id)
        await world.delivery.idle()
        assert world.outbox.calls == []  # the cards and the post-mortems go once


class TestFaults:
    """What Telegram refuses: players who blocked the bot, groups that removed it, flood waits."""

    @pytest.mark.parametrize(
        ("refusal", "started"),
        [
            ("Forbidden: bot was blocked by the user", True),
            ("Forbidden: bot can't initiate conversation with a user", False),
        ],
        ids=["blocked", "never-started"],
    )
    async def test_player_blocked(self, world: World, refusal: str, started: bool) -> None:
        """A 403 on a panel marks its player blocked and tells the group once (with a button to open the bot for
        one who never started it; the opponent hears of a block); the match settles without that panel."""
        record, match = await start_match(world.services)
        world.outbox.fail("send", BOB.id, forbidden(refusal), times=None)
        world.presenter.start_match(record)
        await world.delivery.idle()
        assert await world.services.chats.is_blocked(BOB.id)
        notice = render.player_notice(TR, record, 1, started=started)
        told = [c for c in world.outbox.to(CHAT) if c.text == notice]
        assert len(told) == 1
        markup = None if started else keyboards.open_bot_keyboard(TR, BOT_USERNAME, f"m_{record.id}")
        assert told[0].markup == markup
        assert [c.text for c in world.outbox.to(ALA.id) if c.text == notice] == ([notice] if started else [])
        assert await due(world) == []
        await play(world, record, match, lead(match))
        assert [c.text for c in world.outbox.to(CHAT)].count(notice) == 1
        assert world.outbox.attempts.count(("send", BOB.id)) == 1  # the first pass's: none since
        assert (await messages_of(world, record.id)).panels[1] is None
        assert await due(world) == []

    async def test_player_blocked_elsewhere(self, world: World, backend: Backend) -> None:
        """A player another process found blocked a moment ago (this one has not read the mark yet): their 403 here
        tells nobody again."""
        record, _ = await start_match(world.services)
        assert not await world.services.chats.is_blocked(BOB.id)  # read, and trusted for a few seconds
        assert await backend.services().chats.set_blocked(BOB.id, True)
        world.outbox.fail("send", BOB.id, forbidden(), times=None)
        world.presenter.start_match(record)
        await world.delivery.idle()
        assert world.outbox.attempts.count(("send", BOB.id)) == 1
        notice = render.player_notice(TR, record, 1, started=True)
        assert notice not in [c.text for c in world.outbox.calls]
        assert await due(world) == []

    async def test_player_blocked_group_gone(self, world: World) -> None:
        """A player who blocked the bot in a match whose group removed it: the group is not written to."""
        record, _ = await start_match(world.services)
        await world.services.chats.set_group_gone(CHAT, True)
        world.outbox.fail("send", BOB.id, forbidden(), times=None)
        world.presenter.start_match(record)
        await world.delivery.idle()
        assert await world.services.chats.is_blocked(BOB.id)
        assert [chat for _, chat in world.outbox.attempts if chat == CHAT] == []
        assert [c.chat for c in world.outbox.calls if c.text == render.player_notice(TR, record, 1, started=True)] == [
            ALA.id
        ]
        assert await due(world) == []

    async def test_group_gone(self, world: World) -> None:
        """A group that answers 403 is marked gone, gets nothing more, and its match's panels still go."""
        record, match = await start_match(world.services)
        world.outbox.fail("send", CHAT, forbidden("Forbidden: bot was kicked from the supergroup chat"), times=None)
        world.presenter.start_match(record)
        await world.delivery.idle()
        assert await world.services.chats.group_gone(CHAT)
        assert all(len(world.outbox.to(p.id)) == 1 for p in record.players)
        assert await due(world) == []
        world.outbox.failures.clear()
        await play(world, record, match, lead(match))
        assert world.outbox.to(CHAT) == []
        assert all(world.outbox.to(p.id) for p in record.players)
        assert (await messages_of(world, record.id)).panel_versions == (1, 1)
        assert await due(world) == []

    async def test_retry_after(self, world: World) -> None:
        """A 429 on the table leaves the match due while the lane waits ``retry_after``; then the pass completes."""
        record, _ = await start_match(world.services)
        world.outbox.fail("send", CHAT, retry_after(7))
        world.presenter.start_match(record)
        await until(lambda: world.clock.waits == [7.0] and all(world.outbox.to(p.id) for p in record.players))
        assert await due(world) == [record.id]
        assert (await messages_of(world, record.id)).table is None
        world.clock.advance(7)
        await world.delivery.idle()
        [table] = world.outbox.to(CHAT)
        assert (await messages_of(world, record.id)).table == table.message_id
        assert await due(world) == []


class TestGivingUp:
    """Every delivery failure ends: a lane that fails ``DELIVERY_TRIES`` passes in a row stops, logged and counted
    (M3 of security-2026-12b: a match without a table sent to a made-up chat every 30 s, forever)."""

    async def fail_until_it_stops(self, world: World, error: Exception) -> MatchRecord:
        record, _ = await start_match(world.services)
        world.outbox.fail("send", CHAT, error, times=None)
        world.presenter.start_match(record)
        for _ in range(DELIVERY_TRIES * 4):
            await until(lambda: bool(world.clock._sleepers) or not world.delivery.busy())
            if not world.delivery.busy():
                break
            world.clock.advance(60)
        await world.delivery.idle()
        assert world.outbox.attempts.count(("send", CHAT)) == DELIVERY_TRIES
        return record

    def given_up(self, world: World, kind: str) -> float:
        return float(world.delivery.metrics.delivery_given_up.labels("group", kind)._value.get())

    async def test_a_refusal_no_retry_mends(self, world: World) -> None:
        """Telegram refuses the table for good: the group lane gives up at that version (the match settles, nothing
        more is sent for it, the sweep leaves it); the panels went; the next version is tried again."""
        record = await self.fail_until_it_stops(world, bad_request("Bad Request: PEER_ID_INVALID"))
        assert self.given_up(world, "permanent") == 1
        assert (await messages_of(world, record.id)).given_up == {"g": record.version}
        assert await due(world) == []
        assert all(world.outbox.to(p.id) for p in record.players)
        world.delivery.kick(record.id)
        await world.delivery.idle()
        assert world.outbox.attempts.count(("send", CHAT)) == DELIVERY_TRIES, "tried again at the same version"
        world.outbox.failures.clear()
        _, match = await world.services.records.get(record.id)
        await play(world, record, match, lead(match))
        assert world.outbox.to(CHAT, "send"), "the next version is tried afresh"
        assert await due(world) == []

    async def test_telegram_away(self, world: World) -> None:
        """Telegram unreachable: the lane stops too, counted, but the match stays due: the sweep tries it again, and
        once Telegram answers the table goes."""
        network = TelegramNetworkError(SendMessage(chat_id=0, text=""), "HTTP Client says - ClientConnectorError")
        record = await self.fail_until_it_stops(world, network)
        assert self.given_up(world, "transient") == 1
        assert (await messages_of(world, record.id)).given_up == {}
        assert await due(world) == [record.id]
        world.outbox.failures.clear()
        world.delivery.kick(record.id)  # what the sweep does
        await world.delivery.idle()
        assert len(world.outbox.to(CHAT, "send")) == 1
        assert await due(world) == []


class TestAgain:
    """Messages shown again: a panel resent, every message resynced, a group that migrated."""

    async def test_resend_panel(self, world: World) -> None:
        """``resend_panel``: the seat's panel comes as a new message, the old one is deleted, the other lanes idle."""
        record, _, before = await shown_match(world)
        await world.delivery.resend_panel(record.id, 0)
        await world.delivery.idle()
        sent, deleted = world.outbox.to(ALA.id)
        assert (sent.kind, deleted.kind, deleted.message_id) == ("send", "delete", before.panels[0])
        assert world.outbox.to(CHAT) == world.outbox.to(BOB.id) == []
        assert (await messages_of(world, record.id)).panels == (sent.message_id, before.panels[1])

    async def test_resend_panel_settles(self, world: World) -> None:
        """After ``resend_panel`` (a player's /hand) the match's messages are up to date: it leaves the due set."""
        record, _, _ = await shown_match(world)
        await world.delivery.resend_panel(record.id, 0)
        await world.delivery.idle()
        assert len(world.outbox.to(ALA.id)) == 2
        assert await due(world) == []

    async def test_resync(self, world: World) -> None:
        """``resync``: the table edited to the stored version and both panels sent anew, even where they showed it."""
        record, match, _ = await shown_match(world)
        result = await play(world, record, match, lead(match))
        before = await messages_of(world, record.id)
        world.outbox.clear()
        await world.delivery.resync(record.id)
        world.delivery.kick(record.id)
        await world.delivery.idle()
        [table] = world.outbox.to(CHAT)
        assert (table.kind, table.message_id, table.version) == ("edit_now", before.table, result.record.version)
        for seat, player in enumerate(record.players):
            sent, deleted = world.outbox.to(player.id)
            assert (sent.kind, deleted.kind, deleted.message_id) == ("send", "delete", before.panels[seat])
        after = await messages_of(world, record.id)
        assert after.panel_versions == (1, 1) and after.table_version == 1
        assert await due(world) == []

    async def test_went_back(self, world: World) -> None:
        """A match that Redis holds at an older version than this process showed is shown again (new panels)."""
        record, _, before = await shown_match(world)
        world.delivery.ledger.showing(record.id, record.version + 3, world.clock.time())
        world.delivery.kick(record.id)
        await world.delivery.idle()
        for seat, player in enumerate(record.players):
            assert [c.kind for c in world.outbox.to(player.id)] == ["send", "delete"]
            assert world.outbox.to(player.id)[1].message_id == before.panels[seat]
        assert world.delivery.ledger.shown[record.id] == record.version
        assert await due(world) == []

    async def test_migrated(self, world: World) -> None:
        """A group that became a supergroup: its match is there now, and its table goes to the new chat."""
        record, _, _ = await shown_match(world)
        await world.delivery.migrated(CHAT, NEW_CHAT)
        await world.delivery.idle()
        moved, _ = await world.services.records.get(record.id)
        assert moved.chat_id == NEW_CHAT
        assert world.outbox.to(CHAT) == [] and [c.kind for c in world.outbox.to(NEW_CHAT)] == ["edit_now"]
        assert await due(world) == []


class TestThroughTheOutbox:
    """The delivery over the real outbox (on the outbox tests' fake Bot)."""

    async def test_went_back_table(self, backend: Backend) -> None:
        """Redis lost the last move: the table is edited back to what Redis holds."""
        clock = Clock()
        services = backend.services(clock=clock)
        bot_clock = OutboxClock()
        bot = FakeBot(bot_clock)
        outbox = Outbox(bot, clock=bot_clock, sleep=bot_clock.sleep)  # type: ignore[arg-type]
        stores = services.stores
        passes = Passes(outbox, I18N, stores.matches, services.chats, Ledger(), time=clock.time,
                        bot_username=BOT_USERNAME, painter=None, reviewer=InlineReviews())  # fmt: skip
        delivery = Delivery(services.records, stores.matches, stores.lanes, services.chats, passes, time=clock.time,
                            sleep=clock.sleep, shared=False)  # fmt: skip
        try:
            record, match = await start_match(services)
            delivery.kick(record.id)
            await delivery.idle()
            key = stores.keys.match(record.id)
            kept = await stores.redis.hgetall(key)
            result = await services.moves.submit(record.id, to_move(record, match).id, lead(match), version=0)
            delivery.kick(record.id)
            await delivery.idle()
            table = (await stores.matches.messages(record.id)).table
            assert table is not None
            assert bot.texts[table] == render.table_text(TR, result.record, result.match.deal.view(None))
            # Redis goes back to the moment before the move (a restart that lost its last second).
            await stores.redis.delete(key)
            await stores.redis.hset(key, mapping=dict[Any, Any](kept))
            delivery.kick(record.id)  # as the sweep does for a match shown lately
            await delivery.idle()
            assert delivery.ledger.shown[record.id] == 0
            assert bot.texts[table] == render.table_text(TR, record, match.deal.view(None))
        finally:
            await delivery.close()


def won_back(match: Match) -> tuple[Action, Action]:
    """A lead by the seat to act and a reply that loses the trick to it (the leader gets the turn back)."""
    leader = match.turn
    for first in (a for a in match.legal_actions() if a.kind is Kind.PLAY):
        led = match.copy()
        led.play(first)
        for reply in led.legal_actions():
            replied = led.copy()
            replied.play(reply)
            if replied.turn == leader:
                return first, reply
    raise AssertionError("no reply loses the first trick")


class TestPasses:
    """What a pass of a panel lane or the group lane sends: quietly or not, anew when its message is gone."""

    @pytest.mark.parametrize(("since", "silent"), [(QUIET_AFTER - 5, True), (QUIET_AFTER + 5, False)])
    async def test_quiet_handover(self, world: World, since: float, silent: bool) -> None:
        """The turn handed back to a player who moved in the last ``QUIET_AFTER`` seconds comes without a sound."""
        record, match, _ = await shown_match(world)
        leader = match.turn
        assert leader is not None
        first, reply = won_back(match)
        led = await play(world, record, match, first)
        [handed] = [c for c in world.outbox.to(record.players[1 - leader].id) if c.kind == "send"]
        assert not handed.silent  # the replier has not moved yet
        world.clock.advance(since)
        world.outbox.clear()
        result = await play(world, led.record, led.match, reply)
        assert result.match.turn == leader
        [back] = [c for c in world.outbox.to(record.players[leader].id) if c.kind == "send"]
        assert back.silent is silent

    async def test_replaced_panel_left(self, world: World) -> None:
        """A replaced panel that a process dying midway left with its buttons is deleted by the seat's next pass."""
        record, _, before = await shown_match(world)
        left = 4242
        await world.services.stores.matches.shown_due(record.id, p0x=left)
        world.delivery.kick(record.id)
        await world.delivery.idle()
        assert [(c.kind, c.message_id) for c in world.outbox.to(ALA.id)] == [("delete", left)]
        after = await messages_of(world, record.id)
        assert after.panels == before.panels and after.panels_replaced == (None, None)
        assert await due(world) == []

    async def test_old_panel_kept(self, world: World) -> None:
        """A replaced panel that Telegram will not delete (too old) at least loses its buttons."""
        record, match, before = await shown_match(world)
        waiting = record.players[1 - (match.turn or 0)].id
        world.outbox.fail("delete", waiting, bad_request("Bad Request: message can't be deleted"))
        await play(world, record, match, lead(match))
        assert [c.kind for c in world.outbox.to(waiting)] == ["send", "strip"]
        assert world.outbox.to(waiting)[1].message_id == before.panels[1 - (match.turn or 0)]
        assert await due(world) == []

    async def test_handed_after_a_crossing_pass(self, world: World) -> None:
        """A panel recorded as sent at a version before the turn was handed to its seat (by a pass that crossed the
        move) still comes anew, so that Telegram tells its player."""
        record, match, before = await shown_match(world)
        mover = match.turn
        assert mover is not None
        result = await world.services.moves.submit(record.id, record.players[mover].id, lead(match), version=0)
        await world.services.stores.matches.shown(record.id, **{f"p{1 - mover}n": 0})
        world.presenter.show(result)
        await world.delivery.idle()
        sent, deleted = world.outbox.to(record.players[1 - mover].id)
        assert (sent.kind, deleted.kind, deleted.message_id) == ("send", "delete", before.panels[1 - mover])
        assert (await messages_of(world, record.id)).panel_since[1 - mover] == 1

    @pytest.mark.parametrize(
        "refusal", ["Bad Request: message to edit not found", "Bad Request: message can't be edited"]
    )
    async def test_panel_gone(self, world: World, refusal: str) -> None:
        """A panel that cannot be edited (deleted by its player) is sent anew and recorded; the old one tidied."""
        record, match, before = await shown_match(world)
        mover = match.turn
        assert mover is not None
        player = record.players[mover].id
        world.outbox.fail("edit_now", player, bad_request(refusal))
        await play(world, record, match, lead(match))
        sent, deleted = world.outbox.to(player)
        assert (sent.kind, sent.version, deleted.kind, deleted.message_id) == (
            "send",
            None,
            "delete",
            before.panels[mover],
        )
        after = await messages_of(world, record.id)
        assert after.panels[mover] == sent.message_id and after.panel_versions[mover] == 1
        assert after.panels_replaced == (None, None)
        assert await due(world) == []

    async def test_table_gone(self, world: World) -> None:
        """A table whose message is gone is sent anew and recorded."""
        record, match, before = await shown_match(world)
        world.outbox.fail("edit_now", CHAT, bad_request("Bad Request: message to edit not found"))
        await play(world, record, match, lead(match))
        [sent] = world.outbox.to(CHAT)
        assert sent.kind == "send" and sent.message_id != before.table
        after = await messages_of(world, record.id)
        assert (after.table, after.table_version) == (sent.message_id, 1)
        assert await due(world) == []

    async def test_player_blocked_against_the_computer(self, world: World) -> None:
        """A person who blocked the bot in a match against the computer: the group is told, the computer is not."""
        challenge = await world.services.challenges.open(CHAT, ALA, "bingo", "ru")
        record = await world.services.challenges.play_computer(challenge.id, ALA.id, "easy", "🤖", seed=1)
        world.outbox.fail("send", ALA.id, forbidden(), times=None)
        world.presenter.start_match(record)
        await world.delivery.idle()
        notice = render.player_notice(TR, record, 0, started=True)
        assert [c.text for c in world.outbox.to(CHAT)].count(notice) == 1
        assert world.outbox.to(record.players[1].id) == []

    async def test_blocked_in_a_private_match(self, world: World) -> None:
        """A match against the computer in the person's private chat, who then blocked the bot: its result waits
        for nobody (the match settles with it unsent), and there is nobody else to tell."""
        challenge = await world.services.challenges.open(ALA.id, ALA, "bingo", "ru")
        record = await world.services.challenges.play_computer(challenge.id, ALA.id, "easy", "🤖", seed=1)
        assert record.private_seat == 0
        world.presenter.start_match(record)
        await world.delivery.idle()
        assert (await messages_of(world, record.id)).table is None  # the panel is the table there
        world.outbox.fail("edit_now", ALA.id, forbidden(), times=None)
        world.outbox.fail("send", ALA.id, forbidden(), times=None)
        world.presenter.show(await world.services.moves.surrender(record.id, ALA.id))
        await world.delivery.idle()
        assert await world.services.chats.is_blocked(ALA.id)
        assert (await messages_of(world, record.id)).posts != [] and await due(world) == []

    async def test_player_blocked_at_the_end(self, world: World) -> None:
        """A player found blocked by the last pass of a finished match: nobody is told that the match waits."""
        record, _, _ = await shown_match(world)
        world.outbox.fail("edit_now", ALA.id, forbidden(), times=None)
        world.outbox.fail("send", ALA.id, forbidden(), times=None)
        result = await world.services.moves.surrender(record.id, BOB.id)
        world.presenter.show(result)
        await world.delivery.idle()
        assert await world.services.chats.is_blocked(ALA.id)
        notice = render.player_notice(TR, record, 0, started=True)
        assert notice not in [c.text for c in world.outbox.calls]


class TestSnapshot:
    """A move's pass starts from what the move's script read, unless a lane's messages may have changed since."""

    async def test_resent_meanwhile(self, world: World) -> None:
        """A panel resent between the move's script and its kick: that lane reads Redis instead of the move's snapshot,
        so the panel still comes anew."""
        record, match, _ = await shown_match(world)
        mover = match.turn
        assert mover is not None
        ticket = world.presenter.ticket(record.id)
        result = await world.services.moves.submit(record.id, record.players[mover].id, lead(match), version=0)
        await world.delivery.resend_panel(record.id, mover)
        world.presenter.show(result, ticket)
        await world.delivery.idle()
        [sent] = world.outbox.to(record.players[mover].id, "send")
        assert (await messages_of(world, record.id)).panels[mover] == sent.message_id

    @pytest.mark.parametrize(
        ("ticket", "written", "reads"),
        [(True, None, 0), (False, None, 3), (True, 0, 1), (True, "group", 1)],
        ids=["snapshot", "no-ticket", "panel-written-since", "group-written-since"],
    )
    async def test_reads(
        self, world: World, monkeypatch: pytest.MonkeyPatch, ticket: bool, written: str | int | None, reads: int
    ) -> None:
        """With the move's messages and a ticket no lane reads Redis; a lane written to after the ticket (or every
        lane, without a ticket) reads it; the messages shown are the same either way."""
        record, match, before = await shown_match(world)
        records = world.services.records
        read = records.screens
        calls: list[str] = []

        async def counted(match_id: str) -> tuple[MatchRecord, Match, Messages]:
            calls.append(match_id)
            return await read(match_id)

        monkeypatch.setattr(records, "screens", counted)
        taken = world.presenter.ticket(record.id) if ticket else None
        if written is not None:
            world.delivery.ledger.wrote(record.id, written)
        result = await world.services.moves.submit(record.id, to_move(record, match).id, lead(match), version=0)
        assert result.messages is not None
        world.presenter.show(result, taken)
        await world.delivery.idle()
        assert len(calls) == reads
        assert sorted(c.kind for c in world.outbox.calls) == ["delete", "edit_now", "edit_now", "send"]
        after = await messages_of(world, record.id)
        assert after.table_version == 1 and after.panel_versions == (1, 1) and after.table == before.table
        assert await due(world) == []


TOPIC = 77


class TestTopics:
    """A match written in a forum topic: its group messages go there; a topic closed or deleted sends them to the
    General topic from then on, found out once and recorded on the match."""

    async def test_in_its_topic(self, world: World) -> None:
        """The table, the deal's result, the next table and a reminder's group line go to the topic; panels and
        private lines have none."""
        record, match = await start_match(world.services, thread_id=TOPIC)
        assert record.thread_id == TOPIC
        world.presenter.start_match(record)
        await world.delivery.idle()
        result = await until_deal_ends(world, record, match, random.Random(3))
        await world.presenter.remind(result.record, 0, 300)
        group = world.outbox.to(CHAT, "send", "photo")
        assert len(group) >= 4 and {c.thread for c in group} == {TOPIC}
        assert {c.thread for c in world.outbox.calls if c.chat != CHAT} == {None}
        assert not (await messages_of(world, record.id)).general

    @pytest.mark.parametrize("refusal", ["Bad Request: TOPIC_CLOSED", "Bad Request: message thread not found"])
    async def test_topic_gone(self, world: World, refusal: str) -> None:
        """The topic refuses a message: it goes to General, and so does every later one, without asking the topic
        again (also in a process that did not find it out: it is in Redis)."""
        record, match = await start_match(world.services, thread_id=TOPIC)
        world.presenter.start_match(record)
        await world.delivery.idle()
        world.outbox.clear()
        world.outbox.fail("send", CHAT, bad_request(refusal))
        result = await until_deal_ends(world, record, match, random.Random(3))
        world.delivery.ledger.general.clear()  # as another process would know it: from Redis
        await world.presenter.remind(result.record, 0, 300)
        sends = world.outbox.to(CHAT, "send")
        assert len(sends) >= 3 and {c.thread for c in sends} == {None}
        assert world.outbox.attempts.count(("send", CHAT)) == len(sends) + 1
        assert (await messages_of(world, record.id)).general
        assert await due(world) == []

    @pytest.mark.parametrize(
        ("refusal", "gone"),
        [
            ("Bad Request: TOPIC_CLOSED", True),
            ("Bad Request: message thread not found", True),
            ("Bad Request: TOPIC_DELETED", True),
            ("Bad Request: chat not found", False),
            ("Bad Request: message to edit not found", False),
        ],
    )
    def test_what_is_gone(self, refusal: str, gone: bool) -> None:
        """Only a topic closed or deleted sends the match to General; any other 400 is no reason to leave it."""
        assert topic_gone(bad_request(refusal)) is gone

    async def test_stored_before_topics(self, world: World) -> None:
        """A match and a challenge stored before topics read as in no topic, and a match's messages as not sent to
        General."""
        record, _ = await start_match(world.services)
        challenge = await world.services.challenges.open(CHAT + 1, ALA, "bingo", "ru")
        for model in (record, challenge):
            old = json.loads(model.model_dump_json())
            del old["thread_id"]
            assert type(model).model_validate(old).thread_id is None
        assert not (await messages_of(world, record.id)).general

    async def test_challenge(self, world: World) -> None:
        """A challenge goes to its topic; to General when the topic refuses it."""
        for fails, thread in ((False, TOPIC), (True, None)):
            challenge = await world.services.challenges.open(CHAT, ALA, "bingo", "ru", thread_id=TOPIC)
            if fails:
                world.outbox.fail("send", CHAT, bad_request("Bad Request: TOPIC_CLOSED"))
            await world.presenter.post_challenge(challenge)
            assert world.outbox.to(CHAT, "send")[-1].thread == thread
            await world.services.challenges.withdraw(challenge.id, ALA.id)
