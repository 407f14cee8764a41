"""Deals anyone can verify: each deal is shuffled from its own secret, shown only once the deal is over.

The algorithm (docs/fairness.md writes it out, and ``docs/verify_deal.py``
re-does it in plain Python without this project):

- The bot draws a 32-byte **match key** from the operating system's
  generator when a challenge is opened and shows its **commitment**,
  ``SHA-256(key)`` in 64 lowercase hex digits, before anyone accepts; the key
  itself is shown with the match's result.
- Each player has a **seed**, a short text of their own (``/seed``); the
  computer's seat has none, and the empty string stands for it
  (:data:`COMPUTER_SEED`). The seeds as they stood at the accept make, with
  the key, the match's **deal key**:
  ``HMAC-SHA256(key, "seeds/<hex SHA-256 of seat 0's seed>/<hex SHA-256 of
  seat 1's seed>")`` (each seed as UTF-8; :func:`deal_key`). A match made
  before seeds existed (and one made from an integer seed: tests, self-play)
  has no seeds: its key is its deal key.
- A deal's **secret** is 32 bytes: deal ``n``'s is
  ``HMAC-SHA256(deal key, "deal/<n>")``. One deal's secret tells nothing of
  the key nor of another deal's secret.
- A deal's **commitment**, shown to each player before they act in the deal,
  is ``SHA-256(secret)`` in 64 lowercase hex digits; the group's table shows
  its first 16 digits, the **fingerprint**.
- The **stream** of a secret is ``SHA-256(secret || i)`` for ``i = 0, 1, 2,
  ...`` (``i`` as 8 bytes, big-endian), concatenated; it is read as 32-bit
  big-endian unsigned words.
- The **shuffle** starts from the 28 tiles in index order (``[0|0]``,
  ``[1|0]``, ``[1|1]``, ``[2|0]``, ... ``[6|6]``) and runs Fisher-Yates: for
  ``i`` from 27 down to 1, ``n = i + 1``, take words until one is below
  ``2**32 - 2**32 % n`` (so every ``j`` is equally likely), ``j = word % n``,
  swap positions ``i`` and ``j``.
- The **deal** reads the shuffled order: positions 0-6 and 7-13 are the two
  hands (which seat gets which is the game's rule: :meth:`Deal._hands_from_order`),
  14-27 the stock in drawing order; in Bingo the last one is the trump
  indicator.

Pure standard library: this module is also what the standalone script copies.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

SECRET_BYTES = 32
"""Length of a deal's secret and of a match key: 256 bits."""
FINGERPRINT_DIGITS = 16
"""Hex digits of a commitment the group's table shows (its fingerprint)."""
COMPUTER_SEED = ""
"""What stands for the seed of the computer's seat, which has none: the empty string."""


def seeded_key(seed: int) -> bytes:
    """The match key of a match made from a seed alone (tests, self-play, the arena): SHA-256 of ``match/<seed>``.
    The bot draws its keys at random instead."""
    return hashlib.sha256(f"match/{seed}".encode()).digest()


def seed_digest(seed: str) -> str:
    """A player's seed as the deal key takes it: the lowercase hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode()).hexdigest()


def deal_key(key: bytes, seeds: tuple[str, ...]) -> bytes:
    """The key the deals' secrets of a match are derived from: its match ``key`` with every seat's ``seeds``
    (seat 0's first; :data:`COMPUTER_SEED` for the computer's), ``HMAC-SHA256(key, "seeds/<d0>/<d1>")`` with
    each seed's :func:`seed_digest` (at a table of four ``"seeds/<d0>/<d1>/<d2>/<d3>"``)."""
    message = "seeds/" + "/".join(seed_digest(seed) for seed in seeds)
    return hmac.new(key, message.encode(), hashlib.sha256).digest()


def deal_secret(key: bytes, number: int) -> bytes:
    """The secret of deal ``number`` of the match whose deal key is ``key``."""
    return hmac.new(key, f"deal/{number}".encode(), hashlib.sha256).digest()


def commitment(secret: bytes) -> str:
    """What is shown of a secret (or of a match key) before it is: its SHA-256 in 64 lowercase hex digits."""
    return hashlib.sha256(secret).hexdigest()


def fingerprint(commitment: str) -> str:
    """The first 16 hex digits of a commitment: what the group's table shows."""
    return commitment[:FINGERPRINT_DIGITS]


def _words(secret: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha256(secret + counter.to_bytes(8, "big")).digest()
        for i in range(0, len(block), 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def shuffled(secret: bytes, count: int = 28) -> list[int]:
    """``range(count)`` shuffled by Fisher-Yates from the secret's SHA-256 stream (see the module's text)."""
    order = list(range(count))
    words = _words(secret)
    for i in range(count - 1, 0, -1):
        n = i + 1
        limit = (1 << 32) - (1 << 32) % n
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % n
        order[i], order[j] = order[j], order[i]
    return order


def parse_secret(text: str) -> bytes:
    """A secret written in hex (64 digits); ``ValueError`` otherwise."""
    raw = bytes.fromhex(text.strip())
    if len(raw) != SECRET_BYTES:
        raise ValueError(f"a secret is {SECRET_BYTES} bytes ({2 * SECRET_BYTES} hex digits), not {len(raw)}")
    return raw
