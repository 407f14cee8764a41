"""Inline mode: two friends play in their own chat, where the bot is not: ``@bot`` offers the challenges, the one
posted via the bot is accepted by a press on it and becomes the table, edited by its ``inline_message_id``;
the hands come in each one's private chat with the bot; nothing is ever sent to the friends' chat."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.app import App
from bot.models import OUTSIDE_GROUPS, MatchRecord, Status, is_inline_chat
from bot.services import Services
from tests.e2e.conftest import running_bot
from tests.e2e.driver import TURN, panel_of, play, play_to_end, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.e2e.process import BotProcess, bot_env
from tests.e2e.test_delivery_faults import polling
from tests.redis_server import redis_url

FRIENDS = 424_242_000
"""The friends' own chat: the bot is not in it (anything sent there answers 403)."""
ANNA = FakeUser(9401, "Анна", "anna_inline", "ru")
BARTEK = FakeUser(9402, "Bartek", "bartek_inline", "pl")


def join_data(markup: dict[str, Any] | None) -> str:
    rows: list[list[dict[str, Any]]] = (markup or {}).get("inline_keyboard") or []
    for row in rows:
        for button in row:
            if str(button.get("callback_data", "")).startswith("j:"):
                return str(button["callback_data"])
    raise AssertionError(f"no accept button in {markup}")


@pytest.mark.cluster
@pytest.mark.parametrize(("creator", "joiner"), [(ANNA, BARTEK), (BARTEK, ANNA)], ids=["from-ru", "from-pl"])
async def test_a_match_in_the_friends_chat(
    fake: FakeTelegram, prefix: str, cleanup_redis: None, creator: FakeUser, joiner: FakeUser
) -> None:
    async with running_bot(fake, prefix) as app:
        fake.absent.add(FRIENDS)
        for user in (ANNA, BARTEK):
            await start_bot(fake, user)

        # @bot in the friends' chat: a challenge for each game, in the creator's language; a word narrows it.
        query = fake.inline_query(creator, "", chat_type="private")
        answer = await fake.wait_inline(query)
        results = answer["results"]
        assert len(results) == 2 and answer.get("is_personal") in (True, "true", "True")
        words = {"ru": ("Вызов", "Бинго"), "pl": ("Wyzwanie", "Bingo")}[creator.language_code]
        assert all(words[0] in r["title"] for r in results) and words[1] in results[0]["title"]
        only = await fake.wait_inline(fake.inline_query(creator, "42"))
        assert len(only["results"]) == 1 and "42" in only["results"][0]["title"]

        inline_id, posted = fake.choose_inline(creator, query, str(results[0]["id"]), FRIENDS)
        data = join_data(posted.reply_markup)
        own = await fake.wait_answer(fake.press_inline(creator, inline_id, data))
        assert own.get("text"), "the creator's own accept must be refused in words"
        accepted = await fake.wait_answer(fake.press_inline(joiner, inline_id, data))
        assert not accepted.get("text"), accepted

        message = fake.inline_messages[inline_id]
        await fake.wait_for(lambda: panel_of(fake, ANNA) and panel_of(fake, BARTEK), what="both panels")
        await fake.wait_for(lambda: TURN in message.text, what="the inline message to become the table")
        records = [await app.services.records.get(m) for m in await app.services.records.user_matches(ANNA.id)]
        record = next(r for r, _ in records if r.inline_message_id == inline_id)
        assert is_inline_chat(record.chat_id)

        await play_to_end(fake, (ANNA, BARTEK), random.Random(11))
        await app.settled()
        record, _ = await app.services.records.get(record.id)
        assert record.status is Status.FINISHED
        await fake.wait_for(lambda: "🏆" in message.text, what="the result in the inline message")
        assert any(
            str(b.get("callback_data", "")).startswith("rm:")
            for row in (message.reply_markup or {}).get("inline_keyboard", [])
            for b in row
        ), "no 🔁 under the result"
        assert fake.calls_to(FRIENDS, ("sendMessage", "sendPhoto")) == []
        assert not any(str(c.params.get("chat_id")) == str(record.chat_id) for c in fake.calls)
        rows = await app.services.results.leaderboard(OUTSIDE_GROUPS, 10)
        assert {r.user_id for r in rows} == {ANNA.id, BARTEK.id}
        # /top in private: the table across all chats, then the one of matches outside groups.
        seen = len(fake.chat_messages(ANNA.id))
        fake.send_text(ANNA, ANNA.id, "/top")
        await fake.wait_for(
            lambda: any("вне групп" in m.text for m in fake.chat_messages(ANNA.id)[seen:]),
            what="/top in private to show the table of matches outside groups",
        )

        # 🔁 on the message: the first press asks, the other's starts the rematch in the same message.
        again = next(
            str(b["callback_data"])
            for row in (message.reply_markup or {}).get("inline_keyboard", [])
            for b in row
            if str(b.get("callback_data", "")).startswith("rm:")
        )
        asked = await fake.wait_answer(fake.press_inline(joiner, inline_id, again))
        assert asked.get("text"), "the first 🔁 says it waits for the other"
        await fake.wait_for(lambda: "🔁" in message.text, what="the message to say who wants a rematch")
        await fake.wait_answer(fake.press_inline(creator, inline_id, again))
        matches = app.services.records

        async def rematch_begun() -> bool:
            for match_id in await matches.user_matches(ANNA.id):
                found, _ = await matches.get(match_id)
                if found.is_active and found.inline_message_id == inline_id:
                    return True
            return False

        await fake.wait_for(lambda: TURN in message.text and "🏆" not in message.text, what="the rematch's table")
        assert await rematch_begun()


