"""Forum supergroups: the fake Bot API's topics as Telegram has them, and matches that live in a topic."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from aiohttp import ClientSession, FormData

from bot.i18n import I18n
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import TURN, ask, challenge, new_match, newest_id, play, play_to_end, reply_in, start_bot
from tests.e2e.fake_telegram import SENT_OR_EDITED, Call, FakeTelegram, FakeUser

GROUP = -100777
PLAIN_GROUP = -100778
TOPIC = 77
ANN = FakeUser(7701, "Ann", "ann_forum", "ru")
BOB = FakeUser(7702, "Bob", "bob_forum", "ru")
CARL = FakeUser(7703, "Carl", "carl_forum", "ru")
"""Who created the topic."""
TR = I18n()["ru"]


async def api(fake: FakeTelegram, method: str, **params: Any) -> tuple[int, dict[str, Any]]:
    """Call the fake as a bot would (a form, nested objects as JSON); its status and answer."""
    form = {k: json.dumps(v) if isinstance(v, dict | list) else str(v) for k, v in params.items()}
    async with ClientSession() as session, session.post(f"{fake.base}/bot123456:TEST-token/{method}", data=form) as r:
        return r.status, await r.json()


def forum(fake: FakeTelegram) -> None:
    """GROUP is a forum with Carl's topic ``TOPIC``."""
    fake.make_forum(GROUP)
    fake.open_topic(CARL, GROUP, "Домино", TOPIC)


class TestFakeForums:
    """The fake keeps forum chats and topics as Telegram does, and refuses what Telegram refuses."""

    async def test_chat_and_users_messages(self, fake: FakeTelegram) -> None:
        """A forum says so; a message in a topic is a reply to the topic's creation message; a reply in General
        has a thread of replies but is no topic message."""
        forum(fake)
        created = fake.updates[-1]["message"]
        assert created["message_id"] == created["message_thread_id"] == TOPIC
        assert created["forum_topic_created"]["name"] == "Домино"
        assert (await api(fake, "getChat", chat_id=GROUP))[1]["result"]["is_forum"] is True
        assert "is_forum" not in (await api(fake, "getChat", chat_id=PLAIN_GROUP))[1]["result"]
        in_topic = fake.send_text(ANN, GROUP, "/play", topic=TOPIC)
        assert (in_topic["message_thread_id"], in_topic["is_topic_message"]) == (TOPIC, True)
        assert in_topic["reply_to_message"] == created
        general = fake.send_text(BOB, GROUP, "hi")
        assert "message_thread_id" not in general and "reply_to_message" not in general
        reply = fake.send_text(ANN, GROUP, "/play", reply_to=general)
        assert reply["message_thread_id"] == general["message_id"] and "is_topic_message" not in reply

    async def test_sends_into_topics(self, fake: FakeTelegram) -> None:
        """A send with the topic's id goes there (recorded on the message and the call); without one, to General;
        a reply without one, to the topic of the message it replies to."""
        forum(fake)
        status, answer = await api(fake, "sendMessage", chat_id=GROUP, text="x", message_thread_id=TOPIC)
        assert status == 200 and answer["result"]["message_thread_id"] == TOPIC
        assert answer["result"]["is_topic_message"] is True
        assert fake.calls[-1].thread == TOPIC and fake.messages[(GROUP, answer["result"]["message_id"])].thread == TOPIC
        status, answer = await api(fake, "sendMessage", chat_id=GROUP, text="y")
        assert status == 200 and "message_thread_id" not in answer["result"] and fake.calls[-1].thread is None
        asked = fake.send_text(ANN, GROUP, "/help", topic=TOPIC)
        reply = {"message_id": asked["message_id"]}
        status, answer = await api(fake, "sendMessage", chat_id=GROUP, text="z", reply_parameters=reply)
        assert status == 200 and answer["result"]["message_thread_id"] == TOPIC

    @pytest.mark.parametrize("method", ["sendMessage", "sendPhoto"])
    async def test_refusals(self, fake: FakeTelegram, method: str) -> None:
        """No such topic (or no forum): "message thread not found"; a closed topic, or a closed General without a
        topic: TOPIC_CLOSED, unless the bot is an admin; reopened, it takes messages again."""
        forum(fake)
        png = b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR" + (4).to_bytes(4, "big") * 2 + b"\0" * 8
        content = {"text": "x"} if method == "sendMessage" else {"caption": "x"}

        async def send(chat: int, **params: Any) -> tuple[int, str]:
            if method == "sendPhoto":
                form = FormData({"chat_id": str(chat), **{k: str(v) for k, v in params.items()}})
                form.add_field("photo", png, filename="picture.png")
                url = f"{fake.base}/bot123456:TEST-token/sendPhoto"
                async with ClientSession() as session, session.post(url, data=form) as r:
                    answer = await r.json()
                    return r.status, answer.get("description", "")
            status, answer = await api(fake, method, chat_id=chat, **params, **content)
            return status, answer.get("description", "")

        assert await send(GROUP, message_thread_id=78) == (400, "Bad Request: message thread not found")
        assert await send(PLAIN_GROUP, message_thread_id=TOPIC) == (400, "Bad Request: message thread not found")
        fake.close_topic(CARL, GROUP, TOPIC)
        assert await send(GROUP, message_thread_id=TOPIC) == (400, "Bad Request: TOPIC_CLOSED")
        assert (await send(GROUP))[0] == 200
        fake.close_general(GROUP)
        assert await send(GROUP) == (400, "Bad Request: TOPIC_CLOSED")
        fake.admins[GROUP] = {123456}  # the bot, an admin: Telegram lets it write in closed topics
        assert (await send(GROUP, message_thread_id=TOPIC))[0] == 200
        assert (await send(GROUP))[0] == 200
        fake.admins[GROUP] = set()
        fake.close_topic(CARL, GROUP, TOPIC, closed=False)
        assert (await send(GROUP, message_thread_id=TOPIC))[0] == 200

    async def test_edits_in_closed_and_deleted_topics(self, fake: FakeTelegram) -> None:
        """A message of a closed topic can still be edited (closing stops new messages only); a deleted topic takes
        its messages with it."""
        forum(fake)
        _, answer = await api(fake, "sendMessage", chat_id=GROUP, text="x", message_thread_id=TOPIC)
        message_id = answer["result"]["message_id"]
        fake.close_topic(CARL, GROUP, TOPIC)
        closed = fake.updates[-1]["message"]
        assert "forum_topic_closed" in closed and closed["message_thread_id"] == TOPIC
        status, answer = await api(fake, "editMessageText", chat_id=GROUP, message_id=message_id, text="y")
        assert status == 200 and answer["result"]["message_thread_id"] == TOPIC
        fake.delete_topic(GROUP, TOPIC)
        assert fake.chat_messages(GROUP) == []
        status, answer = await api(fake, "editMessageText", chat_id=GROUP, message_id=message_id, text="z")
        assert (status, answer["description"]) == (400, "Bad Request: message to edit not found")
        status, answer = await api(fake, "sendMessage", chat_id=GROUP, text="x", message_thread_id=TOPIC)
        assert (status, answer["description"]) == (400, "Bad Request: message thread not found")


