"""Shared tools of the service tests: players, starting a match, playing it, the result tables."""

from __future__ import annotations

import math
import random
from typing import Any

from bot.models import MatchRecord, MoveResult, Player, Status, is_inline_chat
from bot.services import Services
from bot.services.authority import Membership
from bot.services.reviews import MatchReview, review_now
from engine import Match

CHAT = -1001
OTHER_CHAT = -1002
ALA = Player(id=101, name="Ala")
BOB = Player(id=102, name="Bob")
CEZ = Player(id=103, name="Cez")
STRANGER = 999


class Members:
    """Who is in which chat, as Telegram would answer ``getChatMember``: everyone a member unless named an admin
    or an outsider of a chat; each question is kept (``asked``)."""

    def __init__(self) -> None:
        self.admins: dict[int, set[int]] = {}
        self.outsiders: dict[int, set[int]] = {}
        self.asked: list[tuple[int, int]] = []

    async def membership(self, chat_id: int, user_id: int) -> Membership:
        self.asked.append((chat_id, user_id))
        if user_id in self.admins.get(chat_id, set()):
            return Membership.ADMIN
        if user_id in self.outsiders.get(chat_id, set()):
            return Membership.OUTSIDE
        return Membership.MEMBER


async def start_match(
    services: Services,
    *,
    creator: Player = ALA,
    joiner: Player = BOB,
    chat_id: int = CHAT,
    preset: str = "bingo",
    target: int | None = None,
    seed: int = 1,
    thread_id: int | None = None,
) -> tuple[MatchRecord, Match]:
    """Open a challenge (in the forum topic ``thread_id``) and accept it: the new record and its engine match."""
    challenge = await services.challenges.open(chat_id, creator, preset, "ru", target=target, thread_id=thread_id)
    if is_inline_chat(chat_id):  # an inline challenge is accepted on its message (its creator posted it)
        await services.challenges.bind_inline(challenge.id, f"AgAAA{challenge.id}")
    record = await services.challenges.accept(challenge.id, joiner, seed=seed)
    return record, record.match()


def to_move(record: MatchRecord, match: Match) -> Player:
    """The player whose turn it is."""
    assert match.turn is not None
    return record.players[match.turn]


def waiting(record: MatchRecord, match: Match) -> Player:
    """The player whose turn it is not."""
    assert match.turn is not None
    return record.players[1 - match.turn]


async def play_random(
    services: Services, record: MatchRecord, match: Match, rng: random.Random, moves: int | None = None
) -> MoveResult:
    """Random legal moves (``moves`` of them, else to the end of the match); the last result."""
    result: MoveResult | None = None
    while not match.is_over and (moves is None or moves > 0):
        action = rng.choice(match.legal_actions())
        result = await services.moves.submit(record.id, to_move(record, match).id, action, version=record.version)
        record, match = result.record, result.match
        moves = None if moves is None else moves - 1
    assert result is not None
    return result


async def finish_by_play(services: Services, *, seed: int = 1, **options: Any) -> MoveResult:
    """A whole match of random moves to a target of 1; the result of its last move."""
    record, match = await start_match(services, target=1, seed=seed, **options)
    result = await play_random(services, record, match, random.Random(seed))
    assert result.record.status is Status.FINISHED
    return result


def elo_change(winner: int, loser: int, k: int = 32) -> int:
    """The points the winner takes from the loser (rounded half up, as the Lua script does)."""
    expected = 1 / (1 + 10 ** ((loser - winner) / 400))
    return math.floor(k * (1 - expected) + 0.5)


async def tables(services: Services, players: tuple[Player, ...], chat_id: int = CHAT) -> dict[str, Any]:
    """Everything a finished match counts in: stats, leaderboards and histories of the chat and of all chats."""
    return {
        "chat_stats": [await services.results.stats(p.id, chat_id) for p in players],
        "global_stats": [await services.results.stats(p.id) for p in players],
        "chat_board": await services.results.leaderboard(chat_id),
        "global_board": await services.results.leaderboard(None),
        "chat_history": await services.results.history(chat_id=chat_id, limit=100),
        "user_history": [await services.results.history(user_id=p.id, limit=100) for p in players],
    }


class InlineReviews:
    """The post-mortem made in the test's own process (the bot makes it in a worker process)."""

    made = True

    def prepare(self, record: MatchRecord) -> None:
        pass

    async def review(self, record: MatchRecord) -> MatchReview | None:
        return review_now(record)
