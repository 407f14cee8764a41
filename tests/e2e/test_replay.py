"""Replays over the fake Bot API: ``/replay`` in private, a match's button, ◀ ▶ ⏮ ⏭ editing one message, the
deep link from /history and the match's result, refusals that change nothing."""

from __future__ import annotations

import random

from bot import replays
from bot.app import App
from bot.codec import StoredDeal
from bot.i18n import Translator
from bot.models import MatchRecord, Status
from bot.render import last_trick_text
from bot.texts import tiles
from engine import Deal
from tests.e2e.conftest import running_bot
from tests.e2e.driver import ask, new_match, panel_of, play, start_bot, surrender
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.test_computer import PAUSE, play_the_computer

GROUP = -100930
ANN = FakeUser(9301, "Ann", "ann_replay", "ru")
BOB = FakeUser(9302, "Bob", "bob_replay", "pl")
REPLAY = "rp:"


def replay_buttons(sent: Sent) -> dict[str, str]:
    """A replay message's buttons: text -> callback data."""
    return {b["text"]: b["callback_data"] for b in sent.buttons() if b.get("callback_data", "").startswith(REPLAY)}


async def press(fake: FakeTelegram, user: FakeUser, sent: Sent, data: str) -> str:
    """Press a button and return the toast (empty: none)."""
    answer = await fake.wait_answer(fake.press(user, sent, data))
    return str(answer.get("text") or "")


async def new_message(fake: FakeTelegram, user: FakeUser, after: int) -> Sent:
    found: Sent = await fake.wait_for(
        lambda: next((m for m in fake.chat_messages(user.id) if m.message_id > after), None), what="a new message"
    )
    return found


async def edited(fake: FakeTelegram, sent: Sent, before: str) -> str:
    text: str = await fake.wait_for(lambda: sent.text != before and sent.text, what="the replay to be edited")
    return text


def first_step(record: MatchRecord) -> tuple[StoredDeal, int]:
    """The first deal and how many of its actions its first step plays, counted here from the engine alone: up
    to the first action after which nothing lies on the table, or that is not a play."""
    stored = record.log[0].d if record.log else record.deal
    assert stored is not None
    deal = stored.model_copy(update={"a": ""}).to_match().deal
    for count, text in enumerate(stored.a.split(), start=1):
        deal.play(text)
        if deal.view(None).lead is None or not text[:2].isdigit() or text.endswith("*"):
            return stored, count
    raise AssertionError("a deal without a step")


def at(stored: StoredDeal, count: int) -> Deal:
    return stored.model_copy(update={"a": " ".join(stored.a.split()[:count])}).to_match().deal


async def play_out(fake: FakeTelegram, app: App, user: FakeUser, target: int = 2) -> MatchRecord:
    """``/play bingo`` against the computer in private to ``target``, played to the end."""
    await start_bot(fake, user)
    await app.services.chats.update_settings(user.id, preset="bingo", target=target)
    fake.send_text(user, user.id, "/play")
    await fake.wait_for(lambda: panel_of(fake, user) is not None, what="the panel")
    match_id = await app.services.records.active_match(user.id, user.id)
    assert match_id is not None
    await play_the_computer(fake, app, match_id, user, random.Random(5))
    await app.settled()
    record, _ = await app.services.records.get(match_id)
    assert record.status is Status.FINISHED
    return record


