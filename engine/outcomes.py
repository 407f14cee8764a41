"""Typed outcomes: why an action is refused, how a deal ended, why game points were given.

Words for these come later, from the locales; the engine only names them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Refusal(enum.Enum):
    """Why an action is not legal now."""

    GAME_OVER = "game_over"
    """The deal or the match is over."""
    NOT_YOUR_TURN = "not_your_turn"
    """Another seat is to act."""
    WRONG_PHASE = "wrong_phase"
    """This kind of action is not taken now (a bid while playing, a play while choosing)."""
    NOT_IN_HAND = "not_in_hand"
    """The tile is not in the seat's hand."""
    MUST_FOLLOW_SUIT = "must_follow_suit"
    """A tile of the led suit must be played."""
    MUST_BEAT = "must_beat"
    """A tile of the led suit that wins the trick must be played."""
    MUST_FOLLOW_LOWER_HALF = "must_follow_lower_half"
    """Void in the led suit: a tile with the led tile's lower end must be played."""
    MUST_TRUMP = "must_trump"
    """A trump must be played."""
    NO_CLAIM = "no_claim"
    """A claim needs a double led and at least two doubles in hand."""
    CANNOT_CLOSE = "cannot_close"
    """Closing needs the seat on lead, before leading, with tiles in an open reserve."""
    BID_TOO_LOW = "bid_too_low"
    """A bid must be above the last one and within the limits."""


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the state is left unchanged."""

    def __init__(self, action: object, reason: Refusal) -> None:
        super().__init__(f"illegal action {action}: {reason.value}")
        self.action = action
        self.reason = reason


class DealEnd(enum.Enum):
    """How a deal ended."""

    REACHED_GOAL = "reached_goal"
    """Bingo: a player's points reached 70 when a trick was settled."""
    HANDS_EMPTY = "hands_empty"
    """Bingo: both hands ran out before anyone reached 70."""
    MATCH_WON = "match_won"
    """A bonus given during the deal reached the match target; the deal stopped."""
    PLAYED_OUT = "played_out"
    """42: all seven tricks of the play phase were played."""
    ALL_PASSED = "all_passed"
    """42: every seat passed; the deal is dealt again (for two with the same opener, for four by the next
    shaker)."""
    DECIDED = "decided"
    """42 for four: the outcome of the bid became certain before the last trick, and the deal stopped."""


class Reason(enum.Enum):
    """Why a seat received game points."""

    CLAIM = "claim"
    """Bingo: a won claim of six or seven doubles worth game points."""
    BINGO_TAKES_TRUMP_DOUBLE = "bingo_takes_trump_double"
    """Bingo: bingo took the trump double in one trick."""
    REACHED_GOAL = "reached_goal"
    """Bingo: reached 70 with the opponent at or above the schneider threshold (1)."""
    SCHNEIDER = "schneider"
    """Bingo: reached 70 with the opponent below the schneider threshold (2)."""
    NO_TRICK = "no_trick"
    """Bingo: reached 70 before the opponent took a trick (3)."""
    CLOSER_FAILED = "closer_failed"
    """Bingo: the opponent closed and did not reach 70 (2)."""
    CLOSER_FAILED_PENALTY = "closer_failed_penalty"
    """Bingo: as CLOSER_FAILED, with the preset's penalty condition (3)."""
    REACHED_GOAL_AFTER_CLOSE = "reached_goal_after_close"
    """Bingo: the one more point for reaching 70 oneself after the opponent closed."""
    BID_MADE = "bid_made"
    """42: the declarer (for four: the declaring team) scored at least the bid."""
    BID_SET = "bid_set"
    """42: the declarer fell short; the opponent (the defending team) scores."""


@dataclass(frozen=True, slots=True)
class Award:
    """Game points given to a side in a deal, with the reason."""

    seat: int
    """The side: a seat of a game for two, a team (``seat % 2``) of a game for four."""
    game_points: int
    reason: Reason
    claimed: int = 0
    """For ``Reason.CLAIM``: how many doubles were claimed."""
