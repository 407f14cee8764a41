"""The bot process through its own faults: kill -9 at random presses, and updates Telegram delivers again.

As in the Redis cases, each match is finished by pressing the latest panels
and the referee's replay of the presses must reach the match Redis holds.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.services import Services
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.process import RestartingBot
from tests.faults.conftest import GROUP, a_match, judged
from tests.faults.players import Press

pytestmark = pytest.mark.faults


def answers_to(fake: FakeTelegram, press: Press) -> int:
    """How many answers to the press Telegram took."""
    return sum(
        1
        for c in fake.calls
        if c.method == "answerCallbackQuery" and c.status == 200 and c.params["callback_query_id"] == press.query
    )


class TestKill:
    @pytest.mark.parametrize("preset", ["bingo", "42"])
    async def test_kill_9_at_random_presses(
        self, fake: FakeTelegram, outside: Services, bot: RestartingBot, preset: str
    ) -> None:
        """The bot is killed with SIGKILL at random moments of three presses' handling and started again: every
        press answered as taken is applied once, one never answered may or may not be, and the match ends as
        the replay of the presses says."""
        rng = random.Random(preset)
        await bot.start()
        scene = await a_match(fake, outside, preset, seed=5)
        kill_at = set(rng.sample(range(1, 10), 3))  # early: a match to 2 may end after some twenty presses

        async def kill(press: Press) -> bool:
            if press.index not in kill_at:
                return True
            # Somewhere in the handling of the press: before it is read, while it is applied, or just after.
            await asyncio.sleep(rng.uniform(0.0, 0.06))
            await scene.kill_and_start(bot, outside)
            press.answer = fake.answers.get(press.query)
            return False

        await scene.players.play(hook=kill)
        assert bot.starts == 4
        verdict = await judged(scene, outside, fake, bot)
        assert len(verdict.chain) == (await outside.records.get(scene.players.match_id))[0].version


class TestDeliveredAgain:
    async def test_same_update_twice_and_after_a_restart(
        self, fake: FakeTelegram, outside: Services, bot: RestartingBot
    ) -> None:
        """Telegram delivers updates again (it does when it did not see the bot take them): a press delivered
        twice is applied and answered once; after a kill -9 and a start, presses and a /play handled before
        are delivered once more and change nothing, answer nothing, send nothing."""
        await bot.start()
        scene = await a_match(fake, outside, "bingo-domino", seed=6)
        players = scene.players
        again: list[Press] = []
        for _ in range(8):
            seat, panel = await players.ready()
            press = await players.press(seat, panel)
            assert press.taken
            if press.index % 2 == 0:
                fake.deliver_again(press.update_id)
                again.append(press)
        await fake.settle()
        await fake.quiet(period=0.5)
        before = (await outside.records.get(players.match_id))[0]
        assert before.version == 8
        assert [answers_to(fake, p) for p in again] == [1] * len(again)

        await bot.kill()
        await bot.start()
        play_update = next(u["update_id"] for u in fake.updates if u.get("message", {}).get("text") == "/play")
        group_messages = len(fake.chat_messages(GROUP))
        calls = len(fake.calls)
        for update_id in (play_update, *(p.update_id for p in players.presses)):
            fake.deliver_again(update_id)
        process = bot.process
        assert process is not None

        def skipped() -> list[str]:
            return [line for line in process.lines if "result=duplicate" in line]

        # Each is logged as handled when the bot is done with it (a loaded machine may take seconds).
        await fake.wait_for(lambda: len(skipped()) >= 1 + len(players.presses), timeout=60, what="the duplicates")
        await fake.quiet(period=0.5)
        assert (await outside.records.get(players.match_id))[0] == before
        assert len(fake.chat_messages(GROUP)) == group_messages
        # What a start does by itself (getMe, the command menus) aside: anything sent to a chat or a press.
        sent = [c.method for c in fake.calls[calls:] if {"chat_id", "callback_query_id"} & c.params.keys()]
        assert sent == [], f"the bot acted on updates it had handled: {sent}"
        assert [answers_to(fake, p) for p in players.presses] == [1] * len(players.presses)
        assert len(skipped()) == 1 + len(players.presses)

        await judged(scene, outside, fake, bot)
