"""One subscription per process to every match's live channel; each open page's stream waits here.

A message only wakes the streams of its match: they read the match as stored
and send it. After a lost connection the subscription is made again, and then
every stream is woken (whatever changed meanwhile is read then), so a page
never stays behind a change it was not told of.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

from redis.exceptions import RedisError

from bot.storage.live import LiveStore

log = logging.getLogger(__name__)

READ_TIMEOUT = 30.0
"""Seconds a read of the subscription waits for a message before it asks again (a quiet channel is normal)."""


class Hub:
    def __init__(self, live: LiveStore) -> None:
        self.live = live
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._task: asyncio.Task[None] | None = None
        self.subscribed = asyncio.Event()
        """Set while the subscription is up (tests wait for it before they count on a push)."""
        self.subscriptions = 0
        """How often the subscription was confirmed (again after each lost connection)."""

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._listen(), name="mini app: live channel")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    @contextlib.contextmanager
    def watch(self, match_id: str) -> Iterator[asyncio.Event]:
        """An event set whenever ``match_id`` may have changed (set at once: the stream's first read)."""
        changed = asyncio.Event()
        changed.set()
        watchers = self._watchers.setdefault(match_id, set())
        watchers.add(changed)
        try:
            yield changed
        finally:
            watchers.discard(changed)
            if not watchers:
                self._watchers.pop(match_id, None)

    @property
    def streams(self) -> int:
        """Open pages' streams in this process."""
        return sum(len(w) for w in self._watchers.values())

    def wake(self, match_id: str) -> None:
        for changed in self._watchers.get(match_id, ()):
            changed.set()

    def _wake_all(self) -> None:
        for match_id in list(self._watchers):
            self.wake(match_id)

    async def _listen(self) -> None:
        delay = 0.25
        while True:
            pubsub = self.live.subscriber()
            try:
                await pubsub.psubscribe(self.live.pattern())
                while True:
                    message = await pubsub.get_message(timeout=READ_TIMEOUT)
                    kind = None if message is None else message.get("type")
                    if kind == "pmessage":
                        self.wake(self.live.match_of(message["channel"]))
                    elif kind == "psubscribe":  # the server has it: from here on nothing is missed
                        self.subscriptions += 1
                        self.subscribed.set()
                        delay = 0.25
                        self._wake_all()  # what changed while the subscription was down
            except (RedisError, OSError) as exc:
                if self.subscribed.is_set():
                    log.warning("the Mini App's live channel is down (%s); subscribing again", exc)
                self.subscribed.clear()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
            finally:
                with contextlib.suppress(RedisError, OSError, RuntimeError):
                    await pubsub.aclose()