async def posted_challenge(fake: FakeTelegram, creator: FakeUser, words: str = "") -> tuple[str, str]:
    """``@bot words`` in the friends' chat, the first result sent there: its inline message id and accept data."""
    query = fake.inline_query(creator, words, chat_type="private")
    results = (await fake.wait_inline(query))["results"]
    inline_id, posted = fake.choose_inline(creator, query, str(results[0]["id"]), FRIENDS)
    return inline_id, join_data(posted.reply_markup)


async def inline_match(app: App, inline_id: str) -> MatchRecord:
    """Anna's match whose table is the inline message ``inline_id``."""
    for match_id in await app.services.records.user_matches(ANNA.id):
        record, _ = await app.services.records.get(match_id)
        if record.inline_message_id == inline_id:
            return record
    raise AssertionError(f"no match of Anna's has the inline message {inline_id}")


async def accepted(fake: FakeTelegram, joiner: FakeUser, inline_id: str, data: str) -> None:
    answer = await fake.wait_answer(fake.press_inline(joiner, inline_id, data))
    assert not answer.get("text"), answer
    message = fake.inline_messages[inline_id]
    await fake.wait_for(lambda: panel_of(fake, ANNA) and panel_of(fake, BARTEK), what="both panels")
    await fake.wait_for(lambda: TURN in message.text, what="the inline message to become the table")


@pytest.mark.cluster
@pytest.mark.parametrize("feedback", [True, False], ids=["with-feedback", "without"])
async def test_a_challenge_nobody_accepts(fake: FakeTelegram, prefix: str, cleanup_redis: None, feedback: bool) -> None:
    """With inline feedback on (``chosen_inline_result``) the bot knows the posted message at once: at expiry it
    says so there, in the creator's language, its buttons gone. Without it the message keeps its buttons (the bot
    cannot know it); a press then says the challenge is gone. Either way nothing is sent to the friends' chat."""
    fake.inline_feedback = feedback
    async with running_bot(fake, prefix, challenge_ttl=2) as app:
        fake.absent.add(FRIENDS)
        for user in (ANNA, BARTEK):
            await start_bot(fake, user)
        tr = app.presenter.i18n["pl"]
        inline_id, data = await posted_challenge(fake, BARTEK)
        message = fake.inline_messages[inline_id]
        expired = tr("challenge-expired", creator="Bartek")
        if feedback:
            await fake.wait_for(lambda: message.text == expired, timeout=10, what="the expiry in the inline message")
            assert message.buttons() == []
        else:
            # Once the bot has let it go (past its 2 s), the message is as it was posted.
            challenge_id = data.split(":")[1]
            for _ in range(200):
                if await app.services.challenges.challenge(challenge_id) is None:
                    break
                await asyncio.sleep(0.05)
            assert await app.services.challenges.challenge(challenge_id) is None, "not expired within 10 s"
            assert message.buttons() and message.text != expired
        answer = await fake.wait_answer(fake.press_inline(ANNA, inline_id, data))
        assert answer["text"] == app.presenter.i18n["ru"]("toast-challenge-gone")
        assert panel_of(fake, ANNA) is None
        assert fake.calls_to(FRIENDS, ("sendMessage", "sendPhoto", "editMessageText")) == []


