"""Tournaments in Redis: each one a JSON string in its chat's slot, beside who plays there, so that starting a
pairing (the tournament's new state, the two players made active in the chat with the pairing's match, the
match's record kept for the steps after) is one script, refused when either player plays there already.

Every change is a compare-and-set on the JSON as read: two processes moving the
same tournament on cannot both write, and the loser reads it again.
"""

from __future__ import annotations

import contextlib
import enum
from typing import Any

from redis.exceptions import ResponseError

from bot.storage.base import Failed, Store, ignore, text
from bot.storage.keys import Keys
from bot.storage.layout import move_key

# Open a tournament unless the chat has one signing up or running (or the tournament exists already: one moved
# here from the group before its upgrade, by a step run again).
# KEYS: 1 tournament, 2 the chat's current tournament. ARGV: 1 id, 2 JSON.
# Returns '' when opened, else the id of the chat's current one (its own id when it exists already).
OPEN = """
if redis.call('EXISTS', KEYS[1]) == 1 then return ARGV[1] end
local current = redis.call('GET', KEYS[2])
if current then return current end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1])
return ''
"""

# Replace a tournament's JSON if it is still as read; one that ends (ARGV[3] = 1) gets a TTL, stops being the
# chat's current one, and counts for its champion (ARGV[5], '' for none).
# KEYS: 1 tournament, 2 the chat's current tournament, 3 the chat's tournament wins.
# ARGV: 1 JSON as read, 2 new JSON, 3 ends (0/1), 4 id, 5 champion's user id or '', 6 TTL.
# Returns 1, or 0 when it changed since it was read.
WRITE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] == '1' then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[6])
  if redis.call('GET', KEYS[2]) == ARGV[4] then redis.call('DEL', KEYS[2]) end
  if ARGV[5] ~= '' then redis.call('HINCRBY', KEYS[3], ARGV[5], 1) end
else
  redis.call('SET', KEYS[1], ARGV[2])
end
return 1
"""

# Start a pairing: the tournament as read becomes its new JSON (the pairing's match set), and the two players
# become active in the chat with the match, unless either plays there already; the match's record is kept for
# the steps in the match's own slot (as an accepted challenge's is).
# KEYS: 1 tournament, 2-3 active keys of the two players, 4 the chat's active set, 5 the accepted record.
# ARGV: 1 JSON as read, 2 new JSON, 3 match id, 4 record, 5 TTL.
# Returns {1}, {-1} changed since read, {-2, first, second}: 1 for each of the two who plays in the chat.
START = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {-1} end
local first, second = redis.call('EXISTS', KEYS[2]), redis.call('EXISTS', KEYS[3])
if first == 1 or second == 1 then return {-2, first, second} end
redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[5])
redis.call('SET', KEYS[3], ARGV[3], 'EX', ARGV[5])
redis.call('SADD', KEYS[4], ARGV[3])
redis.call('SET', KEYS[5], ARGV[4], 'EX', ARGV[5])
redis.call('SET', KEYS[1], ARGV[2])
return {1}
"""


class Started(enum.Enum):
    """What became of starting a pairing."""

    STARTED = 1
    CHANGED = -1
    """The tournament changed since it was read (read it again)."""
    PLAYING = -2
    """One of the two (or both) plays in the chat already (a match of their own): the pairing waits."""


