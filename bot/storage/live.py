"""The live channel of each match: a PUBLISH after each change, for the Mini App's open pages.

Redis pub/sub, not a key: nothing is stored, so nothing expires or spans
slots. On a Redis Cluster a classic PUBLISH reaches every node, so a process
subscribes at any one node (``ClusterPubSub``). A message is only a wake-up
(the version written): a page reads the match as stored, so a message lost
while a subscriber reconnected costs nothing once it has subscribed again and
read every match it shows (``bot.webapp.live``).
"""

from __future__ import annotations

from typing import Any

from bot.storage.base import Store


class LiveStore(Store):
    """Publishing a match's change; the pattern every process subscribes to."""

    def channel(self, match_id: str) -> str:
        return f"{self.keys.prefix}:live:{match_id}"

    def pattern(self) -> str:
        """The channels of every match (one pattern subscription per process)."""
        return f"{self.keys.prefix}:live:*"

    def match_of(self, channel: bytes | str) -> str:
        """The match a channel of ``pattern`` is of."""
        name = channel.decode() if isinstance(channel, bytes) else channel
        return name.removeprefix(f"{self.keys.prefix}:live:")

    async def publish(self, match_id: str, version: int) -> None:
        """Tell the pages of ``match_id`` that it changed (``version``: the version written; -1, something
        besides the match: a rematch asked or begun)."""
        await self.call(self.redis.publish(self.channel(match_id), str(version)))

    def subscriber(self) -> Any:
        """A new pub/sub connection (a cluster's at one of its nodes); its subscription's confirmation comes as a
        message too (from then on, the server sends it every publication)."""
        return self.redis.pubsub()
