"""Deals anyone can verify: the shuffle from a secret, the deal key from a match key and the seeds, the commitment,
the reveal, the CLI and the standalone script."""

from __future__ import annotations

import argparse
import hashlib
import hmac
import importlib.util
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from engine import Match
from engine.__main__ import deal_facts, main
from engine.deal import Deal
from engine.fairness import (
    COMPUTER_SEED,
    commitment,
    deal_key,
    deal_secret,
    fingerprint,
    parse_secret,
    seed_digest,
    seeded_key,
    shuffled,
)
from engine.rules import find_preset

ROOT = Path(__file__).resolve().parents[2]


def standalone() -> ModuleType:
    """docs/verify_deal.py, loaded from its file (it is not part of the package)."""
    spec = importlib.util.spec_from_file_location("verify_deal", ROOT / "docs" / "verify_deal.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestShuffle:
    def test_known_answer(self) -> None:
        """The algorithm is pinned: docs/fairness.md's worked example must stay true."""
        secret = bytes(range(32))
        assert commitment(secret) == hashlib.sha256(secret).hexdigest() == KNOWN_COMMITMENT
        assert fingerprint(commitment(secret)) == "630dcd2966c43366"
        assert shuffled(secret) == KNOWN_ORDER

    def test_a_permutation(self) -> None:
        rng = random.Random(1)
        for _ in range(200):
            order = shuffled(rng.randbytes(32))
            assert sorted(order) == list(range(28))

    def test_every_place_alike(self) -> None:
        """Where tile 0 lands over 5,600 secrets: each of the 28 places about 200 times (chi-square, 27 degrees of
        freedom, below the 0.1 % critical value 55.5)."""
        counts = Counter(shuffled(hashlib.sha256(str(i).encode()).digest()).index(0) for i in range(5600))
        expected = 5600 / 28
        chi2 = sum((counts[p] - expected) ** 2 / expected for p in range(28))
        assert chi2 < 55.5

    def test_secrets_of_a_match(self) -> None:
        """Deal n's secret is HMAC-SHA256(key, "deal/n"): each deal its own, none equal to the key."""
        key = seeded_key(3)
        secrets = [deal_secret(key, n) for n in range(1, 9)]
        assert len(set(secrets)) == 8 and key not in secrets
        assert secrets[0] == hmac.new(key, b"deal/1", hashlib.sha256).digest()

    def test_parse_secret(self) -> None:
        assert parse_secret("ab" * 32) == b"\xab" * 32
        with pytest.raises(ValueError):
            parse_secret("ab" * 16)
        with pytest.raises(ValueError):
            parse_secret("zz" * 32)


class TestDealKey:
    """A match's deal key: HMAC-SHA256 of its key and both seats' seeds (engine/fairness.py)."""

    def test_known_answer(self) -> None:
        """The derivation is pinned (docs/fairness.md's example): the key 00 01 ... 1f, seat 0's seed "ala ma kota",
        seat 1 the computer's."""
        key = bytes(range(32))
        dealt = deal_key(key, ("ala ma kota", COMPUTER_SEED))
        assert dealt.hex() == "5f338962140db1c9c81ecd2637a5bcbdbb49812c853c609a74da286237f4f81d"
        assert deal_secret(dealt, 1).hex() == "44f824ff9e939196c9aa0b6aad79900d081dbea17eff26bc780cbca94981ae25"
        assert commitment(deal_secret(dealt, 1)) == ("492b7d096072b63d77ae13e819b03f68d5af9489331811a8432b08ea62affada")
        # Written out with nothing but hashlib and hmac, as docs/fairness.md says it.
        seeds = f"seeds/{hashlib.sha256(b'ala ma kota').hexdigest()}/{hashlib.sha256(b'').hexdigest()}"
        assert dealt == hmac.new(key, seeds.encode(), hashlib.sha256).digest()

    def test_seed_digest(self) -> None:
        """A seed is hashed as UTF-8; the computer's seat is the empty string's digest."""
        assert seed_digest(COMPUTER_SEED) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        assert seed_digest("źdźbło") == hashlib.sha256("źdźbło".encode()).hexdigest()

    @pytest.mark.parametrize(
        "other",
        [("ala ma kotA", "x"), ("ala ma kota", "y"), ("x", "ala ma kota"), ("ala ma kota ", "x"), ("", "x")],
    )
    def test_seeds_change_the_deals(self, other: tuple[str, str]) -> None:
        """Any change of either seed, or the seats swapped, gives another deal key and other deals."""
        key = bytes(range(32))
        base = Match.new("bingo", 1, key=deal_key(key, ("ala ma kota", "x")))
        changed = Match.new("bingo", 1, key=deal_key(key, other))
        assert base.deal.key != changed.deal.key
        assert base.deal.start_hands != changed.deal.start_hands

    def test_key_changes_the_deals(self) -> None:
        seeds = ("a", "b")
        assert deal_key(bytes(32), seeds) != deal_key(bytes(range(32)), seeds)

    def test_no_seed_is_the_key_itself(self) -> None:
        """A match made before seeds existed dealt from its key directly; a seeded match never equals it."""
        key = bytes(range(32))
        assert deal_key(key, (COMPUTER_SEED, COMPUTER_SEED)) != key
        old = Match.new("bingo", 1, key=key)
        assert old.deal.secret == deal_secret(key, 1)


class TestMatch:
    @pytest.mark.parametrize("preset", ["bingo", "bingo-classic", "bingo-domino", "42"])
    def test_every_deal_from_its_secret(self, preset: str) -> None:
        """Through a whole match: the table's commitment from the first view, the secret only at the end, and the
        secret gives the deal's hands and stock."""
        rng = random.Random(preset)
        match = Match.new(preset, 7, key=rng.randbytes(32))
        deals = 0
        while not match.is_over:
            deal = match.deal
            shown = deal.view(None)
            assert shown.commitment is not None and shown.secret is None
            assert deal.view(deal.turn).secret is None
            finished = match.play(rng.choice(match.legal_actions()))
            if finished is not None:
                deals += 1
                end = finished.view(None)
                assert end.commitment == shown.commitment
                assert end.secret is not None and commitment(bytes.fromhex(end.secret)) == end.commitment
                rebuilt = Deal.from_secret(finished.rules, bytes.fromhex(end.secret), finished.first)
                assert rebuilt.start_hands == finished.start_hands and rebuilt.stock == finished.stock
                assert finished.dealt_from_secret()
        assert deals >= 1

    def test_seeded_and_keyed(self) -> None:
        """A match from a seed alone is the seed's key's; another key deals other deals."""
        a = Match.new("bingo", 5)
        b = Match.new("bingo", 5, key=seeded_key(5))
        c = Match.new("bingo", 5, key=bytes(32))
        assert a.deal.start_hands == b.deal.start_hands != c.deal.start_hands

    def test_key_kept_for_the_next_deal(self) -> None:
        """The match's JSON form keeps the key (so the next deal is the same after a reload); a deal's record never
        holds it, only its own secret."""
        match = Match.new("bingo", 9, key=bytes(range(32)))
        data = match.to_dict()
        assert data["key"] == bytes(range(32)).hex() and "key" not in match.deal.record()
        assert data["secret"] == deal_secret(bytes(range(32)), 1).hex()
        again = Match.from_dict(json.loads(json.dumps(data)))
        rng = random.Random(2)
        while match.deal.number == 1 and not match.is_over:
            action = rng.choice(match.legal_actions())
            match.play(action)
            again.play(action)
        assert again.deal.start_hands == match.deal.start_hands and again.deal.secret == match.deal.secret

    def test_record_with_other_hands_is_caught(self) -> None:
        """A record whose hands are not what its secret gives is reported by the replay check."""
        deal = Match.new("bingo", 4).deal
        record = deal.record()
        record["hands"] = [record["hands"][1], record["hands"][0]]
        assert "secret" in Deal.from_record(record).mismatches(record)
        assert Deal.from_record(deal.record()).mismatches(deal.record()) == []


class TestCommandLine:
    def test_engine_deal_from_a_key(self, capsys: pytest.CaptureFixture[str]) -> None:
        """``--key`` with ``--seeds`` and ``--deal`` gives that deal of the match; without seeds, the key is the deal
        key (a match made before seeds existed)."""
        key = bytes(range(32))
        assert main(["deal", "--key", key.hex(), "--seeds", "ala ma kota", "", "--deal", "2"]) == 0
        printed = json.loads(capsys.readouterr().out)
        secret = deal_secret(deal_key(key, ("ala ma kota", "")), 2)
        facts = deal_facts(Deal.from_secret(find_preset("bingo"), secret))
        assert printed == {"deal": 2, "secret": secret.hex()} | facts
        assert main(["deal", "--key", key.hex(), "--no-seeds"]) == 0
        assert json.loads(capsys.readouterr().out)["secret"] == deal_secret(key, 1).hex()

    def test_engine_deal(self, capsys: pytest.CaptureFixture[str]) -> None:
        secret = deal_secret(seeded_key(1), 1)
        assert main(["deal", "--game", "42", "--preset", "42", "--secret", secret.hex(), "--first", "1"]) == 0
        printed = json.loads(capsys.readouterr().out)
        deal = Deal.from_secret(find_preset("42"), secret, 1)
        assert printed == deal_facts(deal)
        assert printed["commitment"] == commitment(secret) and "indicator" not in printed
        assert len(printed["commitment"]) == 64

    def test_bad_secret(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as exit_:
            main(["deal", "--secret", "abc"])
        assert exit_.value.code == 2 and "--secret" in capsys.readouterr().err

    @pytest.mark.parametrize(("game", "first"), [("bingo", 0), ("bingo", 1), ("42", 0), ("42", 1)])
    def test_standalone_script_agrees(self, game: str, first: int) -> None:
        """docs/verify_deal.py, which imports nothing of the project, gives what the engine dealt."""
        script = standalone()
        rng = random.Random(f"{game}/{first}")
        for _ in range(40):
            secret = rng.randbytes(32)
            facts = deal_facts(Deal.from_secret(find_preset(game), secret, first))
            theirs = script.deal(secret, game, first)
            assert theirs == {k: v for k, v in facts.items() if k not in ("game", "preset")}

    @pytest.mark.parametrize("game", ["bingo", "42"])
    def test_standalone_script_checks_a_match(self, game: str) -> None:
        """docs/verify_deal.py's whole-match mode rebuilds every deal from the key and the seeds: the secrets, the
        commitments and the hands are the engine's (each deal's opener given for 42)."""
        script = standalone()
        key, seeds = bytes(range(32)), ("ala ma kota", "Zażółć gęślą jaźń")
        dealt = deal_key(key, seeds)
        secrets = [deal_secret(dealt, n) for n in (1, 2, 3)]
        firsts = [1, 0, 0]
        args = _match_args(key, seeds, [commitment(s) for s in secrets], game=game, first=firsts)
        facts, wrong = script.match(args)
        assert wrong == [] and facts["key_commitment"] == commitment(key)
        for number, (secret, first, theirs) in enumerate(zip(secrets, firsts, facts["deals"], strict=True), start=1):
            ours = deal_facts(Deal.from_secret(find_preset(game), secret, first))
            assert theirs == {"deal": number, "secret": secret.hex()} | {
                k: v for k, v in ours.items() if k not in ("game", "preset")
            }

    def test_standalone_script_exit_codes(self) -> None:
        """Run as a program: 0 when the key, the seeds and every commitment agree (whole or as the table's 16
        digits); 1 for a tampered commitment, key commitment or seed."""
        key, seeds = bytes(range(32)), ("ala ma kota", "")
        shown = [commitment(deal_secret(deal_key(key, seeds), n)) for n in (1, 2)]

        def run(*args: str) -> int:
            command = [sys.executable, str(ROOT / "docs" / "verify_deal.py"), *args]
            return subprocess.run(command, capture_output=True, text=True).returncode

        base = ["--key", key.hex(), "--key-commitment", commitment(key), "--commitments"]
        assert run(*base, *shown, "--seeds", *seeds) == 0
        assert run(*base, shown[0], fingerprint(shown[1]), "--seeds", *seeds) == 0
        assert run(*base, shown[0], shown[0], "--seeds", *seeds) == 1
        assert run(*base, *shown, "--seeds", "ala ma kot", "") == 1
        assert run("--key", key.hex(), "--key-commitment", "0" * 64, "--commitments", *shown, "--seeds", *seeds) == 1
        secret = deal_secret(key, 1).hex()
        assert run("--secret", secret, "--commitment", commitment(deal_secret(key, 1))) == 0
        assert run("--secret", secret, "--commitment", fingerprint(commitment(deal_secret(key, 1)))) == 0
        assert run("--secret", secret, "--commitment", "0" * 16) == 1

    def test_standalone_script_does_not_import_the_project(self) -> None:
        text = (ROOT / "docs" / "verify_deal.py").read_text()
        assert "engine" not in text.split('"""', 2)[2].replace("the engine", "")
        assert "import bot" not in text and "from bot" not in text


def _match_args(
    key: bytes, seeds: tuple[str, str], commitments: list[str], *, game: str, first: list[int]
) -> argparse.Namespace:
    """The arguments of docs/verify_deal.py's whole-match mode, as its parser makes them."""
    return argparse.Namespace(
        key=key, seeds=list(seeds), key_commitment=commitment(key), commitments=commitments, game=game, first=first
    )


KNOWN_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
"""SHA-256 of the secret 00 01 02 ... 1f (docs/fairness.md's example): its first 16 digits are its fingerprint."""
KNOWN_ORDER = [14, 26, 13, 21, 11, 23, 15, 10, 4, 16, 25, 7, 27, 3, 2, 22, 9, 18, 6, 20, 0, 17, 12, 5, 24, 1, 19, 8]
"""The shuffle of the secret 00 01 02 ... 1f (docs/fairness.md shows it as tiles)."""
