"""Trust, round two (``security-2026-12b``): each finding's attack, over the fake Bot API on real Redis, fails.

M1: a forged move button never strips or re-edits a message that is not the seat's own panel of that match.
M2: an inline challenge stays bound to its own message. M3: no match without a table, nothing sent forever (the
delivery's bounded retries are in ``tests/bot/test_delivery.py``). M4 and L5: the doors a stranger can knock on
have limits (membership cached, the Mini App's and inline mode's budgets). L1-L4, L6: the Mini App server as a
hardened web server. L7: who may watch an inline match.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import INLINE_CHATS, Player
from tests.e2e.conftest import running_bot
from tests.e2e.driver import ask, challenge, new_match, panel_of, start_bot, surrender
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent

GROUP = -100980
ANN = FakeUser(9801, "Ann", "ann_trust2", "ru")
BOB = FakeUser(9802, "Bob", "bob_trust2", "ru")
CYRIL = FakeUser(9803, "Cyril", "cyril_trust2", "ru")
MALLORY = FakeUser(9804, "Mallory", "mallory_trust2", "ru")
"""A member of the group with a modified client: any callback data on any message of the bot's."""


def touched(fake: FakeTelegram, chat_id: int, since: int) -> list[tuple[str, int]]:
    """The edits and strips of the chat's messages from call ``since`` on: (method, message id)."""
    methods = ("editMessageText", "editMessageReplyMarkup", "editMessageCaption", "deleteMessage")
    return [
        (c.method, int(c.params["message_id"]))
        for c in fake.calls[since:]
        if c.method in methods and str(c.params.get("chat_id")) == str(chat_id) and "message_id" in c.params
    ]


async def pressed(fake: FakeTelegram, user: FakeUser, sent: Sent, data: str) -> dict[str, Any]:
    return await fake.wait_answer(fake.press(user, sent, data))


