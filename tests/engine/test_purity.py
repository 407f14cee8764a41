"""The engine is pure: standard library only, no bot or storage libraries, no I/O outside its command line."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MODULES = sorted(ENGINE.glob("*.py"))
NAMES = [p.name for p in MODULES]
FORBIDDEN = {"aiogram", "redis", "pydantic", "pydantic_settings", "aiohttp", "fakeredis"}
IO_CALLS = {"open", "print", "input"}
CLI = "__main__.py"


def tree(name: str) -> ast.Module:
    return ast.parse((ENGINE / name).read_text(encoding="utf-8"), filename=name)


def imported(module: ast.Module) -> set[str]:
    """Top-level names of every module imported anywhere in ``module`` (relative imports count as engine)."""
    names: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("engine" if node.level else (node.module or "").split(".")[0])
    return names


def io_calls(module: ast.Module) -> set[str]:
    """Names of the I/O builtins called in ``module``."""
    return {
        node.func.id
        for node in ast.walk(module)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in IO_CALLS
    }


class TestPurity:
    """Every module of ``engine/`` keeps to the standard library and does no I/O."""

    def test_all_modules_found(self) -> None:
        """The scan sees the engine's modules, the command line among them."""
        assert {"__init__.py", CLI, "bingo.py", "fortytwo.py", "tiles.py"} <= set(NAMES)

    @pytest.mark.parametrize("name", NAMES)
    def test_standard_library_only(self, name: str) -> None:
        """Each import is the engine itself or a standard library module."""
        outside = {m for m in imported(tree(name)) if m != "engine" and m not in sys.stdlib_module_names}
        assert not outside, f"{name} imports {outside}"

    @pytest.mark.parametrize("name", NAMES)
    def test_no_bot_or_storage_library(self, name: str) -> None:
        """No module imports, or names in an import, a library of the bot or the storage."""
        assert not imported(tree(name)) & FORBIDDEN
        text = (ENGINE / name).read_text(encoding="utf-8")
        assert not any(f"import {lib}" in text or f"from {lib}" in text for lib in FORBIDDEN)

    @pytest.mark.parametrize("name", [n for n in NAMES if n != CLI])
    def test_no_io(self, name: str) -> None:
        """Only the command line opens files or prints."""
        assert not io_calls(tree(name)), f"{name} calls {io_calls(tree(name))}"

    def test_scanner_sees_io_in_cli(self) -> None:
        """The I/O scan does find the command line's ``open`` and ``print`` (so it can fail)."""
        assert {"open", "print"} <= io_calls(tree(CLI))

    def test_scanner_sees_third_party_import(self) -> None:
        """The import scan reports a non-standard module (so it can fail)."""
        module = ast.parse("import json\nfrom aiogram.types import Message\nfrom . import tiles\n")
        assert imported(module) == {"json", "aiogram", "engine"}