async def test_replay_a_match_against_the_computer(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """The whole way: the result and /history link to the replay, /replay lists the match, its button opens
    the replay, ▶ shows the first trick as the engine plays it, ⏭ the next deal; the ends, forged buttons
    and a gone match get toasts and change nothing; the deep link opens it too."""
    async with running_bot(fake, prefix, computer_pause=PAUSE) as app:
        tr: Translator = app.presenter.i18n["ru"]
        record = await play_out(fake, app, ANN)
        url = replays.replay_url(app.presenter.bot_username, record.id)
        assert any(url in m.text for m in fake.chat_messages(ANN.id)), "the match's result links to its replay"
        history = await ask(fake, ANN, ANN.id, "/history")
        assert f'<a href="{url}">' in history.text

        listing = await ask(fake, ANN, ANN.id, "/replay")
        assert listing.text == tr("replay-list")
        button = next(b for b in listing.buttons() if b["callback_data"].startswith(REPLAY))
        assert len(button["text"]) <= replays.BUTTON_LIMIT and button["callback_data"].endswith(":o")
        after = listing.message_id
        assert not await press(fake, ANN, listing, button["callback_data"])
        shown = await new_message(fake, ANN, after)
        buttons = replay_buttons(shown)
        assert {"◀", "▶", "⏮", "⏭"} <= set(buttons)
        reel = replays.reel_of(record)
        dealt = reel[0].at(0)
        assert all(tiles(dealt.view(seat).hand) in shown.text for seat in (0, 1))

        # ◀ on the first step: a toast, no edit.
        edits = len(fake.calls_to(ANN.id, ("editMessageText",)))
        assert await press(fake, ANN, shown, buttons["◀"]) == tr("replay-at-start")
        assert len(fake.calls_to(ANN.id, ("editMessageText",))) == edits

        # ▶: the first trick (or the first action that is not a play), as the engine plays it.
        stored, count = first_step(record)
        before = shown.text
        assert not await press(fake, ANN, shown, buttons["▶"])
        text = await edited(fake, shown, before)
        step = at(stored, count)
        for seat in (0, 1):
            assert tiles(step.view(seat).hand) in text
        last = step.view(None).last_trick
        if last is not None:
            assert last_trick_text(tr, record, last) in text
        assert tr("replay-position", deal=1, deals=len(reel), step=1, steps=len(reel[0].steps) - 1) in text

        # ⏭: the next deal's start (a match of one deal: its end).
        buttons = replay_buttons(shown)
        assert not await press(fake, ANN, shown, buttons["⏭"])
        text = await edited(fake, shown, text)
        if len(reel) > 1:
            assert tr("replay-position", deal=2, deals=len(reel), step=0, steps=len(reel[1].steps) - 1) in text
            assert all(tiles(reel[1].at(0).view(seat).hand) in text for seat in (0, 1))
        else:
            steps = len(reel[0].steps) - 1
            assert tr("replay-position", deal=1, deals=1, step=steps, steps=steps) in text

        # Forged: toasts, the message as it was. A replay's button acts only on a replay of its own match.
        for data in (
            f"{REPLAY}{record.id}:0:999:n",
            f"{REPLAY}{record.id}:0:0:x",
            f"{REPLAY}NoSuchMatch1:0:0:n",
            f"{REPLAY}bad$id:0:0:n",
        ):
            assert await press(fake, ANN, shown, data) == tr("toast-bad-button")
        assert shown.text == text
        # On any other message of the bot's (the match's result in private), a replay's button edits nothing.
        result = next(m for m in fake.chat_messages(ANN.id) if url in m.text)
        kept = (result.text, result.reply_markup)
        assert await press(fake, ANN, result, f"{REPLAY}{record.id}:0:0:n") == tr("toast-bad-button")
        assert (result.text, result.reply_markup) == kept

        # The deep link (from /history or the result) opens the replay at its first step.
        opened = await ask(fake, ANN, ANN.id, f"/start r_{record.id}")
        assert opened.text == replays.replay_text(tr, record, reel, 0, 0) and replay_buttons(opened)


async def test_a_match_before_replays(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """A match whose log was kept without its deals: each such deal says what it lacks instead of failing."""
    async with running_bot(fake, prefix, computer_pause=PAUSE) as app:
        tr: Translator = app.presenter.i18n["pl"]
        # The deal is random: one deal can bring 4 game points (a close won with a bingo). Another match then.
        for _ in range(5):
            record = await play_out(fake, app, BOB, target=4)
            if len(record.log) >= 2:
                break
        assert len(record.log) >= 2, "five matches to 4 in a row each ended in one deal"
        # As an older bot wrote it (another write: another token, so no process takes it for the cached one).
        lines = tuple(line.model_copy(update={"d": None}) for line in record.log)
        old = record.model_copy(update={"log": lines, "rev": "older"})
        await app.redis.hset(app.services.stores.keys.match(record.id), "d", old.model_dump_json())
        opened = await ask(fake, BOB, BOB.id, f"/start r_{record.id}")
        assert tr("replay-not-kept", deal=1) in opened.text
        assert "✋" not in opened.text and replay_buttons(opened)
        # The last deal is still the record's own: it replays whole.
        last = len(record.log) - 1
        before = opened.text
        assert not await press(fake, BOB, opened, f"{REPLAY}{record.id}:{last - 1}:0:N")
        text = await edited(fake, opened, before)
        assert tr("replay-not-kept", deal=last + 1) not in text and "✋" in text


async def test_in_a_group_and_while_playing(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """/replay in a group says where replays are watched; a match still played is refused; once given up, its
    unfinished deal replays, and the group's result links to it."""
    async with running_bot(fake, prefix) as app:
        tr: Translator = app.presenter.i18n["ru"]
        await start_bot(fake, ANN)
        await start_bot(fake, BOB)
        match_id = await new_match(fake, ANN, BOB, GROUP)
        answer = await ask(fake, ANN, GROUP, "/replay")
        assert answer.text == tr("replay-private-only") and not answer.buttons()

        refused = await ask(fake, BOB, BOB.id, f"/start r_{match_id}")
        assert refused.text == app.presenter.i18n["pl"]("replay-active")

        await play(fake, (ANN, BOB), random.Random(3), max_moves=3)
        await surrender(fake, ANN, GROUP, match_id)
        await app.settled()
        url = replays.replay_url(app.presenter.bot_username, match_id)
        assert any(url in m.text for m in fake.chat_messages(GROUP)), "the group's result links to the replay"
        opened = await ask(fake, ANN, ANN.id, f"/start r_{match_id}")
        assert set(replay_buttons(opened)) == {"◀", "▶", "⏮", "⏭"}
