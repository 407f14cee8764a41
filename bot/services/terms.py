"""The operator's terms of play: how long challenges, moves and matches last (``bot/config.py`` sets them)."""

from __future__ import annotations

from dataclasses import dataclass

KEEP_AFTER_DEADLINE = 86400
"""Seconds the keys of a match or a challenge outlive its deadline (the scheduler acts at the deadline)."""


@dataclass(frozen=True)
class Terms:
    active_ttl: int = 14 * 86400
    """Seconds without a move after which an active match ends as abandoned."""
    finished_ttl: int = 2 * 86400
    """Seconds a finished match stays readable."""
    challenge_ttl: int = 300
    """Seconds an open challenge waits for a second player."""
    turn_timeout: int = 600
    """Seconds for a move, where a group chose no clock of its own (0: none)."""
    claim_after: int = 86400
    """Seconds without a move after which, with no clock, the waiting player may take the win."""
    computer_pause: float = 1.5
    """Seconds the computer waits after the last move before its own."""

    @property
    def keep_ttl(self) -> int:
        """The TTL of an active match's keys: past its abandonment, so the scheduler always finds it."""
        return self.active_ttl + KEEP_AFTER_DEADLINE

    @property
    def counted_ttl(self) -> int:
        """The TTL of the marks of a finish's steps (a step run again within it changes nothing)."""
        return self.finished_ttl + KEEP_AFTER_DEADLINE
