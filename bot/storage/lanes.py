"""Who delivers what: each lane of a match's delivery (its group, each seat's panel) is run by one process at
a time, under a lease in the match's slot; each process says every second that it is alive (its heartbeat),
so that a lane held by a process that died is taken over at once."""

from __future__ import annotations

from typing import Any

from bot.storage.base import Failed, Store, ignore, text
from bot.storage.keys import Keys

# KEYS: 1 the lease, 2 the lane's "run again" flag. ARGV: 1 the process's token, 2 the lease (ms),
# 3 (TAKE_LANE only, may be '') the token of a holder known to be dead, whose lease is taken over.
# TAKE_LANE returns '' when this process holds the lease now, else the holder's token (the holder is
# then asked to run the lane once more). LEAVE_LANE returns 1 when the lane must run again (the lease
# is kept and renewed), else drops the lease: 0. KEEP_LANE renews a lease this process holds (1), or
# says it lost it (0).
TAKE_LANE = """
local owner = redis.call('GET', KEYS[1])
if not owner or owner == ARGV[1] or owner == ARGV[3] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('DEL', KEYS[2])
  return ''
end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
return owner
"""

LEAVE_LANE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('DEL', KEYS[2]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
redis.call('DEL', KEYS[1])
return 0
"""

KEEP_LANE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""


class LaneStore(Store):
    """Leases on the lanes of matches, and the heartbeats of the processes that hold them."""

    def __init__(self, redis: Any, keys: Keys, *, failed: Failed = ignore) -> None:
        super().__init__(redis, keys, failed=failed)
        self._take = self.script(TAKE_LANE)
        self._leave = self.script(LEAVE_LANE)
        self._keep = self.script(KEEP_LANE)

    def _keys(self, match_id: str, lane: str) -> list[str]:
        return [self.keys.lane(match_id, lane), self.keys.lane_again(match_id, lane)]

    async def take(self, match_id: str, lane: str, token: str, lease: float) -> bool:
        """Whether this process (``token``) now delivers the lane, for ``lease`` seconds; False: another live
        process does, and is asked to run it once more. A holder that is not alive (killed: its heartbeat is
        gone) loses the lane at once."""
        keys = self._keys(match_id, lane)
        args: list[str | int] = [token, int(lease * 1000), ""]
        holder = text(await self.run(self._take, keys, args))
        if not holder:
            return True
        if await self.call(self.redis.exists(self.keys.process(holder))):
            return False
        args[2] = holder
        return not text(await self.run(self._take, keys, args))

    async def leave(self, match_id: str, lane: str, token: str, lease: float) -> bool:
        """Done with the lane: True when it must run again (another process asked; the lease is kept)."""
        args: list[str | int] = [token, int(lease * 1000)]
        return bool(await self.run(self._leave, self._keys(match_id, lane), args))

    async def keep(self, match_id: str, lane: str, token: str, lease: float) -> bool:
        """Renew the lease on the lane; False when this process no longer holds it."""
        args: list[str | int] = [token, int(lease * 1000)]
        return bool(await self.run(self._keep, [self.keys.lane(match_id, lane)], args))

    async def beat(self, token: str, ttl: float) -> None:
        """This process (``token``) is alive for ``ttl`` more seconds (the lanes it holds are its own)."""
        await self.call(self.redis.set(self.keys.process(token), "1", px=int(ttl * 1000)))
