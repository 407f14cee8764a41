"""Each player reads their own language in private (panels, toasts, the card, the rating change); the group
reads the group's."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from tests.e2e.conftest import running_bot
from tests.e2e.driver import move_data, new_match, newest_id, panel_of, play, play_to_end, reply_in, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser

GROUP = -100880
ANN = FakeUser(8801, "Ann", "ann_lang", "ru")
BOB = FakeUser(8802, "Bob", "bob_lang", "pl")
"""Telegram in Polish, in a Russian group."""
CYRIL = FakeUser(8803, "Cyril", "cyril_lang", "en")
"""Telegram in English: he chose Polish with /lang in private."""
CYRILLIC = re.compile("[А-Яа-яЁё]")
POLISH = re.compile("[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]")


def words(value: Any) -> list[str]:
    """Every string in a call's parameter (a keyboard's button texts too; aiogram sends it as JSON)."""
    if isinstance(value, str):
        try:
            decoded = json.loads(value)
        except ValueError:
            return [value]
        return words(decoded) if isinstance(decoded, dict | list) else [value]
    if isinstance(value, dict):
        return [w for k, v in value.items() if k in ("text", "inline_keyboard") for w in words(v)]
    if isinstance(value, list):
        return [w for v in value for w in words(v)]
    return []


def private_words(fake: FakeTelegram, user: FakeUser, since: int = 0) -> list[str]:
    """Everything the bot wrote in the user's private chat (from call ``since`` on): texts, captions, buttons."""
    calls = fake.calls_to(user.id, ("sendMessage", "sendPhoto", "editMessageText", "editMessageReplyMarkup"))
    calls = [c for c in calls if fake.calls.index(c) >= since]
    return [w for c in calls for key in ("text", "caption", "reply_markup") for w in words(c.params.get(key))]


async def test_a_polish_player_in_a_russian_group(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """Bob's Telegram is Polish, the group is Russian: his panels, toasts and card are Polish, Ann's and the
    group's Russian."""
    async with running_bot(fake, prefix) as app:
        await app.services.chats.update_settings(GROUP, lang="ru", target=2)
        for user in (ANN, BOB):
            await start_bot(fake, user)
        await new_match(fake, ANN, BOB, GROUP)
        first = panel_of(fake, BOB)
        assert first is not None
        stale = next(b["callback_data"] for b in first.buttons() if move_data(b))
        # One move (a target of 2 can be reached in one trick: two moves could end the match).
        await play(fake, (ANN, BOB), random.Random(5), max_moves=1)
        # A button of his first panel, pressed on his newest one: outdated, and he is told so in Polish.
        panel = panel_of(fake, BOB)
        assert panel is not None
        toast = (await fake.wait_answer(fake.press(BOB, panel, stale))).get("text", "")
        assert toast and not CYRILLIC.search(toast)
        await play_to_end(fake, (ANN, BOB), random.Random(6))
        await app.settled()
        bob = private_words(fake, BOB)
        assert bob and [w for w in bob if CYRILLIC.search(w)] == []
        assert any(POLISH.search(w) for w in bob)
        ann = private_words(fake, ANN)
        assert any(CYRILLIC.search(w) for w in ann) and not any(POLISH.search(w) for w in ann)
        group = [w for c in fake.calls_to(GROUP) for w in words(c.params.get("text") or c.params.get("caption"))]
        assert any(CYRILLIC.search(w) for w in group) and not any(POLISH.search(w) for w in group)


async def test_own_choice_first(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """Cyril's Telegram is English (he would read the group's Russian), but he chose Polish with /lang in
    private: his panel is Polish."""
    async with running_bot(fake, prefix) as app:
        await app.services.chats.update_settings(GROUP, lang="ru")
        for user in (ANN, CYRIL):
            await start_bot(fake, user)
        after = newest_id(fake, CYRIL.id)
        fake.send_text(CYRIL, CYRIL.id, "/lang")
        menu = await reply_in(fake, CYRIL.id, after, "the language menu")
        assert not (await fake.wait_answer(fake.press(CYRIL, menu, "l:pl"))).get("text", "").startswith("⚠")
        chosen = len(fake.calls)
        await new_match(fake, ANN, CYRIL, GROUP)
        cyril = private_words(fake, CYRIL, chosen)
        assert cyril and not [w for w in cyril if CYRILLIC.search(w)]
        assert any(CYRILLIC.search(w) for w in private_words(fake, ANN))
        record_id = await app.services.records.active_match(GROUP, ANN.id)
        assert record_id is not None
        record, _ = await app.services.records.get(record_id)
        assert [p.lang for p in record.players] == ["ru", "pl"]
