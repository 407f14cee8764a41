"""Matches against the computer, in a group and in private, at each level, over the fake Bot API.

The person presses their buttons; the computer's moves arrive by themselves (a job of the scheduler), and
no press is ever made for the computer's seat.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from bot import render
from bot.app import App
from bot.models import LEVELS, Level, Status, UserStats
from bot.texts import name
from tests.e2e.conftest import running_bot
from tests.e2e.driver import WAITING, challenge, held_panel, panel_of, playable, start_bot, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent

GROUP = -100700
ANN = FakeUser(1001, "Ann", "ann", "ru")
BOB = FakeUser(1002, "Bob", "bob", "pl")
PAUSE = 0.05
"""The computer's pause after the last move, short for the tests."""


async def play_the_computer(fake: FakeTelegram, app: App, match_id: str, user: FakeUser, rng: random.Random) -> int:
    """Press random playable buttons of the user's panel whenever it is their turn, until the match is over;
    the presses made."""
    presses = 0
    while (await app.services.records.get(match_id))[0].is_active:
        panel = held_panel(fake, user)
        buttons = [] if panel is None else playable(panel)
        if panel is None or WAITING in panel.text or not buttons:
            await fake.wait_change(user.id, 0.5)  # the computer moves meanwhile
            continue
        before = version_of(panel)
        query = fake.press(user, panel, rng.choice(buttons)["callback_data"])
        answer = await fake.wait_answer(query)
        assert not answer.get("text"), f"a press on the newest panel was refused: {answer['text']}"
        presses += 1
        await fake.wait_for(
            lambda v=before: (p := held_panel(fake, user)) is None or version_of(p) > v,
            timeout=30,
            what="the panel to show the press",
        )
    return presses


async def counted_stats(app: App, user_id: int) -> UserStats:
    """The user's stats once a match against the computer is counted in them: the finish's steps run right
    after its write, in the process that made the last move (the computer's job, maybe)."""
    for _ in range(300):
        stats = await app.services.results.stats(user_id)
        if stats.computer:
            return stats
        await asyncio.sleep(0.1)
    raise AssertionError("the match against the computer was never counted")


def level_button(message: Sent, level: str) -> str:
    """The callback data of the challenge's button for playing the computer at ``level``."""
    for b in message.buttons():
        if b.get("callback_data", "").startswith("cpu:") and b["callback_data"].endswith(f":{level}"):
            return str(b["callback_data"])
    raise AssertionError(f"no button for the {level} computer in {message.buttons()}")


class TestAgainstTheComputer:
    @pytest.mark.parametrize("level", LEVELS)
    async def test_in_a_group(self, fake: FakeTelegram, prefix: str, cleanup_redis: None, level: Level) -> None:
        """The creator presses the level's button on their challenge; the match runs to its end, the computer
        moving by itself; the result counts in the person's record against that level, not in the rating."""
        async with running_bot(fake, prefix, computer_pause=PAUSE) as app:
            tr = app.presenter.i18n["ru"]
            await app.services.chats.update_settings(GROUP, target=2)
            await start_bot(fake, ANN)
            message = await challenge(fake, ANN, GROUP)
            assert tr("challenge-computer-hint") in message.text
            # Nobody but the creator may hand the challenge to the computer.
            await start_bot(fake, BOB)
            other = fake.press(BOB, message, level_button(message, level))
            assert (await fake.wait_answer(other))["text"] == app.presenter.i18n["ru"]("toast-computer-creator-only")
            query = fake.press(ANN, message, level_button(message, level))
            assert not (await fake.wait_answer(query)).get("text")
            await fake.wait_for(lambda: panel_of(fake, ANN) is not None, what="Ann's panel")
            match_id = await app.services.records.active_match(GROUP, ANN.id)
            assert match_id is not None
            presses = await play_the_computer(fake, app, match_id, ANN, random.Random(11))
            await app.settled()
            record, _ = await app.services.records.get(match_id)
            assert record.status is Status.FINISHED
            computer = record.players[1]
            assert computer.level == level and computer.name == tr(f"computer-{level}")
            # Every move the person did not press, the computer made; no press ever came for its seat.
            presses_seen = [c for c in fake.calls if c.method == "answerCallbackQuery"]
            # (A version per move: the computer made the rest; with a target of 2 a match can end in one trick.)
            assert record.version > presses
            assert len(presses_seen) == presses + 2  # and Bob's and Ann's presses on the challenge
            assert not fake.chat_messages(computer.id)
            stats = await counted_stats(app, ANN.id)
            assert stats.computer == {level: (1, 1 if record.winner == 0 else 0)}
            assert stats.played == 0 and await app.services.results.leaderboard(GROUP) == []
            assert await app.services.records.active_match(GROUP, ANN.id) is None

    @pytest.mark.parametrize("level", LEVELS)
    async def test_in_private(self, fake: FakeTelegram, prefix: str, cleanup_redis: None, level: Level) -> None:
        """``/play 42 <level>`` in the private chat: the panel there is the table too (no table message),
        played to the end."""
        async with running_bot(fake, prefix, computer_pause=PAUSE) as app:
            tr = app.presenter.i18n["pl"]
            await start_bot(fake, BOB)
            await app.services.chats.update_settings(BOB.id, preset="42", target=2)
            fake.send_text(BOB, BOB.id, f"/play 42 {tr(f'level-{level}')}")
            await fake.wait_for(lambda: panel_of(fake, BOB) is not None, what="Bob's panel")
            match_id = await app.services.records.active_match(BOB.id, BOB.id)
            assert match_id is not None
            presses = await play_the_computer(fake, app, match_id, BOB, random.Random(12))
            await app.settled()
            record, match = await app.services.records.get(match_id)
            assert record.status is Status.FINISHED and record.chat_id == BOB.id
            assert match.rules.game == "42" and record.players[1].level == level
            assert record.version > presses
            texts = [m.text for m in fake.chat_messages(BOB.id)]
            assert not any(t.split("\n")[0] == tr("table-title", game=tr("preset-42"), deal=1) for t in texts)
            panel = (await app.services.stores.matches.messages(match_id)).panel(0)
            title = tr("panel-title", game=tr("preset-42"), deal=match.deal.number, opponent=name(record, 1))
            assert panel is not None and title in fake.messages[(BOB.id, panel)].text
            stats = await counted_stats(app, BOB.id)
            assert sum(played for played, _ in stats.computer.values()) == 1
            # /stats lists the record against the level, outside the rating.
            seen = len(fake.chat_messages(BOB.id))
            fake.send_text(BOB, BOB.id, "/stats")
            head = tr("stats-title-all", name=BOB.first_name).split("<")[0]

            def stats_message() -> str | None:
                # The stats, not a result that was still on its way (a loaded machine delivers it late).
                return next((m.text for m in fake.chat_messages(BOB.id)[seen:] if m.text.startswith(head)), None)

            await fake.wait_for(stats_message, what="the stats")
            won = 1 if record.winner == 0 else 0
            line = tr("stats-computer-level", level=tr(f"level-{level}"), played=1, won=won, lost=1 - won)
            text = stats_message() or ""
            assert tr("stats-computer") in text and line in text


