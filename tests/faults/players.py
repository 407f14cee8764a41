"""Two players who finish a match through faults by pressing the latest panels, and the referee who checks it.

The players see only what Telegram shows them: the newest panel of each
asks for a move or says to wait; the one asking (the newest version, should
both ask: one may be left from before a rollback) gets a press. Which button
is a function of the panel's version, so the same position gets the same
press, even played again after Redis lost it (never a claim of doubles,
which can end a match to 2 within its first presses). Every press is logged with the
version its button carried and the answer it got (or none: the bot died).

The referee knows nothing of the bot: from the first deal of the match
(preset, seed, target) it replays the logged presses on the engine, version
by version, and finds the chain of presses that makes the match Redis holds
at the end. A press answered as taken that is not in the chain was **lost**;
a press that got a refusal yet is in the chain was applied behind the
player's back; neither may happen (a rollback loses what it loses).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import I18n
from bot.models import LANGS, MatchRecord
from engine import Action, IllegalAction, Match
from tests.e2e.driver import WAITING, move_data, playable, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent

LAG = 2.0
"""Seconds a player waits for a press to show before pressing again (a spinner that never stops, a lost
answer): as a person would."""
STUCK = 90.0
"""Seconds without any new panel after which the match is declared stuck."""


@dataclass(eq=False)
class Press:
    """One press (compared by identity: two presses of one button are two presses)."""

    seat: int
    version: int
    """The match version the button was made for."""
    action: str
    query: str
    update_id: int
    answer: dict[str, Any] | None = None
    """What the bot answered (None: never, the bot was killed)."""
    index: int = 0
    """The press's place in the log."""

    @property
    def taken(self) -> bool:
        return self.answer is not None and not self.answer.get("text")


Hook = Callable[[Press], Awaitable[bool]]
"""Called right after a press is sent; returns False when its answer will never come (the bot was killed)."""


@dataclass
class Players:
    fake: FakeTelegram
    users: tuple[FakeUser, FakeUser]
    match_id: str
    group: int
    seed: int = 0
    presses: list[Press] = field(default_factory=list)

    def panel(self, seat: int) -> Sent | None:
        """The newest message of the seat's private chat with a button of this match."""
        for sent in reversed(self.fake.chat_messages(self.users[seat].id)):
            if any((m := move_data(b)) is not None and m["m"] == self.match_id for b in sent.buttons()):
                return sent
        return None

    def turn(self) -> tuple[int, Sent] | None:
        """The panel asking for a move (the newest version, should both ask), if any."""
        asking = []
        for seat in (0, 1):
            panel = self.panel(seat)
            if panel is not None and playable(panel) and WAITING not in panel.text:
                asking.append((version_of(panel), seat, panel))
        if not asking:
            return None
        _, seat, panel = max(asking, key=lambda a: (a[0], a[2].message_id))
        return seat, panel

    async def ready(self, timeout: float = STUCK) -> tuple[int, Sent]:
        """The panel asking for a move, once it is past every press taken so far (or, after ``LAG``, any)."""
        newest = max((p.version + 1 for p in self.presses if p.taken), default=0)
        started = time.monotonic()
        while True:
            found = self.turn()
            waited = time.monotonic() - started
            if found is not None and (version_of(found[1]) >= newest or waited > LAG):
                return found
            if waited > timeout:
                raise AssertionError(f"no panel asks for a move; {self.describe()}")
            await asyncio.sleep(0.02)

    def over(self) -> bool:
        """The group read the match's result and no panel asks for a move."""
        return results(self.fake, self.group) > 0 and self.turn() is None

    def leftovers(self) -> list[tuple[int, Sent]]:
        """The messages that still have buttons of the match, with the seat whose chat each is in."""
        return [
            (seat, sent)
            for seat in (0, 1)
            for sent in self.fake.chat_messages(self.users[seat].id)
            if any((m := move_data(b)) is not None and m["m"] == self.match_id for b in sent.buttons())
        ]

    async def tidy(self) -> int:
        """Press a button of every message that still has buttons of the (finished) match, as a player tidying
        the chat would: each gets a toast and loses its buttons. How many there were."""
        left = self.leftovers()
        for seat, sent in left:
            answer = await self.fake.wait_answer(
                self.fake.press(self.users[seat], sent, sent.buttons()[0]["callback_data"])
            )
            assert answer.get("text"), f"a press on a leftover panel was taken: {sent.text}"
            await self.fake.wait_for(lambda s=sent: not s.buttons(), what="the leftover panel to lose its buttons")
        return len(left)

    def _choose(self, panel: Sent) -> str:
        options = sorted(str(b["callback_data"]) for b in playable(panel))
        # No claims of doubles: one of six or seven ends a short match within its first presses, before the
        # fault (the e2e suite and the soak claim).
        options = [o for o in options if not o.endswith("*")] or options
        return random.Random(f"{self.seed}:{self.match_id}:{version_of(panel)}").choice(options)

    async def press(self, seat: int, panel: Sent, *, hook: Hook | None = None, answer_within: float = 30.0) -> Press:
        """Press the chosen button of ``panel``; the press, with its answer."""
        data = self._choose(panel)
        found = move_data({"callback_data": data})
        assert found is not None
        query = self.fake.press(self.users[seat], panel, data)
        press = Press(seat, int(found["v"]), found["a"], query, self.fake.last_update_id, index=len(self.presses))
        self.presses.append(press)
        wait = True if hook is None else await hook(press)
        if wait:
            with contextlib.suppress(AssertionError):
                press.answer = await self.fake.wait_answer(query, timeout=answer_within)
        return press

    async def play(
        self, *, until: Callable[[], bool] | None = None, hook: Hook | None = None, answer_within: float = 30.0
    ) -> None:
        """Press until the match is over (or ``until()``); fails when no new panel came for ``STUCK`` s."""
        last: tuple[int, int] | None = None
        pressed_at = 0.0
        progress = time.monotonic()
        while not self.over() and not (until is not None and until()):
            found = self.turn()
            now = time.monotonic()
            if found is None or ((found[1].message_id, version_of(found[1])) == last and now - pressed_at < LAG):
                if now - progress > STUCK:
                    raise AssertionError(f"stuck: no new panel for {STUCK:.0f} s; {self.describe()}")
                await asyncio.sleep(0.02)
                continue
            seat, panel = found
            shown = (panel.message_id, version_of(panel))
            if shown != last:
                progress = now
            last, pressed_at = shown, now
            press = await self.press(seat, panel, hook=hook, answer_within=answer_within)
            if press.answer is not None and press.answer.get("text"):
                await asyncio.sleep(0.2)  # a refusal: read it, then look again

    def describe(self, *, all_presses: bool = False) -> str:
        panels = [
            (p.message_id, version_of(p), p.text.splitlines()[-1:]) if p else None for p in map(self.panel, (0, 1))
        ]
        tail = [(p.version, p.seat, p.action, p.answer) for p in self.presses[0 if all_presses else -5 :]]
        return f"panels {panels}; last presses {tail}"


