"""What must hold whatever the users press, checked from outside the bot.

- No group message (in any version) and no group button shows a tile of a
  hand; no panel shows a tile of the opponent's hand. Only what the rules
  reveal is exempt: claimed doubles (the 📣 lines) and the trump indicator
  while it lies face up (it may be drawn into a hand later).
- A panel's tile buttons are exactly its seat's hand, each labelled with the
  tile it plays.
- Every callback is answered, exactly once; every callback data packs to at
  most 64 bytes; a group never gets more sends plus edits in a window than
  its budget.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from bot import render
from bot.app import App
from bot.callbacks import MAX_CALLBACK_BYTES
from bot.i18n import I18n
from bot.models import LANGS
from tests.e2e.conftest import GROUP_BUDGET, GROUP_WINDOW
from tests.e2e.driver import match_id_of, move_data, panel_of, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.prepositions import names_after_prepositions

TILE = re.compile(r"\[([0-6])\|([0-6])\]|🚫 ([0-6])\|([0-6])")
"""A tile as the bot writes it: ``[a|b]``, or ``🚫 a|b`` on the button of a tile that may not be played now."""
PLAY = re.compile(r"^[0-6]{2}$")
SENDS = ("sendMessage", "sendPhoto", "editMessageText", "editMessageReplyMarkup")


def tiles_in(text: str) -> set[str]:
    """Tiles written ``[a|b]`` or ``🚫 a|b`` in a text, as notation (higher end first)."""
    found = set()
    for m in TILE.finditer(text):
        a, b = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
        found.add(f"{max(a, b)}{min(a, b)}")
    return found


def _marks(i18n: I18n) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Starts of the lines that show public tiles: on the table, and in a panel."""
    table, panel = ["📣"], ["📣"]
    for lang in LANGS:
        tr = i18n[lang]
        table.append(tr("table-trump-hidden", suit=0).split(" ")[0])
        panel.append(tr("panel-opponent-claims", tiles="").strip())
    return tuple(table), tuple(panel)


def public_tiles(text: str, marks: tuple[str, ...]) -> set[str]:
    """Tiles on lines the rules make public (claims, the face-up indicator)."""
    found: set[str] = set()
    for line in text.splitlines():
        if line.startswith(marks):
            found |= tiles_in(line)
    return found


def hand_buttons(panel: Sent) -> set[str]:
    """The tiles a panel offers as buttons; each button's label must be the tile it plays."""
    shown = set()
    for b in panel.buttons():
        m = move_data(b)
        if m is None or not PLAY.match(m["a"]):
            continue
        label = tiles_in(b["text"])
        assert label == {f"{max(m['a'])}{min(m['a'])}"}, f"button {b['text']!r} plays {m['a']}"
        shown |= label
    return shown


class Referee:
    """Watches one match after every move: hands from the engine, what the group and each panel show."""

    def __init__(self, fake: FakeTelegram, app: App, group: int, players: tuple[FakeUser, FakeUser]) -> None:
        self.fake = fake
        self.app = app
        self.group = group
        self.players = players
        self.since = max((m.message_id for m in fake.chat_messages(group)), default=0)
        """Group messages up to this id belong to earlier matches."""
        self.tables: set[int] = set()
        self.table_marks, self.panel_marks = _marks(app.presenter.i18n)
        self.deal_score_marks = tuple(
            " ".join(app.presenter.i18n[lang]("deal-score", a="A", b="B", sa=0, sb=0).split(" ")[:2]) for lang in LANGS
        )
        self.checks = 0
        self.match_id: str | None = None

    async def check(self) -> None:
        """Called once the match started, then after every move (the last one included)."""
        panels = [panel_of(self.fake, user) for user in self.players]
        if self.match_id is None:
            live = [p for p in panels if p is not None]
            assert live, "the match has no panel"
            self.match_id = match_id_of(live[0])
        record, match = await self.app.services.records.get(self.match_id)
        hands = [{t.notation() for t in match.deal.view(seat).hand} for seat in (0, 1)]
        for seat, panel in enumerate(panels):
            if panel is None:
                continue
            assert version_of(panel) == record.version, "a panel lags behind the match"
            shown = hand_buttons(panel)
            # While a 42 player bids or names trumps, the panel has bid buttons instead of tiles.
            if shown:
                assert shown == hands[seat], f"seat {seat}'s panel shows {shown}, the hand is {hands[seat]}"
            self._no_leak_to_opponent(panel, hands[1 - seat])
        messages = await self.app.services.stores.matches.messages(record.id)
        # The group's side may lag behind the panels (it waits for the group's budget): a table that
        # belongs to a finished deal is no longer the current one.
        table = messages.table if messages.table_deal == match.deal.number else None
        if messages.table is not None:
            self.tables.add(messages.table)
        i18n = self.app.presenter.i18n
        titles = {
            i18n[lang]("table-title", game=render.game_name(i18n[lang], match.rules.name), deal=n)
            for lang in LANGS
            for n in range(1, match.deal.number)
        }
        self._no_leak_to_group(table, hands[0] | hands[1], titles)
        self.checks += 1

    def _no_leak_to_opponent(self, panel: Sent, theirs: set[str]) -> None:
        text = panel.text
        head, blank, rest = text.partition("\n\n")
        if blank and any(line.startswith(self.deal_score_marks) for line in head.splitlines()):
            # The deal that just ended (its last trick): those tiles were dealt again since.
            text = rest
        leaked = (tiles_in(text) & theirs) - public_tiles(text, self.panel_marks)
        for b in panel.buttons():
            leaked |= tiles_in(b["text"]) & theirs
        assert not leaked, f"a panel shows the opponent's {sorted(leaked)}:\n{panel.text}"

    def _no_leak_to_group(self, table: int | None, hands: set[str], old_titles: set[str]) -> None:
        for sent in self.fake.chat_messages(self.group):
            if (
                sent.message_id <= self.since
                or (sent.message_id in self.tables and sent.message_id != table)
                or sent.text.split("\n")[0] in old_titles
            ):
                # A finished deal's table (recorded as one, or titled so): its tiles were dealt again since.
                continue
            # Claims and the face-up indicator are public on any table (a new table may be in the chat
            # before Redis records it as the match's table).
            public: set[str] = set()
            for text in sent.history:
                public |= public_tiles(text, self.table_marks)
            for text in sent.history:
                leaked = (tiles_in(text) & hands) - public
                assert not leaked, f"group message {sent.message_id} shows {sorted(leaked)} of a hand:\n{text}"
            for b in sent.buttons():
                assert not tiles_in(b["text"]), f"a group button shows a tile: {b['text']!r}"


