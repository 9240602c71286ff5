#!/usr/bin/env python3
"""Rewrite the expected trees of grammar/test/corpus/*.txt from the current parser.

`tree-sitter test --update` drops field names; this keeps them (the lowering reads
children by field, so the corpus pins them too). Needs the Python binding built
(`pip install -e .`). Review the diff before committing.

    python grammar/scripts/update-corpus.py [corpus files...]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from kit_core import syntax

CORPUS = Path(__file__).resolve().parent.parent / "test" / "corpus"
HEADER = re.compile(r"^(={3,})\n(.*?)\n\1\n\n", re.S | re.M)
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[()]|[^\s()"]+')


def pretty(sexp: str) -> str:
    """Indent an s-expression: one node per line, two spaces per level."""
    out: list[str] = []
    depth = 0
    pending = ""
    for tok in TOKEN.findall(sexp):
        if tok == "(":
            out.append("  " * depth + pending + "(")
            pending = ""
            depth += 1
        elif tok == ")":
            depth -= 1
            out[-1] += ")"
        elif tok.endswith(":"):
            pending = tok + " "
        else:
            out[-1] += tok if out[-1].endswith("(") else " " + tok
    return "\n".join(out)


def update(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    parts = HEADER.split(text)
    out = []
    for i in range(1, len(parts), 3):
        bar, name, body = parts[i], parts[i + 1], parts[i + 2]
        source = body.split("\n---\n", 1)[0]
        source = source[:-1] if source.endswith("\n") else source
        tree = syntax.parse(source.encode("utf-8"))
        out.append(f"{bar}\n{name}\n{bar}\n\n{source}\n---\n\n{pretty(str(tree.root_node))}\n\n")
    path.write_text("".join(out).rstrip("\n") + "\n", encoding="utf-8")


if __name__ == "__main__":
    for arg in sys.argv[1:] or sorted(CORPUS.glob("*.txt")):
        update(Path(arg))
