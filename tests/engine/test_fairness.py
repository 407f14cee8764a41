"""Deals anyone can verify: the shuffle from a secret, the commitment, the reveal, the CLI and the standalone script."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import random
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from engine import Match
from engine.__main__ import deal_facts, main
from engine.deal import Deal
from engine.fairness import commitment, deal_secret, parse_secret, seeded_key, shuffled
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
        assert commitment(secret) == hashlib.sha256(secret).hexdigest()[:16] == "630dcd2966c43366"
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
    def test_engine_deal(self, capsys: pytest.CaptureFixture[str]) -> None:
        secret = deal_secret(seeded_key(1), 1)
        assert main(["deal", "--game", "42", "--preset", "42", "--secret", secret.hex(), "--first", "1"]) == 0
        printed = json.loads(capsys.readouterr().out)
        deal = Deal.from_secret(find_preset("42"), secret, 1)
        assert printed == deal_facts(deal)
        assert printed["commitment"] == commitment(secret) and "indicator" not in printed

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

    def test_standalone_script_does_not_import_the_project(self) -> None:
        text = (ROOT / "docs" / "verify_deal.py").read_text()
        assert "engine" not in text.split('"""', 2)[2].replace("the engine", "")
        assert "import bot" not in text and "from bot" not in text


KNOWN_ORDER = [14, 26, 13, 21, 11, 23, 15, 10, 4, 16, 25, 7, 27, 3, 2, 22, 9, 18, 6, 20, 0, 17, 12, 5, 24, 1, 19, 8]
"""The shuffle of the secret 00 01 02 ... 1f (docs/fairness.md shows it as tiles)."""
