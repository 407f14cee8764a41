"""Matches in Redis: each match's record and version, what its messages show, the results still to post, the
set of matches whose screens are due, the turn clock's marks, and who plays where.

A match lives in its own slot (``{m:<id>}``): the hash holds the version
(``v``) with the token of the write that made it (``w``), the record (``d``)
and what each message shows (``Keys.match``); the posts list beside it holds
the results still to post. Every write is a compare-and-set on version and
token in one script, and marks the match's screens as due first (in the same
script on one server; in a cluster the due set is in another slot, and the
mark goes first, so that a process dying after the write leaves it due).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from bot.models import Messages, Summary
from bot.storage.base import Failed, Store, ignore, text
from bot.storage.keys import Keys

# Compare-and-set on the match version and the token of the write that made it
# (fields 'v' and 'w'; the same version made again after Redis lost writes has
# another token). KEYS[1] the match hash.
# ARGV: 1 expected 'version/token', 2 new 'version/token', 3 new record, 4 TTL
# seconds; 5 the field of the pressed panel ('p0', 'p1'; '' for a write that is
# not a press on a panel) and 6 the pressed message's id: a message older than
# that panel is an old panel, and nothing is written.
# Returns {1} when written, {0, version, record} when the match is not the one
# expected, {-1} when the match is gone, {-2} when the press came from an old panel.
_CAS = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {-1} end
if ARGV[5] ~= '' then
  local panel = redis.call('HGET', KEYS[1], ARGV[5])
  if panel and tonumber(ARGV[6]) < tonumber(panel) then return {-2} end
end
if v .. '/' .. (redis.call('HGET', KEYS[1], 'w') or '') ~= ARGV[1] then
  return {0, v, redis.call('HGET', KEYS[1], 'd')}
end
local nv, nw = string.match(ARGV[2], '^([^/]*)/(.*)$')
redis.call('HSET', KEYS[1], 'v', nv, 'w', nw, 'd', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
"""


# What every write of a match also does: append the results it made to the
# match's posts (KEYS[posts]). ARGV[count] the number of posts, the posts right
# after it. (The writer has marked the match's screens as due before the write:
# the set of those is in another slot.)
def _posts(*, posts: int, count: int) -> str:
    return f"""
for i = 1, tonumber(ARGV[{count}]) do redis.call('RPUSH', KEYS[{posts}], ARGV[{count} + i]) end
if redis.call('EXISTS', KEYS[{posts}]) == 1 then redis.call('EXPIRE', KEYS[{posts}], ARGV[4]) end
"""


# A move that leaves the match on: CAS, the results it made appended to the posts, and (ARGV[7],
# when the move hands the turn to a seat: 'p0n' or 'p1n') that seat's panel marked to come as a new
# message. Returns, when written, {1, the message fields (MESSAGE_FIELDS), the posts}: what the
# match's messages show now, for its delivery to start from without reading them.
# KEYS: 1 match, 2 posts. ARGV: 1-6 as CAS, 7 the handed panel's field or '', 8 number of posts,
# 9... posts.
MESSAGE_FIELDS = (
    "t", "tn", "tv", "p0", "p0v", "p0n", "p0x", "p1", "p1v", "p1n", "p1x", "s", "f", "c0", "c1", "r", "rp", "g",
    "q0", "q1", "xg", "x0", "x1",
)  # fmt: skip
MOVE = (
    _CAS
    + _posts(posts=2, count=8)
    + f"""
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], ARGV[7], '-1') end
return {{1, redis.call('HMGET', KEYS[1], '{"', '".join(MESSAGE_FIELDS)}'), redis.call('LRANGE', KEYS[2], 0, -1)}}
"""
)

# The move that ends a match (by reaching the target, surrender, forfeit or abandon), in the
# match's slot: CAS, and what the rest of the finish needs (field 'f', JSON: how it counts, the
# players, the summary), until the steps in the other slots are done (bot/storage/results.py, then
# FINISHED, which posts the result and drops 'f').
# KEYS: 1 match, 2 posts. ARGV: 1-6 as CAS, 7 the finish (JSON), 8 number of posts, 9... posts.
FINISH = (
    _CAS
    + _posts(posts=2, count=8)
    + """
redis.call('HSET', KEYS[1], 'f', ARGV[7])
return {1}
"""
)

