"""Trust at the edges, over the fake Bot API on real Redis: nobody acts on another group's challenge, sign-up or
replay (a ``/cancel`` in reply to a message carrying a foreign button, forged buttons, deep links from outside);
a command in a picture's caption counts against the flood limit and a /stats chart is sent again by its file_id;
a pending rematch is never taken by ``/play bot``."""

from __future__ import annotations

import random
from typing import Any

from bot.app import App
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
    reply_in,
    start_bot,
    surrender,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.test_tournaments import tournament_id

GROUP_A = -100970
GROUP_B = -100971
ANN = FakeUser(9701, "Ann", "ann_trust", "ru")
BOB = FakeUser(9702, "Bob", "bob_trust", "ru")
MALLORY = FakeUser(9703, "Mallory", "mallory_trust", "ru")
"""A member of group A who created group B."""
OTHER_BOT = {"id": 555000, "is_bot": True, "first_name": "Buttons", "username": "any_inline_bot"}


def keyboard(*data: str) -> dict[str, Any]:
    return {"inline_keyboard": [[{"text": "🙂", "callback_data": d} for d in data]]}


async def cancel_in_reply_to(fake: FakeTelegram, user: FakeUser, group: int, message: dict[str, Any]) -> Sent:
    """``/cancel`` written by ``user`` in ``group`` in reply to ``message``; the bot's answer."""
    after = newest_id(fake, group)
    fake.send_text(user, group, "/cancel", reply_to=message)
    return await reply_in(fake, group, after, "the answer to /cancel")


async def finished_match(fake: FakeTelegram, app: App) -> tuple[str, Sent]:
    """Ann and Bob start the bot and play a match in group A that Bob gives up; its id and its result."""
    for user in (ANN, BOB):
        await start_bot(fake, user)
    match_id = await new_match(fake, ANN, BOB, GROUP_A)
    result = await surrender(fake, BOB, GROUP_A, match_id)
    await app.settled()
    return match_id, result


def handled(app: App) -> int:
    """How many updates the bot has handled to their end (its ``domino_updates_total``)."""
    samples = (s for metric in app.metrics.registry.collect() for s in metric.samples)
    return int(sum(s.value for s in samples if s.name == "domino_updates_total"))


class TestAnotherGroup:
    """Mallory, the creator of group B, posts there via an inline bot a message carrying the buttons of group A's
    challenge or sign-up, and replies /cancel to it: refused; A's challenge and sign-up stay."""

    async def test_a_challenge(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        fake.creators[GROUP_B] = MALLORY.id
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, ANN)
            message = await challenge(fake, ANN, GROUP_A)
            cid = button(message, "w:")["callback_data"].removeprefix("w:")
            forged = fake.send_text(MALLORY, GROUP_B, "😈", via_bot=OTHER_BOT, reply_markup=keyboard(f"w:{cid}"))
            answer = await cancel_in_reply_to(fake, MALLORY, GROUP_B, forged)
            assert answer.text == tr("error-no-challenge")
            # The same button on a message of this bot's own in group B (a modified client's press): the
            # withdraw is asked of A, where Mallory is no admin.
            b_message = await ask(fake, MALLORY, GROUP_B, "/help")
            toast = await fake.wait_answer(fake.press(MALLORY, b_message, f"w:{cid}"))
            assert toast["text"] == tr("toast-only-creator")
            # Even an admin of group A may withdraw it only from what group A's own admins are.
            reply_to_real = fake._message_dict(message, nested=False)
            answer = await cancel_in_reply_to(fake, MALLORY, GROUP_B, reply_to_real)
            assert answer.text == tr("toast-only-creator")
            assert await app.services.challenges.challenge(cid) is not None, "another group's member withdrew it"
            assert button(message, "j:"), "the challenge lost its buttons"
            fake.admins[GROUP_A] = {BOB.id}
            toast = await fake.wait_answer(fake.press(BOB, message, f"w:{cid}"))
            assert not toast.get("text"), "group A's admin may cancel it"
            await fake.wait_for(lambda: not message.buttons(), what="the cancelled challenge's buttons to go")
            await invariants.all_well(fake)

    async def test_a_sign_up(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        fake.creators[GROUP_B] = MALLORY.id
        fake.outsiders[GROUP_A] = {MALLORY.id}  # from the start: what Telegram says of her is kept a minute
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, ANN)
            message = await ask(fake, ANN, GROUP_A, "/tournament")
            tid = tournament_id(message)
            forged = fake.send_text(MALLORY, GROUP_B, "🏆", via_bot=OTHER_BOT, reply_markup=keyboard(f"tn:{tid}:j"))
            answer = await cancel_in_reply_to(fake, MALLORY, GROUP_B, forged)
            assert answer.text == tr("error-no-challenge")
            answer = await cancel_in_reply_to(fake, MALLORY, GROUP_B, fake._message_dict(message, nested=False))
            assert answer.text == tr("toast-tournament-creator-only")
            t = await app.services.tournaments.get(tid)
            assert t is not None and t.status == "signup", "another group's member cancelled the sign-up"
            # Its deep link, followed by someone outside group A, signs nobody up.
            answer = await ask(fake, MALLORY, MALLORY.id, f"/start t_{tid}")
            assert answer.text == tr("toast-not-member")
            t = await app.services.tournaments.get(tid)
            assert t is not None and t.entrant_of(MALLORY.id) is None
            await invariants.all_well(fake)


