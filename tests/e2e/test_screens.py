"""What players see when the turn changes hands, and when chats change under a match."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from html import escape

import pytest

from bot import render
from bot.app import App
from bot.replays import replay_link
from tests.e2e import invariants, screens
from tests.e2e.conftest import running_bot
from tests.e2e.driver import ask, new_match, panel_of, play, play_to_end, playable, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser

GROUP = -100555
ANN = FakeUser(5501, "Ann", "ann_screens", "ru")
BOB = FakeUser(5502, "Bob", "bob_screens", "ru")


def panel_sends(fake: FakeTelegram, user: FakeUser) -> list[dict[str, object]]:
    """Parameters of the successful sendMessage calls that carried game buttons to ``user``."""
    return [c.params for c in fake.calls_to(user.id, ("sendMessage",)) if "a:" in str(c.params.get("reply_markup", ""))]


async def started_match(fake: FakeTelegram) -> str:
    """Both players start the bot; Ann challenges in the group, Bob joins. The match's id."""
    for user in (ANN, BOB):
        await start_bot(fake, user)
    return await new_match(fake, ANN, BOB, GROUP)


class TestTurn:
    """The player who gets the turn gets a new message; the one who moved, an edit."""

    async def test_handover_is_a_new_message(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        rng = random.Random(3)
        async with running_bot(fake, prefix) as app:
            match_id = await started_match(fake)
            handovers = 0
            for _ in range(30):
                handovers += await screens.press_watching_the_turn(fake, app.services, match_id, (ANN, BOB), rng)
                if not (await app.services.records.get(match_id))[0].is_active:
                    break  # about one match in 200 ends within 30 random moves (a bingo)
            assert handovers >= 5
            sends = panel_sends(fake, ANN) + panel_sends(fake, BOB)
            # The first panels ring; a player who moved a moment ago is handed the turn silently.
            assert not sends[0].get("disable_notification")
            assert any(str(p.get("disable_notification")).lower() == "true" for p in sends[2:])
            await invariants.all_well(fake)


async def blocked(app: App, user: FakeUser) -> bool:
    return (await app.services.chats.profile(user.id)).blocked


async def handled(state: Callable[[], Awaitable[bool]], expected: bool, timeout: float = 10.0) -> None:
    """Wait until ``state()`` is ``expected`` (what handling an update changes), at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while await state() != expected:
        assert time.monotonic() < deadline, f"still {not expected} after {timeout} s"
        await asyncio.sleep(0.02)


class TestChatsThatChange:
    """A group that removes the bot, a player who blocks it."""

    @pytest.mark.cluster
    async def test_group_removes_the_bot(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """403 from the group: the match goes on in private and its result still counts."""
        rng = random.Random(4)
        async with running_bot(fake, prefix, pictures=True, postmortems=True) as app:
            match_id = await started_match(fake)
            await play(fake, (ANN, BOB), rng, max_moves=4)
            fake.kicked.add(GROUP)
            await play_to_end(fake, (ANN, BOB), rng)
            await app.settled()
            record, _ = await app.services.records.get(match_id)
            assert not record.is_active and record.winner is not None
            winner = (ANN, BOB)[record.winner]
            assert (await app.services.results.stats(winner.id)).won == 1
            refused = [c for c in fake.calls if c.status == 403 and str(c.params.get("chat_id")) == str(GROUP)]
            assert 1 <= len(refused) <= 3, "the bot keeps writing to a group that removed it"
            summary = (await app.services.stores.matches.messages(match_id)).summary
            assert summary is not None
            # Each person's card and then their post-mortem come in private once the workers have drawn and reviewed
            # the match (the e2e bots wait for them: conftest.WORKER_TIMEOUT); the delivery may be idle meanwhile.
            await fake.wait_for(
                lambda: all(fake.chat_messages(u.id)[-1:] and fake.chat_messages(u.id)[-1].text.startswith("🔎")
                            for u in (ANN, BOB)),
                timeout=120,
                what="each player's post-mortem (🔎) after their card, in private",
            )  # fmt: skip
            for seat, user in enumerate((ANN, BOB)):
                # The last panel says the match is over; the card still comes, in private.
                *_, last, card, post_mortem = fake.chat_messages(user.id)
                assert app.presenter.i18n["ru"]("panel-match-over") in last.text
                assert card.photo is not None
                tr = app.presenter.i18n["ru"]
                link = replay_link(tr, app.presenter.bot_username, record.id)
                assert card.text.startswith(render.private_result_text(tr, record, summary, seat))
                assert card.text.endswith(link) and post_mortem.text.startswith("🔎")

    async def test_player_blocks_the_bot(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """403 from a player: the opponent and the group are told once; unblocking and /hand resumes."""
        rng = random.Random(5)
        async with running_bot(fake, prefix) as app:
            match_id = await started_match(fake)
            fake.blocked.add(BOB.id)
            tr = app.presenter.i18n["ru"]
            notice = tr("player-blocked", name=escape(BOB.first_name))
            # One move by whoever acts (both panels are current): Bob's panel is then due, and refused.
            _, match = await app.services.records.get(match_id)
            user = (ANN, BOB)[match.turn or 0]
            panel = panel_of(fake, user)
            assert panel is not None
            answer = await fake.wait_answer(fake.press(user, panel, rng.choice(playable(panel))["callback_data"]))
            assert not answer.get("text")
            await app.settled()
            group_notices = [m for m in fake.chat_messages(GROUP) if m.text == notice]
            ann_notices = [m for m in fake.chat_messages(ANN.id) if m.text == notice]
            assert len(group_notices) == 1 and len(ann_notices) == 1
            fake.blocked.discard(BOB.id)
            await ask(fake, BOB, BOB.id, "/hand")
            await fake.wait_for(lambda: panel_of(fake, BOB), what="Bob's panel again")
            await play_to_end(fake, (ANN, BOB), rng)
            await app.settled()
            assert len([m for m in fake.chat_messages(GROUP) if m.text == notice]) == 1

    async def test_membership_updates(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """The bot removed from a group and added back; blocked and unblocked by a player."""
        async with running_bot(fake, prefix) as app:
            fake.bot_membership(ANN, GROUP, "kicked")
            await fake.wait_for(lambda: fake.delivered >= 1, what="the update")
            await fake.settle()
            # An update taken is not yet handled (a loaded machine takes its time): look until it is.
            await handled(lambda: app.services.chats.group_gone(GROUP), True)
            fake.bot_membership(ANN, GROUP, "member")
            await fake.settle()
            await handled(lambda: app.services.chats.group_gone(GROUP), False)
            fake.bot_membership(BOB, BOB.id, "kicked")
            await fake.settle()
            await handled(lambda: blocked(app, BOB), True)

    @pytest.mark.cluster
    async def test_group_becomes_a_supergroup(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Settings and the active match move to the new id; the match finishes there and counts there."""
        new = GROUP - 1_000_000
        rng = random.Random(6)
        async with running_bot(fake, prefix) as app:
            await app.services.chats.update_settings(GROUP, target=7)
            match_id = await started_match(fake)
            await play(fake, (ANN, BOB), rng, max_moves=3)
            fake.migrate(ANN, GROUP, new)
            for _ in range(500):
                if await app.services.records.active_match(new, ANN.id) == match_id:
                    break
                await asyncio.sleep(0.02)
            assert await app.services.records.active_match(new, ANN.id) == match_id
            assert await app.services.records.active_match(GROUP, ANN.id) is None
            assert (await app.services.chats.settings(new)).target == 7
            await play_to_end(fake, (ANN, BOB), rng)
            await app.settled()
            assert [s.id for s in await app.services.results.history(chat_id=new)] == [match_id]
            assert any("🏆" in m.text or "🏳" in m.text for m in fake.chat_messages(new))
            assert fake.chat_messages(new), "nothing reached the supergroup"