class TestCommands:
    async def test_play_bot_in_a_group(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """``/play bot сильный`` starts a match against the hard computer at once (no challenge to press)."""
        async with running_bot(fake, prefix, computer_pause=PAUSE) as app:
            await start_bot(fake, ANN)
            fake.send_text(ANN, GROUP, "/play bot сильный")
            await fake.wait_for(lambda: panel_of(fake, ANN) is not None, what="Ann's panel")
            match_id = await app.services.records.active_match(GROUP, ANN.id)
            assert match_id is not None
            record, _ = await app.services.records.get(match_id)
            assert record.players[1].level == "hard" and record.turn_timeout == 0


@pytest.mark.cluster
class TestRestart:
    async def test_the_computer_moves_after_a_restart(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        """The person moves and the bot stops before the computer's pause is over: the next process makes the
        computer's move (its job is in Redis), once."""
        rng = random.Random(3)
        async with running_bot(fake, prefix, computer_pause=2.0) as app:
            await start_bot(fake, ANN)
            fake.send_text(ANN, GROUP, "/play bot easy")
            await fake.wait_for(lambda: panel_of(fake, ANN) is not None, what="Ann's panel")
            match_id = await app.services.records.active_match(GROUP, ANN.id)
            assert match_id is not None
            while True:
                await app.settled()
                moved, match = await app.services.records.get(match_id)
                panel = held_panel(fake, ANN)
                assert panel is not None
                if match.turn == 1 and version_of(panel) == moved.version:
                    break  # the person moved; the computer is to act
                if match.turn == 1 or version_of(panel) != moved.version:
                    await fake.wait_change(ANN.id, 1.0)  # the computer's move, or the panel showing it
                    continue
                query = fake.press(ANN, panel, rng.choice(playable(panel))["callback_data"])
                assert not (await fake.wait_answer(query)).get("text")
        async with running_bot(fake, prefix, computer_pause=2.0) as app:
            await fake.wait_for(
                lambda: (p := held_panel(fake, ANN)) is not None and version_of(p) > moved.version,
                timeout=30,
                what="the computer's move after the restart",
            )
            after, _ = await app.services.records.get(match_id)
            assert f"cpu:{moved.version}" in after.recent
            assert [r for r in after.recent if r == f"cpu:{moved.version}"] == [f"cpu:{moved.version}"]

    async def test_play_bot_with_a_challenge_open(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """``/play bot`` while the user's challenge waits: that challenge becomes the match against the computer,
        and its message says so."""
        async with running_bot(fake, prefix, computer_pause=PAUSE) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, ANN)
            message = await challenge(fake, ANN, GROUP, "42")
            fake.send_text(ANN, GROUP, "/play bot")
            await fake.wait_for(lambda: not message.buttons(), what="the challenge to be taken")
            match_id = await app.services.records.active_match(GROUP, ANN.id)
            assert match_id is not None
            record, match = await app.services.records.get(match_id)
            assert match.rules.game == "42" and record.players[1].level == "normal"
            target = match.deal.target
            accepted = tr("challenge-accepted-computer", a="Ann", b=tr("computer-normal"), game=tr("preset-42"),
                          target=target)  # fmt: skip
            assert record.fair is not None  # the key the challenge committed to stays in the chat
            assert message.text == "\n".join([accepted, render.key_commitment_line(tr, record.fair.key)])
