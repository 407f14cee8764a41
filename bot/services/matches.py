"""The match service: every handler's one door to matches, challenges and results.

Correct under concurrency first: each move is checked against the engine and
written with a compare-and-set on the match version (a Lua script), so a move
is never applied twice and never lost. Fast second: the last record this
process wrote is kept in memory, so a move usually costs one round trip (the
script); when another writer got there first, the script answers with the
current record and the move is checked again on it (a bounded retry).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.games import deal_line
from bot.services.models import (
    LEVELS,
    Challenge,
    ChatSettings,
    Finish,
    Lang,
    Level,
    MatchRecord,
    Messages,
    MoveResult,
    Player,
    RatingPoint,
    Rejection,
    Standing,
    Status,
    Summary,
    UserProfile,
    UserStats,
)
from bot.storage import scripts
from bot.storage.codec import StoredDeal
from bot.storage.keys import GLOBAL, Keys, chat_scope, user_scope
from bot.storage.keys import challenge_id as new_challenge_id
from bot.storage.layout import move_key
from engine import PRESETS, Action, Deal, IllegalAction, Match, Refusal, find_preset

log = logging.getLogger(__name__)

T = TypeVar("T")
Plan = tuple[Match, dict[str, Any], Deal | None]
"""What a write makes of a match: the match after it, the record fields to update, the deal it finished."""

_MESSAGE_FIELDS = scripts.MESSAGE_FIELDS
RECENT_REQUESTS = 6
MAX_ATTEMPTS = 5
KEEP_AFTER_DEADLINE = 86400
"""Seconds the keys of a match or a challenge outlive its deadline (the scheduler acts at the deadline)."""
FLAG_TTL = 5.0
FLAGS_KEPT = 65536
CHAT_HISTORY = 50
USER_HISTORY = 20
RATING_LOG = 50
"""How many of a player's last rated matches their rating log keeps in each table (the /stats chart)."""
ACCEPT_CHECK = 5.0
"""Seconds after an accept at which the challenge's job looks whether the accept was carried through (a
process may die between the steps in the challenge's and the match's slots)."""


class ServiceError(Exception):
    """Base of the service's typed errors."""


class Rejected(ServiceError):
    """The request was refused and nothing changed."""

    def __init__(self, reason: Rejection, refusal: Refusal | None = None) -> None:
        super().__init__(reason.value if refusal is None else f"{reason.value}: {refusal.value}")
        self.reason = reason
        self.refusal = refusal


class StorageUnavailable(ServiceError):
    """Redis did not answer (after the client's own retries)."""


