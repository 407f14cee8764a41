"""Seeded random playouts: the section 3 invariants after every action, apply's purity, illegal actions, round trips."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from engine import (
    Action,
    BingoDeal,
    BingoRules,
    ClosePenalty,
    DealEnd,
    FortyTwoDeal,
    IllegalAction,
    Kind,
    LastPair,
    Match,
    Reason,
    Refusal,
    apply,
    find_preset,
    legal_actions,
)
from engine.fortytwo import Phase
from tests.engine.helpers import check_invariants

BINGO_PRESETS = ("bingo", "bingo-classic", "bingo-domino")
ALL_PRESETS = (*BINGO_PRESETS, "42")
DEALS_PER_PRESET = 1050
"""Three presets of 1050 deals: more than 3,000 Bingo deals checked after every action."""

ALL_ACTIONS: tuple[Action, ...] = tuple(
    Action.parse(text)
    for text in (
        *(f"{a}{b}" for a in range(7) for b in range(a + 1)),
        *(f"{a}{a}*" for a in range(7)),
        "X",
        "I",
        "H",
        "P",
        *(f"B{n}" for n in range(4, 43)),
        *(f"T{s}" for s in range(7)),
    )
)
"""Every action of the notation, legal or not."""

END_REASONS = {
    Reason.REACHED_GOAL,
    Reason.SCHNEIDER,
    Reason.NO_TRICK,
    Reason.CLOSER_FAILED,
    Reason.CLOSER_FAILED_PENALTY,
    Reason.REACHED_GOAL_AFTER_CLOSE,
}


def expected_end_awards(deal: BingoDeal) -> list[tuple[int, int, Reason]]:
    """The game points of RULES.md 1.4 for a finished deal, worked out from its final state."""
    rules = deal.rules
    if deal.end is DealEnd.MATCH_WON:
        return []
    reached = next((s for s in (0, 1) if deal.points[s] >= rules.goal), None)
    if deal.end is DealEnd.REACHED_GOAL:
        assert reached is not None
    else:
        assert deal.end is DealEnd.HANDS_EMPTY
        assert reached is None and deal.hands == [0, 0]
    closer = deal.closed_by
    if closer < 0 or closer == reached:
        if reached is None:
            return []
        other = 1 - reached
        if deal.tricks[other] == 0:
            return [(reached, 3, Reason.NO_TRICK)]
        if deal.points[other] < rules.schneider:
            return [(reached, 2, Reason.SCHNEIDER)]
        return [(reached, 1, Reason.REACHED_GOAL)]
    other = 1 - closer
    if rules.close_penalty is ClosePenalty.CLOSED_BEFORE_FIRST_TRICK:
        texts = [a.notation() for a in deal.actions]
        plays_before_close = sum(1 for a in deal.actions[: texts.index("X")] if a.kind in (Kind.PLAY, Kind.CLAIM))
        penalty = plays_before_close < 2
    else:
        penalty = deal.tricks[closer] == 0
    awards = [(other, 3, Reason.CLOSER_FAILED_PENALTY) if penalty else (other, 2, Reason.CLOSER_FAILED)]
    if reached == other:
        awards.append((other, 1, Reason.REACHED_GOAL_AFTER_CLOSE))
    return awards


def random_states(preset: str, matches: int, seed: int) -> list[Match]:
    """Copies of the match states met along ``matches`` random matches."""
    rng = random.Random(f"states/{preset}/{seed}")
    states: list[Match] = []
    for number in range(matches):
        match = Match.new(preset, seed * 1000 + number)
        while not match.is_over:
            states.append(match.copy())
            match.play(rng.choice(match.legal_actions()))
        states.append(match)
    return states


def allowed_refusals(state: Match, action: Action) -> set[Refusal]:
    """The reasons that fit an illegal action in this state."""
    deal = state.deal
    hand = deal.hands[deal.turn]
    in_hand = action.kind in (Kind.PLAY, Kind.CLAIM) and bool(hand >> action.value & 1)
    if isinstance(deal, BingoDeal):
        rules = deal.rules
        if deal.choosing or action.kind in (Kind.BID, Kind.PASS, Kind.TRUMPS, Kind.TAKE_INDICATOR, Kind.TAKE_HIDDEN):
            return {Refusal.WRONG_PHASE}
        if action.kind is Kind.CLOSE:
            return {Refusal.CANNOT_CLOSE}
        if not in_hand:
            return {Refusal.NOT_IN_HAND}
        if action.kind is Kind.CLAIM:
            return {Refusal.NO_CLAIM}
        follow = {Refusal.MUST_FOLLOW_SUIT, Refusal.MUST_TRUMP}
        if rules.must_beat:
            follow.add(Refusal.MUST_BEAT)
        if rules.follow_lower_half:
            follow.add(Refusal.MUST_FOLLOW_LOWER_HALF)
        return follow
    assert isinstance(deal, FortyTwoDeal)
    if deal.phase is Phase.BIDDING and action.kind is Kind.BID:
        return {Refusal.BID_TOO_LOW}
    if action.kind is not Kind.PLAY or deal.phase not in (Phase.DRAW, Phase.PLAY):
        return {Refusal.WRONG_PHASE}
    if not in_hand:
        return {Refusal.NOT_IN_HAND}
    return {Refusal.MUST_FOLLOW_SUIT, Refusal.MUST_TRUMP}


class TestRandomPlayouts:
    """Random legal play never breaks the invariants of RULES.md section 3."""

    @pytest.mark.parametrize("preset", BINGO_PRESETS)
    def test_invariants_after_every_action(self, preset: str) -> None:
        """Over 1050 deals per preset, every state satisfies section 3 and every end scores as in 1.4."""
        rng = random.Random(f"playout/{preset}")
        ends: Counter[DealEnd] = Counter()
        kinds: Counter[Kind] = Counter()
        deals = seed = 0
        while deals < DEALS_PER_PRESET:
            match = Match.new(preset, seed)
            seed += 1
            check_invariants(match.deal)
            while not match.is_over and deals < DEALS_PER_PRESET:
                action = rng.choice(match.legal_actions())
                kinds[action.kind] += 1
                finished = match.play(action)
                check_invariants(match.deal)
                if finished is None:
                    continue
                assert isinstance(finished, BingoDeal) and finished.end is not None
                deals += 1
                ends[finished.end] += 1
                if finished is not match.deal:
                    check_invariants(finished)
                    assert match.deal.number == finished.number + 1
                    assert match.deal.first == 1 - finished.first
                    assert tuple(match.deal.score) == tuple(finished.score)
                end_awards = [(a.seat, a.game_points, a.reason) for a in finished.awards if a.reason in END_REASONS]
                assert end_awards == expected_end_awards(finished)
        assert deals == DEALS_PER_PRESET
        assert ends[DealEnd.REACHED_GOAL] and ends[DealEnd.HANDS_EMPTY]
        assert kinds[Kind.CLOSE] and kinds[Kind.CLAIM]
        rules = find_preset(preset)
        assert isinstance(rules, BingoRules)
        if rules.last_pair is LastPair.WINNER_CHOOSES:
            assert kinds[Kind.TAKE_INDICATOR] and kinds[Kind.TAKE_HIDDEN]
        else:
            assert not kinds[Kind.TAKE_INDICATOR] and not kinds[Kind.TAKE_HIDDEN]


class TestApply:
    """``apply`` returns a new state and leaves its input alone."""

    @pytest.mark.parametrize("preset", ALL_PRESETS)
    def test_apply_never_mutates_match(self, preset: str) -> None:
        """Applying a random legal action to a match changes neither the match nor its record."""
        rng = random.Random(f"apply/{preset}")
        for state in random_states(preset, 4, 1):
            if state.is_over:
                continue
            before = copy.deepcopy(state)
            record = json.dumps(state.to_dict())
            new = apply(state, rng.choice(legal_actions(state)))
            assert new is not state
            assert state == before
            assert json.dumps(state.to_dict()) == record

    @pytest.mark.parametrize("preset", ALL_PRESETS)
    def test_apply_never_mutates_deal(self, preset: str) -> None:
        """Applying every legal action to a deal leaves the deal as it was."""
        for state in random_states(preset, 2, 2):
            deal = state.deal
            before = copy.deepcopy(deal)
            for action in legal_actions(deal):
                new = apply(deal, action)
                assert new is not deal
                assert new.actions == [*deal.actions, action]
            assert deal == before

    @pytest.mark.parametrize("preset", ALL_PRESETS)
    def test_illegal_action_raises_and_changes_nothing(self, preset: str) -> None:
        """An action outside ``legal_actions`` raises IllegalAction with a fitting reason; nothing moves."""
        rng = random.Random(f"illegal/{preset}")
        seen: Counter[Refusal] = Counter()
        for state in random_states(preset, 3, 3):
            if state.is_over:
                continue
            legal = set(legal_actions(state))
            illegal = [a for a in ALL_ACTIONS if a not in legal]
            before = copy.deepcopy(state)
            for action in rng.sample(illegal, 4):
                with pytest.raises(IllegalAction) as caught:
                    apply(state, action)
                assert isinstance(caught.value, ValueError)
                assert isinstance(caught.value.reason, Refusal)
                assert caught.value.reason in allowed_refusals(state, action)
                seen[caught.value.reason] += 1
                with pytest.raises(IllegalAction):
                    state.deal.play(action.notation())
                assert state == before
        assert Refusal.NOT_IN_HAND in seen and Refusal.WRONG_PHASE in seen

    @pytest.mark.parametrize("preset", ALL_PRESETS)
    def test_wrong_seat_is_refused(self, preset: str) -> None:
        """A legal action offered by the seat not to act is refused as not its turn."""
        for state in random_states(preset, 1, 4)[:200]:
            if state.is_over:
                continue
            before = copy.deepcopy(state)
            other = 1 - state.deal.turn
            with pytest.raises(IllegalAction) as caught:
                apply(state, legal_actions(state)[0], seat=other)
            assert caught.value.reason is Refusal.NOT_YOUR_TURN
            assert state == before

    @pytest.mark.parametrize("preset", ALL_PRESETS)
    def test_finished_match_refuses_everything(self, preset: str) -> None:
        """Once the match is over there is no legal action and any action is refused as game over."""
        final = random_states(preset, 1, 5)[-1]
        assert final.is_over and final.winner is not None
        assert legal_actions(final) == []
        for action in ALL_ACTIONS:
            with pytest.raises(IllegalAction) as caught:
                apply(final, action)
            assert caught.value.reason is Refusal.GAME_OVER


class TestMatchRoundTrip:
    """A match's JSON form gives back the same match."""

    @pytest.mark.parametrize("preset", ALL_PRESETS)
    def test_json_round_trip(self, preset: str) -> None:
        """``Match.from_dict(json(to_dict()))`` equals the match at every state of random matches."""
        numbers: set[int] = set()
        for state in random_states(preset, 3, 6):
            back = Match.from_dict(json.loads(json.dumps(state.to_dict())))
            assert back == state
            assert back.score == state.score
            assert back.legal_actions() == state.legal_actions()
            numbers.add(state.deal.number)
        assert max(numbers) > 1

    @pytest.mark.parametrize("preset", ALL_PRESETS)
    def test_round_trip_then_play_on(self, preset: str) -> None:
        """A match restored from JSON plays on exactly like the original."""
        rng = random.Random(f"resume/{preset}")
        states = random_states(preset, 1, 7)
        state = states[len(states) // 2].copy()
        back = Match.from_dict(json.loads(json.dumps(state.to_dict())))
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            state.play(action)
            back.play(action)
            assert back == state
