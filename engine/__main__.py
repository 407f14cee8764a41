"""``python -m engine selfplay ...`` and ``python -m engine replay FILE``."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import nullcontext

from engine.rules import PRESETS, presets_of
from engine.selfplay import replay, selfplay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("selfplay", help="play whole matches with a seeded random policy")
    play.add_argument("--game", choices=["bingo", "42"], default="bingo")
    play.add_argument("--preset", choices=sorted(PRESETS), help="default: the game's first preset")
    play.add_argument("--matches", type=int, default=100)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--target", type=int, help="game points that win a match (default: the preset's)")
    play.add_argument("--log", help="write one deal record per line (JSON Lines) to this file")
    check = sub.add_parser("replay", help="re-play deal records and report every one that differs")
    check.add_argument("file")
    args = parser.parse_args(argv)

    if args.command == "selfplay":
        preset = args.preset or presets_of(args.game)[0]
        if PRESETS[preset].game != args.game:
            parser.error(f"preset {preset} is not a {args.game} preset")
        with open(args.log, "w", encoding="utf-8") if args.log else nullcontext() as log:
            figures = selfplay(preset, args.matches, args.seed, log, args.target)
        print(json.dumps(figures))
        return 0

    with open(args.file, encoding="utf-8") as f:
        failures = replay(f)
    for failure in failures:
        print(failure, file=sys.stderr)
    print(json.dumps({"file": args.file, "ok": not failures, "bad": len(failures)}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
