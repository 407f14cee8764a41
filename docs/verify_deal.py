#!/usr/bin/env python3
"""Rebuild a deal of the domino bot from its secret, with nothing but Python's standard library.

    python3 verify_deal.py --secret 64-HEX-DIGITS [--game bingo|42] [--first 0|1] [--commitment 16-HEX]

Prints one JSON line: the commitment (the first 16 hex digits of SHA-256 of
the secret, which the table showed with 🔒 from the deal's start), both
starting hands (seat 0's first, each tile as "high low", sorted), the stock
in drawing order and, in Bingo, the trump indicator. With ``--commitment``,
exits with 1 when the secret does not hash to it. docs/fairness.md explains
each step; this file does not import the bot.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator

TILES = [f"{a}{b}" for a in range(7) for b in range(a + 1)]
"""The 28 tiles in index order: 00, 10, 11, 20, 21, 22, ..., 66 (higher end first)."""


def words(secret: bytes) -> Iterator[int]:
    """SHA-256(secret || counter), counter 0, 1, 2, ... as 8 bytes big-endian, read as 32-bit big-endian words."""
    counter = 0
    while True:
        block = hashlib.sha256(secret + counter.to_bytes(8, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def shuffled(secret: bytes) -> list[int]:
    """Fisher-Yates over the tile indices 0..27, each draw uniform by rejection."""
    order = list(range(28))
    stream = words(secret)
    for i in range(27, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        word = next(stream)
        while word >= limit:
            word = next(stream)
        j = word % n
        order[i], order[j] = order[j], order[i]
    return order


def deal(secret: bytes, game: str, first: int) -> dict[str, object]:
    order = shuffled(secret)
    early, late = order[:7], order[7:14]
    # In Bingo seat 0 takes the first seven; in 42 the opener's opponent does.
    hands = (late, early) if game == "42" and first == 0 else (early, late)
    facts: dict[str, object] = {
        "commitment": hashlib.sha256(secret).hexdigest()[:16],
        "first": first,
        "hands": [[TILES[t] for t in sorted(hand, reverse=True)] for hand in hands],
        "stock": [TILES[t] for t in order[14:]],
    }
    if game != "42":
        facts["indicator"] = TILES[order[-1]]
    return facts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--secret", required=True)
    parser.add_argument("--game", choices=("bingo", "42"), default="bingo")
    parser.add_argument("--first", type=int, choices=(0, 1), default=0)
    parser.add_argument("--commitment")
    args = parser.parse_args()
    secret = bytes.fromhex(args.secret)
    facts = deal(secret, args.game, args.first)
    print(json.dumps(facts))
    if args.commitment is not None and args.commitment.lower() != facts["commitment"]:
        print("the secret does not hash to that commitment", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
