"""`kit diff`'s machine formats: `--format json` (kit's own, one object per change) and
`--format sarif` (SARIF 2.1.0, what code-scanning tools read). Both name files relative to
the repository's top folder, so a report made in CI points at the files of the checkout;
a change with nothing left in the design points at its place at the baseline."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kit_core.breaking.change import CODES, Change, Place
from kit_core.diagnostics.codes import CODES as REGISTRY
from kit_core.source import Span

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
DOCS = "docs/diagnostics/{code}.md"  # each code's page, in the kit repository


def _relative(path: str, top: str) -> str:
    try:
        return Path(path).resolve().relative_to(Path(top).resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _where(c: Change, top: str) -> tuple[str, int, int, int | None, int | None]:
    """(file, line, column, end line, end column): 1-based; columns in UTF-16 code units
    (SARIF's default `columnKind`), the baseline's byte column for what is gone."""
    s: Span | None = c.span
    if s is not None:
        return _relative(s.path, top), s.start_line + 1, s.start_col16 + 1, s.end_line + 1, s.end_col16 + 1
    assert c.was is not None  # a change with no place now has one at the baseline
    return c.was.path, c.was.line, c.was.col, None, None


def _was(p: Place | None) -> dict[str, Any] | None:
    return None if p is None else {"ref": p.ref, "file": p.path, "line": p.line, "column": p.col}


def _reaches(c: Change) -> list[dict[str, str]]:
    out = []
    for r in c.reaches:
        item = {"path": r.path, "side": r.side, "via": r.via}
        if r.error:
            item["error"] = r.error
        out.append(item)
    return out


def as_json(changes: Sequence[Change], ref: str, top: str) -> dict[str, Any]:
    items = []
    for c in changes:
        file, line, col, _, _ = _where(c, top)
        items.append(
            {
                "code": c.code,
                "message": c.message,
                "text": c.text,
                "file": file,
                "line": line,
                "column": col,
                "gone": c.span is None,
                "was": _was(c.was),
                "reaches": _reaches(c),
            }
        )
    return {"baseline": ref, "changes": items}


def as_sarif(changes: Sequence[Change], ref: str, top: str, version: str) -> dict[str, Any]:

    rules = [
        {
            "id": code,
            "name": "".join(w.capitalize() for w in code.split("/")[1].split("-")),
            "shortDescription": {"text": REGISTRY[code].summary},
            "helpUri": f"https://github.com/kitdev/kit/blob/main/{DOCS.format(code=code)}",
            "defaultConfiguration": {"level": "warning"},
        }
        for code in CODES
    ]
    index = {code: i for i, code in enumerate(CODES)}
    results = []
    for c in changes:
        file, line, col, end_line, end_col = _where(c, top)
        region: dict[str, int] = {"startLine": line, "startColumn": col}
        if end_line is not None and end_col is not None:
            region.update(endLine=end_line, endColumn=end_col)
        result: dict[str, Any] = {
            "ruleId": c.code,
            "ruleIndex": index[c.code],
            "level": "warning",
            "message": {"text": c.text},
            "locations": [_location(file, region)],
            "properties": {"reaches": _reaches(c)},
        }
        if c.was is not None and c.span is not None:
            result["relatedLocations"] = [
                {
                    "id": 1,
                    **_location(c.was.path, {"startLine": c.was.line, "startColumn": c.was.col}),
                    "message": {"text": f"where it was at {ref}"},
                }
            ]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "kit",
                        "version": version,
                        "informationUri": "https://github.com/kitdev/kit",
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"SRCROOT": {"uri": Path(top).resolve().as_uri() + "/"}},
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }


def _location(file: str, region: dict[str, int]) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": {"uri": file, "uriBaseId": "SRCROOT"}, "region": region}}
