"""The presenter (``bot/presenter.py``), the routers' and timers' door to Telegram: challenges' messages, the turn
clock's reminders and offers, and panels sent again; over the services on fakeredis and a recording outbox."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot import keyboards, render
from bot.callbacks import ClaimWinCb
from bot.models import Challenge, MatchRecord, new_inline_chat
from tests.backends import Backend
from tests.bot.helpers import ALA, BOB, CHAT, start_match
from tests.bot.test_delivery import TR, World, bad_request, forbidden, shown_match, world_on

MESSAGE = 77


@pytest.fixture
async def world(backend: Backend) -> AsyncIterator[World]:
    async with world_on(backend) as built:
        yield built


async def challenge_in(world: World, *, message: int | None = MESSAGE) -> Challenge:
    """An open challenge by Ala in the group, with its message (or none yet)."""
    challenge = await world.services.challenges.open(CHAT, ALA, "bingo", "ru")
    return challenge if message is None else await world.services.challenges.set_message(challenge, message)


async def accepted(world: World, challenge: Challenge) -> MatchRecord:
    return await world.services.challenges.accept(challenge.id, BOB, seed=1)


class TestChallenges:
    """A challenge's message: posted with its buttons, then edited to say how it ended (when it has one)."""

    async def test_post(self, world: World) -> None:
        """The challenge's text and buttons go to its chat; the message's id comes back."""
        challenge = await challenge_in(world, message=None)
        message_id = await world.presenter.post_challenge(challenge)
        [sent] = world.outbox.calls
        assert (sent.kind, sent.chat, sent.message_id) == ("send", CHAT, message_id)
        assert sent.text == render.challenge_text(TR, challenge)
        assert sent.markup == keyboards.challenge_keyboard(TR, challenge)

    @pytest.mark.parametrize("message", [MESSAGE, None], ids=["message", "no-message"])
    async def test_taken(self, world: World, message: int | None) -> None:
        """An accepted challenge's message says the match began, without buttons."""
        challenge = await challenge_in(world, message=message)
        record = await accepted(world, challenge)
        await world.presenter.challenge_taken(challenge, record)
        text = render.challenge_accepted_text(TR, record, "bingo", record.match().deal.target)
        expected = [] if message is None else [("edit", CHAT, MESSAGE, text, None)]
        assert [(c.kind, c.chat, c.message_id, c.text, c.markup) for c in world.outbox.calls] == expected

    @pytest.mark.parametrize("key", ["challenge-withdrawn", "challenge-cancelled"])
    @pytest.mark.parametrize("message", [MESSAGE, None], ids=["message", "no-message"])
    async def test_closed(self, world: World, key: str, message: int | None) -> None:
        """A withdrawn or cancelled challenge's message says so, without buttons."""
        challenge = await challenge_in(world, message=message)
        await world.presenter.close_challenge(challenge, key)
        text = render.challenge_closed_text(TR, challenge, key)
        expected = [] if message is None else [("edit", CHAT, MESSAGE, text, None)]
        assert [(c.kind, c.chat, c.message_id, c.text, c.markup) for c in world.outbox.calls] == expected

    @pytest.mark.parametrize("message", [MESSAGE, None], ids=["message", "no-message"])
    async def test_expired(self, world: World, message: int | None) -> None:
        """An expired challenge's message says so at once (``edit_now``)."""
        challenge = await challenge_in(world, message=message)
        await world.presenter.challenge_expired(challenge)
        text = render.challenge_closed_text(TR, challenge, "challenge-expired")
        expected = [] if message is None else [("edit_now", CHAT, MESSAGE, text, None, 1)]
        assert [(c.kind, c.chat, c.message_id, c.text, c.markup, c.version) for c in world.outbox.calls] == expected

    async def test_expired_message_gone(self, world: World) -> None:
        """A challenge's message deleted meanwhile: the expiry goes on without it."""
        challenge = await challenge_in(world)
        world.outbox.fail("edit_now", CHAT, bad_request("Bad Request: message to edit not found"))
        await world.presenter.challenge_expired(challenge)
        assert world.outbox.calls == []