def results(fake: FakeTelegram, group: int) -> int:
    """How many match results (won to the target) the group got."""
    return sum(1 for m in fake.chat_messages(group) if m.text.startswith(RESULT_HEADS))


def _result_heads() -> tuple[str, ...]:
    i18n = I18n()
    return tuple({i18n[lang]("match-won", name="X", sw=1, sl=0).split("<b>")[0] for lang in LANGS})


RESULT_HEADS = _result_heads()


@dataclass
class Verdict:
    chain: list[Press]
    """The presses that made the match, one per version."""
    lost: list[Press]
    """Answered as taken, not applied."""
    applied_refused: list[Press]
    """Answered with a refusal, applied all the same."""


def referee(initial: MatchRecord, final: MatchRecord, presses: list[Press]) -> Verdict:
    """Replay ``presses`` on the engine from the match's first deal to the match Redis holds at the end."""
    first = initial.deal
    assert initial.version == 0 and not first.a, "the initial record is the match before any move"
    assert first.y, "a match's current deal keeps the match key"
    start = Match.new(first.p, seed=first.s, target=first.t, key=bytes.fromhex(first.y))
    assert start == initial.match(), "the first deal is not the one its preset, seed, target and key make"
    assert start.deal.dealt_from_secret() and start.deal.secret is not None and start.deal.secret.hex() == first.x
    goal = final.match()
    # Of like presses at one version, the one that made it is the last taken (a rollback undid the others).
    by_version: dict[int, list[Press]] = {}
    for press in sorted(presses, key=lambda p: (not p.taken, p.answer is not None, -p.index)):
        by_version.setdefault(press.version, []).append(press)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * final.version + 100))

    def extend(match: Match, version: int) -> list[Press] | None:
        if version == final.version:
            return [] if match == goal else None
        tried: set[tuple[int, str]] = set()
        for press in by_version.get(version, []):
            if (press.seat, press.action) in tried or match.turn != press.seat:
                continue
            tried.add((press.seat, press.action))
            after = match.copy()
            try:
                after.play(Action.parse(press.action), press.seat)
            except IllegalAction:
                continue
            rest = extend(after, version + 1)
            if rest is not None:
                return [press, *rest]
        return None

    chain = extend(start, 0)
    assert chain is not None, f"no chain of the {len(presses)} presses replays to version {final.version}"
    applied = {_key(p) for p in chain}
    lost = [p for p in presses if p.taken and _key(p) not in applied]
    # A move is applied behind a player's back when every press that asked for it was refused.
    asked: dict[tuple[int, int, str], list[Press]] = {}
    for press in presses:
        asked.setdefault(_key(press), []).append(press)
    refused = [p for p in chain if all(q.answer is not None and q.answer.get("text") for q in asked[_key(p)])]
    return Verdict(chain, lost, refused)


def _key(press: Press) -> tuple[int, int, str]:
    return press.version, press.seat, press.action
