"""gofmt's column alignment (go/printer over text/tabwriter) for single-line cells.

Lines of a struct body or a const/var block are split in cells (name, type, tag / value).
A line's last cell is never padded; cell k of a line is padded to the widest cell k of the
run of consecutive lines that all have a cell after it, plus one space. A comment line, an
embedded field or a blank line ends every run. Generated code is written aligned so that
most files need no gofmt pass (`gofmt.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

Row = tuple[bool, Sequence[str]]  # (a comment or other breaking line precedes it, cells)


def align(rows: Sequence[Row]) -> list[str]:
    """One aligned line per row; a one-cell row (an embedded field) stands alone."""
    lines = [list(cells) for _, cells in rows]
    start = 0
    for i in range(len(rows) + 1):
        if i == len(rows) or rows[i][0] or len(rows[i][1]) < 2:
            _pad(lines, start, i, 0)
            start = i + 1 if i < len(rows) and len(rows[i][1]) < 2 else i
    return [" ".join(cells) for cells in lines]


def _pad(lines: list[list[str]], start: int, end: int, col: int) -> None:
    """Pad column ``col`` over every run in [start, end) of lines having a cell after it."""
    i = start
    while i < end:
        if len(lines[i]) <= col + 1:
            i += 1
            continue
        j = i
        while j < end and len(lines[j]) > col + 1:
            j += 1
        width = max(len(lines[k][col]) for k in range(i, j))
        for k in range(i, j):
            lines[k][col] = lines[k][col].ljust(width)
        _pad(lines, i, j, col + 1)
        i = j
