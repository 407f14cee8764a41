"""Compact encoding of an engine match for Redis.

The engine's JSON form of a match is the current deal's record; here it is
squeezed into a few short strings (hands and stock as digit strings, the
actions as one space-joined string) and decoded by replaying the actions.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine import Match
from engine.deal import Deal


class StoredDeal(BaseModel):
    """The current deal of a match, as stored."""

    model_config = ConfigDict(frozen=True)

    p: str
    """Preset name."""
    t: int
    """Match target."""
    s: int
    """Match seed."""
    n: int
    """Deal number."""
    f: int
    """First seat of the deal."""
    b: tuple[int, int]
    """Match score before the deal."""
    h: str
    """Both starting hands as two-digit tiles, seat 0's first: the first half is seat 0's."""
    k: str
    """The stock in drawing order, as two-digit tiles."""
    a: str = ""
    """The actions so far, space-joined."""
    x: str = ""
    """The deal's secret in hex (engine/fairness.py); '' in a deal dealt before deals had secrets."""
    y: str = ""
    """The match key in hex, which derives the next deals' secrets: only in the match's current deal, never in a
    finished deal's copy (its secret is shown; the key never is)."""

    @classmethod
    def of(cls, match: Match) -> StoredDeal:
        """The match's current deal, with the match key that deals the next."""
        stored = cls.of_deal(match.deal)
        key = match.deal.key
        return stored if key is None else stored.model_copy(update={"y": key.hex()})

    @classmethod
    def of_deal(cls, deal: Deal) -> StoredDeal:
        rec = deal.record()
        return cls(
            p=rec["preset"],
            t=rec["target"],
            s=rec["seed"],
            n=rec["deal"],
            f=rec["first"],
            b=deal.score_before,
            h="".join(rec["hands"][0]) + "".join(rec["hands"][1]),
            k="".join(rec["stock"]),
            a=" ".join(rec["actions"]),
            x=rec.get("secret", ""),
        )

    def to_match(self) -> Match:
        def pairs(text: str) -> list[str]:
            return [text[i : i + 2] for i in range(0, len(text), 2)]

        tiles = pairs(self.h)
        half = len(tiles) // 2
        record = {
            "preset": self.p,
            "target": self.t,
            "seed": self.s,
            "deal": self.n,
            "first": self.f,
            "hands": [tiles[:half], tiles[half:]],
            "stock": pairs(self.k),
            "actions": self.a.split(),
            "match_score": list(self.b),
            "game_points": [0, 0],
            "secret": self.x,
            "key": self.y,
        }
        return Match(Deal.from_record(record))
