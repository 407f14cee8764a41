"""The rematch button: under a finished match's result in the group and on each player's last panel."""

from __future__ import annotations

import hashlib
import logging
import random
from typing import Any

import pytest

from bot.models import Status, pick_lang
from tests.e2e.conftest import running_bot
from tests.e2e.driver import challenge, move_data, new_match, panel_of, play_to_end, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.simclock import SimClock

GROUP = -100890
ANN = FakeUser(8901, "Ann", "ann_rematch", "ru")
BOB = FakeUser(8902, "Bob", "bob_rematch", "pl")
CARL = FakeUser(8903, "Carl", "carl_rematch", "ru")
REMATCH = "rm:"


def rematch_button(sent: Sent) -> str | None:
    return next((b["callback_data"] for b in sent.buttons() if b.get("callback_data", "").startswith(REMATCH)), None)


def result_of(fake: FakeTelegram, match_id: str) -> Sent:
    """The group's message that carries the match's rematch button (its result)."""
    found = [m for m in fake.chat_messages(GROUP) if rematch_button(m) == f"{REMATCH}{match_id}"]
    assert len(found) == 1, f"{len(found)} results with the rematch button of {match_id}"
    return found[0]


def last_panel(fake: FakeTelegram, user: FakeUser) -> Sent:
    """The user's newest private message with a rematch button (their last panel)."""
    found = [m for m in fake.chat_messages(user.id) if rematch_button(m)]
    assert found, f"{user.first_name} has no panel with the rematch button"
    return found[-1]


