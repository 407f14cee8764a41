"""Plays matches through the fake Bot API by pressing the buttons the bot sent."""

from __future__ import annotations

import random
import re

from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent

MOVE = re.compile(r"^a:(?P<m>[^:]+):(?P<v>\d+):(?P<a>.+)$")


def panel_of(fake: FakeTelegram, user: FakeUser) -> Sent | None:
    """The user's newest private message carrying game buttons."""
    for sent in reversed(fake.chat_messages(user.id)):
        if any(MOVE.match(b.get("callback_data", "")) for b in sent.buttons()):
            return sent
    return None


def version_of(panel: Sent) -> int:
    for b in panel.buttons():
        m = MOVE.match(b.get("callback_data", ""))
        if m:
            return int(m["v"])
    return -1


def playable(panel: Sent) -> list[dict[str, str]]:
    return [b for b in panel.buttons() if MOVE.match(b.get("callback_data", "")) and not b["text"].startswith("(")]


async def play_to_end(
    fake: FakeTelegram, players: tuple[FakeUser, FakeUser], rng: random.Random, max_moves: int = 5000
) -> int:
    """Press random playable buttons of whoever may act until no panel has buttons; returns moves made."""
    moves = 0
    while moves < max_moves:
        panels = [(u, panel_of(fake, u)) for u in players]
        live = [(u, p) for u, p in panels if p is not None]
        if not live:
            return moves
        rng.shuffle(live)
        progressed = False
        for user, panel in live:
            buttons = playable(panel)
            if not buttons:
                continue
            before = version_of(panel)
            query = fake.press(user, panel, rng.choice(buttons)["callback_data"])
            answer = await fake.wait_answer(query)
            if answer.get("text"):
                continue
            moves += 1
            progressed = True
            await fake.wait_for(lambda v=before: _moved_on(fake, players, v), what="panels to show the move")
            break
        if not progressed:
            await fake.wait_for(lambda: True, what="retry")
    raise AssertionError("the match did not end")


def _moved_on(fake: FakeTelegram, players: tuple[FakeUser, FakeUser], version: int) -> bool:
    """Both panels show a version after ``version`` (or have no buttons any more)."""
    for user in players:
        panel = panel_of(fake, user)
        if panel is not None and version_of(panel) <= version:
            return False
    return True
