"""Reading matches: the record cache, a match with its messages, and who plays where.

The last record this process wrote or read is kept decoded in memory, so a
press usually costs no read at all; a read of the same stored text as the
cached record is the cached record, without parsing. What a handler decides
on the cache is checked again on the current version by the move's own
compare-and-set (``bot/services/moves.py``).
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from bot.models import MatchRecord, Messages, Rejection
from bot.services.errors import Rejected
from bot.services.finish import Finisher
from bot.storage.matches import MatchStore
from engine import Match

log = logging.getLogger(__name__)

CACHE_SIZE = 4096


class Records:
    """The matches as this process knows them, over the match repository."""

    def __init__(self, store: MatchStore, finisher: Finisher, *, cache_size: int = CACHE_SIZE) -> None:
        self.store = store
        self.finisher = finisher
        self._cache: OrderedDict[str, tuple[MatchRecord, Match]] = OrderedDict()
        self._cache_size = cache_size
        self._raw: dict[str, bytes] = {}
        """The stored text each cached record was read from or written as (a read of the same text is the
        cached record, without parsing)."""

    # -- the cache -------------------------------------------------------------------

    def remember(self, record: MatchRecord, match: Match, *, redis_says: bool = False, raw: str | None = None) -> None:
        """Cache a match; an older version than the cached one only when it is what Redis holds now
        (``redis_says``: read from Redis, which wins even when it lost writes, say its last second). ``raw``: the
        text it was just written as."""
        known = self._cache.get(record.id)
        if known is not None and known[0].version > record.version and not redis_says:
            return
        self._cache[record.id] = (record, match)
        self._raw.pop(record.id, None)
        self._cache.move_to_end(record.id)
        while len(self._cache) > self._cache_size:
            gone, _ = self._cache.popitem(last=False)
            self._raw.pop(gone, None)
        if raw is not None:
            self._raw[record.id] = raw.encode()

    def forget(self, match_id: str) -> None:
        self._cache.pop(match_id, None)

    def _read(self, match_id: str, data: bytes | str) -> tuple[MatchRecord, Match]:
        """The match of a record as Redis holds it: the cached one when the stored text is the one it was
        made from (no parsing), else parsed and decoded."""
        raw = data.encode() if isinstance(data, str) else data
        cached = self._cache.get(match_id)
        if cached is not None and self._raw.get(match_id) == raw:
            self._cache.move_to_end(match_id)
            return cached
        record, match = self.decode(MatchRecord.model_validate_json(raw))
        now = self._cache.get(match_id)
        if now is not None and now[0] is record:
            self._raw[match_id] = raw
        return record, match

    def decode(self, record: MatchRecord) -> tuple[MatchRecord, Match]:
        """Rebuild the engine match of a record read from Redis (unless it is the cached one) and cache it."""
        known = self._cache.get(record.id)
        if known is not None and known[0].version == record.version and known[0].rev == record.rev:
            return known
        match = record.match()
        self.remember(record, match, redis_says=True)
        return record, match

    async def load(self, match_id: str, *, fresh: bool = False) -> tuple[MatchRecord, Match, bool]:
        """The match and whether it came from this process's cache (``fresh`` reads Redis)."""
        if not fresh:
            cached = self._cache.get(match_id)
            if cached is not None:
                return cached[0], cached[1], True
        data = await self.store.record(match_id)
        if data is None:
            self._cache.pop(match_id, None)
            raise Rejected(Rejection.NO_MATCH)
        record, match = self._read(match_id, data)
        return record, match, False

    # -- reading -------------------------------------------------------------------

    async def peek(self, match_id: str) -> tuple[MatchRecord, Match]:
        """The match as this process last saw it (read from Redis when not cached).

        Good for deciding how to answer; a move is still checked on the current
        version by the move service.
        """
        record, match, _ = await self.load(match_id)
        return record, match

    async def get(self, match_id: str) -> tuple[MatchRecord, Match]:
        """The match as stored now (always read from Redis)."""
        record, match, _ = await self.load(match_id, fresh=True)
        return record, match

    async def screens(self, match_id: str) -> tuple[MatchRecord, Match, Messages]:
        """The match as stored now and its messages, read together (one consistent moment). A finish left
        half done (its writer died between its steps) is carried through first."""
        data, messages = await self.store.screens(match_id, with_record=True)
        if data is None:
            self._cache.pop(match_id, None)
            raise Rejected(Rejection.NO_MATCH)
        record, match = self._read(match_id, data)
        if messages.finishing is not None:
            log.info("match %s: carrying its finish through", match_id)
            await self.finisher.count(record, messages.finishing)
            return await self.screens(match_id)
        return record, match, messages

    async def panel_message(self, match_id: str, seat: int) -> int | None:
        """The id of the seat's current panel message (the check a press on an old panel makes)."""
        return await self.store.panel_message(match_id, seat)

    async def active_match(self, chat_id: int, user_id: int) -> str | None:
        """The id of the user's active match in the chat, if any."""
        return await self.store.active_match(chat_id, user_id)

    async def chat_matches(self, chat_id: int) -> list[str]:
        """Ids of the chat's active matches."""
        return await self.store.chat_matches(chat_id)

    async def user_matches(self, user_id: int) -> list[str]:
        """Ids of the user's active matches."""
        return await self.store.user_matches(user_id)

    async def all_active_matches(self) -> list[str]:
        """Ids of every active match (a scan: for a start, not for a request)."""
        return await self.store.all_active_matches()
