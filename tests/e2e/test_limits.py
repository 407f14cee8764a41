"""Telegram's limits and quirks: 429 with retry_after, "message is not modified", command menus."""

from __future__ import annotations

import random

from bot import render
from bot.app import GROUP_COMMANDS, PRIVATE_COMMANDS
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import (
    ask,
    button,
    challenge,
    new_match,
    newest_id,
    panel_of,
    play,
    playable,
    reply_in,
    start_bot,
)
from tests.e2e.fake_telegram import SENT_OR_EDITED, FakeTelegram, FakeUser

GROUP = -100500
ANN = FakeUser(1001, "Ann", "ann", "ru")
BOB = FakeUser(1002, "Bob", "bob", "ru")


class TestRetryAfter:
    """A 429 is waited out for its ``retry_after`` and the message still arrives."""

    async def test_send_is_retried(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Two 429s in a row delay the challenge by two ``retry_after`` and then it is sent once."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            fake.retry_after = 1
            fake.fail_with_429 = 2
            message = await challenge(fake, ANN, GROUP)
            assert message.text.startswith(tr("challenge-anyone", creator="Ann", game=tr("preset-bingo"), target=8))
            sends = [c for c in fake.calls if c.method == "sendMessage" and c.params["chat_id"] == str(GROUP)]
            assert [c.status for c in sends] == [429, 429, 200]
            assert sends[1].at - sends[0].at >= fake.retry_after
            assert sends[2].at - sends[1].at >= fake.retry_after
            assert len(fake.chat_messages(GROUP)) == 1
            await invariants.all_well(fake)

    async def test_match_goes_on(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """429s in the middle of a match delay its messages but lose none: the table and panels end up current."""
        async with running_bot(fake, prefix) as app:
            await start_bot(fake, ANN)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            rng = random.Random(4)
            await play(fake, (ANN, BOB), rng, max_moves=3)
            fake.retry_after = 1
            fake.fail_with_429 = 2
            playout = await play(fake, (ANN, BOB), rng, max_moves=3)
            assert playout.moves == 3
            await app.settled()
            assert [c.status for c in fake.calls].count(429) == 2
            record, match = await app.services.records.get(match_id)
            table = (await app.services.stores.matches.messages(match_id)).table
            assert table is not None
            tr = app.presenter.i18n["ru"]
            assert fake.messages[(GROUP, table)].text == render.table_text(tr, record, match.deal.view(None))
            referee = invariants.Referee(fake, app, GROUP, (ANN, BOB))
            await referee.check()
            await invariants.all_well(fake)

    async def test_callback_answer_is_retried(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A 429 on a press's answer: the answer is sent again after ``retry_after``, and the move counts once
        (before, the press's spinner never stopped)."""
        async with running_bot(fake, prefix):
            await start_bot(fake, ANN)
            await new_match(fake, ANN, BOB, GROUP)
            fake.retry_after = 1
            fake.method_429 = {"answerCallbackQuery": 1}
            playout = await play(fake, (ANN, BOB), random.Random(5), max_moves=1)
            assert playout.moves == 1 and playout.refused == []
            answers = [c for c in fake.calls if c.method == "answerCallbackQuery"]
            assert [c.status for c in answers] == [429, 200]
            assert answers[1].at - answers[0].at >= fake.retry_after
            await invariants.all_well(fake)


class TestCommandReplies:
    """Command replies share the group's one budget, and a 429 on one is waited out."""

    async def test_a_burst_of_commands(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """30 commands at once in a group from six members (five each, as many as one member gets answered in a
        window): 30 replies, never more than the budget in a window."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            members = [FakeUser(1100 + i, f"M{i}", f"member{i}", "ru") for i in range(6)]
            for _ in range(5):
                for member in members:
                    fake.send_text(member, GROUP, "/help")
            await fake.wait_for(
                lambda: sum(m.text == tr("help-text") for m in fake.chat_messages(GROUP)) == 30,
                timeout=30,
                what="30 replies",
            )
            invariants.within_group_budget(fake, GROUP)
            await invariants.all_well(fake)

    async def test_one_members_flood(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """One member's 30 commands at once: five replies and one notice in the group's language, naming them;
        another member is answered as before."""
        async with running_bot(fake, prefix, command_window=60.0, command_limit=5) as app:
            tr = app.presenter.i18n["ru"]
            for _ in range(30):
                fake.send_text(ANN, GROUP, "/help")
            notice = tr("flood-notice", name="Ann")
            await fake.wait_for(lambda: any(m.text == notice for m in fake.chat_messages(GROUP)), what="the notice")
            reply = await ask(fake, BOB, GROUP, "/help")
            assert reply.text == tr("help-text")
            await fake.quiet()
            texts = [m.text for m in fake.chat_messages(GROUP)]
            assert texts.count(tr("help-text")) == 6 and texts.count(notice) == 1
            await invariants.all_well(fake)

    async def test_one_members_useless_presses(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A member who is not playing presses 60 buttons during a match (a player's move on the table, the
        taken challenge's button, junk): each gets a toast at once, and the group gets no message or edit."""
        carl = FakeUser(1003, "Carl", "carl", "ru")
        async with running_bot(fake, prefix) as app:
            await start_bot(fake, ANN)
            await new_match(fake, ANN, BOB, GROUP)
            await app.settled()
            challenge_message, *_, table = fake.chat_messages(GROUP)
            panel = panel_of(fake, ANN)
            assert panel is not None
            move = playable(panel)[0]["callback_data"]
            first_keyboard = challenge_message.markups[0] or {}
            join = [b["callback_data"] for row in first_keyboard.get("inline_keyboard", []) for b in row
                    if b.get("callback_data", "").startswith("j:")]  # fmt: skip
            assert join, "the challenge had its join button"
            presses = [(table, move), (table, "zz"), (challenge_message, join[0])]
            group_calls = (*SENT_OR_EDITED, "deleteMessage")
            before = len(fake.calls_to(GROUP, group_calls))
            queries = [fake.press(carl, sent, data) for _ in range(20) for sent, data in presses]
            answers = [await fake.wait_answer(query) for query in queries]
            assert all(answer.get("text") for answer in answers)
            await app.settled()
            assert len(fake.calls_to(GROUP, group_calls)) == before
            playout = await play(fake, (ANN, BOB), random.Random(2), max_moves=2)
            assert playout.moves == 2
            await invariants.all_well(fake)

    async def test_429_on_a_reply(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Two 429s on a command's reply: it arrives once, after waiting ``retry_after`` twice."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            fake.retry_after = 1
            fake.fail_with_429 = 2
            reply = await ask(fake, ANN, GROUP, "/help")
            assert reply.text == tr("help-text")
            sends = [c for c in fake.calls if c.method == "sendMessage" and c.params["chat_id"] == str(GROUP)]
            assert [c.status for c in sends] == [429, 429, 200]
            assert sends[2].at - sends[0].at >= 2 * fake.retry_after


class TestNotModified:
    """An edit that changes nothing (Telegram's 400 "message is not modified") breaks nothing."""

    async def test_keep_playing_twice(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A second "keep playing" repeats an identical edit; both presses are answered and the match goes on."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, ANN)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            after = newest_id(fake, GROUP)
            fake.send_text(ANN, GROUP, "/surrender")
            confirm = await reply_in(fake, GROUP, after, "the confirmation")
            keep = button(confirm, f"s:{match_id}:{ANN.id}:0")["callback_data"]

            def edits() -> list[int]:
                return [
                    c.status
                    for c in fake.calls
                    if c.method == "editMessageText" and c.params["message_id"] == str(confirm.message_id)
                ]

            for presses in (1, 2):
                answer = await fake.wait_answer(fake.press(ANN, confirm, keep))
                assert answer["text"] == tr("surrender-kept")
                # The press is answered first, the message edited after: wait for the edit itself.
                await fake.wait_for(lambda n=presses: len(edits()) == n, what="the edit")
                await app.settled()
            assert edits() == [200, 400]
            assert confirm.text == tr("surrender-kept")
            playout = await play(fake, (ANN, BOB), random.Random(1), max_moves=2)
            assert playout.moves == 2
            await invariants.all_well(fake)

    async def test_language_button_twice(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A second press of the same language answers once more, like the first, and raises nothing."""
        fake.admins[GROUP] = {ANN.id}
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["pl"]
            after = newest_id(fake, GROUP)
            fake.send_text(ANN, GROUP, "/lang")
            menu = await reply_in(fake, GROUP, after, "the language menu")
            data = button(menu, "l:pl")["callback_data"]
            for _ in range(2):
                answer = await fake.wait_answer(fake.press(ANN, menu, data))
                assert answer["text"] == tr("lang-set")
            await fake.wait_for(lambda: len(fake.pressed) == 2 and menu.text == tr("lang-set"), what="the menu")
            assert (await app.services.chats.settings(GROUP)).lang == "pl"
            await invariants.all_well(fake)


class TestCommands:
    """The command menus are set for groups and private chats, in Russian and Polish."""

    async def test_menus(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Each scope and language gets its commands, described in that language."""
        async with running_bot(fake, prefix) as app:
            menus = {(c["scope"]["type"], c.get("language_code")): c["commands"] for c in fake.commands}
            for scope, names in (("all_group_chats", GROUP_COMMANDS), ("all_private_chats", PRIVATE_COMMANDS)):
                for lang in ("ru", "pl"):
                    tr = app.presenter.i18n[lang]
                    # In private, /play is a match against the computer.
                    key = {"play": "cmd-play-computer"} if names is PRIVATE_COMMANDS else {}
                    expected = [{"command": n, "description": tr(key.get(n, f"cmd-{n}"))} for n in names]
                    assert menus[(scope, lang)] == expected
            assert {scope for scope, _ in menus} == {"all_group_chats", "all_private_chats"}