async def test_both_press_and_play_again(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """A match ends; Ann presses 🔁 under the result, the result says she wants a rematch; Bob presses it on his
    last panel and the next match begins at once, same game, target and clock, the other player opening; it is
    played to its end and offers a rematch of its own."""
    async with running_bot(fake, prefix) as app:
        tr = app.presenter.i18n["ru"]
        await app.services.chats.update_settings(GROUP, preset="bingo-classic", target=2, turn_timeout=600)
        for user in (ANN, BOB, CARL):
            await start_bot(fake, user)
        first_id = await new_match(fake, ANN, BOB, GROUP)
        await play_to_end(fake, (ANN, BOB), random.Random(1))
        await app.settled()
        first, first_match = await app.services.records.get(first_id)
        assert first.status is Status.FINISHED and first.opener is not None
        # Settings changed since: a rematch is the same match again, not the group's new default.
        await app.services.chats.update_settings(GROUP, preset="42", turn_timeout=0)
        result = result_of(fake, first_id)
        assert rematch_button(last_panel(fake, BOB)) == f"{REMATCH}{first_id}"

        # Carl did not play it: refused, nothing changes.
        answer = await fake.wait_answer(fake.press(CARL, result, f"{REMATCH}{first_id}"))
        assert answer["text"] == tr("toast-not-player")
        answer = await fake.wait_answer(fake.press(ANN, result, f"{REMATCH}{first_id}"))
        assert answer["text"] == tr("toast-rematch-asked")
        asked = tr("rematch-asked", name="Ann", other="Bob")
        await fake.wait_for(lambda: result.text.endswith(asked), what="the result to say Ann wants a rematch")
        assert rematch_button(result) == f"{REMATCH}{first_id}"
        again = await fake.wait_answer(fake.press(ANN, result, f"{REMATCH}{first_id}"))
        assert again["text"] == tr("toast-rematch-waiting")
        assert await app.services.records.active_match(GROUP, ANN.id) is None

        panels_before = {u.id: panel_of(fake, u) for u in (ANN, BOB)}
        answer = await fake.wait_answer(fake.press(BOB, last_panel(fake, BOB), f"{REMATCH}{first_id}"))
        assert not answer.get("text")
        second_id = await app.services.records.active_match(GROUP, ANN.id)
        assert second_id is not None and second_id != first_id
        second, second_match = await app.services.records.get(second_id)
        assert second_match.rules.name == first_match.rules.name == "bingo-classic"
        assert second_match.deal.target == first_match.deal.target == 2
        assert second.turn_timeout == first.turn_timeout == 600
        # Who did not open the first match opens this one.
        assert second.players[second.opener or 0].id != first.players[first.opener].id
        started = tr("rematch-started")
        await fake.wait_for(lambda: result.text.endswith(started), what="the result to say the rematch began")
        assert rematch_button(result) is None
        await fake.wait_for(
            lambda: all(panel_of(fake, u) not in (None, panels_before[u.id]) for u in (ANN, BOB)),
            what="the new panels",
        )
        # Its key was drawn when Ann's press opened the rematch: the new match's first panels commit to it.
        assert second.fair is not None and second.fair != first.fair
        committed = hashlib.sha256(bytes.fromhex(second.fair.key)).hexdigest()
        for user in (ANN, BOB):
            new_panel = panel_of(fake, user)
            assert new_panel is not None and f"<code>{committed}</code>" in new_panel.history[0]
            assert second.fair.key not in new_panel.history[0]
        await play_to_end(fake, (ANN, BOB), random.Random(2))
        await app.settled()
        assert (await app.services.records.get(second_id))[0].status is Status.FINISHED
        assert rematch_button(result_of(fake, second_id)) == f"{REMATCH}{second_id}"
        assert f"<code>{second.fair.key}</code>" in result_of(fake, second_id).text  # revealed at the end
        # The first match's button is spent: a press on Ann's last panel of it is told so, and loses the button.
        (old_panel,) = [m for m in fake.chat_messages(ANN.id) if rematch_button(m) == f"{REMATCH}{first_id}"]
        answer = await fake.wait_answer(fake.press(ANN, old_panel, f"{REMATCH}{first_id}"))
        assert answer["text"] == tr("toast-rematch-over")
        await fake.wait_for(lambda: rematch_button(old_panel) is None, what="the spent button to go")


def tiles_shown(sent: Sent) -> list[dict[str, Any]]:
    """Every game button the message ever had, the oldest first."""
    return [b for markup in sent.markups if markup for row in markup["inline_keyboard"] for b in row if move_data(b)]


async def test_a_tile_tapped_as_the_match_ends_keeps_the_rematch(
    fake: FakeTelegram, prefix: str, cleanup_redis: None, caplog: pytest.LogCaptureFixture
) -> None:
    """A tap on a tile of the last panel that reaches the bot after the match ended (made before the panel's
    final edit reached the phone): refused as the match being over, and the panel, the match's last, keeps its
    rematch button. A panel the bot has no record of loses its buttons on such a tap (bot.routers.game)."""
    caplog.set_level(logging.INFO, logger="bot.updates")
    async with running_bot(fake, prefix) as app:
        await app.services.chats.update_settings(GROUP, preset="bingo-classic", target=2)
        for user in (ANN, BOB):
            await start_bot(fake, user)
        match_id = await new_match(fake, ANN, BOB, GROUP)
        await play_to_end(fake, (ANN, BOB), random.Random(3))
        await app.settled()
        tapped: list[tuple[FakeUser, Sent]] = []
        for seat, user in enumerate((ANN, BOB)):
            last = last_panel(fake, user)
            assert last.message_id == await app.services.records.panel_message(match_id, seat)
            # The newest tile it showed before the end: what a phone that had not got the edit yet still shows.
            tiles = tiles_shown(last)
            if not tiles:
                continue
            tapped.append((user, last))
            answer = await fake.wait_answer(fake.press(user, last, tiles[-1]["callback_data"]))
            assert answer["text"] == app.presenter.i18n[pick_lang(user.language_code)]("toast-match-over")
            update = f"update={fake.last_update_id} "
            await fake.wait_for(lambda u=update: any(r.getMessage().startswith(u) for r in caplog.records),
                                what=f"the end of the handling of {user.first_name}'s tap")  # fmt: skip
            await app.settled()
            assert rematch_button(last) == f"{REMATCH}{match_id}", last.markups[-1]
        assert tapped, "neither last panel ever had a tile to tap"

        # A panel the bot has no record of (sent by a process killed before it recorded it) loses its buttons.
        user, last = tapped[0]
        tile = tiles_shown(last)[-1]
        lost = fake.lost_message(user.id, last.history[-2], {"inline_keyboard": [[tile]]})
        answer = await fake.wait_answer(fake.press(user, lost, tile["callback_data"]))
        assert answer["text"] == app.presenter.i18n[pick_lang(user.language_code)]("toast-match-over")
        await fake.wait_for(lambda: not lost.buttons(), what="the lost panel's buttons to go")
        assert rematch_button(last) == f"{REMATCH}{match_id}"


async def test_one_already_playing(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """Bob accepted Carl's challenge meanwhile: his press on the rematch is refused (he plays in this chat), and
    the rematch still waits."""
    async with running_bot(fake, prefix) as app:
        ru, pl = app.presenter.i18n["ru"], app.presenter.i18n["pl"]
        await app.services.chats.update_settings(GROUP, target=2)
        for user in (ANN, BOB, CARL):
            await start_bot(fake, user)
        first_id = await new_match(fake, ANN, BOB, GROUP)
        await play_to_end(fake, (ANN, BOB), random.Random(3))
        await app.settled()
        result = result_of(fake, first_id)
        asked = await fake.wait_answer(fake.press(ANN, result, f"{REMATCH}{first_id}"))
        assert asked["text"] == ru("toast-rematch-asked")
        await new_match(fake, CARL, BOB, GROUP)
        answer = await fake.wait_answer(fake.press(BOB, result, f"{REMATCH}{first_id}"))
        assert answer["text"] == pl("toast-already-playing")  # in Bob's own language
        assert await app.services.records.active_match(GROUP, ANN.id) is None


async def test_against_the_computer(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """Against the computer one press starts the next match, at the same level."""
    async with running_bot(fake, prefix, computer_pause=0.05) as app:
        await app.services.chats.update_settings(GROUP, target=2)
        await start_bot(fake, ANN)
        await challenge(fake, ANN, GROUP)
        fake.send_text(ANN, GROUP, "/play bot hard")
        await fake.wait_for(lambda: panel_of(fake, ANN) is not None, what="Ann's panel")
        first_id = await app.services.records.active_match(GROUP, ANN.id)
        assert first_id is not None
        while (await app.services.records.get(first_id))[0].is_active:
            panel = panel_of(fake, ANN)
            if panel is not None and (moves := [b for b in panel.buttons() if b["callback_data"].startswith("a:")]):
                await fake.wait_answer(fake.press(ANN, panel, random.choice(moves)["callback_data"]))
            await fake.wait_change(ANN.id, 0.3)
        await app.settled()
        answer = await fake.wait_answer(fake.press(ANN, result_of(fake, first_id), f"{REMATCH}{first_id}"))
        assert not answer.get("text")
        second_id = await app.services.records.active_match(GROUP, ANN.id)
        assert second_id is not None and second_id != first_id
        second, _ = await app.services.records.get(second_id)
        assert second.players[1].level == "hard" and second.players[0].id == ANN.id


async def test_offered_for_a_challenges_lifetime(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """On a simulated clock: Ann asks for the rematch and nobody answers; when its challenge's time runs out the
    result says the rematch is off and loses its button, and Bob's press on his panel is told so. A result
    nobody pressed is still offered until the lifetime after the match, then refused."""
    clock = SimClock()
    async with running_bot(fake, prefix, clock=clock) as app, clock.ticking(step=0.01, every=0.005):
        tr = app.presenter.i18n["ru"]
        ttl = app.services.terms.challenge_ttl
        await app.services.chats.update_settings(GROUP, target=2)
        for user in (ANN, BOB, CARL):
            await start_bot(fake, user)
        first_id = await new_match(fake, ANN, BOB, GROUP)
        await play_to_end(fake, (ANN, BOB), random.Random(4))
        await app.settled()
        result = result_of(fake, first_id)
        asked = await fake.wait_answer(fake.press(ANN, result, f"{REMATCH}{first_id}"))
        assert asked["text"] == tr("toast-rematch-asked")
        clock.advance(ttl + 1)
        await app.scheduler.run_due()
        await app.settled()
        off = tr("rematch-off")
        await fake.wait_for(lambda: result.text.endswith(off) and rematch_button(result) is None, what="the offer off")
        late = await fake.wait_answer(fake.press(BOB, last_panel(fake, BOB), f"{REMATCH}{first_id}"))
        assert late["text"] == app.presenter.i18n["pl"]("toast-rematch-over")  # Bob reads Polish
        assert await app.services.records.active_match(GROUP, ANN.id) is None

        # A second match whose result nobody presses: offered within the lifetime, refused after it.
        second_id = await new_match(fake, BOB, CARL, GROUP)
        await play_to_end(fake, (BOB, CARL), random.Random(5))
        await app.settled()
        clock.advance(ttl + 1)
        result = result_of(fake, second_id)
        late = await fake.wait_answer(fake.press(CARL, result, f"{REMATCH}{second_id}"))
        assert late["text"] == tr("toast-rematch-over")
        await fake.wait_for(lambda: rematch_button(result) is None, what="the spent button to go")