# The last step of a finish, in the match's slot: the summary is kept with the match (field 's') and
# its result posted to the group (a summary given), and the finish is no longer pending.
# KEYS: 1 match, 2 posts. ARGV: 1 the summary or '', 2 TTL of the posts.
# Returns 1 when this call did it, 0 when it was done already.
FINISHED = """
if redis.call('HEXISTS', KEYS[1], 'f') == 0 then return 0 end
if ARGV[1] ~= '' then
  redis.call('HSET', KEYS[1], 's', ARGV[1])
  redis.call('RPUSH', KEYS[2], '{"k":"match"}')
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
redis.call('HDEL', KEYS[1], 'f')
return 1
"""

# Write a new match's record in its slot unless it is there already. KEYS: 1 match.
# ARGV: 1 record, 2 TTL. Returns 1 when written.
CREATE_MATCH = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '0', 'd', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""

# Drop the oldest post of a match once it has been delivered (only if it is
# still that post: a second delivery of it changes nothing).
# KEYS: 1 posts. ARGV: 1 the post as read. Returns 1 when dropped.
POP_POST = """
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then redis.call('LPOP', KEYS[1]) return 1 end
return 0
"""


# Record what the match's messages show now (fields of the match hash), while the match exists.
# KEYS: 1 match. ARGV: field, value, field, value... up to ``last`` (after MARK_DUE_FIRST, its two
# arguments follow).
def _shown(last: str) -> str:
    return f"""
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 1, {last}))
return 1
"""


SHOWN = _shown("#ARGV")

# A press on the match's result in its group, on a message newer than the result Redis knows (or before it
# knows one): the result the group lane has just posted and not yet recorded. It is the result from now on (what
# the lane records next names the same message). KEYS: 1 match. ARGV: 1 message id, 2 1 for a picture (the
# card), else 0. Returns 1 when recorded.
RESULT_PRESSED = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local known = redis.call('HGET', KEYS[1], 'r')
if known and tonumber(known) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'r', ARGV[1], 'rp', ARGV[2])
return 1
"""


# Whether a match's screens are up to date, in the match's slot: no post left, no finish pending,
# and the table and both panels at the match's version (or not to be delivered: ARGV[1] is '1'
# when the group is gone, ARGV[2] and ARGV[3] when that seat's player blocked the bot; or given up at
# this version: 'xg', 'x0', 'x1' hold the version a lane stopped trying at), and once the
# match has its summary ('s') each seat's private card and post-mortem sent ('c0', 'c1', 'q0', 'q1';
# not needed for a seat not to be delivered). A match that expired is up to date too. First, the
# versions that edits brought the table and the panels to since they were last recorded ('tv', 'p0v',
# 'p1v' and a version each, from ARGV[4] to ARGV[last]), never lowered (an edit is recorded lazily: done again, it
# changes nothing); among them 'p0x' or 'p1x' and a message id: that replaced panel was tidied,
# its field is dropped if it still names it.
# KEYS: 1 match, 2 posts. Returns 1 when up to date.
def _settled(last: str) -> str:
    return f"""
local f = redis.call('HMGET', KEYS[1], 'v', 'tv', 'p0v', 'p1v', 'f', 's', 'c0', 'c1', 'q0', 'q1', 'xg', 'x0', 'x1')
if not f[1] then return 1 end
local g = ARGV[1] == '1' or f[11] == f[1]
local b0 = ARGV[2] == '1' or f[12] == f[1]
local b1 = ARGV[3] == '1' or f[13] == f[1]
local slot = {{tv = 2, p0v = 3, p1v = 4}}
for i = 4, {last} - 1, 2 do
  local shown = tonumber(ARGV[i + 1])
  local at = slot[ARGV[i]]
  if (ARGV[i] == 'p0x' or ARGV[i] == 'p1x') and redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
  elseif at and shown > tonumber(f[at] or '-1') then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    f[at] = ARGV[i + 1]
  end
