"""What the users do: start the bot, challenge, join, and play matches by pressing the buttons the bot sent."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent

MOVE = re.compile(r"^a:(?P<m>[^:]+):(?P<v>\d+):(?P<a>.+)$")
TURN = "▶️"
"""Starts the table's line saying whose turn it is (both locales)."""
BLOCKED = "🚫"
"""Starts the button of a tile that may not be played now."""
WAITING = "⏳"
"""Starts the prompt of a panel whose owner waits for the opponent (both locales)."""
STALLED_AFTER = 60.0
"""Real seconds ``play`` goes on without an accepted move (every press refused, or no panel with a button to
press) before it fails saying what the panels show: a match that cannot go on, not a slow machine."""


def move_data(button: dict[str, Any]) -> re.Match[str] | None:
    """The parts of a game button's callback data (match, version, action), or None for other buttons."""
    return MOVE.match(button.get("callback_data", ""))


def panel_of(fake: FakeTelegram, user: FakeUser) -> Sent | None:
    """The user's newest private message carrying game buttons."""
    for sent in reversed(fake.chat_messages(user.id)):
        if any(move_data(b) for b in sent.buttons()):
            return sent
    return None


def version_of(panel: Sent) -> int:
    for b in panel.buttons():
        m = move_data(b)
        if m:
            return int(m["v"])
    return -1


def match_id_of(panel: Sent) -> str:
    for b in panel.buttons():
        m = move_data(b)
        if m:
            return m["m"]
    raise AssertionError("the message has no game button")


def playable(panel: Sent) -> list[dict[str, Any]]:
    """Game buttons the panel does not mark as unplayable now."""
    return [b for b in panel.buttons() if move_data(b) and not b["text"].startswith(BLOCKED)]


def button(sent: Sent, prefix: str) -> dict[str, Any]:
    """The first button whose callback data starts with ``prefix`` (``j:``, ``w:``, ``s:``...)."""
    for b in sent.buttons():
        if b.get("callback_data", "").startswith(prefix):
            return b
    raise AssertionError(f"no button {prefix}... in {sent.buttons()}")


def url_button(sent: Sent) -> str:
    for b in sent.buttons():
        if "url" in b:
            return str(b["url"])
    raise AssertionError(f"no URL button in {sent.buttons()}")


async def start_bot(fake: FakeTelegram, user: FakeUser) -> None:
    """The user opens the bot in private and gets the welcome (once the bot is done with the /start)."""
    seen = len(fake.chat_messages(user.id))
    fake.send_text(user, user.id, "/start")
    update = fake.newest_update
    await fake.wait_for(lambda: len(fake.chat_messages(user.id)) > seen, what=f"welcome of {user.first_name}")
    await fake.done(update)


async def reply_in(fake: FakeTelegram, chat_id: int, after: int, what: str, *, update: int | None = None) -> Sent:
    """The first message the bot sends to ``chat_id`` with an id above ``after``; with ``update``, returned once
    the bot is done with that update too (what its handler writes after sending is written)."""
    found: Sent = await fake.wait_for(
        lambda: next((m for m in fake.chat_messages(chat_id) if m.message_id > after), None), what=what
    )
    if update is not None:
        await fake.done(update)
    return found


def newest_id(fake: FakeTelegram, chat_id: int) -> int:
    last = fake.last_message(chat_id)
    return last.message_id if last else 0


async def ask(fake: FakeTelegram, user: FakeUser, chat_id: int, text: str) -> Sent:
    """The user writes ``text`` in a chat (their own id: in private); returns the bot's first message after it."""
    after = newest_id(fake, chat_id)
    fake.send_text(user, chat_id, text)
    return await reply_in(fake, chat_id, after, f"an answer to {text}", update=fake.newest_update)


