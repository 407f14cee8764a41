"""Results: leaderboards, a player's stats and rating log, the histories of chats and players."""

from __future__ import annotations

import json

from bot.models import LEVELS, RatingPoint, Standing, Summary, UserStats
from bot.storage.results import RATING_LOG, ResultStore


class Results:
    """What finished matches left in the tables, read for /top, /stats and /history."""

    def __init__(self, store: ResultStore) -> None:
        self.store = store

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

    async def history(
        self, *, chat_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[Summary]:
        rows = await self.store.history(chat_id=chat_id, user_id=user_id, limit=limit)
        return [Summary.model_validate(json.loads(row)) for row in rows]
