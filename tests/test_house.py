"""The house keeps its shape: small classes and functions, Redis only in ``bot/storage``, and an ``app.py``
that builds each object with what it needs instead of patching it afterwards (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parent.parent / "bot"
SOURCES = sorted(BOT.rglob("*.py"))
CLASS_LINES = 400
FUNCTION_LINES = 60
LONG_FUNCTIONS_ALLOWED = {BOT / "pictures" / "draw.py"}
"""Drawing is laid out call by call (matplotlib's object API): its functions may be long."""
REDIS_METHODS = {"register_script", "pipeline", "evalsha", "execute_command", "scan_iter"}
"""Methods that are a Redis client's whatever the receiver is called."""


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _name(path: Path) -> str:
    return str(path.relative_to(BOT.parent))


def too_long(path: Path) -> list[str]:
    """The classes over ``CLASS_LINES`` and the functions over ``FUNCTION_LINES`` lines in ``path``."""
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if isinstance(node, ast.ClassDef) and length > CLASS_LINES:
                found.append(f"class {node.name}: {length} lines")
            elif not isinstance(node, ast.ClassDef) and length > FUNCTION_LINES and path not in LONG_FUNCTIONS_ALLOWED:
                found.append(f"def {node.name}: {length} lines")
    return found


def redis_calls(source: str) -> list[str]:
    """Calls on a Redis client in ``source``: a method called on something named ``redis`` or ``pipe``, or a
    method only a Redis client has."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        receiver = node.func.value
        named = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
        if named in ("redis", "pipe") or node.func.attr in REDIS_METHODS:
            found.append(f"{node.lineno}: .{node.func.attr}()")
    return sorted(found)


def assigned_attributes(source: str) -> list[str]:
    """Attributes assigned anywhere in ``source`` (``obj.hook = ...``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        found += [f"{t.lineno}: .{t.attr}" for t in targets if isinstance(t, ast.Attribute)]
    return found


class TestSizes:
    """No class in bot/ over 400 lines; no function over 60 lines outside bot/pictures/draw.py."""

    @pytest.mark.parametrize("path", SOURCES, ids=_name)
    def test_small(self, path: Path) -> None:
        assert too_long(path) == []

    def test_the_check_finds_them(self) -> None:
        """A long function is found (the check can fail)."""
        assert any("def draw_domino" in found for found in _long_in_draw())


def _long_in_draw() -> list[str]:
    return [
        f"def {node.name}"
        for node in ast.walk(_tree(BOT / "pictures" / "draw.py"))
        if isinstance(node, ast.FunctionDef) and (node.end_lineno or 0) - node.lineno >= FUNCTION_LINES
    ]


class TestRedisInStorage:
    """No Redis call or script call outside bot/storage/: the repositories are the only door to Redis."""

    @pytest.mark.parametrize("path", [p for p in SOURCES if "storage" not in p.parts], ids=_name)
    def test_none_outside(self, path: Path) -> None:
        assert redis_calls(path.read_text(encoding="utf-8")) == []

    def test_the_check_finds_them(self) -> None:
        source = "async def f(self):\n    await self.redis.get('k')\n    self.s = redis.register_script('')\n"
        assert redis_calls(source) == ["2: .get()", "3: .register_script()"]


class TestWiring:
    """``app.py`` builds each object with everything it needs: it assigns no attribute of an object it built."""

    def test_no_attribute_assigned(self) -> None:
        assert assigned_attributes((BOT / "app.py").read_text(encoding="utf-8")) == []

    def test_the_check_finds_them(self) -> None:
        assert assigned_attributes("delivery.on_migrate = presenter.migrate\n") == ["1: .on_migrate"]
