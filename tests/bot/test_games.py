"""The games' modules: one for every engine game, their messages in both locales, and no game knowledge elsewhere.

Adding a game is one engine module, one ``bot/games`` module, its messages in
``locales/ru`` and ``locales/pl`` and one registry line each
(``docs/architecture.md``, "Where to add a game"); these tests say what is missing, and keep the
rest of the bot from learning about a game: outside ``bot/games/`` no module
tests a view's, deal's or rule set's class or compares with a game's name.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.games import GAMES, PRESETS, GameModule, game_of
from bot.i18n import I18n
from bot.models import LANGS, Lang
from engine import Match
from engine import games as engine_games
from engine.rules import PRESETS as ENGINE_PRESETS
from engine.rules import find_preset, presets_of

BOT = Path(__file__).resolve().parents[2] / "bot"
GAMES_DIR = BOT / "games"
NAMES = list(GAMES)
"""The games the bot plays (every engine game but 42 for four, test_same_games_same_order)."""


def module_file(game: GameModule[Any, Any]) -> Path:
    """The file of the module that defines the game's class."""
    return Path(__import__(type(game).__module__, fromlist=["_"]).__file__ or "")


class TestRegistry:
    """The bot's registry of games and the engine's agree."""

    def test_same_games_same_order(self) -> None:
        """Every engine game but 42 for four (the engine's only, until its table for four) has a bot module, none
        other is registered, and menus list them in the same order; the bot offers the presets of its games."""
        assert list(GAMES) == [g for g in engine_games.GAMES if g != "42x4"]
        assert list(PRESETS) == [p for p, rules in ENGINE_PRESETS.items() if rules.game != "42x4"]

    @pytest.mark.parametrize("name", NAMES)
    def test_module_of_its_own(self, name: str) -> None:
        """A game's module is a file of ``bot/games`` and carries the game's name."""
        game = GAMES[name]
        assert isinstance(game, GameModule)
        assert game.name == name
        assert module_file(game).parent == GAMES_DIR

    def test_every_module_registered(self) -> None:
        """Every game module in ``bot/games`` is in the registry (a module written but not registered is a bug)."""
        registered = {module_file(game).name for game in GAMES.values()}
        files = {p.name for p in GAMES_DIR.glob("*.py")} - {"__init__.py", "base.py"}
        assert files == registered

    @pytest.mark.parametrize("name", NAMES)
    def test_found_from_views_and_rules(self, name: str) -> None:
        """The views of a game's deals, its rule sets and its name all find its module."""
        for preset in presets_of(name):
            deal = Match.new(preset, seed=3).deal
            assert game_of(deal.view(None)) is game_of(deal.view(0)) is game_of(find_preset(preset)) is GAMES[name]

    def test_unknown(self) -> None:
        with pytest.raises(KeyError, match="no bot module for game 'poker'"):
            game_of("poker")

    def test_deal_line_exported(self) -> None:
        """The match log's line of a deal is game-independent and lives with the registry."""
        assert games.deal_line.__module__ == "bot.games"


def literal_messages(path: Path) -> set[str]:
    """The message ids a module passes as a literal first argument to ``tr(...)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "tr"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }


def game_messages(name: str) -> list[str]:
    """The messages a game needs: its module's own, its name and, for each of its presets, the preset's name,
    rules and the words ``/play`` takes for it."""
    ids = [*GAMES[name].messages, f"game-{name}"]
    for preset in presets_of(name):
        ids += [f"preset-{preset}", f"rules-{preset}", f"words-{preset}"]
    return ids


class TestMessages:
    """Every message a game's module uses is in both locales."""

    @pytest.mark.parametrize("lang", LANGS)
    @pytest.mark.parametrize("name", NAMES)
    def test_in_both_locales(self, name: str, lang: Lang) -> None:
        ids = I18n()[lang].ids
        assert [m for m in game_messages(name) if m not in ids] == []

    @pytest.mark.parametrize("name", NAMES)
    def test_declared(self, name: str) -> None:
        """The module's ``messages`` name every message id it writes out (so the check above sees them all)."""
        game = GAMES[name]
        assert literal_messages(module_file(game)) - set(game.messages) == set()

    def test_base_messages(self) -> None:
        """The messages the base class and the registry write out are in both locales."""
        used = literal_messages(GAMES_DIR / "base.py") | literal_messages(GAMES_DIR / "__init__.py")
        assert used
        for lang in LANGS:
            assert used <= I18n()[lang].ids