async def challenge(
    fake: FakeTelegram,
    creator: FakeUser,
    group: int,
    args: str = "",
    *,
    reply_to: Sent | dict[str, Any] | None = None,
    topic: int | None = None,
) -> Sent:
    """``/play [args]`` in the group (in its forum topic ``topic``); returns the challenge message."""
    after = newest_id(fake, group)
    fake.send_text(creator, group, f"/play {args}".strip(), reply_to=reply_to, topic=topic)
    return await reply_in(fake, group, after, "the challenge", update=fake.newest_update)


async def join_by_link(fake: FakeTelegram, user: FakeUser, challenge_message: Sent) -> None:
    """Follow the challenge's deep link (what the answer to a press on "accept" opens for a user who never
    started the bot): the user sends ``/start j_<id>`` in private."""
    challenge_id = button(challenge_message, "j:")["callback_data"].removeprefix("j:")
    fake.send_text(user, user.id, f"/start j_{challenge_id}")
    await fake.done(fake.newest_update)


async def new_match(
    fake: FakeTelegram, creator: FakeUser, joiner: FakeUser, group: int, args: str = "", *, topic: int | None = None
) -> str:
    """A challenge (in the forum topic ``topic``) accepted by deep link; returns the match id once both panels are
    there."""
    message = await challenge(fake, creator, group, args, topic=topic)
    await join_by_link(fake, joiner, message)
    await fake.wait_for(lambda: panel_of(fake, creator) and panel_of(fake, joiner), what="both panels")
    # The group's table comes on its own lane, after the panels: wait for it, so that the next thing the
    # group reads is an answer to what the users do next.
    await fake.wait_for(
        lambda: any(TURN in m.text for m in fake.chat_messages(group) if m.message_id > message.message_id),
        what="the table",
    )
    panel = panel_of(fake, creator)
    assert panel is not None
    return match_id_of(panel)


@dataclass
class Playout:
    """What ``play_to_end`` did."""

    moves: int = 0
    refused: list[str] = field(default_factory=list)
    """Toasts of presses the bot refused (a press out of turn, when the driver guessed wrong)."""


async def play(
    fake: FakeTelegram,
    players: tuple[FakeUser, FakeUser],
    rng: random.Random,
    *,
    until: Callable[[], bool] | None = None,
    after_move: Callable[[], Awaitable[None]] | None = None,
    before_press: Callable[[FakeUser, Sent], None] | None = None,
    max_moves: int = 5000,
) -> Playout:
    """Press random playable buttons of whoever may act until ``until()`` holds, no panel has buttons,
    or ``max_moves`` were made.

    ``before_press`` is told of each press before it is made (who presses, on which panel, as it reads then).
    After each accepted press it waits until both panels show the new version,
    then calls ``after_move``.
    """
    playout = Playout()
    progress_at = time.monotonic()
    while playout.moves < max_moves:
        live = [(u, p) for u in players if (p := panel_of(fake, u)) is not None]
        if not live or (until is not None and until()):
            return playout
        if time.monotonic() - progress_at > STALLED_AFTER:
            raise AssertionError(
                f"no move accepted in {STALLED_AFTER:.0f} s after {playout.moves} moves; last refusals "
                f"{playout.refused[-3:]}; {_panels(fake, players)}; {fake.lately()}"
            )
        rng.shuffle(live)
        # The player whose panel does not say "wait" first: a press out of turn is refused, and costs time.
        live.sort(key=lambda up: WAITING in up[1].text)
        progressed = False
        for user, panel in live:
            buttons = playable(panel)
            if not buttons:
                continue
            before = version_of(panel)
            if before_press is not None:
                before_press(user, panel)
            query = fake.press(user, panel, rng.choice(buttons)["callback_data"])
            answer = await fake.wait_answer(query)
            if answer.get("text"):
                playout.refused.append(answer["text"])
                continue
            playout.moves += 1
            progressed = True
            progress_at = time.monotonic()
            try:
                await fake.wait_for(lambda v=before: _moved_on(fake, players, v), what="panels to show the move")
            except AssertionError as error:
                raise AssertionError(f"{error} at version {before}: {_panels(fake, players)}") from None
            if after_move is not None:
                await after_move()
            break
        if not progressed:
            await asyncio.sleep(0.01)
    return playout


