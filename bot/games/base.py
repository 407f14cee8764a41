"""What a game's module gives the bot: its own lines of the table and the panels, its buttons, its moments,
the arguments of its texts and its rows of the settings menu.

``bot.render``, ``bot.keyboards`` and the settings build what every game
shares and ask the view's game (``bot.games.game_of``) for the rest. A game's
module subclasses :class:`GameModule` with its view and rules classes and
overrides what it has of its own; the registry hands each game only views of
its own deals, so its methods read its view's own fields directly.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import ClassVar, Generic, TypeVar

from aiogram.types import InlineKeyboardButton

from bot.i18n import Translator
from bot.models import ChatSettings, MatchRecord, MomentRecord
from bot.texts import game_name, name
from engine import Action, Award, Refusal, Tile, TrickView
from engine.games import View, game_of
from engine.rules import RuleSet, find_preset, presets_of

V = TypeVar("V", bound=View)
R = TypeVar("R", bound=RuleSet)
T = TypeVar("T")

Button = dict[str, str]
"""A button as its fields (text and callback data)."""
MoveButton = Callable[[str, Action], Button]
"""Makes the button with a text that sends an action (its callback data names the match and its version)."""
SettingButton = Callable[[str, str, str, bool], InlineKeyboardButton]
"""Makes a settings button: its text, the field and the value it sets, whether that value is the chosen one."""


def rows_of(buttons: list[T], width: int) -> list[list[T]]:
    """``buttons`` in rows of ``width``, the last one shorter."""
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def tricks_line(tr: Translator, record: MatchRecord, counts: tuple[int, int], key: str = "table-tricks") -> str:
    """How many tricks each player has taken."""
    return tr(key, a=name(record, 0), b=name(record, 1), ta=counts[0], tb=counts[1])


class GameModule(abc.ABC, Generic[V, R]):
    """One game as the bot shows it: the defaults are those of a game with nothing of its own to show there."""

    name: ClassVar[str]
    """The rules' ``game``: this module's key in ``bot.games.GAMES``."""
    messages: ClassVar[tuple[str, ...]]
    """The id of every message the module's texts use (a test checks that both locales have them)."""
    targets: ClassVar[tuple[int, ...]] = ()
    """The match targets a group may choose for the game in /settings (none: always its preset's own)."""

    def rules(self, preset: str) -> R:
        """The rule set of one of the game's presets."""
        rules: R = game_of(self.name).rules_of(preset)
        return rules

    # -- the table and the panels -------------------------------------------------

    def table_lines(self, tr: Translator, record: MatchRecord, view: V) -> list[str]:
        """The table's lines of the game's own state, under the score (above the trick on the table)."""
        return []

    def tally_lines(self, tr: Translator, record: MatchRecord, view: V) -> list[str]:
        """The table's lines under the trick on the table and the last trick: what the players have taken."""
        return []

    def turn_line(self, tr: Translator, record: MatchRecord, view: V) -> str | None:
        """The table's line of a seat to act that does something of the game's own, None for a plain turn."""
        return None

    def panel_lines(self, tr: Translator, record: MatchRecord, view: V) -> list[str]:
        """A panel's lines of the game's own state, under the score (above the last trick)."""
        return []

    def replay_lines(self, tr: Translator, record: MatchRecord, seats: tuple[V, V]) -> list[str]:
        """A replay's lines of what the table does not show but each seat sees of its own (``seats``: both
        seats' views of the deal at the step shown; the match is over, so nothing is secret)."""
        return []

    def shown_last_trick(self, view: V) -> TrickView | None:
        """The last trick the table and the panels show."""
        return view.last_trick

    def prompt(self, tr: Translator, view: V) -> str | None:
        """What the seat to act is asked to do, when it is the game's own; None: lead or reply."""
        return None

    # -- buttons ------------------------------------------------------------------

    def replaces_hand(self, view: V) -> bool:
        """Whether the seat to act has the game's own buttons instead of its tiles (its panel then lists them)."""
        return False

    def own_rows(self, tr: Translator, view: V, button: MoveButton) -> list[list[Button]]:
        """Buttons of the game's own actions for the seat to act: instead of the tiles when
        :meth:`replaces_hand`, else under them."""
        return []

    def hint_reason(self, tr: Translator, view: V, action: Action) -> str | None:
        """Why the 💡 prefers ``action``, in a few words of the game's own (wins the trick, ...); None: the words
        every game shares (``bot.review_text``)."""
        return None

    # -- results and refusals -----------------------------------------------------

    @abc.abstractmethod
    def follow_duty(self, view: V, lead: Tile, refusal: Refusal) -> tuple[Refusal, int, int]:
        """A reply refused for a duty to follow, as its text names it: the duty, the suit ``lead`` asks for and
        the led tile's other end."""

    def award_args(self, tr: Translator, view: V, award: Award) -> dict[str, object]:
        """The game's own arguments of the line that says why ``award`` was given (``view``: the table's)."""
        return {}

    def moment(self, view: V, award: Award) -> MomentRecord | None:
        """The moment of a finished deal that ``award`` makes for the match card, if any (``view``: the table's)."""
        return None

    # -- /settings ----------------------------------------------------------------

    def settings_rows(
        self, tr: Translator, settings: ChatSettings, button: SettingButton
    ) -> list[list[InlineKeyboardButton]]:
        """The menu's rows of the game's own choices: its presets, when it has several, and its targets."""
        rules = find_preset(settings.preset)
        presets = presets_of(self.name)
        rows = []
        if len(presets) > 1:
            # One preset a row: their names say what each changes, too long to share a row on a phone.
            rows += [[button(game_name(tr, p), "preset", p, p == rules.name)] for p in presets]
        if self.targets:
            target = settings.target or rules.target
            rows.append([button(tr("settings-target", n=t), "target", str(t), t == target) for t in self.targets])
        return rows

    def settings_change(self, field: str, value: str) -> dict[str, object] | None:
        """The settings a press on one of :meth:`settings_rows` changes, None for a button the game has not."""
        presets = presets_of(self.name)
        if field == "preset" and len(presets) > 1 and value in presets:
            return {"preset": value}
        if field == "target" and value.isdigit() and int(value) in self.targets:
            return {"target": int(value)}
        return None