@pytest.mark.cluster
async def test_a_429_storm_then_the_message_deleted(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """Telegram answers 429 to the table's edits for a while: they are waited out and the table catches up with
    the match. Then the friends delete it (``MESSAGE_ID_INVALID`` to an edit): the match goes on in private and
    ends normally, each with their result there, and the gone message is tried once."""
    async with running_bot(fake, prefix) as app:
        fake.absent.add(FRIENDS)
        for user in (ANNA, BARTEK):
            await start_bot(fake, user)
        inline_id, data = await posted_challenge(fake, BARTEK)
        await accepted(fake, ANNA, inline_id, data)
        message = fake.inline_messages[inline_id]
        fake.method_429["editMessageText"] = 6
        await play(fake, (ANNA, BARTEK), random.Random(13), max_moves=8)
        await app.settled()
        assert fake.method_429["editMessageText"] == 0 and any(
            c.status == 429 and c.method == "editMessageText" for c in fake.calls
        )
        record = await inline_match(app, inline_id)
        shown = [c for c in fake.calls if c.params.get("inline_message_id") == inline_id and c.status == 200]
        assert shown and shown[-1].params["text"] == message.text
        assert record.version > 1 and TURN in message.text, "the table did not catch up after the 429s"

        del fake.inline_messages[inline_id]
        await play_to_end(fake, (ANNA, BARTEK), random.Random(12))
        await app.settled()
        for user in (ANNA, BARTEK):
            await fake.wait_for(
                lambda u=user: any("🏆" in m.text or "Поражение" in m.text or "Porażka" in m.text
                                   for m in fake.chat_messages(u.id)),
                what=f"{user.first_name}'s result in private",
            )  # fmt: skip
        refused = [c for c in fake.calls if c.method == "editMessageText" and "MESSAGE_ID_INVALID" in c.description]
        assert len(refused) == 1, "a gone message is tried once, then left alone"


@pytest.mark.cluster
async def test_kill_9_in_the_middle(
    fake: FakeTelegram, prefix: str, outside: Services, processes: list[BotProcess]
) -> None:
    """``python -m bot`` killed with SIGKILL in the middle of an inline match; the next process finishes it, and
    the inline message ends as its result."""
    env = bot_env(telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix)
    bot = await polling(env, processes)
    fake.absent.add(FRIENDS)
    for user in (ANNA, BARTEK):
        await start_bot(fake, user)
    inline_id, data = await posted_challenge(fake, ANNA)
    await accepted(fake, BARTEK, inline_id, data)
    await play(fake, (ANNA, BARTEK), random.Random(14), max_moves=6)
    await bot.kill()
    again = await polling(env, processes)
    await play_to_end(fake, (ANNA, BARTEK), random.Random(15))
    message = fake.inline_messages[inline_id]
    await fake.wait_for(lambda: "🏆" in message.text, what="the result in the inline message after the restart")
    assert fake.calls_to(FRIENDS, ("sendMessage", "sendPhoto")) == []
    assert await again.interrupt() == 0
    assert "Traceback" not in bot.output + again.output
