"""The post-mortem (🔎) after a match and the 💡 hints of a match against the computer, over the fake Bot API."""

from __future__ import annotations

import random

from bot.models import Status
from bot.review_text import move_text
from tests.e2e.conftest import running_bot
from tests.e2e.driver import (
    WAITING,
    button,
    challenge,
    held_panel,
    new_match,
    panel_of,
    play_to_end,
    playable,
    start_bot,
    version_of,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.test_computer import PAUSE, level_button

GROUP = -100930
ANN = FakeUser(9301, "Ann", "ann_review", "ru")
BOB = FakeUser(9302, "Bob", "bob_review", "pl")
HINT = "h:"


def post_mortems(fake: FakeTelegram, user: FakeUser) -> list[Sent]:
    return [m for m in fake.chat_messages(user.id) if m.text.startswith("🔎")]


def hint_button(panel: Sent) -> str | None:
    return next((b["callback_data"] for b in panel.buttons() if b.get("callback_data", "").startswith(HINT)), None)


async def turn_with_a_hint(fake: FakeTelegram, user: FakeUser) -> Sent:
    """The user's panel on a turn with a 💡: a turn with one legal move has none (nothing to advise), so such a
    move is made, as many times as the deal asks, until a turn with a choice comes."""
    for _ in range(30):
        found: Sent = await fake.wait_for(
            lambda: (p := held_panel(fake, user)) is not None and WAITING not in p.text and p,
            timeout=30, what=f"{user.first_name}'s turn",
        )  # fmt: skip
        if hint_button(found) is not None:
            return found
        [only] = playable(found)  # no 💡: exactly one move is legal
        before = version_of(found)
        answer = await fake.wait_answer(fake.press(user, found, only["callback_data"]))
        assert not answer.get("text"), answer
        await fake.wait_for(
            lambda shown=found, v=before: version_of(held_panel(fake, user) or shown) > v, what="the move applied"
        )
    raise AssertionError(f"no turn with a choice for {user.first_name} in 30 turns")


async def test_two_people_get_their_post_mortems(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """A match between two people ends: each gets one 🔎 message in their own language, the result's caption and
    its card carry both accuracies; their panels never had a 💡."""
    async with running_bot(fake, prefix, pictures=True, postmortems=True) as app:
        await app.services.chats.update_settings(GROUP, preset="bingo", target=2)
        for user in (ANN, BOB):
            await start_bot(fake, user)
        match_id = await new_match(fake, ANN, BOB, GROUP)
        seen_hint: list[str] = []

        async def no_hint() -> None:
            seen_hint.extend(h for u in (ANN, BOB) if (p := panel_of(fake, u)) and (h := hint_button(p)))

        await play_to_end(fake, (ANN, BOB), random.Random(3), after_move=no_hint)
        await app.settled()
        assert seen_hint == []
        record, _ = await app.services.records.get(match_id)
        assert record.status is Status.FINISHED
        ru, pl = app.presenter.i18n["ru"], app.presenter.i18n["pl"]
        [ann_review] = post_mortems(fake, ANN)
        [bob_review] = post_mortems(fake, BOB)
        head_ru = ru("review-head", accuracy=0, decisions=0).split("<b>")[1].split("</b>")[0]
        head_pl = pl("review-head", accuracy=0, decisions=0).split("<b>")[1].split("</b>")[0]
        assert head_ru in ann_review.text and head_pl in bob_review.text
        [result] = [m for m in fake.chat_messages(GROUP) if m.photo is not None]
        accuracy_word = ru("accuracy-line", list="").split(":")[0]
        assert accuracy_word in result.text and "Ann" in result.text.split(accuracy_word)[1]
        # A forged 💡 press in a match between two people: refused, nothing counted.
        forged = fake.press(ANN, ann_review, f"{HINT}{match_id}:{record.version}")
        assert (await fake.wait_answer(forged))["text"] == ru("hint-not-here")
        assert (await app.services.records.get(match_id))[0].hints == (0, 0)
        # Ann asks for a rematch: the result's caption says so and keeps the accuracy.
        answer = await fake.wait_answer(fake.press(ANN, result, f"rm:{match_id}"))
        assert answer["text"] == ru("toast-rematch-asked")
        await fake.wait_for(lambda: "🔁" in result.text, what="the caption to tell of the rematch")
        assert accuracy_word in result.text
        # A restart (a kick of the delivery) sends no second 🔎.
        app.delivery.kick(match_id)
        await app.settled()
        assert len(post_mortems(fake, ANN)) == 1 and len(post_mortems(fake, BOB)) == 1


async def test_post_mortems_off(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """With ``POSTMORTEMS=false`` a match between two people ends with its result and cards, without accuracy and
    without a 🔎 message; nothing waits for a review."""
    async with running_bot(fake, prefix, postmortems=False) as app:
        await app.services.chats.update_settings(GROUP, preset="bingo", target=1)
        for user in (ANN, BOB):
            await start_bot(fake, user)
        match_id = await new_match(fake, ANN, BOB, GROUP)
        await play_to_end(fake, (ANN, BOB), random.Random(4))
        await app.settled()
        record, _ = await app.services.records.get(match_id)
        assert record.status is Status.FINISHED and record.winner is not None
        ru = app.presenter.i18n["ru"]
        won = ru("match-won", name=record.players[record.winner].name, sw=0, sl=0).split(" ")[0]
        [result] = [m for m in fake.chat_messages(GROUP) if m.text.startswith(won)]
        assert ru("accuracy-line", list="").split(":")[0] not in result.text
        assert post_mortems(fake, ANN) == [] and post_mortems(fake, BOB) == []
        assert await app.services.stores.matches.screens_due() == []


async def test_hints_against_the_computer(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """Against the computer the panel has 💡: a press answers with a toast naming a legal move; a forged press
    (an old version) is refused and counts nothing; the count shows under the result."""
    async with running_bot(fake, prefix, computer_pause=PAUSE, pictures=True, postmortems=True) as app:
        tr = app.presenter.i18n["ru"]
        await app.services.chats.update_settings(GROUP, preset="bingo", target=1)
        await start_bot(fake, ANN)
        message = await challenge(fake, ANN, GROUP)
        answer = await fake.wait_answer(fake.press(ANN, message, level_button(message, "hard")))
        assert not answer.get("text")
        panel = await turn_with_a_hint(fake, ANN)
        assert WAITING not in panel.text
        data = hint_button(panel)
        assert data is not None and len(data.encode()) <= 64
        match_id = data.split(":")[1]
        record, match = await app.services.records.get(match_id)
        legal = {a.notation() for a in match.deal.view(record.seat_of(ANN.id)).legal}
        before = version_of(panel)
        toast = (await fake.wait_answer(fake.press(ANN, panel, data)))["text"]
        assert toast.startswith("💡") and len(toast) <= 200
        # It names one of the legal moves, as the bot words a move (a tile, a close, a take: whatever the deal
        # dealt makes the hard level prefer).
        assert any(toast.startswith(f"💡 {move_text(tr, notation)} — ") for notation in legal), toast
        await fake.wait_for(lambda: version_of(held_panel(fake, ANN) or panel) > before, what="the panel's new version")
        # The same button again is stale now: refused, nothing counted.
        refused = (await fake.wait_answer(fake.press(ANN, panel, data)))["text"]
        assert refused == tr("hint-not-now")
        # A forged press for a version that never was.
        forged = (await fake.wait_answer(fake.press(ANN, panel, f"{HINT}{match_id}:99999")))["text"]
        assert forged == tr("hint-not-now")
        record, _ = await app.services.records.get(match_id)
        assert record.hints[record.seat_of(ANN.id) or 0] == 1
        app.presenter.show(await app.services.moves.surrender(match_id, ANN.id))
        await app.settled()
        [card] = [m for m in fake.chat_messages(GROUP) if m.photo is not None]
        assert tr("hints-of", name="Ann", n=1) in card.text
        assert button(card, "rm:")
