"""Challenges in Redis: open ones in their chat's slot, the record of the match one became, and the notices
still to give.

An open challenge is a string with a TTL in its chat's slot (``{c:<chat>}``,
with who plays there), so that opening, accepting, withdrawing and expiring
are each one script against the others. The hash of notices (no slot of its
own) holds every challenge whose message must still say how it ended.
"""

from __future__ import annotations

import asyncio
import enum
from typing import Any

from bot.models import Challenge
from bot.storage.base import Failed, Store, ignore, text
from bot.storage.keys import Keys

# Open a challenge unless the creator has one open in this chat or is playing there (in the chat's
# slot; its notice and its expiry job, in their own slots, are written before, and taken back when
# refused).
# KEYS: 1 challenge, 2 creator's open-challenge key, 3 creator's active key.
# ARGV: 1 challenge id, 2 challenge JSON, 3 TTL.
# Returns {1}, {-1, open challenge id}, {-2} already playing.
OPEN = """
if redis.call('EXISTS', KEYS[3]) == 1 then return {-2} end
local open = redis.call('GET', KEYS[2])
if open then return {-1, open} end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[3])
return {1}
"""

# Accept a challenge, in its chat's slot: consume it and make the players active in the chat with
# the new match, or refuse if either already plays there. The match's record is kept with the
# challenge (KEYS[6]) until the match is written in its own slot (bot/storage/matches.py).
# KEYS: 1 challenge, 2 creator's open-challenge key, 3-4 active keys of creator/joiner, 5 the chat's
#       active set, 6 the challenges' accepted record.
# ARGV: 1 the challenge JSON as read, 2 match id, 3 record, 4 TTL.
# Returns {1}, {-1} challenge gone or changed, {-2} the joiner plays there, {-3} the creator does.
ACCEPT = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {-1} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {-3} end
if redis.call('EXISTS', KEYS[4]) == 1 then return {-2} end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SET', KEYS[3], ARGV[2], 'EX', ARGV[4])
redis.call('SET', KEYS[4], ARGV[2], 'EX', ARGV[4])
redis.call('SADD', KEYS[5], ARGV[2])
redis.call('SET', KEYS[6], ARGV[3], 'EX', ARGV[4])
return {1}
"""

# A challenge whose time is up, in its chat's slot: removed, unless it was accepted (KEYS[3]
# holds the match it became). KEYS: 1 challenge, 2 creator's open-challenge key, 3 the accepted
# record. ARGV: 1 challenge id. Returns the accepted record, or '' (expired, or gone already).
EXPIRE_CHALLENGE = """
local accepted = redis.call('GET', KEYS[3])
if accepted then return accepted end
redis.call('DEL', KEYS[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return ''
"""

# Store a challenge's new JSON (its message id) while it is open, keeping its TTL.
# KEYS: 1 challenge. ARGV: 1 the new JSON. Returns 1, or 0 when it is gone.
CHALLENGE_MESSAGE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return 1
"""

# Store an open challenge's new JSON only if it is still as read (a compare-and-set: an inline challenge's message
# is bound once). KEYS: 1 challenge. ARGV: 1 the JSON as read, 2 the new JSON. Returns 1 when stored.
CHALLENGE_CAS = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
"""

# The same in the hash of challenges awaiting an expiry notice, while it is there.
# KEYS: 1 the challenges awaiting an expiry notice. ARGV: 1 challenge id, 2 the new JSON.
NOTICE_MESSAGE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return 1 end
return 0
"""

# Withdraw a challenge only if it is still the one that was read (in its chat's slot; its notice
# and its job go after). KEYS: 1 challenge, 2 creator's open-challenge key.
# ARGV: 1 the challenge JSON as read. Returns 1 when removed, 0 when it was gone or had changed.
WITHDRAW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
"""


# The rematch of a finished match: the challenge that holds it, or (none yet) ARGV[1] from now on.
# KEYS: 1 the match's rematch. ARGV: 1 challenge id, 2 TTL. Returns the challenge id that holds it.
CLAIM_REMATCH = """
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return ARGV[1]
"""


class Opened(enum.Enum):
    """What became of opening a challenge."""

    OPENED = 1
    CHALLENGE_OPEN = -1
    """The creator has one open in the chat already."""
    PLAYING = -2
    """The creator plays in the chat."""


class Accepted(enum.Enum):
    """What became of accepting a challenge as it was read."""

    ACCEPTED = 1
    CHANGED = -1
    """The challenge is gone or changed since it was read (read it again)."""
    PLAYING = -2
    """The joiner plays in the chat already."""
    CREATOR_PLAYING = -3
    """The challenge's creator plays in the chat now (it waits for them: a rematch, say)."""


class ChallengeStore(Store):
    """Open challenges, their notices, and the record of the match an accepted one became."""

    def __init__(self, redis: Any, keys: Keys, *, failed: Failed = ignore) -> None:
        super().__init__(redis, keys, failed=failed)
        self._open = self.script(OPEN)
        self._accept = self.script(ACCEPT)
        self._expire = self.script(EXPIRE_CHALLENGE)
        self._message = self.script(CHALLENGE_MESSAGE)
        self._cas = self.script(CHALLENGE_CAS)
        self._notice_message = self.script(NOTICE_MESSAGE)
        self._withdraw = self.script(WITHDRAW)
        self._claim_rematch = self.script(CLAIM_REMATCH)

    async def read(self, challenge_id: str) -> bytes | str | None:
        """The challenge's JSON as stored (None once joined, withdrawn or expired)."""
        found: bytes | str | None = await self.call(self.redis.get(self.keys.challenge(challenge_id)))
        return found

    def _creator_key(self, challenge: Challenge) -> str:
        """The key that names the challenge as its creator's open one in the chat; a rematch's is its own
        (``Keys.rematch_slot``): it is nobody's open challenge, and does not keep its creator from opening one."""
        if challenge.rematch_of is not None:
            return self.keys.rematch_slot(challenge.chat_id, challenge.id)
        return self.keys.chat_challenge(challenge.chat_id, challenge.creator.id)

    async def open_of(self, chat_id: int, user_id: int) -> str | None:
        """The id of the user's open challenge in the chat."""
        value = await self.call(self.redis.get(self.keys.chat_challenge(chat_id, user_id)))
        return None if value is None else text(value)

    async def open(self, challenge: Challenge, *, ttl: int) -> Opened:
        """Store an open challenge unless its creator has one open in the chat or plays there."""
        k = self.keys
        keys = [k.challenge(challenge.id), self._creator_key(challenge),
                k.active(challenge.chat_id, challenge.creator.id)]  # fmt: skip
        answer = await self.run(self._open, keys, [challenge.id, challenge.model_dump_json(), ttl])
        return Opened(int(answer[0]))

    async def accept(
        self, challenge: Challenge, raw: bytes | str, joiner_id: int, match_id: str, record: str, *, ttl: int
    ) -> Accepted:
        """Consume the challenge (as it was read: ``raw``) for the match ``match_id`` of ``joiner_id``, keeping the
        match's ``record`` with it, unless either player plays in the chat."""
        k, chat = self.keys, challenge.chat_id
        keys = [
            k.challenge(challenge.id),
            self._creator_key(challenge),
            k.active(chat, challenge.creator.id),
            k.active(chat, joiner_id),
            k.chat_matches(chat),
            k.accepted(chat, challenge.id),
        ]
        answer = await self.run(self._accept, keys, [raw, match_id, record, ttl])
        return Accepted(int(answer[0]))

    async def withdraw(self, challenge: Challenge, raw: bytes | str) -> bool:
        """Remove the challenge if it is still as it was read (``raw``)."""
        keys = [self.keys.challenge(challenge.id), self._creator_key(challenge)]
        return int(await self.run(self._withdraw, keys, [raw])) == 1

    async def expire(self, challenge: Challenge) -> str:
        """Remove a challenge whose time is up, unless it was accepted: then the record of its match ('' else)."""
        k = self.keys
        keys = [
            k.challenge(challenge.id),
            self._creator_key(challenge),
            k.accepted(challenge.chat_id, challenge.id),
        ]
        return text(await self.run(self._expire, keys, [challenge.id]))

    async def rematch(self, chat_id: int, match_id: str) -> str | None:
        """The id of the challenge that is the rematch of the chat's finished match ``match_id``, if any."""
        value = await self.call(self.redis.get(self.keys.rematch(chat_id, match_id)))
        return None if value is None else text(value)

    async def claim_rematch(self, chat_id: int, match_id: str, challenge_id: str, *, ttl: int) -> str:
        """Make ``challenge_id`` the rematch of the match unless one is already: the id of the one that is."""
        keys = [self.keys.rematch(chat_id, match_id)]
        return text(await self.run(self._claim_rematch, keys, [challenge_id, ttl]))

    async def accepted(self, chat_id: int, challenge_id: str) -> bytes | str | None:
        """The record (JSON) of the match the challenge became, if it was accepted."""
        found: bytes | str | None = await self.call(self.redis.get(self.keys.accepted(chat_id, challenge_id)))
        return found

    async def set_message(self, challenge: Challenge) -> bool:
        """Store the challenge as it is now (its message id) where it is open and where its notice waits; False
        when it is no longer open (accepted, withdrawn or expired before its message was stored)."""
        data = challenge.model_dump_json()
        stored, _ = await asyncio.gather(
            self.run(self._message, [self.keys.challenge(challenge.id)], [data]),
            self.run(self._notice_message, [self.keys.challenge_notices()], [challenge.id, data]),
        )
        return int(stored) == 1

    async def rewrite(self, challenge: Challenge, raw: bytes | str) -> bool:
        """Store the challenge as it is now if it is still open and as it was read (``raw``), and where its notice
        waits; False when it changed or ended meanwhile."""
        data = challenge.model_dump_json()
        if int(await self.run(self._cas, [self.keys.challenge(challenge.id)], [raw, data])) != 1:
            return False
        await self.run(self._notice_message, [self.keys.challenge_notices()], [challenge.id, data])
        return True

    # -- a person's inline challenges -------------------------------------------------

    async def inline_offer(self, user_id: int, preset: str) -> str | None:
        """The id of the person's inline challenge of ``preset`` offered last (it may have ended since)."""
        found = await self.call(self.redis.hget(self.keys.inline_offers(user_id), preset))
        return None if found is None else text(found)

    async def offered_inline(self, user_id: int, preset: str, challenge_id: str, *, expires: float, ttl: int) -> None:
        """The person's inline challenge of ``preset`` offered now (until ``expires``), one of their open ones."""
        offers, opened = self.keys.inline_offers(user_id), self.keys.inline_open(user_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(offers, preset, challenge_id)
            pipe.expire(offers, ttl)
            pipe.zadd(opened, {challenge_id: expires})
            pipe.expire(opened, ttl)
            await self.call(pipe.execute())

    async def open_inline(self, user_id: int, now: float) -> list[str]:
        """The ids of the person's inline challenges that have not expired (expired ones are dropped)."""
        opened = self.keys.inline_open(user_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(opened, "-inf", now)
            pipe.zrange(opened, 0, -1)
            _, ids = await self.call(pipe.execute())
        return [text(i) for i in ids]

    async def closed_inline(self, user_id: int, challenge_ids: list[str]) -> None:
        """These of the person's inline challenges ended (accepted, withdrawn): they no longer count."""
        if challenge_ids:
            await self.call(self.redis.zrem(self.keys.inline_open(user_id), *challenge_ids))

    # -- notices ---------------------------------------------------------------------

    async def add_notice(self, challenge: Challenge) -> None:
        """The challenge's message must say how it ended."""
        await self.call(self.redis.hset(self.keys.challenge_notices(), challenge.id, challenge.model_dump_json()))

    async def notice(self, challenge_id: str) -> bytes | str | None:
        found: bytes | str | None = await self.call(self.redis.hget(self.keys.challenge_notices(), challenge_id))
        return found

    async def notices(self) -> list[bytes | str]:
        """Every challenge whose message must still say how it ended (JSON)."""
        data = await self.call(self.redis.hgetall(self.keys.challenge_notices()))
        return list(data.values())

    async def open_count(self) -> int:
        """How many challenges still wait for how they end (the open ones, and any whose end is being told)."""
        return int(await self.call(self.redis.hlen(self.keys.challenge_notices())))

    async def drop_notice(self, challenge_id: str) -> bool:
        """The challenge's message said how it ended (or needs not); whether it was waiting."""
        return bool(await self.call(self.redis.hdel(self.keys.challenge_notices(), challenge_id)))
