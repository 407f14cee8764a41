"""Deals anyone can verify, over the fake Bot API: every table shows a commitment, every deal's result the secret
that hashes to it, and ``python -m engine deal`` with that secret gives the hands the players were dealt; a whole
match checked by docs/verify_deal.py from what the chat showed (the key's commitment on the challenge, each deal's
whole commitment on the panels before anyone acts in it, the key and the seeds set with /seed at the end); /seed
in both languages; a match against the computer showing the key's commitment in its first message."""

from __future__ import annotations

import hashlib
import html
import json
import random
import re
import subprocess
import sys

import pytest

from bot.models import SEED_LIMIT
from tests.e2e.conftest import running_bot
from tests.e2e.driver import (
    ask,
    challenge,
    join_by_link,
    match_id_of,
    move_data,
    new_match,
    panel_of,
    play_to_end,
    start_bot,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.process import ROOT

GROUP = -100770
ANN = FakeUser(7701, "Ann", "ann_fair", "ru")
BOB = FakeUser(7702, "Bob", "bob_fair", "pl")
COMMITTED = re.compile(r"(?:партия|rozdanie) (\d+)[^\n]*\n🔒 [^<\n]*<code>([0-9a-f]{64}|[0-9a-f]{16})</code>")
"""A table's or a panel's title and the deal's commitment under it: the table's 16 digits, a panel's 64."""
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
            known = committed.setdefault(int(number), digest)
            assert known[:16] == digest[:16], "a deal's commitment changed"
            if len(digest) > len(known):
                committed[int(number)] = digest
        for number, secret in REVEALED.findall(text):
            assert revealed.setdefault(int(number), secret) == secret, "a deal's secret changed"
    deals = len(record.log)
    assert deals >= 1 and set(committed) == set(revealed) == set(range(1, deals + 1))
    tables = [t for m in fake.chat_messages(GROUP) for t in m.history if COMMITTED.search(t)]
    assert tables, "no table showed a commitment"
    # Nobody sees a secret before its deal's result: no table holds one.
    assert not any(secret in t for t in tables for secret in revealed.values())
    for number, secret in revealed.items():
        assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == committed[number]
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


KEY_COMMITTED = re.compile(r"🔐 [^<\n]*<code>([0-9a-f]{64})</code>")
KEY_REVEALED = re.compile(r"🗝 [^<\n]*<code>([0-9a-f]{64})</code>")
SEEDS = re.compile(r"🌱 [^:\n]*: ([^\n]*)")
"""The seeds line: each person's seed in a <code>, seat 0's first (the computer's seat has none: '')."""
PANEL_COMMITTED = re.compile(r"(?:партия|rozdanie) (\d+)[^\n]*\n🔒 [^<\n]*<code>([0-9a-f]{64})</code>")
CAROL = FakeUser(7703, "Carol", "carol_fair", "ru")
DAVE = FakeUser(7704, "Dave", "dave_fair", "pl")


def calls_text(fake: FakeTelegram, chats: tuple[int, ...]) -> list[tuple[int, int, str]]:
    """Every text (or caption) the bot put into these chats, in the order Telegram got them: (call's place among
    all calls, chat, text)."""
    return [
        (i, int(c.params.get("chat_id", 0)), str(c.params.get("text") or c.params.get("caption") or ""))
        for i, c in enumerate(fake.calls)
        if c.status == 200 and int(c.params.get("chat_id", 0)) in chats
    ]


def first_place(texts: list[tuple[int, int, str]], needle: str, chat: int | None = None) -> int:
    """Where ``needle`` first appeared (in ``chat``, or anywhere); a failure when it never did."""
    found = next((i for i, c, text in texts if needle in text and chat in (None, c)), None)
    assert found is not None, f"{needle} never appeared" + ("" if chat is None else f" in {chat}")
    return found


def verify(*args: str) -> subprocess.CompletedProcess[str]:
    """docs/verify_deal.py as a user runs it: a program of its own, plain Python."""
    script = ROOT / "docs" / "verify_deal.py"
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, cwd=ROOT)


