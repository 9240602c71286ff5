"""Every analyzer case, and every registered code covered by a triggering case and a near miss."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit_core.diagnostics.codes import CODES

from .harness import case_paths, check_case, expectations

# Codes raised outside the analysis of a design folder, each tested elsewhere.
ELSEWHERE = {
    "design/no-manifest": "tests/analyzer/test_design_codes.py",
    "design/no-go-mod": "tests/analyzer/test_design_codes.py",
    "internal/analyzer-error": "tests/analyzer/test_never_raises.py (must never appear)",
    # proto stage (kit_core/proto): cases and near misses are .proto designs in tests/proto
    "proto/compile": "tests/proto/test_compile.py",
    "proto/go-package": "tests/proto/test_compile.py, tests/proto/test_rules.py",
    "proto/package-mismatch": "tests/proto/test_rules.py",
    "proto/rpc-name": "tests/proto/test_rules.py",
    "proto/rpc-file-name": "tests/proto/test_rules.py",
    "proto/service-dir": "tests/proto/test_rules.py",
    "proto/plugin-missing": "tests/proto/test_plugins.py",
    "proto/plugin": "tests/proto/test_plugins.py",
    # logic stubs against the design (kit_core/stubs): need generated stubs on disk
    "stub/drift": "tests/stubs/test_drift.py (near miss: another alias and spacing)",
    "stub/renamed": "tests/stubs/test_carry.py, tests/lsp/test_editor.py (near misses: ambiguous or changed)",
    # breaking changes against a git baseline (kit_core/breaking): need two designs
    **{
        code: "tests/breaking/test_diff.py (near misses: additions, widened checks, reserved numbers)"
        for code in (
            "breaking/removed",
            "breaking/renamed",
            "breaking/required",
            "breaking/narrowed",
            "breaking/wire",
            "breaking/status",
            "breaking/route",
            "breaking/type",
            "breaking/field-number",
            "breaking/streaming",
        )
    },
    # the writer (kit_core/writer): what is on disk where outputs go, not the design
    "output/user-file": "tests/writer/test_writer_memory.py, tests/writer/test_writer_disk.py",
    "output/blocked": "tests/writer/test_writer_memory.py, tests/writer/test_symlinks.py",
    "output/outside-project": "tests/writer/test_symlinks.py",
    "output/dangling-symlink": "tests/writer/test_symlinks.py",
    "output/symlink-file": "tests/writer/test_symlinks.py",
    "output/symlink-alias": "tests/writer/test_symlinks.py",
    "output/write-failed": "tests/writer/test_writer_memory.py, tests/writer/test_writer_disk.py",
    # `kit mock` (kit_core/mock): a pattern its answers cannot satisfy
    "mock/no-example": "tests/e2e/test_mock_answers.py (near miss: a matching @example)",
}


# Codes of other tools that register into the same registry (tested with those tools).
OTHER_TOOLS = ("format/",)


@pytest.mark.parametrize("case", case_paths(), ids=lambda p: p.name)
def test_case(case: Path) -> None:
    check_case(case)


def _all() -> tuple[set[str], set[str]]:
    triggered: set[str] = set()
    near: set[str] = set()
    for case in case_paths():
        expects, misses = expectations(case)
        triggered.update(e.code for e in expects)
        near.update(misses)
    return triggered, near


def test_every_code_has_a_triggering_case() -> None:
    triggered, _ = _all()
    missing = sorted(c for c in set(CODES) - triggered - set(ELSEWHERE) if not c.startswith(OTHER_TOOLS))
    assert not missing, f"codes without a case that triggers them: {missing}"


def test_every_code_has_a_near_miss() -> None:
    _, near = _all()
    missing = sorted(c for c in set(CODES) - near - set(ELSEWHERE) if not c.startswith(OTHER_TOOLS))
    assert not missing, f"codes without a near miss (`// ok: <code>`): {missing}"


def test_cases_name_only_registered_codes() -> None:
    triggered, near = _all()
    unknown = sorted((triggered | near) - set(CODES))
    assert not unknown, f"cases name unregistered codes: {unknown}"
