"""`kit diff <git-ref> [path] [-f folder] [--exit-code] [--format text|json|sarif]`: the
changes that break clients between the design at the ref and the design in the work tree,
sorted: one per line (`path:line:col: warning breaking/<kind>: message (what it reaches)`,
the baseline's place for what is gone), or one JSON or SARIF document (`report.py`). Exit 1
on an error, and with `--exit-code` also when a change is found."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kit_core.printable import printable


def cmd_diff(args: argparse.Namespace) -> int:
    from kit_core import program
    from kit_core.breaking import BaselineError, baseline_at, breaking_changes
    from kit_core.cli import render

    try:
        root = Path(args.folder).resolve() if args.folder else program.find_design_root(Path(args.path))
        design = program.load_design(root, project_root=Path(args.context) if args.context else None)
        checked = program.check(design)
        errors = [d for d in checked.diagnostics if d.is_error]
        for d in errors:
            print(render(d), file=sys.stderr)
        if errors:
            print("kit: the design has errors; fix them before comparing", file=sys.stderr)
            return 1
        with baseline_at(args.ref, design.root, design.project_root) as base:
            changes = breaking_changes(base, checked.analysis, design.compiled)
            top = base.top
    except program.DesignError as exc:
        for d in exc.diagnostics:
            print(render(d), file=sys.stderr)
        return 1
    except BaselineError as exc:
        print(f"kit: cannot read the design at {args.ref}: {exc}", file=sys.stderr)
        return 1
    if args.format == "text":
        for c in changes:
            if c.span is not None:
                print(render(c.diagnostic(c.span, reach=True)))
            else:
                print(printable(f"{c.was}: warning {c.code}: {c.text}", one_line=True))
    else:
        print(json.dumps(_document(args.format, changes, args.ref, top), indent=2, sort_keys=False))
    noun = "change breaks" if len(changes) == 1 else "changes break"
    print(
        f"kit: {len(changes)} {noun} clients since {args.ref}"
        if changes
        else f"kit: nothing breaks clients since {args.ref}",
        file=sys.stderr,
    )
    return 1 if changes and args.exit_code else 0


def _document(fmt: str, changes: Sequence[Any], ref: str, top: str) -> dict[str, Any]:
    from kit_core import __version__
    from kit_core.breaking.report import as_json, as_sarif

    return as_json(changes, ref, top) if fmt == "json" else as_sarif(changes, ref, top, __version__)
