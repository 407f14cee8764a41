"""The fault suite's world: a Redis of its own that a test stops, pauses and rolls back; the fake Bot API; the
bot as a process (``python -m bot``) that a test kills; two players in a group."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field

import pytest

from bot.i18n import I18n
from bot.models import MatchRecord
from bot.services import Services
from bot.storage.redis import create_redis
from tests.e2e import screens
from tests.e2e.driver import new_match, start_bot, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.process import RestartingBot, bot_env
from tests.faults.players import Players, Verdict, referee, results
from tests.faults.redis_control import ControlledRedis, redis_of_its_own

PREFIX = "faults"
GROUP = -100_900
ANN = FakeUser(9301, "Аня", "anya_faults", "ru")
PIOTR = FakeUser(9302, "Piotr", "piotr_faults", "pl")


@pytest.fixture
def own_redis() -> Iterator[ControlledRedis]:
    """A Redis of the test's own, in a directory of its own (gone at the end, with everything in it)."""
    with redis_of_its_own("domino-faults-") as server:
        yield server


@pytest.fixture
async def outside(own_redis: ControlledRedis) -> AsyncIterator[Services]:
    """The test's own look at the bot's Redis (not while a fault is on)."""
    redis = create_redis(own_redis.url)
    yield Services.build(redis, prefix=PREFIX)
    await redis.aclose()


@pytest.fixture
async def bot(fake: FakeTelegram, own_redis: ControlledRedis) -> AsyncIterator[RestartingBot]:
    """The bot process on the test's Redis (started by the test; killed at its end)."""
    runner = RestartingBot(
        bot_env(telegram_api_base=fake.base, redis_url=own_redis.url, redis_prefix=PREFIX, turn_timeout="0"),
        fake=fake,
    )
    yield runner
    await runner.close()
    print(runner.output)  # shown when the test failed


@dataclass(frozen=True)
class Death:
    """A process of the bot that a test killed in mid-match."""

    lived: tuple[float, float]
    """From its start to the next process's start (``time.monotonic``): what Telegram took meanwhile, it sent."""
    held: frozenset[tuple[int, int]]
    """The panels (chat, message id) Redis held for the match once it was dead (current and replaced)."""


@dataclass
class Scene:
    players: Players
    initial: MatchRecord
    """The match before any move, as stored (the referee's starting point)."""
    deaths: list[Death] = field(default_factory=list)

    async def kill_and_start(self, bot: RestartingBot, outside: Services) -> None:
        """Kill the bot (-9), note what Redis holds of the match's panels now that no one can write it, and
        start the bot again."""
        born = bot.started_at[-1]
        await bot.kill()
        _, messages = await outside.stores.matches.screens(self.players.match_id)
        chats = [user.id for user in self.players.users]
        held = {
            (chats[seat], message)
            for seat in (0, 1)
            for message in (messages.panel(seat), messages.panels_replaced[seat])
            if message is not None
        }
        await bot.start()
        self.deaths.append(Death((born, bot.started_at[-1]), frozenset(held)))

    def unknown_to_the_bot(self, sent: Sent) -> bool:
        """Whether a panel was taken by Telegram from a process that was killed before recording it: sent while
        that process lived, and not among the panels Redis held once it was dead. No later process can know of
        it, so it keeps its buttons (a press on it is refused, and takes them)."""
        return any(
            death.lived[0] <= sent.sent_at < death.lived[1] and (sent.chat_id, sent.message_id) not in death.held
            for death in self.deaths
        )


BINGO_TARGET = 2
"""Game points a Bingo match of the suite is played to: a deal or two (at 1 a bingo taking the trump double
could end it within the first presses, before the fault)."""


async def a_match(fake: FakeTelegram, outside: Services, preset: str, *, seed: int = 0, group: int = GROUP) -> Scene:
    """Аня and Piotr start the bot; Аня challenges in the group (``preset``, Bingo to 2), Piotr joins."""
    for user in (ANN, PIOTR):
        await start_bot(fake, user)
    await outside.chats.update_settings(group, preset=preset, target=None if preset == "42" else BINGO_TARGET)
    match_id = await new_match(fake, ANN, PIOTR, group)
    initial, _ = await outside.records.get(match_id)
    return Scene(Players(fake, (ANN, PIOTR), match_id, group, seed=seed), initial)


async def judged(
    scene: Scene, outside: Services, fake: FakeTelegram, bot: RestartingBot, *, leftovers: bool = False
) -> Verdict:
    """Finish the match by pressing the latest panels; the referee's verdict, once every screen is final.
    With ``leftovers``, panels the players hold from moves Redis lost are pressed too (they get a toast and
    lose their buttons)."""
    await scene.players.play()
    record, _ = await outside.records.get(scene.players.match_id)
    await screens.assert_screens_caught_up(fake, outside, record.id)
    _, _, messages = await outside.records.screens(record.id)
    # A panel Telegram took just as the bot was killed, before Redis recorded it, is known to no one: it keeps
    # its buttons. Any other panel left with buttons is a bug.
    unexplained = [
        (sent.chat_id, sent.message_id, version_of(sent), len(sent.history))
        for _, sent in scene.players.leftovers()
        if not scene.unknown_to_the_bot(sent)
    ]
    await scene.players.tidy()
    assert leftovers or unexplained == [], (
        f"panels (chat, id, version, edits) kept their buttons after the end: {unexplained}; "
        f"Redis records {messages.model_dump(exclude={'posts', 'summary'})}; the kills {scene.deaths}"
    )
    await screens.assert_final(fake, outside, record.id, scene.players.group, I18n()[record.lang])
    assert results(fake, scene.players.group) == 1
    verdict = referee(scene.initial, record, scene.players.presses)
    assert verdict.lost == [], f"answered as taken, never applied: {verdict.lost}"
    assert verdict.applied_refused == [], f"refused, applied all the same: {verdict.applied_refused}"
    assert "Traceback" not in bot.output, bot.output
    return verdict