class TestClock:
    """The turn clock's messages: the reminder at half the time, the offer to claim the win."""

    async def test_remind(self, world: World) -> None:
        """The player gets the private line and the group the line that names them."""
        record, _ = await start_match(world.services)
        await world.presenter.remind(record, 1, 300)
        private, group = render.reminder_texts(TR, record, 1, 300)
        assert [(c.kind, c.chat, c.text) for c in world.outbox.calls] == [
            ("send", BOB.id, private),
            ("send", CHAT, group),
        ]

    async def test_remind_in_the_players_language(self, world: World) -> None:
        """A Polish player in a Russian match: their reminder and their claim offer are Polish, the group's line
        Russian."""
        record, _ = await start_match(world.services)
        players = (record.players[0], record.players[1].model_copy(update={"lang": "pl"}))
        record = record.model_copy(update={"players": players})
        pl = world.presenter.i18n["pl"]
        await world.presenter.remind(record, 1, 300)
        await world.presenter.offer_win(record, 1, 86400)
        private, _ = render.reminder_texts(pl, record, 1, 300)
        _, group = render.reminder_texts(TR, record, 1, 300)
        assert [(c.chat, c.text) for c in world.outbox.calls] == [
            (BOB.id, private),
            (CHAT, group),
            (BOB.id, pl("claim-offer", idle=render.duration(pl, 86400))),
        ]
        assert private != render.reminder_texts(TR, record, 1, 300)[0]

    async def test_remind_group_gone(self, world: World) -> None:
        """A group that removed the bot gets no line; the player still does."""
        record, _ = await start_match(world.services)
        await world.services.chats.set_group_gone(CHAT, True)
        await world.presenter.remind(record, 0, 300)
        assert [c.chat for c in world.outbox.calls] == [ALA.id]

    async def test_remind_outside_groups(self, world: World) -> None:
        """A match begun in inline mode: the bot is not in the friends' chat, so the reminder goes in private
        only (nothing is sent to, nor edited in, any chat but the player's)."""
        record, _ = await start_match(world.services, chat_id=new_inline_chat())
        record = record.model_copy(update={"inline_message_id": "AgAAA42"})
        await world.presenter.remind(record, 1, 300)
        private, _ = render.reminder_texts(TR, record, 1, 300)
        assert [(c.kind, c.chat, c.text) for c in world.outbox.calls] == [("send", BOB.id, private)]

    async def test_remind_player_blocked(self, world: World) -> None:
        """A player who blocked the bot: their 403 is no error, and the group is still told."""
        record, _ = await start_match(world.services)
        world.outbox.fail("send", ALA.id, forbidden())
        await world.presenter.remind(record, 0, 300)
        assert [c.chat for c in world.outbox.calls] == [CHAT]

    async def test_offer_win(self, world: World) -> None:
        """The waiting player gets the offer with its one button, for this match at this version."""
        record, _ = await start_match(world.services)
        record = record.model_copy(update={"version": 9})
        await world.presenter.offer_win(record, 1, 86400)
        [offer] = world.outbox.calls
        assert (offer.kind, offer.chat) == ("send", BOB.id)
        assert offer.text == TR("claim-offer", idle=render.duration(TR, 86400))
        assert isinstance(offer.markup, InlineKeyboardMarkup)
        [[button]] = offer.markup.inline_keyboard
        assert (button.text, button.callback_data) == (TR("btn-claim-win"), ClaimWinCb(m=record.id, v=9).pack())


class TestPanels:
    """Panels sent again at a player's request, or after the clock ended the match."""

    async def test_resend_panel(self, world: World) -> None:
        """A player marked blocked asks for their panel (/hand): the mark is cleared and the panel comes anew."""
        record, _, before = await shown_match(world)
        await world.services.chats.set_blocked(BOB.id, True)
        await world.presenter.resend_panel(record, 1)
        assert not await world.services.chats.is_blocked(BOB.id)
        await world.delivery.idle()
        sent, deleted = world.outbox.to(BOB.id)
        assert (sent.kind, deleted.kind, deleted.message_id) == ("send", "delete", before.panels[1])
        assert world.outbox.to(ALA.id) == []
        assert (await world.services.stores.matches.messages(record.id)).panels[1] == sent.message_id

    async def test_resend_panels(self, world: World) -> None:
        """Both panels come anew and the match's messages are all brought up to date (it settles)."""
        record, _, before = await shown_match(world)
        await world.presenter.resend_panels(record)
        await world.delivery.idle()
        for seat, player in enumerate(record.players):
            assert [(c.kind, c.message_id) for c in world.outbox.to(player.id)][1] == ("delete", before.panels[seat])
        assert world.outbox.to(CHAT) == []
        assert await world.services.stores.matches.screens_due() == []
