"""Challenges in a group: joining (by deep link or button), challenging a friend, withdrawing, expiry, surrender."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from html import escape
from typing import Any

import pytest

from bot import render
from bot.app import App
from bot.models import Challenge, Finish, Status
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import (
    ask,
    button,
    challenge,
    join_by_link,
    match_id_of,
    new_match,
    newest_id,
    panel_of,
    reply_in,
    start_bot,
    url_button,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent

GROUP = -100500
SurrenderScene = tuple[App, str, Sent]
ANN = FakeUser(1001, "Ann", "ann", "ru")
BOB = FakeUser(1002, "Bob", "bob", "ru")
CARL = FakeUser(1003, "Carl <dev>", "carl", "ru")


def challenge_id(message: Sent) -> str:
    return str(button(message, "j:")["callback_data"]).split(":", 1)[1]


async def private_reply(fake: FakeTelegram, user: FakeUser, text: str) -> Sent:
    """The bot's answer to ``text`` written by ``user`` in private."""
    return await ask(fake, user, user.id, text)


class TestJoining:
    """A second player joins by the deep link or the button; the bot sends whoever never started it there."""

    async def test_deep_link_for_a_stranger(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A user who never started the bot joins through the challenge's link and gets a panel."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, ANN)
            message = await challenge(fake, ANN, GROUP)
            cid = challenge_id(message)
            computer = [f"cpu:{cid}:{level}" for level in ("easy", "normal", "hard")]
            assert [b["callback_data"] for b in message.buttons()] == [f"j:{cid}", f"w:{cid}", *computer]
            assert BOB.id not in fake.started
            await join_by_link(fake, BOB, message)
            await fake.wait_for(lambda: panel_of(fake, ANN) and panel_of(fake, BOB), what="both panels")
            assert message.text.startswith(
                tr("challenge-accepted", a="Ann", b="Bob", game=tr("preset-bingo"), target=8)
            )
            assert message.buttons() == []
            assert await app.services.challenges.challenge(cid) is None
            await invariants.all_well(fake)

    async def test_join_here_sends_a_stranger_to_the_bot(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        """The "join here" button answers a user who never started the bot with a toast and the deep link."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, ANN)
            message = await challenge(fake, ANN, GROUP)
            cid = challenge_id(message)
            answer = await fake.wait_answer(fake.press(BOB, message, button(message, "j:")["callback_data"]))
            assert answer["text"] == tr("toast-start-bot")
            assert answer["url"] == f"https://t.me/{fake.bot_username}?start=j_{cid}"
            assert await app.services.challenges.challenge(cid) is not None
            assert panel_of(fake, ANN) is None
            await invariants.all_well(fake)

    async def test_creator_who_never_started(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A creator without a private chat is asked in the group to open the bot, and /start m_<id> sends the panel."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, BOB)
            message = await challenge(fake, CARL, GROUP)
            after = newest_id(fake, GROUP)
            answer = await fake.wait_answer(fake.press(BOB, message, button(message, "j:")["callback_data"]))
            assert not answer.get("text")
            bob_panel = await fake.wait_for(lambda: panel_of(fake, BOB), what="Bob's panel")
            match_id = match_id_of(bob_panel)
            ask = await fake.wait_for(
                lambda: next((m for m in fake.chat_messages(GROUP) if m.message_id > after and m.buttons()), None),
                what="the request to open the bot",
            )
            assert ask.text == tr("need-start", name=escape(CARL.first_name))
            assert url_button(ask) == f"https://t.me/{fake.bot_username}?start=m_{match_id}"
            assert panel_of(fake, CARL) is None
            fake.send_text(
                CARL, CARL.id, url_button(ask).replace(f"https://t.me/{fake.bot_username}?start=", "/start ")
            )
            carl_panel = await fake.wait_for(lambda: panel_of(fake, CARL), what="Carl's panel")
            assert match_id_of(carl_panel) == match_id
            await invariants.all_well(fake)


class TestChallenges:
    """Opening, addressing, withdrawing, cancelling and expiry of a challenge."""

    async def test_play_in_private(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """/cancel in private answers that it works in a group; /play there is a match against the computer."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, ANN)
            assert (await private_reply(fake, ANN, "/cancel")).text == tr("error-group-only")
            table = await private_reply(fake, ANN, "/play")
            assert table.text.startswith(tr("table-title", game=tr("preset-bingo"), deal=1))
            assert tr("computer-normal") in table.text
            assert fake.chat_messages(GROUP) == []
            await invariants.all_well(fake)

    async def test_challenge_in_reply(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """/play in reply to a friend's message challenges only that friend."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (ANN, BOB, CARL):
                await start_bot(fake, user)
            said = fake.send_text(BOB, GROUP, "сыграем?")
            message = await challenge(fake, ANN, GROUP, reply_to=said)
            cid = challenge_id(message)
            invite = tr("challenge-invite", creator="Ann", opponent="Bob", game=tr("preset-bingo"), target=8)
            assert message.text.startswith(invite)
            join_here = button(message, "j:")["callback_data"]
            answer = await fake.wait_answer(fake.press(CARL, message, join_here))
            assert answer["text"] == tr("toast-not-invited")
            assert (await private_reply(fake, CARL, f"/start j_{cid}")).text == tr("toast-not-invited")
            assert await app.services.challenges.challenge(cid) is not None
            assert panel_of(fake, CARL) is None
            answer = await fake.wait_answer(fake.press(BOB, message, join_here))
            assert not answer.get("text")
            await fake.wait_for(lambda: panel_of(fake, ANN) and panel_of(fake, BOB), what="both panels")
            await invariants.all_well(fake)

    async def test_withdraw_button(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Only the creator withdraws; the message then says so, and the link no longer joins."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, ANN)
            await start_bot(fake, BOB)
            message = await challenge(fake, ANN, GROUP)
            cid = challenge_id(message)
            withdraw = button(message, "w:")["callback_data"]
            answer = await fake.wait_answer(fake.press(BOB, message, withdraw))
            assert answer["text"] == tr("toast-only-creator")
            assert await app.services.challenges.challenge(cid) is not None
            await fake.wait_answer(fake.press(ANN, message, withdraw))
            await fake.wait_for(lambda: message.text == tr("challenge-withdrawn", creator="Ann"), what="withdrawn")
            assert message.buttons() == []
            assert await app.services.challenges.challenge(cid) is None
            assert (await private_reply(fake, BOB, f"/start j_{cid}")).text == tr("toast-challenge-gone")
            await invariants.all_well(fake)

    async def test_cancel_command(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """/cancel removes the creator's challenge; an admin's /cancel in reply removes anyone's."""
        fake.admins[GROUP] = {CARL.id}
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            mine = await challenge(fake, ANN, GROUP)
            fake.send_text(ANN, GROUP, "/cancel")
            await fake.wait_for(lambda: mine.text == tr("challenge-withdrawn", creator="Ann"), what="withdrawn")
            assert mine.buttons() == []
            after = newest_id(fake, GROUP)
            fake.send_text(ANN, GROUP, "/cancel")
            assert (await reply_in(fake, GROUP, after, "a refusal")).text == tr("error-no-challenge")
            bobs = await challenge(fake, BOB, GROUP)
            fake.send_text(CARL, GROUP, "/cancel", reply_to=bobs)
            await fake.wait_for(lambda: bobs.text == tr("challenge-cancelled", creator="Bob"), what="cancelled")
            assert await app.services.challenges.open_challenge_of(GROUP, BOB.id) is None
            await invariants.all_well(fake)

    @pytest.mark.parametrize("ended_by", ["accepted", "withdrawn"])
    async def test_ended_before_its_message_was_stored(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None, ended_by: str
    ) -> None:
        """The challenge's message is in the group before its id is stored: Bob's accept (or Ann's /cancel) that
        comes in between finds no message to edit, so the /play that posted it edits it (found by a CI run's
        Cluster step: the message still asked for an opponent, with its buttons, at the match's end)."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, ANN)
            await start_bot(fake, BOB)
            post = app.presenter.post_challenge

            async def gone(challenge_id: str) -> None:
                """Until the /cancel has withdrawn the challenge (its handler runs beside this one)."""
                try:
                    async with asyncio.timeout(30):
                        while await app.services.challenges.challenge(challenge_id) is not None:
                            await asyncio.sleep(0.02)
                except TimeoutError:
                    raise AssertionError(
                        "waited 30 s for Ann's /cancel to withdraw her challenge; still open"
                    ) from None

            async def post_then_end(challenge: Challenge) -> int:
                message_id = await post(challenge)
                message = fake.messages[(GROUP, message_id)]
                if ended_by == "accepted":
                    answer = await fake.wait_answer(fake.press(BOB, message, f"j:{challenge.id}"), timeout=30)
                    assert not answer.get("text"), answer
                else:
                    fake.send_text(ANN, GROUP, "/cancel")
                    await gone(challenge.id)
                assert await app.services.challenges.challenge(challenge.id) is None
                assert message.buttons(), "the message was edited before its id was stored"
                return message_id

            app.presenter.post_challenge = post_then_end  # type: ignore[method-assign]
            message = await challenge(fake, ANN, GROUP)
            if ended_by == "accepted":
                await fake.wait_for(lambda: panel_of(fake, ANN) and panel_of(fake, BOB), what="both panels")
                match_id = await app.services.records.active_match(GROUP, ANN.id)
                assert match_id is not None
                record, match = await app.services.records.get(match_id)
                began = render.challenge_accepted_text(tr, record, match.rules.name, match.deal.target)
                await fake.wait_for(lambda: message.text == began, what="the message saying the match began")
            else:
                withdrawn = tr("challenge-withdrawn", creator="Ann")
                await fake.wait_for(lambda: message.text == withdrawn, what="the message saying it was withdrawn")
            assert message.buttons() == []
            await app.settled()
            await invariants.all_well(fake)

    async def test_read_before_its_message_was_stored(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        """Bob's press reads the challenge before /play stores its message id and accepts it after: the message
        still says the match began (the accept edits the challenge as it consumed it, not the copy it read
        first; found by the Cluster step of a fresh-clone run, after the fix above)."""
        async with running_bot(fake, prefix) as app:
            await start_bot(fake, ANN)
            await start_bot(fake, BOB)
            services = app.services.challenges
            read = asyncio.Event()
            post, first_read, take = app.presenter.post_challenge, services.challenge, services.take

            async def post_then_press(challenge: Challenge) -> int:
                message_id = await post(challenge)
                fake.press(BOB, fake.messages[(GROUP, message_id)], f"j:{challenge.id}")
                async with asyncio.timeout(30):
                    await read.wait()  # Bob's handler has read the challenge, without its message id
                return message_id

            async def reading(challenge_id: str) -> Challenge | None:
                found = await first_read(challenge_id)
                read.set()
                return found

            async def take_once_stored(challenge_id: str, *args: Any, **kwargs: Any) -> Any:
                async with asyncio.timeout(30):
                    while (
                        Challenge.model_validate_json(await services.store.read(challenge_id) or "{}").message_id
                        is None
                    ):
                        await asyncio.sleep(0.01)
                return await take(challenge_id, *args, **kwargs)

            app.presenter.post_challenge = post_then_press  # type: ignore[method-assign]
            services.challenge = reading  # type: ignore[method-assign]
            services.take = take_once_stored  # type: ignore[method-assign]
            message = await challenge(fake, ANN, GROUP)
            await fake.wait_for(lambda: panel_of(fake, ANN) and panel_of(fake, BOB), what="both panels")
            match_id = await app.services.records.active_match(GROUP, ANN.id)
            assert match_id is not None
            record, match = await app.services.records.get(match_id)
            began = render.challenge_accepted_text(
                app.presenter.i18n["ru"], record, match.rules.name, match.deal.target
            )
            await fake.wait_for(lambda: message.text == began, what="the message saying the match began")
            assert message.buttons() == []

    @pytest.mark.cluster
    async def test_expiry(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A challenge nobody takes expires, its message says so, and its button no longer joins."""
        async with running_bot(fake, prefix, challenge_ttl=2) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, BOB)
            message = await challenge(fake, ANN, GROUP)
            assert tr("challenge-expires", unit="s", n=2) in message.text  # "действует 2 секунды"
            join_here = button(message, "j:")["callback_data"]
            await fake.wait_for(
                lambda: message.text == tr("challenge-expired", creator="Ann"), timeout=6, what="the expiry notice"
            )
            assert message.buttons() == []
            answer = await fake.wait_answer(fake.press(BOB, message, join_here))
            assert answer["text"] == tr("toast-challenge-gone")
            assert panel_of(fake, BOB) is None
            await invariants.all_well(fake)
            assert await app.services.challenges.pending_notices() == []

    async def test_expiry_while_the_bot_was_down(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A challenge that expires while the bot is stopped still gets its notice when the bot starts again."""
        async with running_bot(fake, prefix, challenge_ttl=2) as app:
            tr = app.presenter.i18n["ru"]
            message = await challenge(fake, ANN, GROUP)
            other = await challenge(fake, BOB, GROUP)
        await asyncio.sleep(2.5)
        assert message.buttons() and other.buttons()
        async with running_bot(fake, prefix, challenge_ttl=2) as app:
            await fake.wait_for(
                lambda: (
                    message.text == tr("challenge-expired", creator="Ann")
                    and other.text == tr("challenge-expired", creator="Bob")
                ),
                timeout=6,
                what="the expiry notices",
            )
            assert message.buttons() == [] and other.buttons() == []
            # The message is edited first, then the notice taken (a crash between leaves it to the next run).
            for _ in range(100):
                if not await app.services.challenges.pending_notices():
                    break
                await asyncio.sleep(0.05)
            assert await app.services.challenges.pending_notices() == []
            await invariants.all_well(fake)


@pytest.fixture
async def surrender_scene(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> AsyncIterator[SurrenderScene]:
    """A Bingo match between Ann and Bob, and Ann's /surrender asked in the group."""
    async with running_bot(fake, prefix, pictures=True, postmortems=True) as app:
        await start_bot(fake, ANN)
        await start_bot(fake, CARL)
        match_id = await new_match(fake, ANN, BOB, GROUP)
        after = newest_id(fake, GROUP)
        fake.send_text(ANN, GROUP, "/surrender")
        confirm = await reply_in(fake, GROUP, after, "the confirmation")
        yield app, match_id, confirm


class TestSurrender:
    """/surrender asks first; the confirmation ends the match with a result in the group."""

    async def test_confirmed(self, fake: FakeTelegram, surrender_scene: SurrenderScene) -> None:
        """Ann confirms: the match ends, Bob wins, the group reads the result and the panels lose their buttons."""
        app, match_id, confirm = surrender_scene
        tr = app.presenter.i18n["ru"]
        assert confirm.text == tr("surrender-confirm", opponent="Bob")
        answer = await fake.wait_answer(fake.press(CARL, confirm, button(confirm, "s:")["callback_data"]))
        assert answer["text"] == tr("toast-not-your-question")
        after = newest_id(fake, GROUP)
        data = button(confirm, f"s:{match_id}:{ANN.id}:1")["callback_data"]
        answer = await fake.wait_answer(fake.press(ANN, confirm, data))
        assert not answer.get("text")
        result = await reply_in(fake, GROUP, after, "the result")
        assert result.text.startswith(tr("match-surrender", loser="Ann", winner="Bob", sw=0, sl=0))
        await fake.wait_for(lambda: confirm.text == tr("toast-done"), what="the confirmation to close")
        record, _ = await app.services.records.get(match_id)
        assert record.status is Status.FINISHED and record.finish is Finish.SURRENDER and record.winner == 1
        await fake.wait_for(lambda: not panel_of(fake, ANN) and not panel_of(fake, BOB), what="panels without buttons")
        for user in (ANN, BOB):
            # The match card follows in private, then the post-mortem.
            await fake.wait_for(lambda u=user: fake.chat_messages(u.id)[-1].text.startswith("🔎"), what="the 🔎")
            *_, last, card, _ = fake.chat_messages(user.id)
            assert tr("panel-match-over") in last.text and card.photo is not None
        await invariants.all_well(fake)

    async def test_kept(self, fake: FakeTelegram, surrender_scene: SurrenderScene) -> None:
        """Ann thinks better of it: the question closes and the match goes on."""
        app, match_id, confirm = surrender_scene
        tr = app.presenter.i18n["ru"]
        data = button(confirm, f"s:{match_id}:{ANN.id}:0")["callback_data"]
        answer = await fake.wait_answer(fake.press(ANN, confirm, data))
        assert answer["text"] == tr("surrender-kept")
        await fake.wait_for(lambda: confirm.text == tr("surrender-kept"), what="the question to close")
        record, _ = await app.services.records.get(match_id)
        assert record.is_active
        await invariants.all_well(fake)

    async def test_only_the_asker_confirms(self, fake: FakeTelegram, surrender_scene: SurrenderScene) -> None:
        """Bob pressing "yes" under Ann's question gets a toast and does not give up the match himself."""
        app, match_id, confirm = surrender_scene
        before = await app.services.records.get(match_id)
        data = button(confirm, f"s:{match_id}:{ANN.id}:1")["callback_data"]
        answer = await fake.wait_answer(fake.press(BOB, confirm, data))
        await app.settled()
        assert answer.get("text")
        assert await app.services.records.get(match_id) == before
        await invariants.all_well(fake)