def group_calls(fake: FakeTelegram) -> list[Call]:
    """The bot's calls that put something in the group or changed it (an edit to what a message shows already,
    answered "message is not modified", changed nothing)."""
    return [
        c
        for c in fake.calls
        if c.method in SENT_OR_EDITED
        and str(c.params.get("chat_id")) == str(GROUP)
        and "not modified" not in c.description
    ]


def in_topic(call: Call, thread: int | None) -> bool:
    """The call succeeded on a message in ``thread``, and a send named it (an edit names none: Telegram's
    editMessageText takes no topic, the message is where it is)."""
    named = call.params.get("message_thread_id")
    sent = call.method.startswith("send")
    return call.status == 200 and call.thread == thread and (named == (str(thread) if sent and thread else None))


async def ask_in_topic(fake: FakeTelegram, user: FakeUser, text: str) -> Any:
    """The user writes ``text`` in the topic; the bot's first message after it."""
    after = newest_id(fake, GROUP)
    fake.send_text(user, GROUP, text, topic=TOPIC)
    return await reply_in(fake, GROUP, after, f"an answer to {text}")


async def players_started(fake: FakeTelegram) -> None:
    forum(fake)
    for user in (ANN, BOB):
        await start_bot(fake, user)


class TestMatchInATopic:
    """A match challenged in a topic lives there; a closed or deleted topic sends it to General, once."""

    async def test_whole_match(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Every group call of the match, from the challenge to the card, is in the topic; so are the answers to
        commands written there."""
        async with running_bot(fake, prefix, pictures=True) as app:
            await players_started(fake)
            first = await new_match(fake, ANN, BOB, GROUP, topic=TOPIC)
            assert (await ask_in_topic(fake, ANN, "/play")).thread == TOPIC  # already playing: said there
            await play_to_end(fake, (ANN, BOB), random.Random(7))
            await app.settled()
            assert (await ask_in_topic(fake, BOB, "/top")).thread == TOPIC
            # Both press 🔁 under the result: it says so, and the rematch lives in the topic too.
            (result,) = [m for m in fake.chat_messages(GROUP) if any(b["callback_data"] == f"rm:{first}"
                                                                    for b in m.buttons())]  # fmt: skip
            for user in (ANN, BOB):
                await fake.wait_answer(fake.press(user, result, f"rm:{first}"))
            await fake.wait_for(
                lambda: any(TURN in m.text for m in fake.chat_messages(GROUP) if m.message_id > result.message_id),
                what="the rematch's table",
            )
            await app.settled()
            second = await app.services.records.active_match(GROUP, ANN.id)
            assert second not in (None, first) and result.text.endswith(TR("rematch-started"))
            calls = group_calls(fake)
            assert any(c.method == "sendPhoto" for c in calls), "no match card"
            assert [c for c in calls if not in_topic(c, TOPIC)] == []
            assert (await ask(fake, BOB, GROUP, "/top")).thread is None  # written in General, answered there
            await invariants.all_well(fake)

    async def test_play_in_a_topic_is_for_anyone(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """``/play`` in a topic is an open challenge, also from the topic's creator; a reply to a person's message
        there still challenges that person; ``/cancel`` there takes back the writer's own challenge."""
        async with running_bot(fake, prefix):
            forum(fake)
            anyone = TR("challenge-anyone", creator="Carl", game=TR("preset-bingo"), target=8)
            carl = await challenge(fake, CARL, GROUP, topic=TOPIC)
            assert carl.text.startswith(anyone) and carl.thread == TOPIC
            ann = await challenge(fake, ANN, GROUP, topic=TOPIC)
            assert ann.text.startswith(anyone.replace("Carl", "Ann"))
            said = fake.send_text(CARL, GROUP, "who plays?", topic=TOPIC)
            bob = await challenge(fake, BOB, GROUP, reply_to=said, topic=TOPIC)
            assert not bob.text.startswith(anyone.replace("Carl", "Bob")) and "Carl" in bob.text
            fake.send_text(ANN, GROUP, "/cancel", topic=TOPIC)
            await fake.wait_for(lambda: not ann.buttons(), what="Ann's challenge to close")
            assert carl.buttons() and bob.buttons()

    @pytest.mark.parametrize("how", ["closed", "deleted"])
    async def test_topic_gone_mid_match(self, fake: FakeTelegram, prefix: str, cleanup_redis: None, how: str) -> None:
        """The topic is closed (or deleted) mid-match: the next group message finds it out, goes to General with
        all that follow, and the match finishes."""
        async with running_bot(fake, prefix, pictures=True) as app:
            await players_started(fake)
            match_id = await new_match(fake, ANN, BOB, GROUP, topic=TOPIC)
            rng = random.Random(5)
            await play(fake, (ANN, BOB), rng, max_moves=3)
            await fake.quiet()
            before = len(group_calls(fake))
            if how == "closed":
                fake.close_topic(CARL, GROUP, TOPIC)
            else:
                fake.delete_topic(GROUP, TOPIC)
            await play_to_end(fake, (ANN, BOB), rng)
            await app.settled()
            record, _ = await app.services.records.get(match_id)
            assert not record.is_active and record.winner is not None
            assert (await app.services.stores.matches.messages(match_id)).general
            after = group_calls(fake)[before:]
            refused = [c for c in after if c.status == 400 and c.method.startswith("send")]
            assert len(refused) == 1 and refused[0].params.get("message_thread_id") == str(TOPIC)
            sends = [c for c in after if c.method.startswith("send") and c.status == 200]
            assert sends and all(in_topic(c, None) for c in sends)
            assert sends[-1].method == "sendPhoto"  # the card, in General
            edits = [c for c in after if c.method.startswith("edit") and c.status == 200]
            # A closed topic's table is still edited where it is (a deleted one's is gone, with its messages).
            assert all(c.thread == fake.messages[(GROUP, int(c.params["message_id"]))].thread for c in edits)
