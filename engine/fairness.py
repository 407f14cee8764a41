"""Deals anyone can verify: each deal is shuffled from its own secret, shown only once the deal is over.

The algorithm (docs/fairness.md writes it out, and ``docs/verify_deal.py``
re-does it in plain Python without this project):

- A deal's **secret** is 32 bytes. The bot draws a 32-byte **match key**
  from the operating system's generator when a match begins (kept in Redis,
  never shown) and derives deal ``n``'s secret as
  ``HMAC-SHA256(key, "deal/<n>")``: one deal's secret tells nothing of the key
  nor of another deal's secret.
- The **commitment** shown from the deal's first render is the first 16
  lowercase hex digits of ``SHA-256(secret)``.
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
COMMITMENT_DIGITS = 16
"""Hex digits of SHA-256(secret) the table shows before the deal ends."""


def seeded_key(seed: int) -> bytes:
    """The match key of a match made from a seed alone (tests, self-play, the arena): SHA-256 of ``match/<seed>``.
    The bot draws its keys at random instead."""
    return hashlib.sha256(f"match/{seed}".encode()).digest()


def deal_secret(key: bytes, number: int) -> bytes:
    """The secret of deal ``number`` of the match with ``key``."""
    return hmac.new(key, f"deal/{number}".encode(), hashlib.sha256).digest()


def commitment(secret: bytes) -> str:
    """What the table shows of a secret before the deal ends: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(secret).hexdigest()[:COMMITMENT_DIGITS]


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