class MatchService:
    """Matches, challenges, settings, profiles and results over one Redis."""

    def __init__(
        self,
        redis: Redis,
        *,
        prefix: str = "dom",
        active_ttl: int = 14 * 86400,
        finished_ttl: int = 2 * 86400,
        challenge_ttl: int = 300,
        turn_timeout: int = 600,
        claim_after: int = 86400,
        elo_k: int = 32,
        elo_start: int = 1500,
        cache_size: int = 4096,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.redis = redis
        self.keys = Keys(prefix)
        self.active_ttl = active_ttl
        self.finished_ttl = finished_ttl
        self.challenge_ttl = challenge_ttl
        self.turn_timeout = turn_timeout
        self.claim_after = claim_after
        self.keep_ttl = active_ttl + KEEP_AFTER_DEADLINE
        """The TTL of an active match's keys: past its abandonment, so the scheduler always finds it."""
        self.elo_k = elo_k
        self.elo_start = elo_start
        self.clock = clock
        self._cache: OrderedDict[str, tuple[MatchRecord, Match]] = OrderedDict()
        self._cache_size = cache_size
        self._raw: dict[str, bytes] = {}
        """The stored text each cached record was read from or written as (a read of the same text is the
        cached record, without parsing)."""
        self._flags: dict[str, tuple[bool, float]] = {}
        """Recently read flags (a group gone, a user who blocked the bot) and until when they are trusted."""
        self.cluster = isinstance(redis, RedisCluster)
        """A Redis Cluster: a script touches one slot, and what spans slots goes step by step."""
        self._move = redis.register_script(scripts.MOVE)
        self._finish = redis.register_script(scripts.FINISH)
        self._count_chat = redis.register_script(scripts.COUNT_CHAT)
        self._count_global = redis.register_script(scripts.COUNT_GLOBAL)
        self._count_user = redis.register_script(scripts.COUNT_USER)
        self._count_computer = redis.register_script(scripts.COUNT_COMPUTER)
        self._finished = redis.register_script(scripts.FINISHED)
        self._accept = redis.register_script(scripts.ACCEPT)
        self._create_match = redis.register_script(scripts.CREATE_MATCH)
        self._open = redis.register_script(scripts.OPEN)
        self._challenge_message = redis.register_script(scripts.CHALLENGE_MESSAGE)
        self._notice_message = redis.register_script(scripts.NOTICE_MESSAGE)
        self._withdraw = redis.register_script(scripts.WITHDRAW)
        self._pop_post = redis.register_script(scripts.POP_POST)
        self._shown = redis.register_script(scripts.SHOWN)
        self._settled = redis.register_script(scripts.SETTLED)
        self._mark_due = redis.register_script(scripts.MARK_DUE)
        self._undue = redis.register_script(scripts.UNDUE)
        # On one server, a write marks its match due itself, and a settle is one script (one command each).
        self._marking = {
            id(self._move): redis.register_script(scripts.MARK_DUE_FIRST + scripts.MOVE),
            id(self._finish): redis.register_script(scripts.MARK_DUE_FIRST + scripts.FINISH),
        }
        self._settle_here = redis.register_script(scripts.SETTLE_HERE)
        self._expire_challenge = redis.register_script(scripts.EXPIRE_CHALLENGE)
        self._mark_clock = redis.register_script(scripts.MARK_CLOCK)
        self._forget_delivery = redis.register_script(scripts.FORGET_DELIVERY)
        self._take_lane = redis.register_script(scripts.TAKE_LANE)
        self._leave_lane = redis.register_script(scripts.LEAVE_LANE)
        self._keep_lane = redis.register_script(scripts.KEEP_LANE)

    async def _call(self, op: Awaitable[T]) -> T:
        try:
            return await op
        except (RedisConnectionError, RedisTimeoutError) as exc:
            raise StorageUnavailable(str(exc)) from exc

    async def _scripts(self, *calls: tuple[AsyncScript, list[str], list[Any]]) -> list[Any]:
        """Run scripts in order, in one round trip (a pipeline): for steps that need no answer of each other.
        A script the server does not know yet is loaded and run again (the server did not run it). In a
        cluster (where a pipeline may not hold scripts) each goes on its own, all at once: for steps whose
        order does not matter."""
        if self.cluster:
            return list(
                await self._call(asyncio.gather(*(script(keys=keys, args=args) for script, keys, args in calls)))
            )
        if len(calls) == 1:  # no pipeline for one (a single command takes the shared connection)
            script, keys, args = calls[0]
            return [await self._call(script(keys=keys, args=args))]
        async with self.redis.pipeline(transaction=False) as pipe:
            for script, keys, args in calls:
                pipe.evalsha(script.sha, len(keys), *keys, *args)
            answers = await self._call(pipe.execute(raise_on_error=False))
        for i, answer in enumerate(answers):
            if isinstance(answer, NoScriptError):
                script, keys, args = calls[i]
                answers[i] = await self._call(script(keys=keys, args=args))
            elif isinstance(answer, (RedisConnectionError, RedisTimeoutError)):
                raise StorageUnavailable(str(answer)) from answer
            elif isinstance(answer, Exception):
                raise answer
        return list(answers)

    def _due(self, *match_ids: str) -> tuple[AsyncScript, list[str], list[Any]]:
        """The step that marks the matches' screens as due (before a write of them)."""
        now = self.clock()
        return self._mark_due, [self.keys.screens_due()], [x for m in match_ids for x in (m, now)]

    async def _due_then(self, match_id: str, script: AsyncScript, keys: list[str], args: list[Any]) -> Any:
        """Mark the match's screens as due, then run the script (one round trip on one Redis; in a cluster the
        mark is in another slot, and it goes first, so that a process dying after the write leaves it due)."""
        if self.cluster:
            await self._scripts(self._due(match_id))
            return (await self._scripts((script, keys, args)))[0]
        marking = self._marking.get(id(script))
        if marking is not None:
            keys, args = [*keys, self.keys.screens_due()], [*args, match_id, self.clock()]
            return (await self._scripts((marking, keys, args)))[0]
        return (await self._scripts(self._due(match_id), (script, keys, args)))[1]

    # -- matches: reading ----------------------------------------------------

    def _remember(self, record: MatchRecord, match: Match, *, redis_says: bool = False) -> None:
        """Cache a match; an older version than the cached one only when it is what Redis holds now
        (``redis_says``: read from Redis, which wins even when it lost writes, say its last second)."""
        known = self._cache.get(record.id)
        if known is not None and known[0].version > record.version and not redis_says:
            return
        self._cache[record.id] = (record, match)
        self._raw.pop(record.id, None)
        self._cache.move_to_end(record.id)
        while len(self._cache) > self._cache_size:
            gone, _ = self._cache.popitem(last=False)
            self._raw.pop(gone, None)

    def _read(self, match_id: str, data: bytes | str) -> tuple[MatchRecord, Match]:
        """The match of a record as Redis holds it: the cached one when the stored text is the one it was
        made from (no parsing), else parsed and decoded."""
        raw = data.encode() if isinstance(data, str) else data
        cached = self._cache.get(match_id)
        if cached is not None and self._raw.get(match_id) == raw:
            self._cache.move_to_end(match_id)
            return cached
        record, match = self._decode(MatchRecord.model_validate_json(raw))
        now = self._cache.get(match_id)
        if now is not None and now[0] is record:
            self._raw[match_id] = raw
        return record, match

    def _decode(self, record: MatchRecord) -> tuple[MatchRecord, Match]:
        """Rebuild the engine match of a record read from Redis (unless it is the cached one) and cache it."""
        known = self._cache.get(record.id)
        if known is not None and known[0].version == record.version and known[0].rev == record.rev:
            return known
        match = record.match()
        self._remember(record, match, redis_says=True)
        return record, match

    async def _load(self, match_id: str, *, fresh: bool = False) -> tuple[MatchRecord, Match, bool]:
        """The match and whether it came from this process's cache (``fresh`` reads Redis)."""
        if not fresh:
            cached = self._cache.get(match_id)
            if cached is not None:
                return cached[0], cached[1], True
        data = await self._call(self.redis.hget(self.keys.match(match_id), "d"))
        if data is None:
            self._cache.pop(match_id, None)
            raise Rejected(Rejection.NO_MATCH)
        record, match = self._read(match_id, data)
        return record, match, False

    async def peek(self, match_id: str) -> tuple[MatchRecord, Match]:
        """The match as this process last saw it (read from Redis when not cached).

        Good for deciding how to answer; a move is still checked on the current
        version by :meth:`submit`.
        """
        record, match, _ = await self._load(match_id)
        return record, match

    async def get(self, match_id: str) -> tuple[MatchRecord, Match]:
        """The match as stored now (always read from Redis)."""
        record, match, _ = await self._load(match_id, fresh=True)
        return record, match

    async def active_match(self, chat_id: int, user_id: int) -> str | None:
        """The id of the user's active match in the chat, if any."""
        value = await self._call(self.redis.get(self.keys.active(chat_id, user_id)))
        return None if value is None else _text(value)

    async def chat_matches(self, chat_id: int) -> list[str]:
        """Ids of the chat's active matches."""
        return await self._live(self.keys.chat_matches(chat_id))

    async def all_active_matches(self) -> list[str]:
        """Ids of every active match, from the chats' indexes (a scan: for a start, not for a request)."""
        found: set[str] = set()
        async for key in self.redis.scan_iter(match=self.keys.chat_matches_pattern(), count=1000):
            found.update(await self._live(_text(key)))
        return sorted(found)

    async def user_matches(self, user_id: int) -> list[str]:
        """Ids of the user's active matches."""
        return await self._live(self.keys.user_matches(user_id))

    async def _live(self, set_key: str) -> list[str]:
        """Members of an index set whose match still exists; the others (expired) are dropped."""
        ids = sorted(_text(i) for i in await self._call(self.redis.smembers(set_key)))
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.exists(self.keys.match(match_id))
            exists = await self._call(pipe.execute())
        gone = [i for i, e in zip(ids, exists, strict=True) if not e]
        if gone:
            await self._call(self.redis.srem(set_key, *gone))
        return [i for i, e in zip(ids, exists, strict=True) if e]

    async def messages(self, match_id: str) -> Messages:
        """The match's messages, what each shows, and the results still to post."""
        return (await self._messages(match_id))[1]

    async def screens(self, match_id: str) -> tuple[MatchRecord, Match, Messages]:
        """The match as stored now and its messages, read together (one consistent moment). A finish left
        half done (its writer died between its steps) is carried through first."""
        data, messages = await self._messages(match_id, with_record=True)
        if data is None:
            self._cache.pop(match_id, None)
            raise Rejected(Rejection.NO_MATCH)
        record, match = self._read(match_id, data)
        if messages.finishing is not None:
            log.info("match %s: carrying its finish through", match_id)
            await self._count(record, messages.finishing)
            return await self.screens(match_id)
        return record, match, messages

    async def _messages(self, match_id: str, *, with_record: bool = False) -> tuple[bytes | None, Messages]:
        key = self.keys.match(match_id)
        names = (*_MESSAGE_FIELDS, "d") if with_record else _MESSAGE_FIELDS
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hmget(key, list(names))
            pipe.lrange(self.keys.posts(match_id), 0, -1)
            fields, posts = await self._call(pipe.execute())
        f = dict(zip(names, fields, strict=True))
        return f.get("d"), _messages_of(f, posts)

    async def panel_message(self, match_id: str, seat: int) -> int | None:
        """The id of the seat's current panel message (one field: the check a press makes)."""
        value = await self._call(self.redis.hget(self.keys.match(match_id), f"p{seat}"))
        return None if value is None else int(value)

    async def shown(self, match_id: str, **fields: int) -> None:
        """Record what the match's messages show now (``t``, ``tn``, ``tv``, ``p0``, ``p0v``, ``p0n``...).

        Message ids and shown versions are not the match's version: storing them never makes a button stale.
        """
        args: list[str | int] = [x for item in fields.items() for x in item]
        await self._call(self._shown(keys=[self.keys.match(match_id)], args=args))

    async def posted(self, match_id: str, post: str) -> None:
        """The oldest result of the match was posted."""
        await self._call(self._pop_post(keys=[self.keys.posts(match_id)], args=[post]))

    async def resend_panel(self, match_id: str, seat: int) -> None:
        """The seat's panel must arrive again as a new message (its screens are due)."""
        await self._due_then(match_id, self._shown, [self.keys.match(match_id)], [f"p{seat}n", -1])

    async def resync(self, match_id: str) -> None:
        """Every message of the match must show it again: new panels, the table edited (its screens are due).
        For a match whose messages show versions Redis no longer holds."""
        fields = ["tv", -1, "p0v", -1, "p1v", -1, "p0n", -1, "p1n", -1]
        await self._due_then(match_id, self._shown, [self.keys.match(match_id)], fields)

    # -- who delivers: one process per lane of a match -----------------------------

    def _lane_keys(self, match_id: str, lane: str) -> list[str]:
        return [self.keys.lane(match_id, lane), self.keys.lane_again(match_id, lane)]

    async def take_lane(self, match_id: str, lane: str, token: str, lease: float) -> bool:
        """Whether this process (``token``) now delivers the lane, for ``lease`` seconds; False: another live
        process does, and is asked to run it once more. A holder that is not alive (killed: its heartbeat is
        gone) loses the lane at once."""
        keys = self._lane_keys(match_id, lane)
        args: list[str | int] = [token, int(lease * 1000), ""]
        holder = _text(await self._call(self._take_lane(keys=keys, args=args)))
        if not holder:
            return True
        if await self._call(self.redis.exists(self.keys.process(holder))):
            return False
        args[2] = holder
        return not _text(await self._call(self._take_lane(keys=keys, args=args)))

    async def beat(self, token: str, ttl: float) -> None:
        """This process (``token``) is alive for ``ttl`` more seconds (the lanes it holds are its own)."""
        await self._call(self.redis.set(self.keys.process(token), "1", px=int(ttl * 1000)))

    async def leave_lane(self, match_id: str, lane: str, token: str, lease: float) -> bool:
        """Done with the lane: True when it must run again (another process asked; the lease is kept)."""
        args: list[str | int] = [token, int(lease * 1000)]
        return bool(await self._call(self._leave_lane(keys=self._lane_keys(match_id, lane), args=args)))

    async def keep_lane(self, match_id: str, lane: str, token: str, lease: float) -> bool:
        """Renew the lease on the lane; False when this process no longer holds it."""
        args: list[str | int] = [token, int(lease * 1000)]
        return bool(await self._call(self._keep_lane(keys=[self.keys.lane(match_id, lane)], args=args)))

    async def versions(self, match_ids: list[str]) -> list[int | None]:
        """The stored version of each match (None: gone), in one round trip."""
        if not match_ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hget(self.keys.match(match_id), "v")
            found = await self._call(pipe.execute())
        return [None if v is None else int(v) for v in found]

    async def screens_due(self) -> list[str]:
        """Ids of the matches whose messages are behind (oldest first)."""
        ids = await self._call(self.redis.zrange(self.keys.screens_due(), 0, -1))
        return [_text(cast(bytes, i)) for i in ids]

    async def settle(
        self, match_id: str, *, group_gone: bool, blocked: tuple[bool, bool], edited: dict[str, int] | None = None
    ) -> bool:
        """Drop the match from the due set if every message is at its version; whether it was dropped. (Its
        mark is read first and taken out only if still the same: a write marks the match before it writes.)
        ``edited``: the versions that edits brought the table and panels to (``tv``, ``p0v``, ``p1v``), recorded
        first (never lowered)."""
        k = self.keys
        flags: list[str | int] = ["1" if group_gone else "0", *("1" if b else "0" for b in blocked)]
        flags += [x for item in (edited or {}).items() for x in item]
        if not self.cluster:
            keys = [k.match(match_id), k.posts(match_id), k.screens_due()]
            return bool(int(await self._call(self._settle_here(keys=keys, args=[*flags, match_id]))))
        score = await self._call(self.redis.zscore(k.screens_due(), match_id))
        if score is None:
            if edited:
                await self._call(self._settled(keys=[k.match(match_id), k.posts(match_id)], args=flags))
            return True
        if not int(await self._call(self._settled(keys=[k.match(match_id), k.posts(match_id)], args=flags))):
            return False
        return bool(int(await self._call(self._undue(keys=[k.screens_due()], args=[match_id, repr(score)]))))

    async def group_gone(self, chat_id: int) -> bool:
        """Whether the group removed the bot (its matches then go on in private)."""
        key = self.keys.gone(chat_id)
        known = self._flag(key)
        if known is None:
            known = self._note_flag(key, bool(await self._call(self.redis.exists(key))))
        return known

    async def set_group_gone(self, chat_id: int, gone: bool) -> bool:
        """Mark (or clear) a group as having removed the bot; whether that changed anything."""
        key = self.keys.gone(chat_id)
        self._flags.pop(key, None)
        if gone:
            return bool(await self._call(self.redis.set(key, "1", nx=True)))
        return bool(await self._call(self.redis.delete(key)))

    async def is_blocked(self, user_id: int) -> bool:
        """Whether the user blocked the bot (their panels then wait for /hand)."""
        key = self.keys.profile(user_id)
        known = self._flag(key)
        if known is None:
            known = self._note_flag(key, await self._call(self.redis.hget(key, "blocked")) is not None)
        return known

    def _flag(self, key: str) -> bool | None:
        """A flag this process read or wrote less than ``FLAG_TTL`` s ago (another process may have changed
        it since: a delivery that acts on an old one is put right by the next)."""
        found = self._flags.get(key)
        if found is None or found[1] < time.monotonic():
            return None
        return found[0]

    def _note_flag(self, key: str, value: bool) -> bool:
        if len(self._flags) > FLAGS_KEPT:
            self._flags.clear()
        self._flags[key] = (value, time.monotonic() + FLAG_TTL)
        return value

    # -- matches: moves ------------------------------------------------------

    async def submit(
        self,
        match_id: str,
        user_id: int,
        action: Action | str,
        *,
        version: int | None = None,
        request_id: str | None = None,
        message_id: int | None = None,
    ) -> MoveResult:
        """Apply one player's action, exactly once.

        ``version`` is the match version the button was made for (a press on an
        older message is STALE); ``request_id`` (the callback query id) makes a
        repeated delivery a no-op answered as ``duplicate``; ``message_id`` is
        the pressed message: one older than the player's panel is an old panel
        (OLD_PANEL), checked in the move's own script.
        """
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ValueError:
                raise Rejected(Rejection.ILLEGAL) from None

        def plan(record: MatchRecord, match: Match) -> Plan:
            seat = _seat_to_act(record, match, user_id, version)
            after = match.copy()
            try:
                finished_deal = after.play(action, seat)
            except IllegalAction as exc:
                raise Rejected(Rejection.ILLEGAL, exc.reason) from None
            pressed = list(record.pressed)
            pressed[seat] = self.clock()
            update: dict[str, Any] = {"deal": StoredDeal.of(after), "pressed": tuple(pressed)}
            if finished_deal is not None:
                update["prev"] = StoredDeal.of_deal(finished_deal)
                update["log"] = (*record.log, deal_line(finished_deal))
            if after.turn is not None and after.turn != seat:
                update["turn_since"] = record.version + 1
            if after.is_over:
                update.update(status=Status.FINISHED, winner=after.winner, finish=Finish.TARGET)
            return after, update, finished_deal

        panel = None if message_id is None else (user_id, message_id)
        return await self._write(match_id, request_id, plan, panel=panel)

    async def surrender(self, match_id: str, user_id: int, *, request_id: str | None = None) -> MoveResult:
        """End the user's match with a loss for them."""

        def plan(record: MatchRecord, match: Match) -> Plan:
            seat = record.seat_of(user_id)
            if seat is None:
                raise Rejected(Rejection.NOT_A_PLAYER)
            if record.status is not Status.ACTIVE:
                raise Rejected(Rejection.MATCH_OVER)
            return match, {"status": Status.FINISHED, "winner": 1 - seat, "finish": Finish.SURRENDER}, None

        return await self._write(match_id, request_id, plan)

    async def abandon(self, match_id: str, *, version: int | None = None) -> MoveResult:
        """End an active match nobody moved in: no winner, no rating; posted and kept in the histories.

        With ``version``, only if nothing happened since that version (the scheduler's check)."""

        def plan(record: MatchRecord, match: Match) -> Plan:
            _still(record, version)
            return match, {"status": Status.ABANDONED, "finish": Finish.ABANDONED, "winner": None}, None

        return await self._write(match_id, None, plan)

    async def forfeit(self, match_id: str, seat: int, *, version: int) -> MoveResult:
        """``seat`` ran out of time at ``version``: the match ends with a loss for them, counted and rated."""

        def plan(record: MatchRecord, match: Match) -> Plan:
            _still(record, version)
            return match, {"status": Status.FINISHED, "winner": 1 - seat, "finish": Finish.FORFEIT}, None

        return await self._write(match_id, None, plan)

    async def claim_win(
        self, match_id: str, user_id: int, *, version: int, request_id: str | None = None
    ) -> MoveResult:
        """The waiting player takes the win after ``claim_after`` seconds without a move (a forfeit)."""

        def plan(record: MatchRecord, match: Match) -> Plan:
            seat = record.seat_of(user_id)
            if seat is None:
                raise Rejected(Rejection.NOT_A_PLAYER)
            _still(record, version)
            if match.turn == seat:
                raise Rejected(Rejection.NOT_ALLOWED)
            if self.clock() - record.updated < self.claim_after:
                raise Rejected(Rejection.TOO_EARLY)
            return match, {"status": Status.FINISHED, "winner": seat, "finish": Finish.FORFEIT}, None

        return await self._write(match_id, request_id, plan)

    def clock_due(self, record: MatchRecord, marks: dict[str, int]) -> float | None:
        """When the match's turn clock must next look at it (None once it is over).

        From the last move: the reminder at half the time, the forfeit at the
        deadline; with the clock off, the offer to claim the win after
        ``claim_after``; in any case the abandonment after ``ACTIVE_TTL``.
        """
        if not record.is_active:
            return None
        last, version, timeout = record.updated, record.version, record.turn_timeout
        abandon = last + self.active_ttl
        if timeout:
            nxt = last + timeout if marks.get("r") == version else last + timeout / 2
        else:
            nxt = abandon if marks.get("o") == version else last + self.claim_after
        return min(nxt, abandon)

    async def clock_marks(self, match_id: str) -> dict[str, int]:
        """The versions at which the turn clock reminded (``r``) and offered the win (``o``)."""
        data = await self._call(self.redis.hgetall(self.keys.clock_marks(match_id)))
        return {_text(a): int(b) for a, b in data.items()}

    async def mark_clock(self, match_id: str, field: str, version: int) -> bool:
        """Mark that the clock did ``field`` at ``version``; False when it was done already (by any process)."""
        keys = [self.keys.clock_marks(match_id)]
        return bool(await self._call(self._mark_clock(keys=keys, args=[field, version, self.keep_ttl])))

    async def _write(
        self,
        match_id: str,
        request_id: str | None,
        plan: Callable[[MatchRecord, Match], Plan],
        *,
        panel: tuple[int, int] | None = None,
    ) -> MoveResult:
        """Apply what ``plan`` makes of the match, exactly once, with a bounded retry.

        ``plan`` returns the match after the change, the record fields to
        update and the deal the change finished (if any), or raises
        :class:`Rejected`. A rejection judged on this process's cache is judged
        again on the stored record (another instance may have moved the match
        on); a compare-and-set that lost to another writer is planned again on
        the record the script returned. ``panel``: (user, message) of a press,
        refused as OLD_PANEL when the message is older than the user's panel.
        """
        fresh = False
        for _ in range(MAX_ATTEMPTS):
            record, match, cached = await self._load(match_id, fresh=fresh)
            if request_id is not None and request_id in record.recent:
                return MoveResult(record, match, duplicate=True)
            try:
                after, update, finished_deal = plan(record, match)
            except Rejected:
                if cached:
                    fresh = True
                    continue
                raise
            pressed = None
            if panel is not None and (seat := record.seat_of(panel[0])) is not None:
                pressed = (f"p{seat}", panel[1])
            result = await self._commit(record, after, update, request_id, finished_deal, pressed)
            if result is not None:
                result.finished_deal = finished_deal
                return result
            fresh = False
        raise Rejected(Rejection.BUSY)

    async def _commit(
        self,
        record: MatchRecord,
        match: Match,
        update: dict[str, Any],
        request_id: str | None,
        finished_deal: Deal | None = None,
        pressed: tuple[str, int] | None = None,
    ) -> MoveResult | None:
        """Write ``record`` with ``update`` if its version is still current.

        Returns None when another writer moved the version on (the cache then
        holds the current record and the caller checks its move again).
        ``pressed``: the panel's field and the pressed message (see ``_write``).
        """
        recent = record.recent if request_id is None else [*record.recent, request_id][-RECENT_REQUESTS:]
        new = record.model_copy(
            update={
                **update,
                "version": record.version + 1,
                "rev": secrets.token_hex(4),
                "updated": self.clock(),
                "recent": recent,
            }
        )
        data = new.model_dump_json()
        k = self.keys
        key = k.match(record.id)
        a, b = record.players
        cas = [f"{record.version}/{record.rev}", f"{new.version}/{new.rev}", data]
        panel: list[str | int] = ["", 0] if pressed is None else [*pressed]
        posts = [] if finished_deal is None or new.prev is None else [_deal_post(new.prev)]
        summary: Summary | None = None
        messages: Messages | None = None
        if new.status is Status.ACTIVE:
            handed = f"p{match.turn}n" if "turn_since" in update and match.turn is not None else ""
            args = [*cas, self.keep_ttl, *panel, handed, len(posts), *posts]
            answer = await self._due_then(record.id, self._move, [key, k.posts(record.id)], args)
            if int(answer[0]) == 1:
                messages = _messages_of(dict(zip(_MESSAGE_FIELDS, answer[1], strict=True)), answer[2])
            if int(answer[0]) == 1 and finished_deal is not None:
                # Who plays in the chat lives as long as the match (refreshed at each deal's end).
                for player in (a, b):
                    with contextlib.suppress(StorageUnavailable):
                        await self._call(self.redis.expire(k.active(record.chat_id, player.id), self.keep_ttl))
        else:
            counted = new.status is Status.FINISHED and new.winner is not None
            abandoned = new.finish is Finish.ABANDONED
            winner_seat = new.winner if new.winner is not None else 0
            w, lo = record.players[winner_seat], record.players[1 - winner_seat]
            if counted or abandoned:
                summary = Summary(
                    id=record.id,
                    chat_id=record.chat_id,
                    preset=match.rules.name,
                    players=record.players,
                    score=match.score,
                    winner=new.winner if counted else None,
                    finish=new.finish or Finish.TARGET,
                    finished=new.updated,
                )
            partial = "" if summary is None else summary.model_dump_json(exclude={"rating_change", "ratings"})[:-1]
            computer = record.computer_seat
            finishing = json.dumps(
                {
                    "c": ("v" if computer is not None else "1") if counted else "h" if abandoned else "0",
                    "w": [w.id, w.name],
                    "l": [lo.id, lo.name],
                    "g": match.rules.game,
                    "s": partial,
                },
                ensure_ascii=False,
                separators=(",", ":"),
            )
            args = [*cas, self.finished_ttl, *panel, finishing, len(posts), *posts]
            answer = await self._due_then(record.id, self._finish, [key, k.posts(record.id)], args)
        status = int(answer[0])
        if status == 1:
            self._remember(new, match)
            if self._cache.get(new.id, (None,))[0] is new:
                self._raw[new.id] = data.encode()
            if new.status is not Status.ACTIVE:
                try:
                    ratings = await self._count(new, finishing)
                except StorageUnavailable as exc:
                    # The move is made; the rest of its finish waits in Redis for the delivery to carry it through.
                    log.warning("match %s: finished, its counting waits for Redis (%s)", new.id, exc)
                else:
                    if summary is not None and counted:
                        summary.rating_change, summary.ratings = ratings[0], (ratings[1], ratings[2])
            return MoveResult(new, match, summary=summary, messages=messages)
        if status == -2:
            raise Rejected(Rejection.OLD_PANEL)
        if status == 0:
            # The compare-and-set lost: whatever the versions say, Redis holds the match now (a newer
            # write by another process, an older one after Redis lost its last second, or the same
            # version made again by other moves since).
            stored = MatchRecord.model_validate_json(answer[2])
            self._remember(stored, stored.match(), redis_says=True)
            return None
        self._cache.pop(record.id, None)
        raise Rejected(Rejection.NO_MATCH)

    async def _count(self, record: MatchRecord, finishing: str) -> tuple[int, int, int]:
        """The steps of a finish after its write, each in one slot and each done once however often it runs
        (a process that dies between them leaves the rest to whoever reads the match's screens next): the
        chat's table, indexes and history (the summary gets the chat's rating change there), the global
        table, each player's indexes and history, the match's clock job; last, the summary kept with the
        match and its result posted. Returns the chat's rating change and the winner's and loser's ratings."""
        k = self.keys
        f = json.loads(finishing)
        (winner, winner_name), (loser, loser_name) = f["w"], f["l"]
        chat, match_id, ttl = record.chat_id, record.id, self.finished_ttl + KEEP_AFTER_DEADLINE
        elo = [winner, loser, self.elo_k, self.elo_start, f["g"], winner_name, loser_name]
        a, b = record.players
        scope = chat_scope(chat)
        chat_keys = [
            k.counted(scope, match_id),
            k.active(chat, a.id),
            k.active(chat, b.id),
            k.chat_matches(chat),
            k.stats(scope, winner),
            k.stats(scope, loser),
            k.leaderboard(scope),
            k.chat_history(chat),
            k.rating_log(scope, winner),
            k.rating_log(scope, loser),
        ]
        finished = repr(record.updated)
        chat_args = [ttl, *elo, f["c"], match_id, f["s"], CHAT_HISTORY, finished, RATING_LOG]
        mark = _text((await self._scripts((self._count_chat, chat_keys, chat_args)))[0])
        numbers, _, summary = mark.partition("|")
        change, rating_w, rating_l = (int(x) for x in numbers.split(","))
        steps: list[tuple[AsyncScript, list[str], list[Any]]] = [
            (
                self._count_user,
                [k.counted(user_scope(p.id), match_id), k.user_matches(p.id), k.user_history(p.id)],
                [ttl, match_id, summary, USER_HISTORY],
            )
            for p in (a, b)
            if not p.computer
        ]
        if f["c"] == "1":
            glob = [
                k.counted(GLOBAL, match_id),
                k.stats(GLOBAL, winner),
                k.stats(GLOBAL, loser),
                k.leaderboard(GLOBAL),
                k.rating_log(GLOBAL, winner),
                k.rating_log(GLOBAL, loser),
            ]
            steps.append((self._count_global, glob, [ttl, *elo, finished, RATING_LOG]))
        elif f["c"] == "v":
            # Against the computer: the person's record at its level, never the rating.
            person, level = (a, b.level) if b.computer else (b, a.level)
            won = "1" if person.id == winner else "0"
            keys = [k.counted(GLOBAL, match_id), k.stats(GLOBAL, person.id)]
            steps.append((self._count_computer, keys, [ttl, level, won]))
        await self._scripts(*steps)
        await self._call(self.redis.zrem(k.jobs(), f"t:{match_id}"))
        keys = [k.match(match_id), k.posts(match_id)]
        await self._scripts((self._finished, keys, [summary, self.finished_ttl]))
        return change, rating_w, rating_l

    async def migrate_chat(self, old: int, new: int) -> list[str]:
        """A group became a supergroup with a new id: its settings, leaderboard, stats, history and
        active matches move there (a key already present under the new id is kept). Returns the matches moved.
        """
        k = self.keys
        old_scope, new_scope = chat_scope(old), chat_scope(new)
        ranked = await self._call(self.redis.zrange(k.leaderboard(old_scope), 0, -1))
        members = [_text(cast(bytes, m)) for m in ranked]
        match_ids = sorted(_text(m) for m in await self._call(self.redis.smembers(k.chat_matches(old))))
        moves = [
            (k.chat_settings(old), k.chat_settings(new)),
            (k.leaderboard(old_scope), k.leaderboard(new_scope)),
            (k.chat_history(old), k.chat_history(new)),
            (k.chat_matches(old), k.chat_matches(new)),
            *((k.stats(old_scope, int(m)), k.stats(new_scope, int(m))) for m in members),
            *((k.rating_log(old_scope, int(m)), k.rating_log(new_scope, int(m))) for m in members),
        ]
        moved: list[str] = []
        for match_id in match_ids:
            try:
                record, _ = await self.get(match_id)
            except Rejected:
                continue
            moves += [(k.active(old, p.id), k.active(new, p.id)) for p in record.players]

            def plan(record: MatchRecord, match: Match) -> Plan:
                if record.chat_id != old:
                    raise Rejected(Rejection.NOT_ALLOWED)
                return match, {"chat_id": new}, None

            with contextlib.suppress(Rejected):
                await self._write(match_id, None, plan)
                moved.append(match_id)
        for source, target in moves:
            if await self._call(self.redis.exists(source)):
                with contextlib.suppress(ResponseError):
                    await self._move_key(source, target)
        await self._call(self.redis.delete(k.gone(old)))
        return moved

    async def _move_key(self, source: str, target: str) -> None:
        await self._call(move_key(self.redis, source, target))

    # -- challenges ----------------------------------------------------------

    async def open_challenge(
        self,
        chat_id: int,
        creator: Player,
        preset: str,
        lang: Lang,
        *,
        target: int | None = None,
        opponent_id: int | None = None,
        opponent_username: str | None = None,
        opponent_name: str | None = None,
    ) -> Challenge:
        """Open a challenge in a chat; one per creator and chat, none while the creator plays there."""
        rules = find_preset(preset)
        now = self.clock()
        challenge = Challenge(
            id=new_challenge_id(secrets.token_urlsafe(6), chat_id),
            chat_id=chat_id,
            creator=creator,
            opponent_id=opponent_id,
            opponent_username=opponent_username.lstrip("@").lower() if opponent_username else None,
            opponent_name=opponent_name,
            preset=rules.name,
            target=target or rules.target,
            lang=lang,
            created=now,
            expires=now + self.challenge_ttl,
        )
        k = self.keys
        data = challenge.model_dump_json()
        # Its notice and its expiry first (their own slots), so that no open challenge lacks them; taken
        # back when the challenge is refused (one left by a process dying in between expires as nothing).
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(k.challenge_notices(), challenge.id, data)
            pipe.zadd(k.jobs(), {f"x:{challenge.id}": challenge.expires})
            await self._call(pipe.execute())
        keys = [k.challenge(challenge.id), k.chat_challenge(chat_id, creator.id), k.active(chat_id, creator.id)]
        args: list[str | int] = [challenge.id, data, self.challenge_ttl + KEEP_AFTER_DEADLINE]
        answer = await self._call(self._open(keys=keys, args=args))
        if int(answer[0]) != 1:
            await self._drop_challenge_traces(challenge.id)
            raise Rejected(Rejection.ALREADY_PLAYING if int(answer[0]) == -2 else Rejection.CHALLENGE_OPEN)
        return challenge

    async def _drop_challenge_traces(self, challenge_id: str) -> None:
        """A challenge's notice and expiry job go (it was refused, withdrawn or accepted)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hdel(self.keys.challenge_notices(), challenge_id)
            pipe.zrem(self.keys.jobs(), f"x:{challenge_id}")
            await self._call(pipe.execute())

    async def challenge(self, challenge_id: str) -> Challenge | None:
        """An open challenge (None once joined, withdrawn or expired)."""
        data = await self._call(self.redis.get(self.keys.challenge(challenge_id)))
        if data is None:
            return None
        challenge = Challenge.model_validate_json(data)
        return challenge if challenge.expires > self.clock() else None

    async def notice(self, challenge_id: str) -> Challenge | None:
        """A challenge whose message has not yet said how it ended (open, or expired and not yet announced)."""
        data = await self._call(self.redis.hget(self.keys.challenge_notices(), challenge_id))
        return None if data is None else Challenge.model_validate_json(data)

    async def expire_challenge(self, challenge: Challenge) -> bool:
        """End a challenge whose time is up; True for the one caller that did. False also when it was accepted
        (the accept is then carried through, if its process died midway)."""
        k = self.keys
        keys = [
            k.challenge(challenge.id),
            k.chat_challenge(challenge.chat_id, challenge.creator.id),
            k.accepted(challenge.chat_id, challenge.id),
        ]
        accepted = _text(await self._call(self._expire_challenge(keys=keys, args=[challenge.id])))
        if accepted:
            await self._created(MatchRecord.model_validate_json(accepted), challenge.id)
            return False
        return bool(await self._call(self.redis.hdel(k.challenge_notices(), challenge.id)))

    async def accepted(self, challenge: Challenge) -> MatchRecord | None:
        """The match a challenge became, if it was accepted (the accept is carried through first, if its process
        died midway: the match written, its indexes, its screens due, its clock)."""
        data = await self._call(self.redis.get(self.keys.accepted(challenge.chat_id, challenge.id)))
        if data is None:
            return None
        record = MatchRecord.model_validate_json(data)
        await self._created(record, challenge.id)
        return record

    async def open_challenge_of(self, chat_id: int, user_id: int) -> Challenge | None:
        value = await self._call(self.redis.get(self.keys.chat_challenge(chat_id, user_id)))
        return None if value is None else await self.challenge(_text(value))

    async def set_challenge_message(self, challenge: Challenge, message_id: int) -> Challenge:
        """Remember the group message of a challenge (keeping its expiry)."""
        updated = challenge.model_copy(update={"message_id": message_id})
        data = updated.model_dump_json()
        await self._scripts(
            (self._challenge_message, [self.keys.challenge(challenge.id)], [data]),
            (self._notice_message, [self.keys.challenge_notices()], [challenge.id, data]),
        )
        return updated

    async def pending_notices(self) -> list[Challenge]:
        """Challenges whose message has not yet said that they expired (open ones included)."""
        data = await self._call(self.redis.hgetall(self.keys.challenge_notices()))
        return [Challenge.model_validate_json(value) for value in data.values()]

    async def forget_notice(self, challenge_id: str) -> None:
        """The expiry of this challenge has been announced."""
        await self._call(self.redis.hdel(self.keys.challenge_notices(), challenge_id))

    async def withdraw(self, challenge_id: str, user_id: int, *, admin: bool = False) -> Challenge:
        """Remove an open challenge (its creator, or a group admin); atomic against a join."""
        k = self.keys
        for _ in range(MAX_ATTEMPTS):
            raw = await self._call(self.redis.get(k.challenge(challenge_id)))
            if raw is None:
                raise Rejected(Rejection.NO_CHALLENGE)
            challenge = Challenge.model_validate_json(raw)
            if challenge.creator.id != user_id and not admin:
                raise Rejected(Rejection.NOT_ALLOWED)
            keys = [k.challenge(challenge_id), k.chat_challenge(challenge.chat_id, challenge.creator.id)]
            if int(await self._call(self._withdraw(keys=keys, args=[raw]))) == 1:
                await self._drop_challenge_traces(challenge_id)
                return challenge
        raise Rejected(Rejection.BUSY)

    async def accept(
        self, challenge_id: str, joiner: Player, *, username: str | None = None, seed: int | None = None
    ) -> MatchRecord:
        """Join a challenge: the challenge is consumed and the match created, atomically."""
        for _ in range(MAX_ATTEMPTS):
            raw = await self._call(self.redis.get(self.keys.challenge(challenge_id)))
            if raw is None:
                raise Rejected(Rejection.NO_CHALLENGE)
            record = await self._accept_as_read(challenge_id, raw, joiner, username, seed)
            if record is not None:
                return record
        raise Rejected(Rejection.BUSY)

    async def play_computer(
        self, challenge_id: str, user_id: int, level: Level, name: str, *, seed: int | None = None
    ) -> MatchRecord:
        """The creator of an open challenge plays the computer at ``level`` instead (``name``: the computer's
        name in the match's language); anyone else is refused."""
        challenge = await self.challenge(challenge_id)
        if challenge is None:
            raise Rejected(Rejection.NO_CHALLENGE)
        if challenge.creator.id != user_id:
            raise Rejected(Rejection.NOT_ALLOWED)
        # The computer's id is this match's own, so that it never counts as playing elsewhere.
        computer = Player(id=-1 - secrets.randbits(48), name=name, level=level)
        return await self.accept(challenge_id, computer, seed=seed)

    async def _accept_as_read(
        self, challenge_id: str, raw: bytes | str, joiner: Player, username: str | None, seed: int | None
    ) -> MatchRecord | None:
        """Accept the challenge as it was read; None when it changed meanwhile (read it again)."""
        k = self.keys
        challenge = Challenge.model_validate_json(raw)
        if challenge.expires <= self.clock():
            raise Rejected(Rejection.NO_CHALLENGE)
        if challenge.creator.id == joiner.id:
            raise Rejected(Rejection.OWN_CHALLENGE)
        if not joiner.computer:  # the creator may always play the computer instead
            if challenge.opponent_id is not None and challenge.opponent_id != joiner.id:
                raise Rejected(Rejection.NOT_INVITED)
            if challenge.opponent_username is not None and challenge.opponent_username != (username or "").lower():
                raise Rejected(Rejection.NOT_INVITED)
        match = Match.new(challenge.preset, secrets.randbits(63) if seed is None else seed, challenge.target)
        settings = await self.chat_settings(challenge.chat_id)
        now = self.clock()
        record = MatchRecord(
            id=secrets.token_urlsafe(8),
            chat_id=challenge.chat_id,
            players=(challenge.creator, joiner),
            lang=challenge.lang,
            created=now,
            updated=now,
            deal=StoredDeal.of(match),
            # Against the computer, no clock: nobody waits for the person but the computer.
            turn_timeout=0 if joiner.computer else settings.turn_clock(self.turn_timeout),
        )
        chat = challenge.chat_id
        data = record.model_dump_json()
        # The challenge's job looks in a moment whether this accept was carried through (see _created).
        await self._call(self.redis.zadd(k.jobs(), {f"x:{challenge_id}": now + ACCEPT_CHECK}))
        keys = [
            k.challenge(challenge_id),
            k.chat_challenge(chat, challenge.creator.id),
            k.active(chat, challenge.creator.id),
            k.active(chat, joiner.id),
            k.chat_matches(chat),
            k.accepted(chat, challenge_id),
        ]
        answer = await self._call(self._accept(keys=keys, args=[raw, record.id, data, self.keep_ttl]))
        if int(answer[0]) == -1:
            return None
        if int(answer[0]) == -2:
            raise Rejected(Rejection.ALREADY_PLAYING)
        await self._created(record, challenge_id)
        self._remember(record, match)
        return record

    async def _created(self, record: MatchRecord, challenge_id: str) -> None:
        """The steps of an accept after the one in the chat's slot, each harmless to repeat: the match's record
        in its own slot, the players' indexes, its screens due, its clock; the challenge's notice and job go."""
        k = self.keys
        await self._call(self._create_match(keys=[k.match(record.id)], args=[record.model_dump_json(), self.keep_ttl]))
        await self._scripts(self._due(record.id))
        async with self.redis.pipeline(transaction=False) as pipe:
            for player in record.players:
                if not player.computer:
                    pipe.sadd(k.user_matches(player.id), record.id)
            pipe.zadd(k.jobs(), {f"t:{record.id}": self.clock_due(record, {}) or record.created}, nx=True)
            await self._call(pipe.execute())
        await self._drop_challenge_traces(challenge_id)

    # -- settings, profiles, updates -------------------------------------------

    async def chat_settings(self, chat_id: int) -> ChatSettings:
        data = await self._call(self.redis.hgetall(self.keys.chat_settings(chat_id)))
        return ChatSettings.model_validate({_text(a): _text(b) for a, b in data.items()})

    async def update_chat_settings(self, chat_id: int, **changes: Any) -> ChatSettings:
        settings = (await self.chat_settings(chat_id)).model_copy(update=changes)
        ChatSettings.model_validate(settings.model_dump())
        if settings.preset not in PRESETS:
            raise ValueError(f"unknown preset {settings.preset}")
        mapping: dict[Any, Any] = {k: str(v) for k, v in settings.model_dump().items() if v is not None}
        key = self.keys.chat_settings(chat_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            pipe.hset(key, mapping=mapping)
            await self._call(pipe.execute())
        return settings

    async def profile(self, user_id: int) -> UserProfile:
        data = await self._call(self.redis.hgetall(self.keys.profile(user_id)))
        fields = {_text(a): _text(b) for a, b in data.items()}
        return UserProfile.model_validate(
            {"id": user_id, **fields, "started": fields.get("started") == "1", "blocked": fields.get("blocked") == "1"}
        )

    async def set_blocked(self, user_id: int, blocked: bool) -> bool:
        """Mark (or clear) a user as having blocked the bot; whether that changed anything."""
        key = self.keys.profile(user_id)
        self._flags.pop(key, None)
        if blocked:
            return bool(await self._call(self.redis.hsetnx(key, "blocked", "1")))
        return bool(await self._call(self.redis.hdel(key, "blocked")))

    async def update_profile(
        self, user_id: int, *, name: str | None = None, lang: Lang | None = None, started: bool | None = None
    ) -> None:
        mapping: dict[Any, Any] = {}
        if name is not None:
            mapping["name"] = name
        if lang is not None:
            mapping["lang"] = lang
        if started is not None:
            mapping["started"] = "1" if started else "0"
        if mapping:
            await self._call(self.redis.hset(self.keys.profile(user_id), mapping=mapping))

    async def first_delivery(self, update_id: int, attempt: str, ttl: int = 86400) -> bool:
        """True when ``attempt`` (a value unique to this handling) may handle the update: it marked the
        update first, or the mark is its own. Telegram may deliver an update twice; and a mark whose reply
        was lost (Redis hung, the client timed out and sent the SET again) must not pass for another's."""
        key = self.keys.update(update_id)
        if await self._call(self.redis.set(key, attempt, nx=True, ex=ttl)):
            return True
        mark: bytes | str | None = await self._call(self.redis.get(key))
        return mark is not None and _text(mark) == attempt

    async def forget_delivery(self, update_id: int, attempt: str) -> None:
        """The handling ``attempt`` failed: a new delivery of the update may be handled (another
        attempt's mark stays)."""
        keys = [self.keys.update(update_id)]
        await self._call(self._forget_delivery(keys=keys, args=[attempt]))

    # -- results ---------------------------------------------------------------

    async def leaderboard(self, chat_id: int | None, limit: int = 10) -> list[Standing]:
        """The best ``limit`` by rating, in a chat or (``None``) across all chats."""
        scope = GLOBAL if chat_id is None else chat_scope(chat_id)
        rows = await self._call(self.redis.zrevrange(self.keys.leaderboard(scope), 0, limit - 1))
        return [await self._standing(scope, int(cast(bytes, uid)), rank) for rank, uid in enumerate(rows, 1)]

    async def rank_of(self, chat_id: int | None, user_id: int) -> Standing | None:
        scope = GLOBAL if chat_id is None else chat_scope(chat_id)
        rank = await self._call(self.redis.zrevrank(self.keys.leaderboard(scope), user_id))
        return None if rank is None else await self._standing(scope, user_id, cast(int, rank) + 1)

    async def _standing(self, scope: str, user_id: int, rank: int) -> Standing:
        data = await self._stats_hash(scope, user_id)
        return Standing(
            rank=rank,
            user_id=user_id,
            name=data.get("name", ""),
            rating=int(data.get("rating", self.elo_start)),
            played=int(data.get("played", 0)),
            won=int(data.get("won", 0)),
            lost=int(data.get("lost", 0)),
        )

    async def _stats_hash(self, scope: str, user_id: int) -> dict[str, str]:
        data = await self._call(self.redis.hgetall(self.keys.stats(scope, user_id)))
        return {_text(a): _text(b) for a, b in data.items()}

    async def stats(self, user_id: int, chat_id: int | None = None) -> UserStats:
        data = await self._stats_hash(GLOBAL if chat_id is None else chat_scope(chat_id), user_id)
        everywhere = data if chat_id is None else await self._stats_hash(GLOBAL, user_id)
        computer = {
            level: (int(everywhere[f"cpu:{level}:played"]), int(everywhere.get(f"cpu:{level}:won", 0)))
            for level in LEVELS
            if f"cpu:{level}:played" in everywhere
        }
        per_game = {
            name[len("played:") :]: (int(value), int(data.get("won:" + name[len("played:") :], 0)))
            for name, value in data.items()
            if name.startswith("played:")
        }
        return UserStats(
            user_id=user_id,
            played=int(data.get("played", 0)),
            won=int(data.get("won", 0)),
            lost=int(data.get("lost", 0)),
            rating=int(data.get("rating", self.elo_start)),
            streak=int(data.get("streak", 0)),
            best_streak=int(data.get("best", 0)),
            per_game=per_game,
            computer=computer,
        )

    async def rating_log(self, user_id: int, chat_id: int | None = None, limit: int = RATING_LOG) -> list[RatingPoint]:
        """The user's rating after each of their last ``limit`` rated matches in the chat's table (None: the
        global one), oldest first."""
        key = self.keys.rating_log(GLOBAL if chat_id is None else chat_scope(chat_id), user_id)
        rows = await self._call(self.redis.lrange(key, 0, limit - 1))
        points = []
        for row in reversed(rows):
            rating, change, finished, won = _text(row).split(",")
            points.append(RatingPoint(rating=int(rating), change=int(change), finished=float(finished), won=won == "1"))
        return points

    async def history(
        self, *, chat_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[Summary]:
        key = self.keys.chat_history(chat_id) if chat_id is not None else self.keys.user_history(user_id or 0)
        rows = await self._call(self.redis.lrange(key, 0, limit - 1))
        return [Summary.model_validate(json.loads(row)) for row in rows]


def _deal_post(deal: StoredDeal) -> str:
    """A finished deal's result, to post in the group."""
    return json.dumps({"k": "deal", "d": deal.model_dump()}, separators=(",", ":"))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _messages_of(f: dict[str, Any], posts: list[Any]) -> Messages:
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
        posts=[_text(post) for post in posts],
        summary=None if summary is None else Summary.model_validate_json(summary),
        finishing=None if f["f"] is None else _text(f["f"]),
        cards=(f["c0"] is not None, f["c1"] is not None),
    )


def _still(record: MatchRecord, version: int | None) -> None:
    """Refuse unless the match is active and (given a ``version``) nothing happened since."""
    if record.status is not Status.ACTIVE:
        raise Rejected(Rejection.MATCH_OVER)
    if version is not None and record.version != version:
        raise Rejected(Rejection.STALE)


def _seat_to_act(record: MatchRecord, match: Match, user_id: int, version: int | None) -> int:
    """The user's seat if they may act on this record now; else the reason they may not."""
    if record.status is not Status.ACTIVE:
        raise Rejected(Rejection.MATCH_OVER)
    seat = record.seat_of(user_id)
    if seat is None:
        raise Rejected(Rejection.NOT_A_PLAYER)
    if version is not None and version != record.version:
        raise Rejected(Rejection.STALE)
    if match.turn != seat:
        raise Rejected(Rejection.NOT_YOUR_TURN)
    return seat