class TournamentStore(Store):
    """Tournaments, the chat's current one, and the chat's tournament wins."""

    def __init__(self, redis: Any, keys: Keys, *, failed: Failed = ignore) -> None:
        super().__init__(redis, keys, failed=failed)
        self._open = self.script(OPEN)
        self._write = self.script(WRITE)
        self._start = self.script(START)

    async def read(self, tournament_id: str) -> bytes | str | None:
        """The tournament's JSON as stored (None: no such tournament, or it ended long ago)."""
        found: bytes | str | None = await self.call(self.redis.get(self.keys.tournament(tournament_id)))
        return found

    async def current(self, chat_id: int) -> str | None:
        """The id of the chat's tournament that signs up or runs."""
        value = await self.call(self.redis.get(self.keys.chat_tournament(chat_id)))
        return None if value is None else text(value)

    async def open(self, tournament_id: str, chat_id: int, data: str) -> str | None:
        """Store a new tournament; None when opened, else the id of the chat's current one (``tournament_id``
        itself when it is stored already)."""
        keys = [self.keys.tournament(tournament_id), self.keys.chat_tournament(chat_id)]
        answer = text(await self.run(self._open, keys, [tournament_id, data]))
        return answer or None

    async def write(
        self, tournament_id: str, chat_id: int, raw: bytes | str, data: str, *, ends: bool = False,
        champion: int | None = None, ttl: int = 0,
    ) -> bool:  # fmt: skip
        """Replace the tournament if it is still ``raw``; one that ``ends`` is kept ``ttl`` seconds more, stops
        being the chat's current one and counts a win for its ``champion``. False when it changed."""
        k = self.keys
        keys = [k.tournament(tournament_id), k.chat_tournament(chat_id), k.tournament_wins(chat_id)]
        args = [raw, data, "1" if ends else "0", tournament_id, "" if champion is None else champion, ttl]
        return int(await self.run(self._write, keys, args)) == 1

    async def start(
        self, tournament_id: str, chat_id: int, raw: bytes | str, data: str, players: tuple[int, int],
        match_id: str, record: str, *, accepted: str, ttl: int,
    ) -> tuple[Started, tuple[int, ...]]:  # fmt: skip
        """Start a pairing's match ``match_id`` (its ``record``, kept under the name ``accepted``) if the
        tournament is still ``raw`` and neither player plays in the chat; the tournament becomes ``data``. With
        ``PLAYING``, which of the two play (0, 1 or both)."""
        k = self.keys
        keys = [
            k.tournament(tournament_id),
            k.active(chat_id, players[0]),
            k.active(chat_id, players[1]),
            k.chat_matches(chat_id),
            k.accepted(chat_id, accepted),
        ]
        answer = await self.run(self._start, keys, [raw, data, match_id, record, ttl])
        return Started(int(answer[0])), tuple(seat for seat, busy in enumerate(answer[1:]) if int(busy))

    async def accepted(self, chat_id: int, accepted: str) -> bytes | str | None:
        """The record (JSON) kept by ``start`` under the name ``accepted``."""
        found: bytes | str | None = await self.call(self.redis.get(self.keys.accepted(chat_id, accepted)))
        return found

    async def forget_accepted(self, chat_id: int, accepted: str) -> None:
        """The record kept by ``start`` is not needed any more (its match was created): a match whose record
        expired after its end is never created again from it."""
        await self.call(self.redis.delete(self.keys.accepted(chat_id, accepted)))

    async def wins(self, chat_id: int, user_id: int) -> int:
        """How many of the chat's tournaments the user won."""
        value = await self.call(self.redis.hget(self.keys.tournament_wins(chat_id), str(user_id)))
        return 0 if value is None else int(value)

    async def move_wins(self, old: int, new: int) -> bool:
        """Chat ``old`` became ``new``: its tournament wins go there (kept where ``new`` has some already)."""
        source, target = self.keys.tournament_wins(old), self.keys.tournament_wins(new)
        if not await self.call(self.redis.exists(source)):
            return False
        with contextlib.suppress(ResponseError):  # gone meanwhile (another process moved it)
            return await self.call(move_key(self.redis, source, target))
        return False

    async def tries(self, tournament_id: str, what: str, *, ttl: int) -> int:
        """Count one more try of a step (``announce``); how many there were, this one included."""
        key = self.keys.tournament_mark(tournament_id, f"tries:{what}")
        count = int(await self.call(self.redis.incr(key)))
        if count == 1:
            await self.call(self.redis.expire(key, ttl))
        return count

    async def mark(self, tournament_id: str, what: str, *, ttl: int) -> bool:
        """Take a one-time mark (``announced``); False when it was taken already."""
        key = self.keys.tournament_mark(tournament_id, what)
        return bool(await self.call(self.redis.set(key, "1", nx=True, ex=ttl)))

    async def unmark(self, tournament_id: str, what: str) -> bool:
        """Drop a mark; whether it was there."""
        return bool(await self.call(self.redis.delete(self.keys.tournament_mark(tournament_id, what))))
