"""Results: leaderboards, a player's stats and rating log, the histories of chats and players."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from bot.models import LEVELS, Meeting, RatingPoint, Rivalry, SeasonStanding, Standing, Summary, UserStats
from bot.seasons import season_of
from bot.storage.results import RATING_LOG, ResultStore

PICTURE_TTL = 30 * 86400
"""Seconds a sent chart's ``file_id`` is kept: Telegram keeps its files far longer; a chart unchanged for a
month is drawn again."""


class Results:
    """What finished matches left in the tables, read for /top, /stats and /history."""

    def __init__(self, store: ResultStore, *, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    def current_season(self) -> str:
        """The season now (``YYYY-MM``, UTC)."""
        return season_of(self.clock())

    async def season(self, chat_id: int, season: str, limit: int = 10) -> tuple[list[SeasonStanding], str | None]:
        """A chat's season table, best ``limit`` first (wins, then the rating gained), and the language of its
        last match (None: no match counted in it)."""
        ids, counts = await asyncio.gather(
            self.store.season_table(chat_id, season, limit), self.store.season_counts(chat_id, season)
        )
        rows = [_season_row(counts, user_id, rank) for rank, user_id in enumerate(ids, 1)]
        return rows, counts.get("lang")

    async def season_rank_of(self, chat_id: int, season: str, user_id: int) -> SeasonStanding | None:
        rank = await self.store.season_rank(chat_id, season, user_id)
        if rank is None:
            return None
        return _season_row(await self.store.season_counts(chat_id, season), user_id, rank)

    async def claim_season_post(self, chat_id: int, season: str) -> bool:
        """Whether the caller is the one to post a season's final table in the chat (marked for good)."""
        return await self.store.claim_season_post(chat_id, season)

    async def release_season_post(self, chat_id: int, season: str) -> None:
        """The final table was not posted after all (Telegram did not take it): the next try posts it."""
        await self.store.release_season_post(chat_id, season)

    async def rivalry(self, chat_id: int, me: int, them: int) -> Rivalry:
        """Two people's head-to-head record in a chat, seen from ``me``."""
        data = await self.store.rivalry(chat_id, me, them)
        last = []
        for entry in filter(None, data.get("last", "").split(",")):
            winner, game, sw, sl = entry.split(":")
            last.append(Meeting(winner=int(winner), game=game, score=(int(sw), int(sl))))
        per_game = {
            name[2:]: (int(data.get(f"g:{name[2:]}:{me}", 0)), int(data.get(f"g:{name[2:]}:{them}", 0)))
            for name in data
            if name.startswith("p:")
        }
        return Rivalry(
            me=me,
            them=them,
            played=int(data.get("played", 0)),
            won=int(data.get(f"w:{me}", 0)),
            lost=int(data.get(f"w:{them}", 0)),
            streak=(int(data["sw"]), int(data["sn"])) if "sw" in data else None,
            last=last,
            per_game=per_game,
        )

    @property
    def start_rating(self) -> int:
        return self.store.elo_start

    async def leaderboard(self, chat_id: int | None, limit: int = 10) -> list[Standing]:
        """The best ``limit`` by rating, in a chat or (``None``) across all chats."""
        ids = await self.store.ranked(chat_id, limit)
        return [await self._standing(chat_id, user_id, rank) for rank, user_id in enumerate(ids, 1)]

    async def rank_of(self, chat_id: int | None, user_id: int) -> Standing | None:
        rank = await self.store.rank(chat_id, user_id)
        return None if rank is None else await self._standing(chat_id, user_id, rank)

    async def _standing(self, chat_id: int | None, user_id: int, rank: int) -> Standing:
        data = await self.store.stats(chat_id, user_id)
        return Standing(
            rank=rank,
            user_id=user_id,
            name=data.get("name", ""),
            rating=int(data.get("rating", self.start_rating)),
            played=int(data.get("played", 0)),
            won=int(data.get("won", 0)),
            lost=int(data.get("lost", 0)),
        )

    async def stats(self, user_id: int, chat_id: int | None = None) -> UserStats:
        data = await self.store.stats(chat_id, user_id)
        everywhere = data if chat_id is None else await self.store.stats(None, user_id)
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
            rating=int(data.get("rating", self.start_rating)),
            streak=int(data.get("streak", 0)),
            best_streak=int(data.get("best", 0)),
            per_game=per_game,
            computer=computer,
        )

    async def rating_log(self, user_id: int, chat_id: int | None = None, limit: int = RATING_LOG) -> list[RatingPoint]:
        """The user's rating after each of their last ``limit`` rated matches in the chat's table (None: the
        global one), oldest first."""
        points = []
        for row in reversed(await self.store.rating_log(chat_id, user_id, limit)):
            rating, change, finished, won = row.split(",")
            points.append(RatingPoint(rating=int(rating), change=int(change), finished=float(finished), won=won == "1"))
        return points

    async def chart_file(self, user_id: int, digest: str) -> str | None:
        """Telegram's ``file_id`` of a rating chart of the user that showed ``digest`` (None: draw it)."""
        return await self.store.picture(user_id, digest)

    async def keep_chart_file(self, user_id: int, digest: str, file_id: str) -> None:
        """Remember a sent rating chart's ``file_id`` for ``PICTURE_TTL`` seconds."""
        await self.store.keep_picture(user_id, digest, file_id, ttl=PICTURE_TTL)

    async def history(
        self, *, chat_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[Summary]:
        rows = await self.store.history(chat_id=chat_id, user_id=user_id, limit=limit)
        return [Summary.model_validate(json.loads(row)) for row in rows]


def _season_row(counts: dict[str, str], user_id: int, rank: int) -> SeasonStanding:
    return SeasonStanding(
        rank=rank,
        user_id=user_id,
        name=counts.get(f"n:{user_id}", ""),
        won=int(counts.get(f"w:{user_id}", 0)),
        lost=int(counts.get(f"l:{user_id}", 0)),
        gained=int(counts.get(f"e:{user_id}", 0)),
    )