class TestM1ForgedMoveButtons:
    """M1: a forged ``a:`` or ``h:`` press, of a finished match or with a version ahead, on any message of the
    bot's that is not the seat's own panel of that match: a toast, and no message touched."""

    async def test_a_finished_match_on_other_messages(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (ANN, BOB, CYRIL, MALLORY):
                await start_bot(fake, user)
            finished = await new_match(fake, ANN, BOB, GROUP)
            result = await surrender(fake, BOB, GROUP, finished)
            await app.settled()
            open_challenge = await challenge(fake, CYRIL, GROUP)
            signup = await ask(fake, MALLORY, GROUP, "/tournament")
            await app.settled()
            targets = {"a challenge": open_challenge, "a sign-up": signup, "the result's 🔁": result}
            for user in (MALLORY, ANN):  # a stranger to the match, and one of its players
                for what, message in targets.items():
                    kept = message.buttons()
                    since = len(fake.calls)
                    for data in (f"a:{finished}:0:66", f"h:{finished}:0"):
                        answer = await pressed(fake, user, message, data)
                        assert answer.get("text") == tr("toast-bad-button"), (what, answer)
                    await app.settled()
                    assert touched(fake, GROUP, since) == [], f"{user.first_name} on {what}"
                    assert fake.messages[(GROUP, message.message_id)].buttons() == kept, what

    async def test_a_version_ahead_on_a_group_message(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        """A player of an active match presses their own match's button with a version far ahead on a message of
        the group (one with buttons, one without): nothing shown again, nothing stripped; on their own panel it
        still means Redis lost writes (the match is shown again from what Redis holds)."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (ANN, BOB, CYRIL):
                await start_bot(fake, user)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            open_challenge = await challenge(fake, CYRIL, GROUP)
            rules = await ask(fake, ANN, GROUP, "/rules")
            await app.settled()
            record, _ = await app.services.records.get(match_id)
            ahead = f"a:{match_id}:{record.version + 50}:66"
            for message in (open_challenge, rules):
                since = len(fake.calls)
                answer = await pressed(fake, ANN, message, ahead)
                assert answer.get("text") == tr("toast-bad-button")
                await app.settled()
                assert touched(fake, GROUP, since) == [] and touched(fake, ANN.id, since) == []
                assert touched(fake, BOB.id, since) == []
            assert fake.messages[(GROUP, open_challenge.message_id)].buttons() == open_challenge.buttons()
            panel = panel_of(fake, ANN)
            assert panel is not None
            since = len(fake.calls)
            await pressed(fake, ANN, panel, ahead)
            await app.settled()
            assert ("editMessageReplyMarkup", panel.message_id) in touched(fake, ANN.id, since)


FRIENDS = 424_243_000
"""Anna's chat with Bartek, where she posts an inline challenge (the bot is not in it)."""
MALLORYS = 424_243_001
"""Mallory's own chat, where she posts an inline result of her own."""


def join_of(sent: Sent, prefix: str = "j:") -> str:
    return next(str(b["callback_data"]) for b in sent.buttons() if str(b.get("callback_data", "")).startswith(prefix))


async def posted(fake: FakeTelegram, user: FakeUser, chat: int, *, feedback: bool = True) -> tuple[str, str, Sent]:
    """``user`` posts an inline challenge (Bingo) in ``chat``: its challenge id, inline message id and message."""
    query = fake.inline_query(user, "бинго")
    result = str((await fake.wait_inline(query))["results"][0]["id"])
    inline_id, message = fake.choose_inline(user, query, result, chat, feedback=feedback)
    if feedback:
        await fake.done(fake.newest_update)
    return result, inline_id, message


def sent_to_made_up_chats(fake: FakeTelegram) -> list[str]:
    return [c.method for c in fake.calls if str(c.params.get("chat_id", "0")).lstrip("-").isdigit()
            and int(c.params.get("chat_id", 0)) <= INLINE_CHATS]  # fmt: skip


class TestM2InlineBinding:
    """M2: an inline challenge stays bound to its own message: a press carried from another inline message never
    rebinds it, and a refused press changes nothing."""

    async def test_a_forged_press_from_another_message(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        fake.absent.update({FRIENDS, MALLORYS})
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (ANN, BOB, MALLORY):
                await start_bot(fake, user)
            challenge_id, inline_id, message = await posted(fake, ANN, FRIENDS)
            _, her_id, _ = await posted(fake, MALLORY, MALLORYS)
            for data in (f"w:{challenge_id}", f"j:{challenge_id}"):
                answer = await fake.wait_answer(fake.press_inline(MALLORY, her_id, data))
                assert answer.get("text") == tr("toast-bad-button"), (data, answer)
            found = await app.services.challenges.challenge(challenge_id)
            assert found is not None and found.inline_message_id == inline_id
            # Bob's accept on Anna's message: her message is the table, Mallory's is untouched.
            assert not (await fake.wait_answer(fake.press_inline(BOB, inline_id, join_of(message)))).get("text")
            await app.settled()
            match_id = await app.services.records.user_matches(ANN.id)
            record, _ = await app.services.records.get(match_id[0])
            assert record.inline_message_id == inline_id
            assert len(fake.inline_messages[her_id].history) == 1
            assert sent_to_made_up_chats(fake) == []

    async def test_unbound_until_the_accepting_press(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        """Inline feedback off: the bot hears of Anna's message only from a press on it. Mallory's forged withdraw
        from her own message is refused and binds nothing; Bartek, who has not started the bot, is sent to it;
        his deep link is refused (press accept on the message); his press on the message accepts, and that
        message is the table."""
        fake.absent.update({FRIENDS, MALLORYS})
        fake.inline_feedback = False
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (ANN, MALLORY):
                await start_bot(fake, user)
            challenge_id, inline_id, message = await posted(fake, ANN, FRIENDS, feedback=False)
            _, her_id, _ = await posted(fake, MALLORY, MALLORYS, feedback=False)
            answer = await fake.wait_answer(fake.press_inline(MALLORY, her_id, f"w:{challenge_id}"))
            assert answer.get("text") == tr("toast-only-creator")
            found = await app.services.challenges.challenge(challenge_id)
            assert found is not None and found.inline_message_id is None
            answer = await fake.wait_answer(fake.press_inline(BOB, inline_id, join_of(message)))
            assert f"start=j_{challenge_id}" in str(answer.get("url"))
            reply = await ask(fake, BOB, BOB.id, f"/start j_{challenge_id}")
            assert reply.text == tr("inline-press-accept")
            assert await app.services.records.user_matches(BOB.id) == []
            assert not (await fake.wait_answer(fake.press_inline(BOB, inline_id, join_of(message)))).get("text")
            await app.settled()
            [match_id] = await app.services.records.user_matches(BOB.id)
            record, _ = await app.services.records.get(match_id)
            assert record.inline_message_id == inline_id
            assert sent_to_made_up_chats(fake) == []


class TestM3NoTable:
    """M3: no match without a table, and nothing is ever sent to an inline challenge's made-up chat id."""

    async def test_unposted_results_make_no_matches(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Every result of an inline query is a challenge whose id its creator's client gets: a second account's
        deep links to them open nothing."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (MALLORY, CYRIL):
                await start_bot(fake, user)
            ids = []
            for words in ("", "42", "бинго"):
                ids += [str(r["id"]) for r in (await fake.wait_inline(fake.inline_query(MALLORY, words)))["results"]]
            for challenge_id in ids:
                reply = await ask(fake, CYRIL, CYRIL.id, f"/start j_{challenge_id}")
                assert reply.text == tr("inline-press-accept")
            await app.settled()
            assert await app.services.records.user_matches(CYRIL.id) == []
            assert sent_to_made_up_chats(fake) == []

    async def test_a_match_without_a_table(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A match of an inline challenge whose message nobody knows (as one accepted before this fix could be):
        it has no group, its players play it in private to its end, and nothing goes to its made-up chat."""
        async with running_bot(fake, prefix) as app:
            for user in (ANN, BOB):
                await start_bot(fake, user)
            services = app.services
            opened = await services.challenges.open(
                INLINE_CHATS - 77, Player(id=ANN.id, name=ANN.first_name), "bingo", "ru"
            )
            raw = await services.stores.challenges.read(opened.id)
            assert raw is not None
            record = await services.challenges._accept_as_read(raw, Player(id=BOB.id, name=BOB.first_name), None, None)
            assert record is not None and record.inline_message_id is None
            app.presenter.start_match(record)
            await app.settled()
            assert panel_of(fake, ANN) and panel_of(fake, BOB)
            result = await services.moves.surrender(record.id, ANN.id)
            app.presenter.show(result)
            await app.settled()
            assert await services.stores.matches.screens_due() == []
            assert sent_to_made_up_chats(fake) == []
            with pytest.raises(ValueError, match="not a Telegram chat"):  # bot.outbox.NotAChat
                await app.outbox.send(record.chat_id, "x")
            assert sent_to_made_up_chats(fake) == []
