"""``python -m engine selfplay|replay|review|arena|deal|play``: self-play, replays, post-mortems, computer
against computer, the deal a secret gives, you against it."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from contextlib import nullcontext

from engine.actions import Action, Kind
from engine.ai import ARENA_LEVELS, LEVELS, choose
from engine.arena import arena
from engine.deal import Deal
from engine.fairness import deal_key, deal_secret, parse_secret
from engine.games import GAMES, View, game_of
from engine.match import Match
from engine.review import matches_of, review
from engine.rules import PRESETS, find_preset, presets_of
from engine.selfplay import replay, selfplay
from engine.texas import choice_name
from engine.tiles import NOTATION, format_mask


class Defaults(argparse.ArgumentDefaultsHelpFormatter):
    """``--help`` says each option's default, where it has one."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False or action.required:
            return action.help
        return super()._get_help_string(action)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m engine")
    sub = parser.add_subparsers(dest="command", required=True)
    shows = Defaults
    play = sub.add_parser("selfplay", formatter_class=shows, help="play whole matches with a seeded random policy")
    _game_arguments(play)
    play.add_argument("--matches", type=int, default=100, help="matches to play")
    play.add_argument("--seed", type=int, default=0, help="the first match's seed (the next ones follow)")
    play.add_argument("--log", help="write one deal record per line (JSON Lines) to this file")
    check = sub.add_parser(
        "replay", formatter_class=shows, help="re-play deal records and report every one that differs"
    )
    check.add_argument("file")
    post = sub.add_parser(
        "review", formatter_class=shows, help="the post-mortem of each match of a deal-record file: a JSON line a seat"
    )
    post.add_argument("file")
    duel = sub.add_parser(
        "arena", formatter_class=shows, help="matches between two levels of the computer, seats alternating"
    )
    _game_arguments(duel)
    duel.add_argument("--a", choices=ARENA_LEVELS, required=True, help="the level whose win rate is reported")
    duel.add_argument("--b", choices=ARENA_LEVELS, required=True, help="its opponent")
    duel.add_argument("--matches", type=int, default=100, help="matches to play")
    duel.add_argument("--seed", type=int, default=0, help="the first match's seed (the next ones follow)")
    duel.add_argument("--jobs", type=int, default=1, help="processes to play in (the figures do not change)")
    dealt = sub.add_parser(
        "deal", formatter_class=shows, help="the deal a secret, or a match key, gives (docs/fairness.md): one JSON line"
    )
    _game_arguments(dealt)
    given = dealt.add_mutually_exclusive_group(required=True)
    given.add_argument("--secret", help="the deal's secret, 64 hex digits, as its result showed it")
    given.add_argument("--key", help="the match key, 64 hex digits, as the match's result showed it")
    seeded = dealt.add_mutually_exclusive_group()
    seeded.add_argument("--seeds", nargs="+", metavar="SEED",
                        help="with --key: every seat's seed, seat 0's first ('' for the computer's): two, or four "
                             "for 42x4")  # fmt: skip
    seeded.add_argument("--no-seeds", action="store_true",
                        help="with --key: a match made before seeds (the key is the deal key)")  # fmt: skip
    dealt.add_argument("--deal", type=int, default=1, help="with --key: the deal's number (default 1)")
    dealt.add_argument("--first", type=int, choices=range(4), default=0,
                       help="the seat that opens the deal (42; 42x4: the seat after the shaker)")  # fmt: skip
    human = sub.add_parser("play", formatter_class=shows, help="play a match against the computer in this terminal")
    _game_arguments(human)
    human.add_argument("--level", choices=LEVELS, default="normal", help="the computer's level")
    human.add_argument("--seed", type=int, help="default: a random match")
    human.add_argument("--seat", type=int, choices=range(4), default=0, help="your seat (42x4: 0..3)")
    args = parser.parse_args(argv)

    if args.command in ("replay", "review") and not os.path.isfile(args.file):
        parser.error(f"{args.command}: no such file: {args.file}")
    if args.command == "replay":
        with open(args.file, encoding="utf-8") as f:
            failures = replay(f)
        for failure in failures:
            print(failure, file=sys.stderr)
        print(json.dumps({"file": args.file, "ok": not failures, "bad": len(failures)}))
        return 1 if failures else 0

    if args.command == "review":
        return review_file(args.file)

    preset = args.preset or presets_of(args.game)[0]
    if PRESETS[preset].game != args.game:
        parser.error(f"preset {preset} is not a {args.game} preset")
    seats = PRESETS[preset].seats
    if getattr(args, "seat", 0) >= seats or getattr(args, "first", 0) >= seats:
        parser.error(f"{args.game} has seats 0..{seats - 1}")
    if args.command == "deal":
        option = "--secret" if args.secret is not None else "--key"
        try:
            secret = parse_secret(args.secret or args.key)
        except ValueError as error:
            shown = "expected 64 hex digits (0-9, a-f)" if "hexadecimal" in str(error) else str(error)
            parser.error(f"{option}: {shown}")
        facts: dict[str, object] = {}
        if args.key is not None and args.seeds is None and not args.no_seeds:
            parser.error("--key needs --seeds SEED0 SEED1 (as the match's result shows them), or --no-seeds")
        if args.seeds is not None and len(args.seeds) != seats:
            parser.error(f"--seeds: {args.game} has {seats} seats, so {seats} seeds")
        if args.key is not None:
            # Without seeds the key is the deal key itself (a match made before seeds existed).
            key = secret if args.seeds is None else deal_key(secret, tuple(args.seeds))
            secret = deal_secret(key, args.deal)
            facts = {"deal": args.deal, "secret": secret.hex()}
        print(json.dumps(facts | deal_facts(Deal.from_secret(find_preset(preset), secret, args.first))))
        return 0
    if args.command == "selfplay":
        with open(args.log, "w", encoding="utf-8") if args.log else nullcontext() as log:
            figures = selfplay(preset, args.matches, args.seed, log, args.target)
        print(json.dumps(figures))
        return 0
    if args.command == "arena":
        print(json.dumps(arena(preset, args.a, args.b, args.matches, args.seed, jobs=args.jobs, target=args.target)))
        return 0
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    return play_in_terminal(preset, args.level, seed, args.seat, args.target)


