"""The command line: ``python -m engine selfplay`` writes deal records, ``python -m engine replay`` checks them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = [("bingo", "bingo"), ("bingo", "bingo-classic"), ("bingo", "bingo-domino"), ("42", "42")]
MATCHES = 3


def engine(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m engine ARGS`` from the project root."""
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


def selfplay(game: str, preset: str, seed: int, log: Path, matches: int = MATCHES) -> dict[str, Any]:
    done = engine(
        "selfplay",
        "--game",
        game,
        "--preset",
        preset,
        "--matches",
        str(matches),
        "--seed",
        str(seed),
        "--log",
        str(log),
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    figures: dict[str, Any] = json.loads(lines[0])
    return figures


def read_records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def write_records(log: Path, records: list[dict[str, Any]]) -> None:
    log.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def first_tile(record: dict[str, Any]) -> str:
    """The tile of the first lead: in the first seat's hand, played before any draw."""
    return str(next(a for a in record["actions"] if a != "X")).rstrip("*")


def swap_hand_and_stock(record: dict[str, Any]) -> None:
    """Swap the first lead's tile with the first tile of the stock, which is only drawn after that lead."""
    seat = record["first"]
    tile = first_tile(record)
    hand = record["hands"][seat]
    hand[hand.index(tile)], record["stock"][0] = record["stock"][0], tile


def change_action_tile(record: dict[str, Any]) -> None:
    """Make the first lead a tile of the other seat's hand."""
    actions = record["actions"]
    i = next(i for i, a in enumerate(actions) if a != "X")
    actions[i] = record["hands"][1 - record["first"]][0]


def change_points(record: dict[str, Any]) -> None:
    record["points"][0] += 1


EDITS = {
    "swap-hand-stock": swap_hand_and_stock,
    "change-action-tile": change_action_tile,
    "change-points": change_points,
}


class TestSelfplay:
    """``selfplay`` prints its figures as one JSON line and logs one record per deal."""

    @pytest.mark.parametrize(("game", "preset"), GAMES)
    def test_figures_and_log(self, game: str, preset: str, tmp_path: Path) -> None:
        """The figures agree with the log: one record per deal, every action counted."""
        log = tmp_path / "deals.jsonl"
        figures = selfplay(game, preset, 11, log)
        assert {"matches", "deals", "actions", "seconds", "deals_per_second"} <= figures.keys()
        assert figures["matches"] == MATCHES
        records = read_records(log)
        assert figures["deals"] == len(records) > 0
        assert figures["actions"] == sum(len(r["actions"]) for r in records)
        assert figures["seconds"] >= 0
        assert {r["game"] for r in records} == {game}
        assert {r["preset"] for r in records} == {preset}
        finals = [r for r, nxt in zip(records, [*records[1:], None], strict=True) if nxt is None or nxt["deal"] == 1]
        assert len(finals) == MATCHES
        assert all(max(r["match_score"]) >= r["target"] for r in finals)

    @pytest.mark.parametrize(("game", "preset"), GAMES)
    def test_same_seed_same_log(self, game: str, preset: str, tmp_path: Path) -> None:
        """Two runs with one seed write identical logs; another seed writes another."""
        logs = [tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"]
        for log, seed in zip(logs, (5, 5, 6), strict=True):
            selfplay(game, preset, seed, log, matches=2)
        assert logs[0].read_bytes() == logs[1].read_bytes()
        assert logs[0].read_bytes() != logs[2].read_bytes()

    def test_preset_of_another_game_is_refused(self, tmp_path: Path) -> None:
        """Asking for a 42 preset with ``--game bingo`` is a usage error."""
        done = engine("selfplay", "--game", "bingo", "--preset", "42", "--matches", "1")
        assert done.returncode == 2
        assert "not a bingo preset" in done.stderr


class TestReplay:
    """``replay`` accepts the records selfplay wrote and names every record that does not replay."""

    @pytest.mark.parametrize(("game", "preset"), GAMES)
    def test_replay_accepts_selfplay_log(self, game: str, preset: str, tmp_path: Path) -> None:
        """A log written by selfplay replays cleanly: exit 0 and nothing on stderr."""
        log = tmp_path / "deals.jsonl"
        selfplay(game, preset, 3, log)
        done = engine("replay", str(log))
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        assert json.loads(done.stdout) == {"file": str(log), "ok": True, "bad": 0}

    @pytest.mark.parametrize("edit", EDITS)
    @pytest.mark.parametrize(("game", "preset"), GAMES)
    def test_edited_record_fails(self, game: str, preset: str, edit: str, tmp_path: Path) -> None:
        """One edited record makes replay exit 1 and name that record (line, seed, deal) on stderr."""
        log = tmp_path / "deals.jsonl"
        selfplay(game, preset, 8, log)
        records = read_records(log)
        line = len(records) // 2 + 1
        target = records[line - 1]
        EDITS[edit](target)
        write_records(log, records)
        done = engine("replay", str(log))
        assert done.returncode == 1
        assert f"line {line} (seed {target['seed']}, deal {target['deal']})" in done.stderr
        assert all(f.startswith(f"line {line} ") for f in done.stderr.strip().splitlines())
        assert json.loads(done.stdout)["ok"] is False

    def test_unchanged_copy_still_passes(self, tmp_path: Path) -> None:
        """Rewriting the records without a change keeps them valid (the edits above are what fails)."""
        log = tmp_path / "deals.jsonl"
        selfplay("bingo", "bingo", 8, log)
        write_records(log, read_records(log))
        assert engine("replay", str(log)).returncode == 0


class TestArena:
    """``arena`` prints one JSON line with the win rate of ``--a`` and its interval."""

    def test_one_json_line(self) -> None:
        done = engine("arena", "--game", "42", "--a", "normal", "--b", "easy", "--matches", "4", "--seed", "2")
        assert done.returncode == 0, done.stderr
        lines = done.stdout.strip().splitlines()
        assert len(lines) == 1
        figures = json.loads(lines[0])
        assert (figures["game"], figures["preset"], figures["a"], figures["b"]) == ("42", "42", "normal", "easy")
        assert figures["matches"] == figures["wins_a"] + figures["wins_b"] == 4
        assert 0 <= figures["ci_low"] <= figures["rate_a"] <= figures["ci_high"] <= 1

    def test_reproducible_across_jobs(self) -> None:
        """One seed gives the same wins whether one process plays or two."""
        runs = [
            json.loads(
                engine(
                    "arena", "--preset", "bingo-classic", "--a", "easy", "--b", "normal", "--matches", "4", *jobs
                ).stdout
            )
            for jobs in ([], ["--jobs", "2"])
        ]
        assert [r["wins_a"] for r in runs] == [runs[0]["wins_a"]] * 2
        assert runs[0]["deals"] == runs[1]["deals"]


def play_in_terminal(*args: str, moves: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "play", *args],
        cwd=ROOT,
        input=moves,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


class TestPlay:
    """``play``: a match against the computer in the terminal, one numbered move a line."""

    @pytest.mark.parametrize(
        ("game", "preset", "level"), [*((g, p, "normal") for g, p in GAMES), ("bingo", "bingo", "hard")]
    )
    def test_whole_match_choosing_move_one(self, game: str, preset: str, level: str) -> None:
        """Always answering 1 plays a match to its end; the computer's moves and the tricks are shown."""
        done = play_in_terminal("--game", game, "--preset", preset, "--level", level, "--seed", "4", moves="1\n" * 3000)
        assert done.returncode == 0, done.stderr
        out = done.stdout
        assert "your hand:" in out and "  1) " in out and "computer: " in out and "trick: " in out
        last = out.strip().splitlines()[-1]
        assert last.startswith("match over, ")
        assert ("you win" in last) != ("the computer wins" in last)

    def test_bad_answers_are_asked_again(self) -> None:
        """A word or a number out of range is refused and the question asked again."""
        done = play_in_terminal("--game", "bingo", "--level", "easy", "--seed", "1", moves="x\n99\n" + "1\n" * 3000)
        assert done.returncode == 0, done.stderr
        assert done.stdout.count("a number from 1 to") == 2

    def test_input_ends_early(self) -> None:
        """Running out of input leaves the match unfinished with exit 1."""
        done = play_in_terminal("--game", "42", "--level", "easy", "--seed", "1", moves="1\n1\n")
        assert done.returncode == 1
        assert "no more input" in done.stdout

    def test_same_seed_same_match(self) -> None:
        """The seed fixes the deals and the computer's moves."""
        runs = [
            play_in_terminal("--game", "bingo", "--level", "normal", "--seed", "6", moves="1\n" * 3000) for _ in "ab"
        ]
        assert runs[0].stdout == runs[1].stdout
