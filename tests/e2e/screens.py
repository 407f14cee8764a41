"""Playing through faults by pressing only the latest panel each player holds, and checking the screens after.

``finish`` reads whose turn it is from the stored match (as a player reads it
off their panel) and presses a playable button of that player's newest panel;
a panel that lags behind is given time to catch up, then pressed anyway (the
bot sends it again). ``assert_final`` checks that every message ended at the
match's final version and that each result was posted exactly once.
"""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import Callable

from bot import render
from bot.i18n import I18n, Translator
from bot.services import Services
from engine import Action, Match
from tests.e2e.driver import move_data, panel_of, playable, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent


@functools.cache
def languages() -> I18n:
    return I18n()


LAG = 3.0
"""Seconds a lagging panel is given to catch up before it is pressed anyway."""


async def _until(predicate: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def acting_panel(
    fake: FakeTelegram, services: Services, match_id: str, players: tuple[FakeUser, FakeUser]
) -> tuple[FakeUser, Sent, Match, int]:
    """The player to act, their newest panel (waited for), the match and its version."""
    record, match = await services.records.get(match_id)
    if not record.is_active:
        raise AssertionError("the match is over: nobody is to act")
    user = players[match.turn or 0]
    deadline = time.monotonic() + LAG
    while True:
        panel = panel_of(fake, user)
        if panel is not None and (version_of(panel) == record.version or time.monotonic() > deadline):
            return user, panel, match, record.version
        if time.monotonic() > deadline + 60:
            raise AssertionError(f"{user.first_name} never got a panel")
        await asyncio.sleep(0.02)


async def press(
    fake: FakeTelegram,
    services: Services,
    match_id: str,
    players: tuple[FakeUser, FakeUser],
    rng: random.Random,
    *,
    choose: Callable[[Match, list[str]], str | None] | None = None,
    timeout: float = 120.0,
) -> bool:
    """One press on the acting player's newest panel; True once the match moved on (False: the panel was
    outdated and the press only brought it back, or the press was refused: a newer panel came meanwhile)."""
    user, panel, match, version = await acting_panel(fake, services, match_id, players)
    options = [b["callback_data"] for b in playable(panel)]
    data = (choose(match, options) if choose else None) or rng.choice(options)
    query = fake.press(user, panel, data)
    if version_of(panel) != version:
        await asyncio.sleep(0.2)
        return False
    deadline = time.monotonic() + timeout
    while (await services.records.get(match_id))[0].version == version:
        if fake.answers.get(query, {}).get("text"):
            return False  # refused with a toast (say, a panel sent again meanwhile): the player looks again
        if time.monotonic() > deadline:
            raise AssertionError("a press was never applied")
        await asyncio.sleep(0.05)
    return True


async def finish(
    fake: FakeTelegram,
    services: Services,
    match_id: str,
    players: tuple[FakeUser, FakeUser],
    rng: random.Random,
    max_presses: int = 2000,
) -> int:
    """Press the latest panels until the match is over; the number of applied presses."""
    moves = 0
    for _ in range(max_presses):
        record, _ = await services.records.get(match_id)
        if not record.is_active:
            return moves
        moves += await press(fake, services, match_id, players, rng)
    raise AssertionError(f"no end after {max_presses} presses")


async def press_watching_the_turn(
    fake: FakeTelegram, services: Services, match_id: str, players: tuple[FakeUser, FakeUser], rng: random.Random
) -> bool:
    """One applied press; when it handed the turn over (True), the new mover's panel came as a new message
    (the old one deleted) and the mover's was edited in place (unless the deal ended and they lead again)."""
    _, match = await services.records.get(match_id)
    seat = match.turn or 0
    mover, other = players[seat], players[1 - seat]
    old_mover, old_other = panel_of(fake, mover), panel_of(fake, other)
    while not await press(fake, services, match_id, players, rng):
        pass
    await assert_screens_caught_up(fake, services, match_id)
    _, after = await services.records.get(match_id)
    if after.turn != 1 - seat or old_mover is None or old_other is None:
        return False
    new_mover, new_other = panel_of(fake, mover), panel_of(fake, other)
    assert new_other is not None and new_other.message_id > old_other.message_id
    assert (other.id, old_other.message_id) not in fake.messages
    assert new_mover is None or new_mover.message_id == old_mover.message_id
    return True


def ending(what: Callable[[Match, Match], bool]) -> Callable[[Match, list[str]], str | None]:
    """A chooser: the first button whose move makes ``what(before, after)`` true, if any."""

    def choose(match: Match, options: list[str]) -> str | None:
        for data in options:
            m = move_data({"callback_data": data})
            assert m is not None
            after = match.copy()
            after.play(Action.parse(m["a"]))
            if what(match, after):
                return data
        return None

    return choose


def had_moves(message: Sent) -> bool:
    """Whether the message ever had game buttons (a panel)."""
    return any(move_data(b) for markup in message.markups if markup for row in markup["inline_keyboard"] for b in row)


def ends_deal(before: Match, after: Match) -> bool:
    return after.is_over or after.deal.number != before.deal.number


def ends_match(before: Match, after: Match) -> bool:
    return after.is_over


async def play_until(
    fake: FakeTelegram,
    services: Services,
    match_id: str,
    players: tuple[FakeUser, FakeUser],
    rng: random.Random,
    what: Callable[[Match, Match], bool],
) -> None:
    """Play random presses until the acting player can make a move with ``what``; do not make it."""
    choose = ending(what)
    while True:
        _, panel, match, version = await acting_panel(fake, services, match_id, players)
        if version_of(panel) == version and choose(match, [b["callback_data"] for b in playable(panel)]):
            return
        await press(fake, services, match_id, players, rng)


async def assert_screens_caught_up(
    fake: FakeTelegram, services: Services, match_id: str, timeout: float = 120.0
) -> None:
    """Wait until every message of the match is at its version (the match left the due set)."""
    deadline = time.monotonic() + timeout
    while match_id in await services.stores.matches.screens_due():
        if time.monotonic() > deadline:
            raise AssertionError("the match's messages never caught up")
        await asyncio.sleep(0.05)


async def assert_final(
    fake: FakeTelegram, services: Services, match_id: str, group: int, tr: Translator, timeout: float = 120.0
) -> None:
    """Every message of the (finished) match at its final version; each deal's result and the match's
    result posted exactly once."""
    await assert_screens_caught_up(fake, services, match_id, timeout)
    record, match = await services.records.get(match_id)
    messages = await services.stores.matches.messages(match_id)
    assert not record.is_active and messages.summary is not None and messages.posts == []
    if record.private_seat is None:
        assert messages.table is not None
        assert fake.messages[(group, messages.table)].text == render.table_text(tr, record, match.deal.view(None))
    else:  # played in the person's private chat: their panel there is the table too
        assert messages.table is None
    for seat, player in enumerate(record.players):
        if player.computer:
            continue
        panel = messages.panel(seat)
        assert panel is not None
        shown = fake.messages[(player.id, panel)]
        view = match.deal.view(seat)
        # A panel is in its player's own language (bot.delivery.passes), unless the match is in their chat.
        ptr = tr if record.chat_id == player.id else languages()[record.lang_of(seat)]
        assert shown.text == render.panel_text(ptr, record, view, summary=messages.summary)
        # A match someone won offers its rematch (bot.services.rematches) there; none other button stays.
        rematch = [f"rm:{record.id}"] if messages.summary.winner is not None else []
        buttons = [b.get("callback_data") for b in shown.buttons()]
        assert buttons == rematch, (
            f"seat {seat}'s panel {panel} has the buttons {buttons}, not {rematch}; Redis: {messages};"
            f" the panel's calls: {fake.calls_on(player.id, panel)}"
        )
        assert not [m for m in fake.chat_messages(player.id) if any(move_data(b) for b in m.buttons())]
    # (In a match played in private the chat's panels, which show the deal that just ended, are no results.)
    panels = messages.panels if record.private_seat is not None else ()
    texts = [m.text for m in fake.chat_messages(group) if m.message_id not in panels and not had_moves(m)]
    # A 42 deal both seats passed has no result: the group is told it is dealt again (exactly once, too).
    redealt = tr("deal-all-passed", name="").rsplit(":", 1)[0]
    without = 0
    for number in range(1, match.deal.number + 1):
        head = tr("deal-result", deal=number, a="", b="", pa="", pb="").split(":")[0] + ":"
        posted = sum(t.startswith(head) for t in texts)
        assert posted <= 1, f"deal {number}'s result"
        without += 1 - posted
    assert sum(t.startswith(redealt) for t in texts) == without, "a result for every deal, or its redeal"
    result = render.match_result_text(tr, record, messages.summary)
    assert sum(t.startswith(result) for t in texts) == 1, "the match's result"