def markups(fake: FakeTelegram, chat_id: int | None = None) -> list[dict[str, Any]]:
    """Every reply markup the bot sent or edited in (to one chat, or to all)."""
    return [
        c.params["reply_markup"]
        for c in fake.calls
        if c.method in SENDS
        and c.params.get("reply_markup")
        and (chat_id is None or str(c.params.get("chat_id")) == str(chat_id))
    ]


def buttons_of(markup: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for row in markup.get("inline_keyboard", []) for b in row]


async def all_answered(fake: FakeTelegram, timeout: float = 10.0) -> None:
    """Every callback pressed so far was answered, and none twice (once the bot fell quiet)."""
    deadline = time.monotonic() + timeout
    while any(q not in fake.answers for q in fake.pressed) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    await fake.quiet()
    missing = [q for q in fake.pressed if q not in fake.answers]
    assert not missing, f"callbacks never answered: {missing}"
    # Telegram refuses a second answer with 400 (a 429 is no answer: the bot waits and answers again).
    twice = [c.params["callback_query_id"] for c in fake.calls if c.method == "answerCallbackQuery" and c.status == 400]
    assert not twice, f"callbacks answered more than once: {twice}"


def callback_data_fits(fake: FakeTelegram) -> None:
    """Every callback data the bot ever sent (in every version of every message) packs to at most 64 bytes."""
    too_long = [
        b["callback_data"]
        for m in markups(fake)
        for b in buttons_of(m)
        if len(b.get("callback_data", "").encode()) > MAX_CALLBACK_BYTES
    ]
    assert not too_long, f"callback data over {MAX_CALLBACK_BYTES} bytes: {too_long}"


async def all_well(fake: FakeTelegram) -> None:
    """Every callback answered once, nothing refused by Telegram, every callback data within 64 bytes,
    no user's name after a preposition."""
    await all_answered(fake)
    nothing_refused(fake)
    callback_data_fits(fake)
    no_name_after_preposition(fake)


def no_name_after_preposition(fake: FakeTelegram) -> None:
    """No text the bot sent (messages, edits, toasts, buttons) puts a user's name after «против», «от»,
    «przeciwko», «od» or «dla»: a name cannot be declined."""
    names = [u.first_name for u in fake.users.values()]
    found = []
    for call in fake.calls:
        if call.method not in (*SENDS, "answerCallbackQuery"):
            continue
        texts = [str(call.params.get("text", ""))]
        markup = call.params.get("reply_markup")
        if isinstance(markup, dict):
            texts += [b.get("text", "") for b in buttons_of(markup)]
        found += [(call.method, hit) for text in texts for hit in names_after_prepositions(text, names)]
    assert not found, f"names after a preposition: {found}"


def no_tile_on_group_buttons(fake: FakeTelegram, group: int) -> None:
    for markup in markups(fake, group):
        for b in buttons_of(markup):
            assert not tiles_in(b["text"]), f"a group button shows a tile: {b['text']!r}"


def nothing_refused(fake: FakeTelegram) -> None:
    """Telegram refused no message: the only errors are 403 (user never started the bot), 429 (injected)
    and "message is not modified"."""
    refused = [
        (c.method, c.status, c.description)
        for c in fake.calls
        if c.method in SENDS
        and c.status not in (200, 403, 429)
        and not (c.status == 400 and "message is not modified" in c.description)
    ]
    assert not refused, f"Telegram refused: {refused}"
    assert not fake.legacy, f"calls with parameters the Bot API replaced: {fake.legacy[:5]}"


def within_group_budget(fake: FakeTelegram, group: int) -> None:
    """At most GROUP_BUDGET sends plus edits in any GROUP_WINDOW seconds.

    The tests run the bot's limiter on a compressed clock: 20 per 2 s stands
    for Telegram's 20 a minute, and the fake's call times are checked on it.
    """
    assert fake.max_in_window(group, GROUP_WINDOW) <= GROUP_BUDGET
