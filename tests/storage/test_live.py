"""The live channel of each match (``bot.storage.live``) and one process's subscription to all of them
(``bot.webapp.live.Hub``): a publication wakes the streams of its match and of no other, under its prefix only."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from bot.services import Services
from bot.storage.keys import Keys
from bot.storage.live import LiveStore
from bot.webapp.live import Hub
from tests.backends import Backend
from tests.bot.helpers import ALA, BOB, CHAT, play_random

DEADLINE = 20.0
"""Seconds a publication may take to arrive on a loaded machine (it takes a millisecond)."""


async def until_set(event: asyncio.Event, what: str) -> None:
    try:
        await asyncio.wait_for(event.wait(), DEADLINE)
    except TimeoutError:
        raise AssertionError(f"{what}: not within {DEADLINE:.0f} s") from None


async def first_publication(
    live: LiveStore, act: Callable[[], Awaitable[object]], wanted: tuple[str, str] | None = None
) -> tuple[str, str] | None:
    """Subscribe to every match's channel, ``act`` once subscribed, and return the first publication seen then
    (match, version), or the first that is ``wanted``; None after ``DEADLINE``."""
    pubsub = live.subscriber()
    try:
        await pubsub.psubscribe(live.pattern())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        acted = False
        while loop.time() < deadline:
            message = await pubsub.get_message(timeout=1.0)
            if message is not None and message["type"] == "psubscribe" and not acted:
                await act()
                acted = True
            elif message is not None and message["type"] == "pmessage":
                data = message["data"]
                seen = live.match_of(message["channel"]), data.decode() if isinstance(data, bytes) else data
                if wanted is None or seen == wanted:
                    return seen
        return None
    finally:
        await pubsub.aclose()


class TestLive:
    async def test_a_publication_reaches_a_subscriber(self, services: Services) -> None:
        live = services.stores.live
        assert await first_publication(live, lambda: live.publish("m1", 7)) == ("m1", "7")

    async def test_a_rematch_asked_from_any_button_is_announced(self, backend: Backend) -> None:
        """The 🔁 of a finished match (pressed on Telegram's button as on the page: ``Rematches.press``) tells the
        match's open pages, which then offer to join or go to the rematch."""
        services = backend.services(live=True)
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru", target=1)
        record = await services.challenges.accept(challenge.id, BOB)
        await play_random(services, record, record.match(), random.Random(1))
        # The rematch's own match publishes too (its moves): the old match's announcement is looked for.
        wanted = (record.id, "-1")
        live = services.stores.live
        assert await first_publication(live, lambda: services.rematches.press(record.id, ALA), wanted) == wanted
        assert await first_publication(live, lambda: services.rematches.press(record.id, BOB), wanted) == wanted

    async def test_the_hub_wakes_the_streams_of_one_match(self, services: Services, backend: Backend) -> None:
        """Streams of m1 wake on m1's publication; m2's do not, nor anything published under another prefix."""
        other = LiveStore(backend.client(), Keys(f"{backend.prefix}x"))
        hub = Hub(services.stores.live)
        hub.start()
        try:
            await until_set(hub.subscribed, "the subscription")
            with hub.watch("m1") as one, hub.watch("m1") as two, hub.watch("m2") as elsewhere:
                assert one.is_set() and two.is_set(), "a stream reads at once"
                assert hub.streams == 3
                for event in (one, two, elsewhere):
                    event.clear()
                await other.publish("m1", 3)  # another prefix: another bot
                await services.stores.live.publish("m1", 4)
                await until_set(one, "m1's first stream")
                await until_set(two, "m1's second stream")
                assert not elsewhere.is_set()
            assert hub.streams == 0
        finally:
            await hub.close()

    def test_channels(self) -> None:
        live = LiveStore(None, Keys("dom"))  # type: ignore[arg-type]
        assert live.channel("abc") == "dom:live:abc"
        assert live.match_of(b"dom:live:abc") == "abc"
        assert live.pattern() == "dom:live:*"