async def play_to_end(
    fake: FakeTelegram,
    players: tuple[FakeUser, FakeUser],
    rng: random.Random,
    *,
    after_move: Callable[[], Awaitable[None]] | None = None,
    before_press: Callable[[FakeUser, Sent], None] | None = None,
) -> Playout:
    """Play the match to its end (no panel has buttons any more)."""
    playout = await play(fake, players, rng, after_move=after_move, before_press=before_press)
    assert all(panel_of(fake, u) is None for u in players), f"no end after {playout.moves} moves"
    return playout


def _panels(fake: FakeTelegram, players: tuple[FakeUser, FakeUser]) -> str:
    """Each player's newest panel: message id, version, last line (a failure's description)."""
    shown = []
    for user in players:
        panel = panel_of(fake, user)
        last = fake.last_message(user.id)
        shown.append(
            f"{user.first_name}: panel {panel.message_id if panel else None} v{version_of(panel) if panel else '-'}"
            f" {panel.text.splitlines()[-1:] if panel else ''}; newest message {last.message_id if last else None}"
        )
    return "; ".join(shown)


def held_panel(fake: FakeTelegram, user: FakeUser) -> Sent | None:
    """The panel the user holds: the newest message that ever had game buttons, while it has them (an older
    one that kept its buttons, sent in the instant the bot was killed, is not it)."""
    for sent in reversed(fake.chat_messages(user.id)):
        if any(move_data(b) for markup in sent.markups if markup for row in markup.get("inline_keyboard", [])
               for b in row):  # fmt: skip
            return sent if any(move_data(b) for b in sent.buttons()) else None
    return None


def _moved_on(fake: FakeTelegram, players: tuple[FakeUser, FakeUser], version: int) -> bool:
    """Both panels show a version after ``version`` (or have no buttons any more)."""
    for user in players:
        panel = held_panel(fake, user)
        if panel is not None and version_of(panel) <= version:
            return False
    return True


async def surrender_question(fake: FakeTelegram, user: FakeUser, group: int, match_id: str) -> Sent:
    """``/surrender`` in the group; returns the question (found by its buttons: results of a match that just
    ended may still be reaching the group)."""
    after = newest_id(fake, group)
    fake.send_text(user, group, "/surrender")
    update = fake.newest_update
    data = f"s:{match_id}:{user.id}:1"
    # A question asked before (answered, its edit on its way) is not this one.
    found: Sent = await fake.wait_for(
        lambda: next(
            (
                m
                for m in fake.chat_messages(group)
                if m.message_id > after and any(b.get("callback_data") == data for b in m.buttons())
            ),
            None,
        ),
        what="the surrender question",
    )
    await fake.done(update)
    return found


async def surrender(fake: FakeTelegram, user: FakeUser, group: int, match_id: str) -> Sent:
    """``/surrender`` in the group and "yes" under the question; returns the result the group then reads."""
    confirm = await surrender_question(fake, user, group, match_id)
    after = newest_id(fake, group)
    yes = button(confirm, f"s:{match_id}:{user.id}:1")["callback_data"]
    answer = await fake.wait_answer(fake.press(user, confirm, yes))
    assert not answer.get("text"), f"the surrender was refused: {answer}"
    return await reply_in(fake, group, after, "the result")


async def set_group_lang(fake: FakeTelegram, user: FakeUser, group: int, lang: str) -> dict[str, Any]:
    """``/lang`` in the group, then the language's button; returns the answer to the press."""
    after = newest_id(fake, group)
    fake.send_text(user, group, "/lang")
    menu = await reply_in(fake, group, after, "the language menu", update=fake.newest_update)
    return await fake.wait_answer(fake.press(user, menu, button(menu, f"l:{lang}")["callback_data"]))
