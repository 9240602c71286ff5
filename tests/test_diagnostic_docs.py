"""Every registered diagnostic code has a reference page, and every page documents one."""

from __future__ import annotations

import re
from pathlib import Path

from kit_core.diagnostics.codes import CODES

for _module in (
    "kit_core.format",
    "kit_core.formatter",
    "kit_lsp.server",
):  # tools registering their own codes
    try:
        __import__(_module)
    except ImportError:
        pass

OTHER_TOOLS = ("format/",)  # codes of `kit fmt`, documented by their owner beside ours
DOCS = Path(__file__).resolve().parent.parent / "docs" / "diagnostics"
_TITLE = re.compile(r"^# `?([a-z0-9_-]+/[a-z0-9_-]+)`?\s*$")


def _pages() -> dict[str, Path]:
    return {p.relative_to(DOCS).with_suffix("").as_posix(): p for p in DOCS.rglob("*.md") if p.name != "README.md"}


def test_every_code_has_a_page() -> None:
    missing = sorted(set(CODES) - set(_pages()))
    assert not missing, f"codes without docs/diagnostics/<code>.md: {missing}"


def test_every_page_names_a_registered_code() -> None:
    for code, page in _pages().items():
        first = page.read_text(encoding="utf-8").splitlines()[0]
        m = _TITLE.match(first)
        assert m, f"{page}: first line must be # `<code>`"
        assert m.group(1) == code, f"{page}: titled {m.group(1)} but lives at {code}.md"
        assert code in CODES, f"{page} documents {code}, which is not a registered code"


def test_every_page_shows_an_example() -> None:
    for code, page in _pages().items():
        if code.startswith(OTHER_TOOLS):
            continue
        assert "```" in page.read_text(encoding="utf-8"), f"{code}: the page shows no example"


def test_index_lists_every_code() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    missing = [c for c in CODES if f"[`{c}`]" not in index and not c.startswith(OTHER_TOOLS)]
    assert not missing, f"docs/diagnostics/README.md does not list {missing}"
