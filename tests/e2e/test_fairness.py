"""Deals anyone can verify, over the fake Bot API: every table shows a commitment, every deal's result the secret
that hashes to it, and ``python -m engine deal`` with that secret gives the hands the players were dealt."""

from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
import sys

import pytest

from tests.e2e.conftest import running_bot
from tests.e2e.driver import move_data, new_match, panel_of, play_to_end, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.e2e.process import ROOT

GROUP = -100770
ANN = FakeUser(7701, "Ann", "ann_fair", "ru")
BOB = FakeUser(7702, "Bob", "bob_fair", "pl")
COMMITTED = re.compile(r"(?:партия|rozdanie) (\d+)[^\n]*\n🔒 [^<\n]*<code>([0-9a-f]{16})</code>")
REVEALED = re.compile(r"<b>Партия (\d+)</b>.*?🔑 [^<\n]*<code>([0-9a-f]{64})</code>", re.DOTALL)
DEAL_OF_PANEL = re.compile(r"(?:партия|rozdanie) (\d+)")
TILE = re.compile(r"^(\d\d)\*?$")


def dealt_hand(text: str, buttons: list[dict[str, str]]) -> tuple[int, frozenset[str]] | None:
    """The deal a panel is of and the tiles on its buttons, if it has buttons."""
    found = DEAL_OF_PANEL.search(text)
    tiles = {t[1] for b in buttons if (m := move_data(b)) and (t := TILE.match(m["a"]))}
    return (int(found[1]), frozenset(tiles)) if found and tiles else None


@pytest.mark.parametrize("preset", ["bingo", "bingo-domino"])
async def test_every_secret_matches_its_commitment_and_its_hands(
    fake: FakeTelegram, prefix: str, cleanup_redis: None, preset: str
) -> None:
    """A whole match: each deal's 🔑 secret hashes to the 🔒 its table showed from its first render, and the engine's
    ``deal`` command rebuilds from it the seven tiles each player's first panel of that deal showed."""
    players = (ANN, BOB)
    first_hands: dict[tuple[int, int], frozenset[str]] = {}

    def snapshot() -> None:
        for user in players:
            panel = panel_of(fake, user)
            if panel is None:
                continue
            seen = dealt_hand(panel.text, panel.buttons())
            if seen is not None:
                first_hands.setdefault((user.id, seen[0]), seen[1])

    async def after_move() -> None:
        snapshot()

    async with running_bot(fake, prefix) as app:
        for user in players:
            await start_bot(fake, user)
        match_id = await new_match(fake, ANN, BOB, GROUP, preset)
        snapshot()
        await play_to_end(fake, players, random.Random(preset), after_move=after_move)
        await app.settled()
        record, _ = await app.services.records.get(match_id)

    # Every text the bot sent or edited into the group and the two private chats, deleted messages included: the
    # group's tables show each deal's commitment (unless the group's budget made the table skip a short deal),
    # each player's panel shows it before they act in the deal, and the deal's result shows the secret.
    texts = [
        str(c.params.get("text") or c.params.get("caption") or "")
        for c in fake.calls
        if c.status == 200 and int(c.params.get("chat_id", 0)) in (GROUP, ANN.id, BOB.id)
    ]
    committed: dict[int, str] = {}
    revealed: dict[int, str] = {}
    for text in texts:
        for number, digest in COMMITTED.findall(text):
            assert committed.setdefault(int(number), digest) == digest, "a deal's commitment changed"
        for number, secret in REVEALED.findall(text):
            assert revealed.setdefault(int(number), secret) == secret, "a deal's secret changed"
    deals = len(record.log)
    assert deals >= 1 and set(committed) == set(revealed) == set(range(1, deals + 1))
    tables = [t for m in fake.chat_messages(GROUP) for t in m.history if COMMITTED.search(t)]
    assert tables, "no table showed a commitment"
    # Nobody sees a secret before its deal's result: no table holds a 64-digit secret.
    assert not any(re.search(r"[0-9a-f]{64}", t) for t in tables)
    for number, secret in revealed.items():
        assert hashlib.sha256(bytes.fromhex(secret)).hexdigest()[:16] == committed[number]
        out = subprocess.run(
            [sys.executable, "-m", "engine", "deal", "--game", "bingo", "--preset", preset, "--secret", secret],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        facts = json.loads(out)
        assert facts["commitment"] == committed[number]
        for user in players:
            seat = record.seat_of(user.id)
            assert seat is not None
            shown = first_hands.get((user.id, number))
            if shown is not None and len(shown) == 7:
                assert shown == frozenset(facts["hands"][seat]), f"deal {number}, {user.first_name}"
    # Every player's first panel of deal 1 was seen whole (the other deals' too, unless the deal began with a
    # move the driver's snapshot came after).
    assert all(len(first_hands[(u.id, 1)]) == 7 for u in players)
