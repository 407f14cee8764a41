"""The bot process through Redis faults: a clean restart, a 10 s outage, a 10 s hang, a rollback of its last second.

Each match is finished by pressing the latest panels; the referee then
replays the presses on the engine and must reach the match Redis holds, with
no press lost and none applied behind a refusal.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.i18n import I18n
from bot.models import LANGS, MatchRecord
from bot.services import Services
from tests.e2e import screens
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.process import RestartingBot
from tests.faults.conftest import GROUP, Scene, a_match, judged
from tests.faults.players import Players
from tests.faults.redis_control import ControlledRedis

pytestmark = pytest.mark.faults

I18N = I18n()
STORAGE_DOWN = {I18N[lang]("toast-storage") for lang in LANGS}
OUTAGE = 10.0
"""Seconds Redis stays down or hangs (longer than the client's own retries)."""


async def taken(scene: Scene, count: int) -> None:
    """Play until ``count`` more presses were answered as taken."""
    goal = sum(p.taken for p in scene.players.presses) + count
    await scene.players.play(until=lambda: sum(p.taken for p in scene.players.presses) >= goal)
    assert not scene.players.over(), "the match ended before the fault"


async def settled(fake: FakeTelegram, outside: Services, match_id: str) -> None:
    """Every message of the match shows its version (the match left the due set)."""
    await screens.assert_screens_caught_up(fake, outside, match_id)


class TestRedisGoesAway:
    async def test_shutdown_nosave_and_restart(
        self, fake: FakeTelegram, own_redis: ControlledRedis, outside: Services, bot: RestartingBot
    ) -> None:
        """SHUTDOWN NOSAVE in mid-match: the press meanwhile gets the storage alert and changes nothing; Redis
        starts again from its append-only file and the match goes on from where it was, nothing lost."""
        await bot.start()
        scene = await a_match(fake, outside, "bingo", seed=1)
        await taken(scene, 5)
        await settled(fake, outside, scene.players.match_id)
        before, _ = await outside.records.get(scene.players.match_id)
        own_redis.shutdown_nosave()
        seat, panel = await scene.players.ready()
        down = await scene.players.press(seat, panel)
        assert down.answer is not None and down.answer.get("show_alert") and down.answer["text"] in STORAGE_DOWN
        own_redis.start()
        assert (await outside.records.get(scene.players.match_id))[0] == before
        verdict = await judged(scene, outside, fake, bot)
        assert down not in verdict.chain

    async def test_outage_of_10_seconds(
        self, fake: FakeTelegram, own_redis: ControlledRedis, outside: Services, bot: RestartingBot
    ) -> None:
        """Redis is down for 10 s while the players keep pressing: every press then is answered with the
        storage alert (none waits for long) and none is applied; once Redis is back the match goes on."""
        await bot.start()
        scene = await a_match(fake, outside, "bingo-classic", seed=2)
        await taken(scene, 4)
        # At a quiet moment: a panel asks for a move while Redis is down (a delivery that Redis cut short
        # may leave both panels saying "wait" until it is back).
        await settled(fake, outside, scene.players.match_id)
        own_redis.shutdown_nosave()
        start = len(scene.players.presses)
        until = time.monotonic() + OUTAGE
        await scene.players.play(until=lambda: time.monotonic() > until)
        own_redis.start()
        during = scene.players.presses[start:]
        assert len(during) >= 3
        for press in during:
            assert press.answer is not None and press.answer["text"] in STORAGE_DOWN, press
        verdict = await judged(scene, outside, fake, bot)
        assert not set(during) & set(verdict.chain)

    async def test_hang_of_10_seconds(
        self, fake: FakeTelegram, own_redis: ControlledRedis, outside: Services, bot: RestartingBot
    ) -> None:
        """Redis hangs (SIGSTOP) for 10 s: presses meanwhile get no answer until it wakes (SIGCONT), then each
        is answered and the one that was taken is applied, once: none is lost to the client's timeouts and
        retries (the lost press of #13: its de-duplication mark came back as another's)."""
        await bot.start()
        scene = await a_match(fake, outside, "bingo-domino", seed=3)
        await taken(scene, 4)
        await settled(fake, outside, scene.players.match_id)
        own_redis.pause()
        start = len(scene.players.presses)
        until = time.monotonic() + OUTAGE
        pressing = asyncio.create_task(scene.players.play(until=lambda: time.monotonic() > until, answer_within=0.5))
        await asyncio.wait_for(pressing, OUTAGE + 30)
        own_redis.resume()
        during = scene.players.presses[start:]
        assert during and all(p.answer is None for p in during), "a press was answered while Redis hung"
        for press in during:
            press.answer = await fake.wait_answer(press.query, timeout=30)
        assert sum(p.taken for p in during) <= 1
        verdict = await judged(scene, outside, fake, bot)
        chain_during = [p for p in verdict.chain if p in during]
        assert len(chain_during) <= 1


MATCHES = 4
"""Matches played at most to find the moment a rollback test wants (a match is a deal or two: the moment may
not come in one)."""


def one_more_taken(players: Players) -> Callable[[], bool]:
    goal = sum(p.taken for p in players.presses) + 1
    return lambda: sum(p.taken for p in players.presses) >= goal


async def a_moment(
    scene: Scene, fake: FakeTelegram, outside: Services, own_redis: ControlledRedis, *, same: bool
) -> tuple[MatchRecord, Path] | None:
    """A moment to go back to (the match as kept then, and Redis saved then) such that one move later the player
    to act holds a panel message Redis knew then (``same``), or one it did not; None if the match ended first."""
    players, match_id = scene.players, scene.players.match_id
    await taken(scene, 4)
    while True:
        await settled(fake, outside, match_id)
        kept, _ = await outside.records.get(match_id)
        known = {p for p in (await outside.stores.matches.messages(match_id)).panels if p is not None}
        snapshot = own_redis.snapshot()
        await players.play(until=one_more_taken(players))
        if not (await outside.records.get(match_id))[0].is_active:
            await fake.wait_for(players.over, timeout=30, what="the result of a match that ended first")
            return None
        _, acting = await players.ready()
        if (acting.message_id in known) == same:
            return kept, snapshot


class TestRollback:
    @pytest.mark.parametrize("panel", ["same", "new"])
    async def test_redis_loses_its_last_second(
        self, fake: FakeTelegram, own_redis: ControlledRedis, outside: Services, bot: RestartingBot, panel: str
    ) -> None:
        """Redis goes back to a moment one move ago (what AOF everysec and a power cut do). The bot, whose
        cache is newer, takes what Redis holds; the players' newer panels are outdated, the lost move is played
        again and the match ends as the replay of what Redis kept says. ``same``: the player to act still
        holds the panel message Redis knows (edited since): their press used to get "busy" for ever. ``new``:
        the panel came after the moment Redis went back to, and both panels said "wait" for ever."""
        await bot.start()
        for attempt in range(MATCHES):
            # Each in a group of its own: a group's screens and results are counted per match.
            scene = await a_match(fake, outside, "bingo", seed=4 + attempt, group=GROUP - attempt)
            moment = await a_moment(scene, fake, outside, own_redis, same=panel == "same")
            if moment is not None:
                break
        else:
            pytest.fail(f"no move of {MATCHES} matches left the {panel} panel to act")
        kept, snapshot = moment
        players, match_id = scene.players, scene.players.match_id
        assert (await outside.records.get(match_id))[0].version == kept.version + 1
        own_redis.roll_back(snapshot)
        assert (await outside.records.get(match_id))[0] == kept
        replayed_from = len(players.presses)
        verdict = await judged(scene, outside, fake, bot, leftovers=True)
        again = verdict.chain[kept.version]
        assert again.index >= replayed_from, "the lost move was not played again"
        assert bot.process is not None
        assert "result=busy" not in bot.process.output