def _game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=list(GAMES), default="bingo", help="the game")
    parser.add_argument("--preset", choices=sorted(PRESETS), help="default: the game's first preset")
    parser.add_argument("--target", type=int, help="game points that win a match (default: the preset's)")


def review_file(path: str) -> int:
    """Print the post-mortem of each match in a deal-record file: one JSON line per match and seat."""
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    for records_of_match in matches_of(records):
        first = records_of_match[0]
        for seat_review in review(records_of_match):
            line = {"preset": first["preset"], "seed": first.get("seed", 0), **seat_review.to_json()}
            print(json.dumps(line))
    return 0


def deal_facts(deal: Deal) -> dict[str, object]:
    """What ``python -m engine deal`` prints of a deal: its commitment (64 hex digits), both hands, the stock in
    drawing order and, in Bingo, the trump indicator (the stock's last tile)."""
    facts: dict[str, object] = {
        "game": deal.game,
        "preset": deal.rules.name,
        "commitment": deal.commitment,
        "first": deal.first,
        "hands": [format_mask(h) for h in deal.start_hands],
        "stock": [NOTATION[t] for t in deal.stock],
    }
    if deal.game == "bingo":
        facts["indicator"] = NOTATION[deal.stock[-1]]
    return facts


# -- playing in the terminal -------------------------------------------------


def play_in_terminal(preset: str, level: str, seed: int, seat: int, target: int | None) -> int:
    """A match against the computer: your hand, the table, your moves numbered; reads a number a move."""
    match = Match.new(find_preset(preset), seed, target)
    rng = random.Random(f"{seed}/computer")
    print(f"{preset}, you are seat {seat} against the {level} computer; match seed {seed}")
    deal_shown = 0
    while not match.is_over:
        deal = match.deal
        if deal.number != deal_shown:
            deal_shown = deal.number
            print(f"\n== deal {deal.number}, score {_score(deal, seat)}, to {deal.target} ==")
        turn = deal.turn
        if turn == seat:
            view = deal.view(seat)
            print()
            for line in _table(view, seat):
                print(line)
            action = _ask(view.legal)
            if action is None:
                print("no more input: the match is left unfinished")
                return 1
            if isinstance(action, Stop):
                print("stopped: the match is left unfinished")
                return 0
        else:
            action = choose(level, deal.view(turn), rng)
            print(f"computer: {_describe(action)}")
        last = deal.last_trick
        finished = match.play(action, turn)
        trick = deal.view(seat).last_trick
        if trick is not None and deal.last_trick != last:
            if trick.winner == seat:
                taker = "you take"
            elif trick.winner % 2 == seat % 2:
                taker = "your partner takes"
            else:
                taker = "the computer takes"
            print(f"trick: {' then '.join(map(str, trick.tiles))}, {taker} it")
        if finished is not None:
            _deal_over(finished, seat)
    winner = "you win" if match.winner == seat % 2 else "the computer wins"
    print(f"\nmatch over, {winner} {_score(match.deal, seat)}")
    return 0


def _score(deal: Deal, seat: int) -> str:
    side = seat % 2
    return f"you {deal.score[side]} : {deal.score[1 - side]} computer"


class Stop:
    """What ``_ask`` gives when the player stops (q, Ctrl-C)."""


STOP = Stop()


def _ask(legal: tuple[Action, ...]) -> Action | Stop | None:
    """The move the player types (its number); ``STOP`` for q or Ctrl-C; None at the end of the input."""
    while True:
        try:
            answer = input("your move (number, q to stop): ").strip()
        except EOFError:
            return None
        except KeyboardInterrupt:
            print()
            return STOP
        if answer.lower() in ("q", "quit", "exit"):
            return STOP
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        print(f"a number from 1 to {len(legal)}, please")


def _describe(action: Action) -> str:
    kind = action.kind
    if kind is Kind.PLAY:
        return f"plays {action.notation()}"
    if kind is Kind.CLAIM:
        return f"leads {action.tile} and claims its doubles"
    if kind is Kind.CLOSE:
        return "closes the reserve"
    if kind is Kind.TAKE_INDICATOR:
        return "takes the indicator"
    if kind is Kind.TAKE_HIDDEN:
        return "takes the hidden tile"
    if kind is Kind.BID:
        return f"bids {action.value}"
    if kind is Kind.PASS:
        return "passes"
    return f"names {choice_name(action.value)} trumps"


def _table(view: View, seat: int) -> list[str]:
    lines = game_of(view).describe(view, seat)
    lines.append("your hand: " + " ".join(map(str, view.hand)))
    if view.lead is not None:
        lines.append(f"led by the computer: {view.lead}")
    lines.extend(f"  {i}) {_describe(a)}" for i, a in enumerate(view.legal, 1))
    return lines


def _deal_over(deal: Deal, seat: int) -> None:
    points = deal.points
    side = seat % 2
    print(f"deal {deal.number} over ({deal.end.value if deal.end else ''}): points {points[side]} : {points[1 - side]}")
    for award in deal.awards:
        who = "you" if award.seat == side else "computer"
        print(f"  {who} +{award.game_points} ({award.reason.value})")


if __name__ == "__main__":
    sys.exit(main())
