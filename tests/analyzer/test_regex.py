"""User regexes are RE2 (the spec's regex language): `@pattern` arguments are validated and
`@default` values checked against them by RE2, in time linear in the value."""

from __future__ import annotations

from kit_core.analyzer import analyze
from kit_core.diagnostics import Diagnostic
from kit_core.lower import parse_file


def _diags(body: str) -> list[Diagnostic]:
    f = parse_file("/design/a.kit", f"package p\n\ntype T {{\n{body}\n}}\n")
    assert not f.parse_diagnostics, f.parse_diagnostics
    return list(analyze([f]).diagnostics)


def test_a_pathological_pattern_checks_its_default_at_once() -> None:
    # A backtracking engine explores 2^30 ways to split the a's before failing.
    diags = _diags('\tname string? @pattern(`^(a+)+$`) @default("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")')
    assert [d.code for d in diags] == ["decorator/conflict"]
    assert "does not match the pattern" in diags[0].message
    ok = _diags('\tname string? @pattern(`^(a+)+$`) @default("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")')
    assert ok == []


def test_the_default_is_matched_with_re2_syntax() -> None:
    # POSIX classes and \pL are RE2 (and Go) syntax; Python's re reads them otherwise.
    assert _diags('\tcode string? @pattern(`^[[:digit:]]+$`) @default("123")') == []
    assert _diags('\tword string? @pattern(`^\\pL+$`) @default("héllo")') == []
    bad = _diags('\tcode string? @pattern(`^[[:digit:]]+$`) @default("12a")')
    assert [d.code for d in bad] == ["decorator/conflict"]


def test_a_pattern_re2_refuses_is_an_argvalue_with_re2s_message() -> None:
    diags = _diags("\tname string @pattern(`(a)\\1`)")
    assert [d.code for d in diags] == ["decorator/argvalue"]
    assert "invalid escape sequence: \\1" in diags[0].message
    look = _diags('\tname string @pattern("(?<=x)y")')
    assert [d.code for d in look] == ["decorator/argvalue"] and "RE2" in look[0].message
