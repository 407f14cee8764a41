"""Updates already handled: Telegram may deliver an update twice (and a webhook worker that died mid-way
gets it again), so each handling marks the update first, and one whose handling failed is let go again."""

from __future__ import annotations

from typing import Any

from bot.storage.base import Failed, Store, ignore, text
from bot.storage.keys import Keys

# A handling of an update failed: drop its mark, if it is still this attempt's.
# KEYS: 1 the update's mark. ARGV: 1 the attempt. Returns 1 when dropped.
FORGET_DELIVERY = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

MARK_TTL = 86400
"""Seconds an update's mark is kept (Telegram gives up on an update long before)."""


class UpdateMarks(Store):
    """One mark per update id, naming the handling that took it."""

    def __init__(self, redis: Any, keys: Keys, *, failed: Failed = ignore) -> None:
        super().__init__(redis, keys, failed=failed)
        self._forget = self.script(FORGET_DELIVERY)

    async def first(self, update_id: int, attempt: str, ttl: int = MARK_TTL) -> bool:
        """True when ``attempt`` (a value unique to this handling) may handle the update: it marked the
        update first, or the mark is its own. Telegram may deliver an update twice; and a mark whose reply
        was lost (Redis hung, the client timed out and sent the SET again) must not pass for another's."""
        key = self.keys.update(update_id)
        if await self.call(self.redis.set(key, attempt, nx=True, ex=ttl)):
            return True
        mark: bytes | str | None = await self.call(self.redis.get(key))
        return mark is not None and text(mark) == attempt

    async def forget(self, update_id: int, attempt: str) -> None:
        """The handling ``attempt`` failed: a new delivery of the update may be handled (another
        attempt's mark stays)."""
        await self.run(self._forget, [self.keys.update(update_id)], [attempt])