# -- game knowledge stays in bot/games ---------------------------------------------------------------------------

GAME_CLASSES = {"Deal", "RuleSet"} | {
    cls.__name__ for game in engine_games.GAMES.values() for cls in (game.deal, game.rules, game.view)
}
"""The engine's deal, rule set and view classes: no module outside ``bot/games`` asks whether a value is one."""
GAME_NAMES = set(engine_games.GAMES)


def _names_in(node: ast.AST) -> set[str]:
    """Every name in an expression, ``engine.BingoView`` giving ``BingoView``."""
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            found.add(n.id)
        elif isinstance(n, ast.Attribute):
            found.add(n.attr)
    return found


def _game_names_in(node: ast.AST) -> set[str]:
    """Game names written as a literal in an operand: ``"bingo"``, or in ``("bingo", "42")``."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return {i.value for i in items if isinstance(i, ast.Constant) and i.value in GAME_NAMES}


def game_knowledge(source: str) -> list[str]:
    """Where ``source`` tests an engine game class or compares with a game's name, as ``line: what``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id
        if isinstance(node, ast.Call) and call in ("isinstance", "issubclass"):
            classes = _names_in(node.args[1]) & GAME_CLASSES if len(node.args) > 1 else set()
            if classes:
                found.append(f"{node.lineno}: {call} {', '.join(sorted(classes))}")
        elif isinstance(node, ast.Compare):
            names = set().union(*(_game_names_in(operand) for operand in [node.left, *node.comparators]))
            if names:
                found.append(f"{node.lineno}: compares with {', '.join(sorted(names))}")
        elif isinstance(node, ast.MatchValue):
            names = _game_names_in(node.value)
            if names:
                found.append(f"{node.lineno}: case {', '.join(sorted(names))}")
    return found


OUTSIDE = sorted(p for p in BOT.rglob("*.py") if GAMES_DIR not in p.parents)


class TestGameKnowledgeStaysInGames:
    """No isinstance on an engine view, deal or rules class and no comparison with a game's name outside
    ``bot/games`` (and the engine): the rest of the bot asks the registry."""

    def test_scan_covers_the_bot(self) -> None:
        names = {p.relative_to(BOT).as_posix() for p in OUTSIDE}
        assert {"render.py", "keyboards.py", "routers/settings.py", "routers/group.py", "codec.py"} <= names
        assert not any(n.startswith("games/") for n in names)

    @pytest.mark.parametrize("path", OUTSIDE, ids=[p.relative_to(BOT).as_posix() for p in OUTSIDE])
    def test_none(self, path: Path) -> None:
        assert game_knowledge(path.read_text(encoding="utf-8")) == []

    def test_scanner_finds_them(self) -> None:
        """The scan does report each kind (so it can fail)."""
        source = (
            "if isinstance(view, BingoView): pass\n"
            "ok = isinstance(rules, engine.FortyTwoRules | RuleSet)\n"
            "if rules.game == 'bingo': pass\n"
            "if data.v in ('bingo', '42'): pass\n"
            "if '42' != game: pass\n"
            "match game:\n    case 'bingo': pass\n"
            "if isinstance(x, str) and kind == 'close' and preset == 'bingo-classic': pass\n"
        )
        assert game_knowledge(source) == [
            "1: isinstance BingoView",
            "2: isinstance FortyTwoRules, RuleSet",
            "3: compares with bingo",
            "4: compares with 42, bingo",
            "5: compares with 42",
            "7: case bingo",
        ]
