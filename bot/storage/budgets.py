"""Telegram's budgets per chat, counted in Redis so that every process shares them (``bot/limits.py``)."""

from __future__ import annotations

from typing import Any

from bot.storage.base import Store
from bot.storage.keys import Keys

# Take a slot of a chat's Telegram budget: a sliding window of the calls made to the chat, shared by
# every process. KEYS: 1 the window (sorted set of calls by time, ms), 2 when the last edit went (a
# string, ms); both in the chat's slot. ARGV: 1 now (ms), 2 the window (ms), 3 how many calls the
# window may hold before this one, 4 '1' when the call is an edit (paced at most one every ARGV[5]
# ms), 6 a member unique to this call. Returns 0 when the call may go (it is counted), else the ms to
# wait.
TAKE_SLOT = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local wait = 0
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  wait = tonumber(oldest[2]) + window - now
end
if ARGV[4] == '1' then
  local last = tonumber(redis.call('GET', KEYS[2]) or '-1e15')
  wait = math.max(wait, last + tonumber(ARGV[5]) - now)
end
if wait > 0 then return math.ceil(wait) end
redis.call('ZADD', KEYS[1], now, ARGV[6])
redis.call('PEXPIRE', KEYS[1], math.ceil(window) + 1000)
if ARGV[4] == '1' then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', math.ceil(tonumber(ARGV[5])) + 1000)
end
return 0
"""


class BudgetStore(Store):
    """The sliding windows of the calls made to each chat."""

    def __init__(self, redis: Any, keys: Keys) -> None:
        super().__init__(redis, keys)
        self._take = self.script(TAKE_SLOT)

    async def take(
        self, chat_id: int, *, now_ms: float, window_ms: float, limit: int, edit_gap_ms: float | None, member: str
    ) -> float:
        """Count a call to the chat if its window (``window_ms``) holds fewer than ``limit`` calls (and, an edit:
        ``edit_gap_ms`` has passed since the last edit): 0. Else the milliseconds to wait, nothing counted.
        Redis's own errors reach the caller (the limiter then counts in its process)."""
        args: list[str | int] = [
            repr(now_ms),
            repr(window_ms),
            limit,
            "0" if edit_gap_ms is None else "1",
            repr(edit_gap_ms or 0.0),
            member,
        ]
        keys = [self.keys.limits(chat_id), self.keys.limits_edit(chat_id)]
        return float(await self._take(keys=keys, args=args))
