"""How soon the person's buttons come back after the computer's move, in a private match against the computer.

    .venv/bin/python -m bench.private_speed [--game bingo|42] [--level easy|normal|hard] [--matches N] [--seed N]
                                            [--think S]

``--matches`` whole matches (one by default), one after the other, in the
private chat with the bot (``/play``), the real bot over
the fake Bot API (``tests/e2e/fake_telegram.py``) on the test Redis, at
Telegram's real limits (one message a second per private chat, 20 a minute
per group) and the computer's real pause (``COMPUTER_PAUSE``, 1.5 s varied
0.6 to 1.4 times), in real time: a match takes one to six minutes. The person
presses a random playable button ``--think`` seconds after their buttons
arrive (0: at once, the hardest case for the chat's one-a-second budget).

Prints, over the matches, the median and the worst of:

- **move → buttons**: from the computer's move being committed (its write
  done, the delivery kicked) to the fake Bot API answering the call that put
  the buttons of that version on the person's panel, for every computer move
  after which the person is to act;
- **press → buttons**: from the person's press to their buttons back after
  the computer's answer (the computer's pause included);

and how many sends and edits the private chat got per move. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import uuid
from collections.abc import Callable
from typing import Any

from bot.app import App
from bot.models import MoveResult
from tests.e2e.conftest import delete_keys, running_bot
from tests.e2e.driver import WAITING, held_panel, match_id_of, move_data, playable, start_bot, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser

PERSON = FakeUser(424242, "Ann", "ann_speed", "ru")
Key = tuple[str, int]
"""A match and one of its versions."""
SENT_OR_EDITED = ("sendMessage", "sendPhoto", "editMessageText")


class Watch:
    """When each computer move was committed (the presenter is handed it), by the version it made."""

    def __init__(self, app: App) -> None:
        self.committed: dict[Key, float] = {}
        """Versions made by a computer move after which the person is to act: when they were committed."""
        self.computer_moves = 0
        show: Callable[..., None] = app.presenter.show

        def watched(result: MoveResult, ticket: Any = None) -> None:
            record = result.record
            if record.recent and record.recent[-1] == f"cpu:{record.version - 1}":
                self.computer_moves += 1
                turn = result.match.turn
                if record.is_active and turn is not None and not record.players[turn].computer:
                    self.committed[(record.id, record.version)] = time.monotonic()
            show(result, ticket)

        app.presenter.show = watched  # type: ignore[method-assign]


def buttons_at(fake: FakeTelegram, chat_id: int) -> dict[Key, float]:
    """When (real time, as the fake answered) the chat first got buttons of each match's version."""
    first: dict[Key, float] = {}
    for call in fake.calls_to(chat_id, SENT_OR_EDITED):
        markup = call.params.get("reply_markup") or {}
        for row in markup.get("inline_keyboard", []):
            for button in row:
                found = move_data(button)
                if found is not None:
                    first.setdefault((found["m"], int(found["v"])), call.real)
    return first


async def play(fake: FakeTelegram, app: App, rng: random.Random, think: float) -> list[tuple[Key, float]]:
    """Play a match to its end; each press's match and version, and its time."""
    presses: list[tuple[Key, float]] = []
    pressed = -1
    while True:
        panel = held_panel(fake, PERSON)
        if panel is None:
            if presses and not await app.services.records.active_match(PERSON.id, PERSON.id):
                return presses
            await fake.wait_change(PERSON.id, 0.5)
            continue
        buttons = playable(panel)
        version = version_of(panel)
        if WAITING in panel.text or not buttons or version <= pressed:
            await fake.wait_change(PERSON.id, 0.5)
            continue
        if think:
            await asyncio.sleep(think)
        presses.append(((match_id_of(panel), version), time.monotonic()))
        answer = await fake.wait_answer(fake.press(PERSON, panel, rng.choice(buttons)["callback_data"]))
        pressed = version
        if answer.get("text"):
            presses.pop()  # refused (an outdated panel): the next one is on its way


def figures(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:<18} none"
    return (
        f"{name:<18} median {statistics.median(values):.2f} s, worst {max(values):.2f} s, "
        f"best {min(values):.2f} s ({len(values)})"
    )


async def main(game: str, level: str, matches: int, seed: int, think: float) -> None:
    prefix = f"bench:speed:{uuid.uuid4().hex}"
    fake = FakeTelegram()
    await fake.start()
    try:
        # Telegram's real limits and the computer's real pause (the e2e tests compress them).
        async with running_bot(
            fake, prefix, pictures=False, group_window=60.0, group_budget=20, private_gap=1.0, computer_pause=1.5
        ) as app:
            watch = Watch(app)
            await start_bot(fake, PERSON)
            started = time.monotonic()
            rng = random.Random(seed)
            presses = []
            for _ in range(matches):
                fake.send_text(PERSON, PERSON.id, f"/play {game} {level}")
                presses += await play(fake, app, rng, think)
                await app.settled()
            took = time.monotonic() - started
    finally:
        await fake.stop()
        await delete_keys(prefix)
    shown = buttons_at(fake, PERSON.id)
    after_move = [shown[v] - at for v, at in watch.committed.items() if v in shown]
    handed = sorted(key for key in watch.committed if key in shown)
    after_press = []
    for (match_id, version), at in presses:
        # The buttons back: those of the first computer move after the press that left the person to act.
        later = next((shown[(m, v)] for m, v in handed if m == match_id and v > version), None)
        if later is not None:
            after_press.append(later - at)
    calls = len(fake.calls_to(PERSON.id, SENT_OR_EDITED))
    moves = watch.computer_moves + len(presses)
    print(f"{matches} private match(es): {game}, the computer {level}, seed {seed}, think {think:g} s; {took:.0f} s")
    print(f"moves: {len(presses)} by the person, {watch.computer_moves} by the computer")
    print(figures("move → buttons", after_move))
    print(figures("press → buttons", after_press))
    print(f"sends + edits in the chat: {calls} ({calls / max(moves, 1):.2f} a move)")


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="bingo")
    parser.add_argument("--level", default="normal")
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0, help="seconds the person takes before each press")
    args = parser.parse_args()
    asyncio.run(main(args.game, args.level, args.matches, args.seed, args.think))


if __name__ == "__main__":
    run()
