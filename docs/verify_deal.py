#!/usr/bin/env python3
"""Check the deals of the domino bot from what it showed, with nothing but Python's standard library.

A whole match, from its key and both players' seeds (its result shows them,
with 🗝 and 🌱) against what was shown before: the key's commitment (🔐, on
the challenge) and each deal's commitment (🔒, on the players' panels), in
the order of the deals:

    python3 verify_deal.py --key 64-HEX --seeds SEED0 SEED1 --key-commitment 64-HEX \\
        --commitments HEX1 HEX2 ... [--game bingo|42] [--first F1 F2 ...]

One deal, from its secret (the deal's result shows it, with 🔑):

    python3 verify_deal.py --secret 64-HEX [--game bingo|42] [--first 0|1] [--commitment HEX]

Prints one JSON line: for each deal its commitment (SHA-256 of its secret, 64
hex digits), both starting hands (seat 0's first, each tile as "high low",
sorted), the stock in drawing order and, in Bingo, the trump indicator; for a
match also the key's commitment and each deal's number and secret. A
commitment may be given whole or as its first 16 digits (the group's table
shows those); the seed of the computer's seat is the empty string (''). Exits
with 1 when anything does not match. docs/fairness.md explains each step;
this file does not import the bot.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
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


def hex32(text: str) -> bytes:
    """A secret or a key as the bot shows it: 64 hex digits."""
    raw = bytes.fromhex(text.strip())
    if len(raw) != 32:
        raise ValueError("not 32 bytes")
    return raw


def deal(secret: bytes, game: str, first: int) -> dict[str, object]:
    order = shuffled(secret)
    early, late = order[:7], order[7:14]
    # In Bingo seat 0 takes the first seven; in 42 the opener's opponent does.
    hands = (late, early) if game == "42" and first == 0 else (early, late)
    facts: dict[str, object] = {
        "commitment": hashlib.sha256(secret).hexdigest(),
        "first": first,
        "hands": [[TILES[t] for t in sorted(hand, reverse=True)] for hand in hands],
        "stock": [TILES[t] for t in order[14:]],
    }
    if game != "42":
        facts["indicator"] = TILES[order[-1]]
    return facts


def deal_key(key: bytes, seeds: tuple[str, str]) -> bytes:
    """HMAC-SHA256(key, "seeds/<hex SHA-256 of seed 0>/<hex SHA-256 of seed 1>"), each seed as UTF-8."""
    digests = [hashlib.sha256(seed.encode()).hexdigest() for seed in seeds]
    return hmac.new(key, f"seeds/{digests[0]}/{digests[1]}".encode(), hashlib.sha256).digest()


def deal_secret(key: bytes, number: int) -> bytes:
    """Deal ``number``'s secret: HMAC-SHA256(deal key, "deal/<number>")."""
    return hmac.new(key, f"deal/{number}".encode(), hashlib.sha256).digest()


def matches(shown: str, commitment: str) -> bool:
    """Whether a commitment as shown (64 hex digits, or the table's first 16) is this one."""
    shown = shown.strip().lower()
    return len(shown) in (16, 64) and commitment.startswith(shown)


def match(args: argparse.Namespace) -> tuple[dict[str, object], list[str]]:
    """Every deal of a match from its key and seeds; what does not match what was shown."""
    key = args.key
    facts: dict[str, object] = {"key_commitment": hashlib.sha256(key).hexdigest()}
    wrong = []
    if args.key_commitment is not None and not matches(args.key_commitment, str(facts["key_commitment"])):
        wrong.append("the key does not hash to the key's commitment")
    firsts = list(args.first or [])
    dealt = []
    for number, shown in enumerate(args.commitments, start=1):
        secret = deal_secret(deal_key(key, (args.seeds[0], args.seeds[1])), number)
        first = firsts[number - 1] if number <= len(firsts) else 0
        one = {"deal": number, "secret": secret.hex(), **deal(secret, args.game, first)}
        if not matches(shown, str(one["commitment"])):
            wrong.append(f"deal {number}: its secret does not hash to the commitment {shown}")
        dealt.append(one)
    facts["deals"] = dealt
    return facts, wrong


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "example (a whole match, from what its messages showed; docs/fairness.md says what it proves):\n"
            "  python3 verify_deal.py --key 000102...1e1f --seeds 'ala ma kota' '' \\\n"
            "      --key-commitment 630dcd29...d710dd --commitments 3f0c...e1 9a7b...04\n"
            "one deal: python3 verify_deal.py --secret <🔑, 64 hex digits> --commitment <🔒, 64 hex digits>"
        ),
    )
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--secret", type=hex32, help="one deal's secret (64 hex digits)")
    given.add_argument("--key", type=hex32, help="the match key (64 hex digits)")
    parser.add_argument("--seeds", nargs=2, metavar=("SEED0", "SEED1"), help="with --key: both seats' seeds")
    parser.add_argument("--key-commitment", help="with --key: the key's commitment the challenge showed")
    parser.add_argument(
        "--commitments",
        nargs="+",
        metavar="HEX",
        help="with --key: each deal's commitment (🔒, 64 hex digits; or the table's first 16), in order",
    )
    parser.add_argument("--game", choices=("bingo", "42"), default="bingo")
    parser.add_argument("--first", type=int, nargs="+", choices=(0, 1),
                        help="the seat that opened the deal (with --key: each deal's); 0 if not given")  # fmt: skip
    parser.add_argument("--commitment", help="with --secret: the deal's commitment")
    args = parser.parse_args()
    if args.key is not None:
        if args.seeds is None or not args.commitments:
            parser.error("--key needs --seeds and --commitments")
        facts, wrong = match(args)
    else:
        facts = deal(args.secret, args.game, (args.first or [0])[0])
        wrong = []
        if args.commitment is not None and not matches(args.commitment, str(facts["commitment"])):
            wrong.append("the secret does not hash to that commitment")
    print(json.dumps(facts, ensure_ascii=False))
    for line in wrong:
        print(line, file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