end
if f[5] then return 0 end
if redis.call('LLEN', KEYS[2]) > 0 and not g then return 0 end
if f[2] ~= f[1] and not g then return 0 end
if f[3] ~= f[1] and not b0 then return 0 end
if f[4] ~= f[1] and not b1 then return 0 end
if f[6] and not f[7] and not b0 then return 0 end
if f[6] and not f[8] and not b1 then return 0 end
if f[6] and not f[9] and not b0 then return 0 end
if f[6] and not f[10] and not b1 then return 0 end
return 1
"""


SETTLED = _settled("#ARGV")

# Mark a match's screens as due (before each write of it): its score in the set of matches whose
# screens are due goes up, by at least a microsecond each time, so that a settle that read the
# score before this mark does not take the match out (UNDUE). KEYS: 1 the set. ARGV: 1 match id,
# 2 now. (Several ids: ARGV[1], ARGV[3]... each with its time after.)
MARK_DUE = """
for i = 1, #ARGV, 2 do
  local now = tonumber(ARGV[i + 1])
  local was = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if was and tonumber(was) >= now then now = tonumber(was) + 0.000001 end
  redis.call('ZADD', KEYS[1], now, ARGV[i])
end
return 1
"""

# On one server (no cluster) a write marks its match due in its own script: this goes first in it.
# KEYS[#KEYS] the set of matches whose screens are due; ARGV[#ARGV - 1] the match id, ARGV[#ARGV] now.
MARK_DUE_FIRST = """
local due_now = tonumber(ARGV[#ARGV])
local due_was = redis.call('ZSCORE', KEYS[#KEYS], ARGV[#ARGV - 1])
if due_was and tonumber(due_was) >= due_now then due_now = tonumber(due_was) + 0.000001 end
redis.call('ZADD', KEYS[#KEYS], due_now, ARGV[#ARGV - 1])
"""

# On one server, a settle in one script: SETTLED, then the match out of the due set.
# KEYS: 1 match, 2 posts, 3 the due set. ARGV: as SETTLED, then the match id last.
SETTLE_HERE = (
    "local function settled()\n"
    + _settled("#ARGV - 1")
    + """end
if settled() == 1 then redis.call('ZREM', KEYS[3], ARGV[#ARGV]) return 1 end
return 0
"""
)

# A settled match leaves the set of those whose screens are due, unless it was marked again since
# its score was read. KEYS: 1 the set. ARGV: 1 match id, 2 the score as read. Returns 1 when taken out.
UNDUE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""

# Mark that the turn clock did something for this version of a match (``r`` reminded,
# ``o`` offered the win), once: a second caller for the same version gets 0.
# KEYS: 1 the match's clock marks. ARGV: 1 field, 2 version, 3 TTL.
MARK_CLOCK = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


class Written(enum.Enum):
    """What became of a compare-and-set write of a match."""

    WRITTEN = 1
    LOST = 0
    """Another write got there first: ``Commit.stored`` is what Redis holds."""
    GONE = -1
    """The match expired."""
    OLD_PANEL = -2
    """The press came from a message older than the player's panel: nothing was written."""


@dataclass(frozen=True)
class Commit:
    """The answer of a write of a match."""

    outcome: Written
    stored: bytes | None = None
    """The record Redis holds, when the write lost."""
    messages: Messages | None = None
    """What the match's messages show, read by the write itself (a move that leaves the match on)."""


def messages_of(f: dict[str, Any], posts: list[Any]) -> Messages:
    """The match's messages from its hash's message fields (``MESSAGE_FIELDS``, None where missing) and posts."""

    def num(name: str) -> int | None:
        return None if f[name] is None else int(f[name])

    def version(name: str) -> int:
        return -1 if f[name] is None else int(f[name])

    summary = f["s"]
    return Messages.model_construct(
        table=num("t"),
        table_deal=num("tn"),
        table_version=version("tv"),
        panels=(num("p0"), num("p1")),
        panel_versions=(version("p0v"), version("p1v")),
        panel_since=(version("p0n"), version("p1n")),
        panels_replaced=(num("p0x"), num("p1x")),
        posts=[text(post) for post in posts],
        summary=None if summary is None else Summary.model_validate_json(summary),
        finishing=None if f["f"] is None else text(f["f"]),
        cards=(f["c0"] is not None, f["c1"] is not None),
        reviews=(f["q0"] is not None, f["q1"] is not None),
        result=num("r"),
        result_photo=f["rp"] is not None and int(f["rp"]) == 1,
        general=f["g"] is not None,
        given_up={lane: int(f[f"x{lane}"]) for lane in ("g", "0", "1") if f[f"x{lane}"] is not None},
    )


class MatchStore(Store):
    """Matches, their messages and posts, the due set, the clock's marks and the indexes of who plays where."""

    def __init__(self, redis: Any, keys: Keys, *, clock: Callable[[], float], failed: Failed = ignore) -> None:
        super().__init__(redis, keys, failed=failed)
        self.clock = clock
        """The time a mark of the due set is scored with."""
        self._move = self.script(MOVE)
        self._finish = self.script(FINISH)
        self._finished = self.script(FINISHED)
        self._create = self.script(CREATE_MATCH)
        self._pop_post = self.script(POP_POST)
        self._shown = self.script(SHOWN)
        self._result_pressed = self.script(RESULT_PRESSED)
        self._settled = self.script(SETTLED)
        self._settle_here = self.script(SETTLE_HERE)
        self._mark_due = self.script(MARK_DUE)
        self._undue = self.script(UNDUE)
        self._mark_clock = self.script(MARK_CLOCK)
        # On one server, a write marks its match due itself (one command each).
        self._move_marking = self.script(MARK_DUE_FIRST + MOVE)
        self._finish_marking = self.script(MARK_DUE_FIRST + FINISH)
        self._shown_marking = self.script(MARK_DUE_FIRST + _shown("#ARGV - 2"))

    # -- the record and its messages --------------------------------------------

    async def record(self, match_id: str) -> bytes | None:
        """The stored record (JSON), None when the match is gone."""
        return cast(bytes | None, await self.call(self.redis.hget(self.keys.match(match_id), "d")))

    async def screens(self, match_id: str, *, with_record: bool = False) -> tuple[bytes | None, Messages]:
        """The match's messages (and, ``with_record``, its record: None when gone), read at one moment."""
        key = self.keys.match(match_id)
        names = (*MESSAGE_FIELDS, "d") if with_record else MESSAGE_FIELDS
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hmget(key, list(names))
            pipe.lrange(self.keys.posts(match_id), 0, -1)
            fields, posts = await self.call(pipe.execute())
        f = dict(zip(names, fields, strict=True))
        return f.get("d"), messages_of(f, posts)

    async def messages(self, match_id: str) -> Messages:
        """The match's messages, what each shows, and the results still to post."""
        return (await self.screens(match_id))[1]

    async def panel_message(self, match_id: str, seat: int) -> int | None:
        """The id of the seat's current panel message (one field: the check a press makes)."""
        value = await self.call(self.redis.hget(self.keys.match(match_id), f"p{seat}"))
        return None if value is None else int(value)

    async def versions(self, match_ids: list[str]) -> list[int | None]:
        """The stored version of each match (None: gone), in one round trip."""
        if not match_ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hget(self.keys.match(match_id), "v")
            found = await self.call(pipe.execute())
        return [None if v is None else int(v) for v in found]

    async def shown(self, match_id: str, **fields: int) -> None:
        """Record what the match's messages show now (``t``, ``tn``, ``tv``, ``p0``, ``p0v``, ``p0n``...).

        Message ids and shown versions are not the match's version: storing them never makes a button stale.
        """
        args: list[str | int] = [x for item in fields.items() for x in item]
        await self.run(self._shown, [self.keys.match(match_id)], args)

    async def shown_due(self, match_id: str, **fields: int) -> None:
        """``shown``, with the match's screens marked due first (what it records must be shown again)."""
        keys = [self.keys.match(match_id)]
        args: list[str | int] = [x for item in fields.items() for x in item]
        if self.cluster:
            await self.mark_due(match_id)
            await self.run(self._shown, keys, args)
        else:
            await self.run(self._shown_marking, [*keys, self.keys.screens_due()], [*args, match_id, self.clock()])

    async def result_pressed(self, match_id: str, message_id: int, *, photo: bool) -> bool:
        """A press came on the match's result ``message_id`` in its group: the result from now on unless Redis
        knows that one or a newer (``RESULT_PRESSED``); True when recorded."""
        return bool(await self.run(self._result_pressed, [self.keys.match(match_id)], [message_id, int(photo)]))

    async def posted(self, match_id: str, post: str) -> None:
        """The oldest result of the match was posted."""
        await self.run(self._pop_post, [self.keys.posts(match_id)], [post])

    # -- writes ------------------------------------------------------------------

    async def commit_move(
        self,
        match_id: str,
        *,
        expected: str,
        written: str,
        record: str,
        ttl: int,
        pressed: tuple[str, int] | None,
        handed: str,
        posts: list[str],
    ) -> Commit:
        """Write a move that leaves the match on if the match is still at ``expected`` (``version/token``),
        as ``written``; ``pressed``: the pressed panel's field and message (an older one is an old panel);
        ``handed``: the field of the panel that gets the turn (``p0n``, ``p1n``) or ''; ``posts``: results
        to post. Written, it answers what the match's messages show."""
        panel: list[str | int] = ["", 0] if pressed is None else [*pressed]
        args = [expected, written, record, ttl, *panel, handed, len(posts), *posts]
        answer = await self._write(match_id, self._move, self._move_marking, args)
        if int(answer[0]) == 1:
            messages = messages_of(dict(zip(MESSAGE_FIELDS, answer[1], strict=True)), answer[2])
            return Commit(Written.WRITTEN, messages=messages)
        return _lost(answer)

    async def commit_finish(
        self,
        match_id: str,
        *,
        expected: str,
        written: str,
        record: str,
        ttl: int,
        pressed: tuple[str, int] | None,
        finishing: str,
        posts: list[str],
    ) -> Commit:
        """Write the move that ends the match (as ``commit_move``), leaving ``finishing`` (JSON: what the
        rest of the finish needs) with it until ``finished``."""
        panel: list[str | int] = ["", 0] if pressed is None else [*pressed]
        args = [expected, written, record, ttl, *panel, finishing, len(posts), *posts]
        answer = await self._write(match_id, self._finish, self._finish_marking, args)
        return Commit(Written.WRITTEN) if int(answer[0]) == 1 else _lost(answer)

    async def _write(self, match_id: str, script: Any, marking: Any, args: list[Any]) -> Any:
        keys = [self.keys.match(match_id), self.keys.posts(match_id)]
        if self.cluster:
            await self.mark_due(match_id)
            return await self.run(script, keys, args)
        return await self.run(marking, [*keys, self.keys.screens_due()], [*args, match_id, self.clock()])

    async def finished(self, match_id: str, summary: str, *, ttl: int) -> bool:
        """The last step of a finish: the summary (JSON, or '') kept with the match and its result posted;
        False when it was done already."""
        keys = [self.keys.match(match_id), self.keys.posts(match_id)]
        return bool(int(await self.run(self._finished, keys, [summary, ttl])))

    async def create(self, match_id: str, record: str, *, ttl: int) -> bool:
        """Write a new match's record unless it is there already (True when written now)."""
        return bool(int(await self.run(self._create, [self.keys.match(match_id)], [record, ttl])))

    # -- the due set -----------------------------------------------------------------

    async def mark_due(self, *match_ids: str) -> None:
        """Mark the matches' screens as due (before a write of them)."""
        now = self.clock()
        await self.run(self._mark_due, [self.keys.screens_due()], [x for m in match_ids for x in (m, now)])

    async def screens_due(self) -> list[str]:
        """Ids of the matches whose messages are behind (oldest first)."""
        ids = await self.call(self.redis.zrange(self.keys.screens_due(), 0, -1))
        return [text(cast(bytes, i)) for i in ids]

    async def due_summary(self) -> tuple[int, float | None]:
        """How many matches have screens behind, and the mark (time of the write) of the one behind longest."""
        key = self.keys.screens_due()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zcard(key)
            pipe.zrange(key, 0, 0, withscores=True)
            count, first = await self.call(pipe.execute())
        return int(count), float(first[0][1]) if first else None

    async def settle(
        self, match_id: str, *, group_gone: bool, blocked: tuple[bool, bool], edited: dict[str, int] | None = None
    ) -> bool:
        """Drop the match from the due set if every message is at its version; True when they were (and the
        match is out of the due set now). On a cluster its mark is read first and taken out only if still the
        same (a write marks the match before it writes): False when a write marked it meanwhile.
        ``edited``: the versions that edits brought the table and panels to (``tv``, ``p0v``, ``p1v``), recorded
        first (never lowered)."""
        k = self.keys
        flags: list[str | int] = ["1" if group_gone else "0", *("1" if b else "0" for b in blocked)]
        flags += [x for item in (edited or {}).items() for x in item]
        if not self.cluster:
            keys = [k.match(match_id), k.posts(match_id), k.screens_due()]
            return bool(int(await self.run(self._settle_here, keys, [*flags, match_id])))
        score = await self.call(self.redis.zscore(k.screens_due(), match_id))
        if score is None:  # not due: the edits still get recorded
            return bool(int(await self.run(self._settled, [k.match(match_id), k.posts(match_id)], flags)))
        if not int(await self.run(self._settled, [k.match(match_id), k.posts(match_id)], flags)):
            return False
        return bool(int(await self.run(self._undue, [k.screens_due()], [match_id, repr(score)])))

    # -- the turn clock's marks ------------------------------------------------------

    async def clock_marks(self, match_id: str) -> dict[str, int]:
        """The versions at which the turn clock reminded (``r``) and offered the win (``o``)."""
        data = await self.call(self.redis.hgetall(self.keys.clock_marks(match_id)))
        return {text(a): int(b) for a, b in data.items()}

    async def mark_clock(self, match_id: str, field: str, version: int, *, ttl: int) -> bool:
        """Mark that the clock did ``field`` at ``version``; False when it was done already (by any process)."""
        return bool(await self.run(self._mark_clock, [self.keys.clock_marks(match_id)], [field, version, ttl]))

    # -- who plays where -------------------------------------------------------------

    async def active_match(self, chat_id: int, user_id: int) -> str | None:
        """The id of the user's active match in the chat, if any."""
        value = await self.call(self.redis.get(self.keys.active(chat_id, user_id)))
        return None if value is None else text(value)

    async def chat_matches(self, chat_id: int) -> list[str]:
        """Ids of the chat's active matches."""
        return await self._live(self.keys.chat_matches(chat_id))

    async def user_matches(self, user_id: int) -> list[str]:
        """Ids of the user's active matches."""
        return await self._live(self.keys.user_matches(user_id))

    async def all_active_matches(self) -> list[str]:
        """Ids of every active match, from the chats' indexes (a scan: for a start, not for a request)."""
        found: set[str] = set()
        async for key in self.redis.scan_iter(match=self.keys.chat_matches_pattern(), count=1000):
            found.update(await self._live(text(key)))
        return sorted(found)

    async def _live(self, set_key: str) -> list[str]:
        """Members of an index set whose match still exists; the others (expired) are dropped."""
        ids = sorted(text(i) for i in await self.call(self.redis.smembers(set_key)))
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.exists(self.keys.match(match_id))
            exists = await self.call(pipe.execute())
        gone = [i for i, e in zip(ids, exists, strict=True) if not e]
        if gone:
            await self.call(self.redis.srem(set_key, *gone))
        return [i for i, e in zip(ids, exists, strict=True) if e]

    async def add_player_matches(self, match_id: str, user_ids: list[int]) -> None:
        """The match is among each user's active matches."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for user_id in user_ids:
                pipe.sadd(self.keys.user_matches(user_id), match_id)
            await self.call(pipe.execute())

    async def keep_active(self, chat_id: int, user_id: int, *, ttl: int) -> None:
        """Who plays in the chat lives ``ttl`` more seconds (as long as the match)."""
        await self.call(self.redis.expire(self.keys.active(chat_id, user_id), ttl))

    async def chat_match_ids(self, chat_id: int) -> list[str]:
        """Every id in the chat's index of active matches, as stored (a migration moves them all)."""
        return sorted(text(m) for m in await self.call(self.redis.smembers(self.keys.chat_matches(chat_id))))

    def chat_keys(self, old: int, new: int, user_ids: list[int]) -> list[tuple[str, str]]:
        """The keys of this kind that move when chat ``old`` becomes ``new``: its index of active matches and
        who plays there."""
        k = self.keys
        return [(k.chat_matches(old), k.chat_matches(new)), *((k.active(old, u), k.active(new, u)) for u in user_ids)]


def _lost(answer: Any) -> Commit:
    status = int(answer[0])
    if status == 0:
        return Commit(Written.LOST, stored=answer[2])
    return Commit(Written(status))
