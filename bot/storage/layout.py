"""The key layout, and the renaming of the keys of the layout before (``bot/storage/keys.py``).

Layout 2 gave every key that a script touches along with others a hash tag
(``{c:<chat>}``, ``{u:<user>}``, ``{g}``), so that a Redis Cluster can hold the
bot's data. Data written before it (one Redis) is renamed once, at the first
start of a bot that knows it: the players' tables, histories and active
matches carry on. Renaming is idempotent (a key renamed no longer matches),
so several processes starting at once do no harm; the layout key says it is
done.
"""

from __future__ import annotations

import logging
import re

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from bot.storage.keys import Keys

log = logging.getLogger(__name__)

LAYOUT = "2"
ID = r"(-?\d+)"
RULES = [
    (re.compile(p), target)
    for p, target in (
        (rf"act:{ID}:{ID}", "act:{{c:{0}}}:{1}"),
        (rf"actc:{ID}", "actc:{{c:{0}}}"),
        (rf"actu:{ID}", "actu:{{u:{0}}}"),
        (rf"chu:{ID}:{ID}", "chu:{{c:{0}}}:{1}"),
        (rf"st:all:{ID}", "st:{{g}}:{0}"),
        (rf"st:c{ID}:{ID}", "st:{{c:{0}}}:{1}"),
        ("lb:all", "lb:{{g}}"),
        (rf"lb:c{ID}", "lb:{{c:{0}}}"),
        (rf"hist:c:{ID}", "hist:{{c:{0}}}"),
        (rf"hist:u:{ID}", "hist:{{u:{0}}}"),
    )
]


def renamed(name: str) -> str | None:
    """The layout-2 name of a key name of the layout before (without the prefix), or None."""
    for pattern, target in RULES:
        found = pattern.fullmatch(name)
        if found:
            return target.format(*found.groups())
    return None


async def move_key(redis: Redis, source: str, target: str) -> bool:
    """Rename a key unless the target exists; in a cluster, where the two may be in different slots, it is
    copied with its TTL and the source deleted. Whether it moved."""
    if not isinstance(redis, RedisCluster):
        return bool(await redis.renamenx(source, target))
    dump = await redis.dump(source)
    if dump is None or int(await redis.exists(target)):
        return False
    ttl = int(await redis.pttl(source))
    await redis.restore(target, max(ttl, 0), dump)
    await redis.delete(source)
    return True


async def migrate(redis: Redis, keys: Keys) -> int:
    """Bring the data under the prefix to the current layout; the number of keys renamed."""
    if (await redis.get(keys.layout())) in (LAYOUT, LAYOUT.encode()):
        return 0
    start = f"{keys.prefix}:"
    moved = 0
    async for raw in redis.scan_iter(match=f"{start}*", count=1000):
        name = raw.decode() if isinstance(raw, bytes) else raw
        target = renamed(name[len(start) :])
        if target is None:
            continue
        if await move_key(redis, name, start + target):
            moved += 1
        else:
            log.warning("key %s kept: %s%s exists already", name, start, target)
    await redis.set(keys.layout(), LAYOUT)
    if moved:
        log.info("renamed %s keys to the key layout %s (hash tags for a Redis Cluster)", moved, LAYOUT)
    return moved
