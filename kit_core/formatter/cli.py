"""`kit fmt [-l] [-w] [paths]` (dsl-facts §5.2).

Default (no flag) = write in place. ``-l`` prints every file whose formatted text differs,
writes nothing, and exits 1 when any is listed; ``-l -w`` lists and writes. ``-`` reads
stdin and writes the formatted text to stdout. A refused file is reported on stderr and
left untouched (exit 1). A directory is walked recursively for `*.kit` files.

`kit_core.format` is imported inside the functions, deliberately: it imports this module
(its `run` is this one) and would be a cycle at the top.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from kit_core.printable import printable
from kit_core.program import design_files


def run(
    paths: Sequence[str],
    list_only: bool = False,
    write: bool = True,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Format files or folders; returns the exit code."""
    out, err = stdout or sys.stdout, stderr or sys.stderr
    paths = list(paths) or ["."]
    if "-" in paths:
        if len(paths) > 1:
            print("kit: fmt: `-` (stdin) cannot be combined with paths", file=err)
            return 1
        return _run_stdin(stdin or sys.stdin, out, err, list_only)
    files, missing = collect(paths)
    for p in missing:
        print(printable(f"kit: fmt: {p}: no such file or directory"), file=err)
    if missing:
        return 1
    if not files:
        print(printable(f"kit: fmt: no design files found in {', '.join(paths)}"), file=err)
        return 1
    status = 0
    for path in files:
        status |= _format_one(path, list_only, write, out, err)
    return status


def collect(paths: Sequence[str]) -> tuple[list[str], list[str]]:
    """(design files to format, paths that do not exist). A file given by name is formatted
    whatever its extension; folders are walked for `*.kit`, skipping hidden and vendored."""
    files: list[str] = []
    missing: list[str] = []
    for p in paths:
        if os.path.isfile(p):
            files.append(p)
        elif os.path.isdir(p):
            files.extend(str(f) for f in design_files(Path(p)))
        else:
            missing.append(p)
    return files, missing


def _format_one(path: str, list_only: bool, write: bool, out: TextIO, err: TextIO) -> int:
    from kit_core.design_text import decode_design
    from kit_core.format import format_source

    raw = Path(path).read_bytes()
    result = format_source(path, decode_design(raw))
    if not result.ok:
        _report(result.diagnostics, err)
        return 1
    if result.text.encode("utf-8") == raw:  # a byte-order mark or CR line ends are changes too
        return 0
    if list_only:
        print(printable(path, one_line=True), file=out)
    if write:
        # lazy: the writer costs ~0.1 s to import, and `kit fmt -l` writes nothing
        from kit_core.writer.host import replace_file

        replace_file(path, result.text.encode("utf-8"))
    return 1 if list_only else 0


def _run_stdin(stdin: TextIO, out: TextIO, err: TextIO, list_only: bool) -> int:
    from kit_core.design_text import normalize_design
    from kit_core.format import format_source

    result = format_source("<stdin>", normalize_design(stdin.read()))
    if not result.ok:
        _report(result.diagnostics, err)
        return 1
    if list_only:
        if result.changed:
            print("<stdin>", file=out)
            return 1
        return 0
    out.write(result.text)
    return 0


def _report(diagnostics: Sequence[object], err: TextIO) -> None:
    from kit_core.diagnostics import Diagnostic

    for d in diagnostics:
        if isinstance(d, Diagnostic):
            print(d.render(), file=err)
