"""Every relative link and anchor in README.md and docs/ leads somewhere: the file exists, and an anchor is a heading
of the page it names (GitHub's way of making an anchor of a heading). Code blocks are not read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|(?:src|href)=\"([^\"]+)\"")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def prose(text: str) -> str:
    """The page without its fenced code blocks and inline code."""
    text = re.sub(r"^(```|~~~).*?^\1\s*$", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, its markup and punctuation dropped, spaces as hyphens."""
    words = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").lower()
    words = re.sub(r"[^\w\- ]", "", words)
    return words.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in re.sub(r"^(```|~~~).*?^\1\s*$", "", page.read_text(encoding="utf-8"), flags=re.M | re.S).splitlines():
        match = HEADING.match(line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    return [a or b for a, b in LINK.findall(prose(page.read_text(encoding="utf-8")))]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_links_lead_somewhere(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, tg: ...
            continue
        path, _, anchor = target.partition("#")
        where = page if not path else (page.parent / path).resolve()
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading #{anchor} there")
    assert not broken, broken


def test_the_checker_finds_a_broken_link(tmp_path: Path) -> None:
    """The check itself: a missing file and a missing anchor are both caught."""
    (tmp_path / "a.md").write_text("# Title\n\n## Some part\n\n[x](b.md) [y](#some-part) [z](#none)\n")
    page = tmp_path / "a.md"
    assert links(page) == ["b.md", "#some-part", "#none"]
    assert anchors(page) == {"title", "some-part"}
