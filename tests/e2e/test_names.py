"""Names that cannot be declined, through the real bot: every command, the buttons and whole matches,
with players named Аня, Piotr, Player 2 and <b>&, in a Russian and in a Polish group.

``invariants.all_well`` fails on any text the bot sent (message, edit, toast,
button) that puts one of the users' names after «против», «от», «przeciwko»,
«od» or «dla»; the test also checks that the names did reach the texts it scanned.
"""

from __future__ import annotations

import random
from html import escape

import pytest

from bot.models import Lang
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import (
    BLOCKED,
    ask,
    button,
    challenge,
    new_match,
    panel_of,
    play,
    play_to_end,
    start_bot,
    surrender,
    surrender_question,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent

GROUP = -100777
ANYA = FakeUser(5001, "Аня", "anya_k", "ru")
PIOTR = FakeUser(5002, "Piotr", "piotr_n", "pl")
PLAYER2 = FakeUser(5003, "Player 2", "player_two", "ru")
MARKUP = FakeUser(5004, "<b>&", "markup_fan", "pl")
USERS = (ANYA, PIOTR, PLAYER2, MARKUP)


async def cancel(fake: FakeTelegram, user: FakeUser, message: Sent) -> None:
    """``/cancel`` in the group: the challenge's message turns into a line saying it was withdrawn."""
    fake.send_text(user, GROUP, "/cancel")
    await fake.wait_for(lambda: not message.buttons(), what="the challenge withdrawn")


def texts_sent(fake: FakeTelegram) -> str:
    return "\n".join(str(c.params.get("text", "")) for c in fake.calls if c.status == 200)


@pytest.mark.parametrize("lang", ["ru", "pl"])
async def test_every_command_and_button(fake: FakeTelegram, prefix: str, cleanup_redis: None, lang: Lang) -> None:
    """Challenges of every kind, two matches (one played out, one given up), the refusals, the stats, the
    settings: no name after a preposition anywhere, and every name shown escaped."""
    fake.admins[GROUP] = {ANYA.id}
    async with running_bot(fake, prefix) as app:
        await app.services.chats.update_settings(GROUP, lang=lang)
        for user in USERS:
            await start_bot(fake, user)
        for text in ("/help", "/rules", "/rules классика", "/rules atu", "/play chess", "/play @x", "/play @anya_k"):
            await ask(fake, ANYA, GROUP, text)
        await ask(fake, ANYA, ANYA.id, "/help")

        # Withdrawn by its button, cancelled by /cancel, then one by @mention and one in reply, accepted.
        open_call = await challenge(fake, PLAYER2, GROUP)
        answer = await fake.wait_answer(fake.press(PLAYER2, open_call, button(open_call, "w:")["callback_data"]))
        assert not answer.get("text")
        mention = await challenge(fake, MARKUP, GROUP, "@anya_k")
        await cancel(fake, MARKUP, mention)
        mention = await challenge(fake, MARKUP, GROUP, "@player_two")
        refused = await fake.wait_answer(fake.press(ANYA, mention, button(mention, "j:")["callback_data"]))
        assert refused.get("text")
        await cancel(fake, MARKUP, mention)
        hello = fake.send_text(PIOTR, GROUP, "hello")
        reply_call = await challenge(fake, ANYA, GROUP, "42", reply_to=hello)
        answer = await fake.wait_answer(fake.press(PIOTR, reply_call, button(reply_call, "j:")["callback_data"]))
        assert not answer.get("text")
        await fake.wait_for(lambda: panel_of(fake, ANYA) and panel_of(fake, PIOTR), what="both panels")
        await app.settled()

        # Presses the bot refuses: out of turn, a tile marked 🚫 (when one shows up), a stranger's press.
        rng = random.Random(11)
        await play(fake, (ANYA, PIOTR), rng, max_moves=20)
        for user in (ANYA, PIOTR):
            panel = panel_of(fake, user)
            if panel is not None:
                for b in panel.buttons():
                    if b["text"].startswith(BLOCKED) or "callback_data" in b:
                        await fake.wait_answer(fake.press(user, panel, b["callback_data"]))
                        await fake.wait_answer(fake.press(PLAYER2, panel, b["callback_data"]))
                        break
        await ask(fake, ANYA, ANYA.id, "/hand")
        await ask(fake, PIOTR, GROUP, "/hand")
        await app.settled()
        await play_to_end(fake, (ANYA, PIOTR), rng)
        await app.settled()

        # A second match, given up after the question is asked and kept once.
        match_id = await new_match(fake, PLAYER2, MARKUP, GROUP, "klasyczne")
        question = await surrender_question(fake, MARKUP, GROUP, match_id)
        keep = button(question, f"s:{match_id}:{MARKUP.id}:0")["callback_data"]
        await fake.wait_answer(fake.press(MARKUP, question, keep))
        await surrender(fake, MARKUP, GROUP, match_id)
        await app.settled()

        for text in ("/top", "/top all", "/stats", "/history", "/settings", "/lang"):
            await ask(fake, MARKUP if text == "/stats" else ANYA, GROUP, text)
        for user in (PLAYER2, MARKUP):
            await ask(fake, user, user.id, "/stats")
        menu = await ask(fake, ANYA, GROUP, "/settings")
        await fake.wait_answer(fake.press(ANYA, menu, "cfg:preset:bingo-domino"))
        await app.settled()

        sent = texts_sent(fake)
        for user in USERS:
            assert escape(user.first_name) in sent, f"{user.first_name} never shown"
        assert "<b>&" not in sent.replace("<b>&lt;", "")
        await invariants.all_well(fake)