async def test_a_whole_match_verified_from_the_chat(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """Carol sets a seed, opens a challenge (its message shows the key's commitment) and changes her seed; Dave
    sets his and accepts. Each deal's whole commitment is on each panel from before its player's first press in the
    deal, and before its secret is shown; the result reveals the key and both seeds as they stood at the accept.
    docs/verify_deal.py, run on what the chat showed, confirms every deal and the hands the panels held; a tampered
    commitment or seed makes it fail."""
    players = (CAROL, DAVE)
    first_hands: dict[tuple[int, int], frozenset[str]] = {}
    pressed: list[tuple[int, FakeUser, int | None, str | None]] = []
    """Each press: its place among the calls, who, and the deal and commitment of the panel pressed."""

    def before_press(user: FakeUser, panel: Sent) -> None:
        found = PANEL_COMMITTED.search(panel.text)
        pressed.append((len(fake.calls), user, int(found[1]) if found else None, found[2] if found else None))

    async def after_move() -> None:
        for user in players:
            panel = panel_of(fake, user)
            seen = None if panel is None else dealt_hand(panel.text, panel.buttons())
            if seen is not None:
                first_hands.setdefault((user.id, seen[0]), seen[1])

    async with running_bot(fake, prefix) as app:
        for user in players:
            await start_bot(fake, user)
        set_before = await ask(fake, CAROL, CAROL.id, "/seed carol first words")
        assert "<code>carol first words</code>" in set_before.text
        message = await challenge(fake, CAROL, GROUP)
        committed_key = KEY_COMMITTED.search(message.text)
        assert committed_key is not None, message.text
        key_commitment = committed_key[1]
        after = await ask(fake, CAROL, CAROL.id, "/seed   changed after   the opening ")
        assert "<code>changed after the opening</code>" in after.text
        shown = await ask(fake, DAVE, DAVE.id, "/seed <b>Dave & co</b>")
        assert "<code>&lt;b&gt;Dave &amp; co&lt;/b&gt;</code>" in shown.text
        await join_by_link(fake, DAVE, message)
        await fake.wait_for(lambda: panel_of(fake, CAROL) and panel_of(fake, DAVE), what="both panels")
        match_id = match_id_of(panel_of(fake, CAROL))  # type: ignore[arg-type]
        await after_move()
        await play_to_end(fake, players, random.Random("verified"), after_move=after_move, before_press=before_press)
        await app.settled()
        record, _ = await app.services.records.get(match_id)
    assert record.fair is not None and not record.is_active
    texts = calls_text(fake, (GROUP, CAROL.id, DAVE.id))

    # What the chat showed: the key's commitment on the challenge, the deals' commitments on the panels, the key
    # and the seeds in the result.
    commitments: dict[int, str] = {}
    for _, chat, text in texts:
        for number, digest in PANEL_COMMITTED.findall(text):
            assert chat in (CAROL.id, DAVE.id)
            assert commitments.setdefault(int(number), digest) == digest, "a deal's commitment changed"
    keys = {m for _, _, text in texts for m in KEY_REVEALED.findall(text)}
    assert len(keys) == 1, keys
    (key,) = keys
    seeds_lines = {m for _, _, text in texts if KEY_REVEALED.search(text) for m in SEEDS.findall(text)}
    assert len(seeds_lines) == 1, seeds_lines
    seeds = [html.unescape(m) for m in re.findall(r"<code>([^<]*)</code>", seeds_lines.pop())]
    assert seeds == ["changed after the opening", "<b>Dave & co</b>"], seeds
    deals = len(record.log)
    assert deals >= 2 and sorted(commitments) == list(range(1, deals + 1))

    # (a) The key's commitment was in the chat before any deal's.
    assert first_place(texts, key_commitment) < min(first_place(texts, c) for c in commitments.values())
    # The key itself only once every move was made.
    assert first_place(texts, key) > max(place for place, *_ in pressed)

    # (d) The verifier, run on what the chat showed.
    ordered = [commitments[n] for n in range(1, deals + 1)]
    base = ["--key", key, "--key-commitment", key_commitment, "--commitments"]
    run = verify(*base, *ordered, "--seeds", *seeds)
    assert run.returncode == 0, run.stderr
    facts = json.loads(run.stdout)
    assert facts["key_commitment"] == key_commitment and [d["commitment"] for d in facts["deals"]] == ordered

    # (b) Each deal's commitment was on each player's panel at their every press in it, and in their chat before
    # the deal's secret was shown.
    for _, user, number, digest in pressed:
        assert number is not None and digest == commitments[number], f"{user.first_name} pressed a panel without it"
    for dealt in facts["deals"]:
        revealed_at = first_place(texts, dealt["secret"])
        for user in players:
            seat = 0 if user is CAROL else 1
            assert first_place(texts, dealt["commitment"], user.id) < revealed_at
            presses = [place for place, who, number, _ in pressed if who is user and number == dealt["deal"]]
            if presses:
                assert first_place(texts, dealt["commitment"], user.id) < min(presses)
            held = first_hands.get((user.id, dealt["deal"]))
            if held is not None and len(held) == 7:
                assert held == frozenset(dealt["hands"][seat]), f"deal {dealt['deal']}, {user.first_name}"
    assert all(len(first_hands[(u.id, 1)]) == 7 for u in players)
    assert {who.id for _, who, number, _ in pressed if number == 1} == {CAROL.id, DAVE.id}

    # Tampered: one digit of a deal's commitment, a seed, the key's commitment.
    wrong = ordered[1][:-1] + ("0" if ordered[1][-1] != "0" else "1")
    assert verify(*base, ordered[0], wrong, *ordered[2:], "--seeds", *seeds).returncode == 1
    assert verify(*base, *ordered, "--seeds", seeds[0] + " ", seeds[1]).returncode == 1
    assert verify(*base, *ordered, "--seeds", seeds[1], seeds[0]).returncode == 1
    forged = ["--key", key, "--key-commitment", "f" * 64, "--commitments", *ordered, "--seeds", *seeds]
    assert verify(*forged).returncode == 1


async def test_seed_in_both_languages(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """/seed in private shows the seed (a random one kept from the first time), sets it, refuses one too long in
    the user's language; in a group it says it works in private, in the group's language; the private command
    menu lists it."""
    async with running_bot(fake, prefix) as app:
        ru, pl = app.presenter.i18n["ru"], app.presenter.i18n["pl"]
        for user in (CAROL, DAVE):
            await start_bot(fake, user)
        first = await ask(fake, DAVE, DAVE.id, "/seed")
        default = await app.services.fairness.seed(DAVE.id)
        assert first.text == pl("seed-current", seed=default, limit=SEED_LIMIT)
        assert (await ask(fake, DAVE, DAVE.id, "/seed")).text == first.text, "the default is kept"
        long = "ż" * (SEED_LIMIT + 1)
        refused = await ask(fake, DAVE, DAVE.id, f"/seed {long}")
        assert refused.text == pl("seed-too-long", length=SEED_LIMIT + 1, limit=SEED_LIMIT)
        assert "65 znaków" in refused.text and await app.services.fairness.seed(DAVE.id) == default
        kept = await ask(fake, DAVE, DAVE.id, "/seed Zażółć gęślą jaźń")
        assert kept.text == pl("seed-set", seed="Zażółć gęślą jaźń") and "Nowe ziarno" in kept.text
        assert (await ask(fake, DAVE, DAVE.id, "/seed")).text == pl("seed-current", seed="Zażółć gęślą jaźń",
                                                                      limit=SEED_LIMIT)  # fmt: skip
        mine = await ask(fake, CAROL, CAROL.id, "/seed " + "я" * SEED_LIMIT)
        assert mine.text == ru("seed-set", seed="я" * SEED_LIMIT) and "Новое зерно" in mine.text
        refused = await ask(fake, CAROL, CAROL.id, "/seed " + "я" * 71)
        assert "71 знак," in refused.text and refused.text == ru("seed-too-long", length=71, limit=SEED_LIMIT)
        await app.services.chats.update_settings(GROUP, lang="pl")
        in_group = await ask(fake, CAROL, GROUP, "/seed words")
        assert in_group.text == pl("seed-private-only")
        assert await app.services.fairness.seed(CAROL.id) == "я" * SEED_LIMIT
    menus = [c.params for c in fake.calls if c.method == "setMyCommands" and c.status == 200]
    private = [m for m in menus if "all_private_chats" in str(m.get("scope"))]
    assert private and all("seed" in str(m["commands"]) for m in private)


async def test_against_the_computer_the_first_message_commits_the_key(
    fake: FakeTelegram, prefix: str, cleanup_redis: None
) -> None:
    """/play in private: the match's one message, its panel, shows the key's commitment (and the deal's whole
    commitment) from the first version, never the key; the match records the person's seed and the computer's
    empty one."""
    async with running_bot(fake, prefix) as app:
        await start_bot(fake, CAROL)
        await ask(fake, CAROL, CAROL.id, "/seed solo")
        fake.send_text(CAROL, CAROL.id, "/play")
        await fake.wait_for(lambda: panel_of(fake, CAROL) is not None, what="the panel")
        panel = panel_of(fake, CAROL)
        assert panel is not None
        record, match = await app.services.records.get(match_id_of(panel))
        assert record.fair is not None and record.fair.seeds == ("solo", "")
        first = panel.history[0]
        key_commitment = hashlib.sha256(bytes.fromhex(record.fair.key)).hexdigest()
        assert f"<code>{key_commitment}</code>" in first and record.fair.key not in first
        assert f"<code>{match.deal.commitment}</code>" in first
