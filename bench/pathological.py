"""Pathological designs for the analyzer: long mixin chains and cycles, thousands of
references to unknown names (used by bench/run_analyze.py --pathological and by
tests/analyzer/test_pathological.py)."""

from __future__ import annotations


def mixin_chain(n: int, cycle: bool = False) -> str:
    """`T0` mixes in `T1`, ... `T{n-1}` (which mixes in `T0` again when ``cycle``); each
    type has one field of its own."""
    lines = ["package p", ""]
    for i in range(n):
        mixin = f"T{i + 1}" if i + 1 < n else ("T0" if cycle else "")
        lines += [f"type T{i} {{", *([f"\t{mixin}"] if mixin else []), f"\tf{i} string", "}", ""]
    return "\n".join(lines)


def unknown_references(n: int) -> str:
    """``n`` declared types and one type with ``n`` fields, each naming a misspelt one."""
    lines = ["package p", ""]
    lines += [f"type Known{i:05d} {{ x string }}" for i in range(n)]
    lines += ["", "type Holder {", *(f"\tf{i} Knwn{i:05d}" for i in range(n)), "}", ""]
    return "\n".join(lines)
