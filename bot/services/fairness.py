"""Provably fair deals (``engine.fairness``, docs/fairness.md): the match key, drawn when a challenge is opened
and committed on its message, and each player's seed (``/seed``), mixed into every match they begin.

A player's seed is a short text of their own, kept in their profile; one who
never set one gets a random one, kept from the first time it is needed. A
new match takes both seats' seeds as they stand then (the computer's seat:
``COMPUTER_SEED``) and its key, and records them (``MatchRecord.fair``): its
deal key is ``engine.fairness.deal_key(key, seeds)``.
"""

from __future__ import annotations

import secrets

from bot.models import SEED_LIMIT, FairKey, Player
from bot.storage.chats import ChatStore
from engine import Match
from engine.fairness import COMPUTER_SEED, SECRET_BYTES, deal_key


def draw_key() -> str:
    """A new match key, in hex, from the operating system's generator."""
    return secrets.token_bytes(SECRET_BYTES).hex()


def clean_seed(text: str) -> str:
    """A seed as typed, as it is kept: its words joined by single spaces (one line, easy to copy)."""
    return " ".join(text.split())


class Fairness:
    """Players' seeds, and new matches dealt from a key and the seeds."""

    def __init__(self, store: ChatStore) -> None:
        self.store = store

    async def seed(self, user_id: int) -> str:
        """The user's seed: their own, or the random one they were given (kept now if it is new)."""
        return await self.store.seed_or(user_id, secrets.token_hex(8))

    async def set_seed(self, user_id: int, text: str) -> str:
        """The user's seed becomes ``text`` (cleaned, ``clean_seed``); the seed kept. ``ValueError`` for an empty
        one or one over ``SEED_LIMIT`` characters."""
        seed = clean_seed(text)
        if not seed or len(seed) > SEED_LIMIT:
            raise ValueError(f"a seed has 1 to {SEED_LIMIT} characters, not {len(seed)}")
        await self.store.set_seed(user_id, seed)
        return seed

    async def seed_of(self, player: Player) -> str:
        """What a seat's player brings to a match: their seed, the empty string for the computer."""
        return COMPUTER_SEED if player.computer else await self.seed(player.id)

    async def new_match(
        self,
        preset: str,
        target: int | None,
        players: tuple[Player, Player],
        *,
        key: str | None = None,
        first: int | None = None,
        seed: int | None = None,
    ) -> tuple[Match, FairKey | None]:
        """A new match of ``players`` (seat 0 first) dealt from ``key`` (drawn now when None: a tournament's
        pairing, or a challenge opened before keys were committed) and both seats' seeds as they stand now, with
        what it was dealt from. A match made from a given ``seed`` (tests) is that seed's alone, as before seeds
        existed: no key, no seeds."""
        if seed is not None:
            return Match.new(preset, seed, target, first=first), None
        fair = FairKey(key=key or draw_key(), seeds=(await self.seed_of(players[0]), await self.seed_of(players[1])))
        dealt = deal_key(bytes.fromhex(fair.key), fair.seeds)
        return Match.new(preset, secrets.randbits(63), target, first=first, key=dealt), fair
