"""Telegram's budgets per chat, counted in Redis so that every process shares them (``bot/limits.py``)."""

from __future__ import annotations

from typing import Any

from bot.storage.base import Failed, Store, ignore
from bot.storage.keys import Keys

# The sliding window both scripts below count in, shared by every process. KEYS: 1 the window (a sorted set of
# what was counted, by time, ms). ARGV: 1 now (ms), 2 the window (ms), 3 how many it may hold before this one;
# ``linger`` set before it: the ms a key outlives its window (``BudgetStore``). Leaves ``wait``: 0 when one more
# may be counted, else the ms until the oldest in the way leaves the window; ``count_one(member)`` counts one
# (``member`` unique to it).
WINDOW = """
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
local function count_one(member)
  redis.call('ZADD', KEYS[1], now, member)
  redis.call('PEXPIRE', KEYS[1], math.ceil(window) + linger)
end
"""

# Take a slot of a chat's Telegram budget: the window of the calls made to the chat. KEYS: 1 the window, 2 when
# the last edit went (a string, ms); both in the chat's slot. ARGV: 1-3 the window's, 4 '1' when the call is an
# edit (paced at most one every ARGV[5] ms), 6 a member unique to this call, 7 the linger. Returns 0 when the
# call may go (it is counted), else the ms to wait.
TAKE_SLOT = (
    "local linger = tonumber(ARGV[7])\n"
    + WINDOW
    + """
if ARGV[4] == '1' then
  local last = tonumber(redis.call('GET', KEYS[2]) or '-1e15')
  wait = math.max(wait, last + tonumber(ARGV[5]) - now)
end
if wait > 0 then return math.ceil(wait) end
count_one(ARGV[6])
if ARGV[4] == '1' then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', math.ceil(tonumber(ARGV[5])) + linger)
end
return 0
"""
)

# A call counted by TAKE_SLOT has ended: it counts from now, when Telegram has surely taken it, rather than from
# when its slot was taken, so that however long it was on its way no window Telegram counts holds more than the
# budget. KEYS as TAKE_SLOT's. ARGV: 1 now (ms), 2 the member it was counted as, 3 '1' when it was an edit (the
# edits' pacing moves too), 4 the window (ms), 5 the edit gap (ms). Returns 1 when it moved, 0 when it is gone
# (out of the window already) or counted later already. ARGV 6: the linger.
FINISH_SLOT = """
local now = tonumber(ARGV[1])
local linger = tonumber(ARGV[6])
local at = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not at or tonumber(at) >= now then return 0 end
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[2])
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[4])) + linger)
if ARGV[3] == '1' and tonumber(redis.call('GET', KEYS[2]) or '-1e15') < now then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', math.ceil(tonumber(ARGV[5])) + linger)
end
return 1
"""

# One member's commands in a group: the window of those answered, and a single notice when the first one over
# goes unanswered. KEYS: 1 the window, 2 the notice was given (a string that lives until the window has room
# again); both in the chat's slot. ARGV: 1-3 the window's, 4 a member unique to this command, 5 the linger.
# Returns 0: answer it (it is counted); 1: the first one over, give the notice; 2: say nothing.
TAKE_COMMAND = (
    "local linger = tonumber(ARGV[5])\n"
    + WINDOW
    + """
if wait <= 0 then
  count_one(ARGV[4])
  redis.call('DEL', KEYS[2])
  return 0
end
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', math.max(1, math.ceil(wait))) then return 1 end
return 2
"""
)


LINGER_MS = 1000
"""Milliseconds a window's key outlives its window in Redis (a key's TTL runs on Redis's own clock)."""
SIMULATED_LINGER_MS = 3_600_000
"""The same where the bot's clock is not the real one (``Clock.real``, a test's simulated clock): the windows are
counted on that clock, which may run at any pace against Redis's; a key that expired by Redis's clock while the
bot's had not yet moved past the window (a loaded machine slowing a simulated clock that is otherwise far faster)
would grant a second call to a private chat within its second."""


class BudgetStore(Store):
    """The sliding windows of the calls made to each chat."""

    def __init__(self, redis: Any, keys: Keys, *, failed: Failed = ignore, linger_ms: int = LINGER_MS) -> None:
        super().__init__(redis, keys, failed=failed)
        self.linger_ms = linger_ms
        self._take = self.script(TAKE_SLOT)
        self._finish = self.script(FINISH_SLOT)
        self._command = self.script(TAKE_COMMAND)

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
            self.linger_ms,
        ]
        keys = [self.keys.limits(chat_id), self.keys.limits_edit(chat_id)]
        return float(await self._take(keys=keys, args=args))

    async def finish(
        self, chat_id: int, *, now_ms: float, member: str, edit: bool, window_ms: float, edit_gap_ms: float
    ) -> bool:
        """The call counted as ``member`` has ended: it counts from ``now_ms`` (and, an edit, the pacing of the
        next one too). False when it was no longer in the window, or counted from later already."""
        args: list[str | int] = [
            repr(now_ms),
            member,
            "1" if edit else "0",
            repr(window_ms),
            repr(edit_gap_ms),
            self.linger_ms,
        ]
        keys = [self.keys.limits(chat_id), self.keys.limits_edit(chat_id)]
        return bool(await self._finish(keys=keys, args=args))

    async def take_command(
        self, chat_id: int, user_id: int, *, now_ms: float, window_ms: float, limit: int, member: str
    ) -> int:
        """Count one member's command in a group if fewer than ``limit`` were answered in ``window_ms``: 0.
        Else 1 for the first one over (the member is told once), 2 for the rest until the window has room."""
        keys = [self.keys.commands(chat_id, user_id), self.keys.commands_noticed(chat_id, user_id)]
        return int(await self._command(keys=keys, args=[repr(now_ms), repr(window_ms), limit, member, self.linger_ms]))