class TestForgedButtons:
    """A button's data sent on a message it is not on acts on nothing."""

    async def test_a_replay_on_a_table_and_a_rematch_of_a_tournament_match(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            match_id, result = await finished_match(fake, app)
            # A replay's button on the result (a message of another kind): the result stays as it was.
            before = (result.text, result.reply_markup)
            toast = await fake.wait_answer(fake.press(ANN, result, f"rp:{match_id}:0:0:n"))
            assert toast["text"] == tr("toast-bad-button")
            assert (result.text, result.reply_markup) == before
            # The match made a tournament's: its rematch is refused by the service, whatever message it comes on.
            record, _ = await app.services.records.get(match_id)
            await app.services.stores.matches.create(
                "tn" + match_id[2:], record.model_copy(update={"id": "tn" + match_id[2:], "tournament": "t1"})
                .model_dump_json(), ttl=3600,
            )  # fmt: skip
            plain = await ask(fake, ANN, GROUP_A, "/help")  # a message with no buttons: the press reaches the service
            toast = await fake.wait_answer(fake.press(ANN, plain, f"rm:tn{match_id[2:]}"))
            assert toast["text"] == tr("toast-no-rematch-in-tournament")
            assert await app.services.stores.challenges.rematch(GROUP_A, "tn" + match_id[2:]) is None
            await invariants.all_well(fake)

    async def test_outsiders_by_deep_link(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Someone outside group A follows the deep link of its challenge or of a replay of its match: refused."""
        fake.outsiders[GROUP_A] = {MALLORY.id}
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (ANN, BOB, MALLORY):
                await start_bot(fake, user)
            message = await challenge(fake, ANN, GROUP_A)
            cid = button(message, "j:")["callback_data"].removeprefix("j:")
            answer = await ask(fake, MALLORY, MALLORY.id, f"/start j_{cid}")
            assert answer.text == tr("toast-not-member")
            assert await app.services.challenges.challenge(cid) is not None
            fake.send_text(BOB, BOB.id, f"/start j_{cid}")
            await fake.wait_for(lambda: panel_of(fake, BOB), what="Bob's panel")
            match_id = await app.services.records.active_match(GROUP_A, ANN.id)
            assert match_id is not None
            await play(fake, (ANN, BOB), random.Random(2), max_moves=3)  # a replay shows what was played
            await surrender(fake, BOB, GROUP_A, match_id)
            await app.settled()
            answer = await ask(fake, MALLORY, MALLORY.id, f"/start r_{match_id}")
            assert answer.text == tr("replay-not-member")
            fake.send_text(BOB, BOB.id, f"/start r_{match_id}")
            await fake.wait_for(
                lambda: any(b.get("callback_data", "").startswith(f"rp:{match_id}:") for m in fake.chat_messages(BOB.id)
                            for b in m.buttons()),
                what="the replay for one of its players",
            )  # fmt: skip
            await invariants.all_well(fake)


class TestPendingRematch:
    """A rematch waits for the other player whatever its first presser does meanwhile."""

    async def test_play_bot_leaves_it_standing(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Ann asks for a rematch, then plays the computer: the rematch stays asked; Bob's press meanwhile is told
        that Ann is playing; once her match is over, Bob's press starts the rematch."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            first, result = await finished_match(fake, app)
            rematch = f"rm:{first}"
            assert (await fake.wait_answer(fake.press(ANN, result, rematch)))["text"] == tr("toast-rematch-asked")
            asked = tr("rematch-asked", name="Ann", other="Bob")
            await fake.wait_for(lambda: result.text.endswith(asked), what="the result to say Ann wants a rematch")
            held = await app.services.stores.challenges.rematch(GROUP_A, first)
            assert held is not None

            panel = panel_of(fake, ANN)
            fake.send_text(ANN, GROUP_A, "/play bot")
            await fake.wait_for(
                lambda: panel_of(fake, ANN) not in (None, panel), what="Ann's panel against the computer"
            )
            versus = await app.services.records.active_match(GROUP_A, ANN.id)
            assert versus is not None and versus != first
            record, _ = await app.services.records.get(versus)
            assert record.computer_seat is not None, "the rematch was handed to the computer"
            await app.settled()
            assert result.text.endswith(asked), "the result was edited as if the rematch began"
            assert await app.services.challenges.challenge(held) is not None

            answer = await fake.wait_answer(fake.press(BOB, result, rematch))
            assert answer["text"] == tr("toast-creator-playing")
            assert await app.services.challenges.challenge(held) is not None

            await surrender(fake, ANN, GROUP_A, versus)
            await app.settled()
            answer = await fake.wait_answer(fake.press(BOB, result, rematch))
            assert not answer.get("text"), answer
            second = await app.services.records.active_match(GROUP_A, ANN.id)
            assert second is not None and second not in (first, versus)
            record, _ = await app.services.records.get(second)
            assert {p.id for p in record.players} == {ANN.id, BOB.id}
            await invariants.all_well(fake)


class TestCaptions:
    """Commands in pictures' captions count against one member's flood limit like commands in text."""

    async def test_thirty_captioned_commands(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """30 photos captioned /stats or /help in a burst: at most five answers and one notice; each /stats chart
        after the first is sent by its file_id, not drawn and uploaded again; the group's budget holds."""
        async with running_bot(fake, prefix, command_window=60.0, command_limit=5, pictures=True) as app:
            tr = app.presenter.i18n["ru"]
            await finished_match(fake, app)
            after = newest_id(fake, GROUP_A)
            for i in range(30):
                fake.send_text(ANN, GROUP_A, "/stats" if i % 3 else "/help", photo=True)
            notice = tr("flood-notice", name="Ann")
            await fake.wait_for(lambda: any(m.text == notice for m in fake.chat_messages(GROUP_A)), what="the notice")
            # Every command's handler has ended (a /stats chart may wait for a drawing worker to start: the bot is
            # silent meanwhile, so "quiet" alone once read the answers before the chart came).
            await fake.wait_for(lambda: handled(app) >= len(fake.updates), what="every update to be handled")
            await app.settled()
            assert handled(app) == len(fake.updates), "an update was counted more than once"
            answers = [m for m in fake.chat_messages(GROUP_A) if m.message_id > after]
            assert len([m for m in answers if m.text == notice]) == 1
            replies = [m for m in answers if m.text != notice]
            assert len(replies) <= 5, [m.text[:40] for m in replies]
            charts = [m for m in replies if m.photo is not None]
            assert charts, "no /stats among the answers"
            assert len(fake.photos_by_id) == len(charts) - 1, "a chart was drawn and uploaded again"
            invariants.within_group_budget(fake, GROUP_A)
            await invariants.all_well(fake)
