"""A run killed at any point of its commit leaves nothing the next run cannot mend: the next
run finishes it (after the commit point) or undoes it (before), and leaves exactly the tree
an uninterrupted run leaves - no staging file, no journal, no mixed tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kit_core.cli import main
from kit_core.statedir import state_dir
from kit_core.writer.faults import ENV, KILLED
from kit_core.writer.journal import JOURNAL_NAME, recover

A0 = "package a\n\ntype A {\n\tx string @length(1, 5)\n}\n\nservice Svc {\n\tget One /one {\n\t\tresponse A\n\t}\n}\n"
A1 = A0.replace("@length(1, 5)", "@length(1, 6)").replace(
    "\tget One /one {", "\tget Two /two {\n\t\tresponse A\n\t}\n\n\tget One /one {"
)
B0 = "package b\n\ntype B {\n\ty int @gte(1)\n}\n\nevent Made {\n\tpayload B\n}\n"
C1 = "package c\n\ntype C {\n\tz bool\n}\n"


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.relative_to(root).as_posix().startswith("design/")
    }


@pytest.fixture(scope="module")
def before(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tree of the first design, generated; the second design written over it."""
    root = tmp_path_factory.mktemp("journal") / "before"
    (root / "design/a").mkdir(parents=True)
    (root / "design/b").mkdir()
    (root / "go.mod").write_text("module example.com/j\n\ngo 1.26\n")
    (root / "design/kit.design.yaml").write_text("openapi:\n  title: J\n")
    (root / "design/a/a.kit").write_text(A0)
    (root / "design/b/b.kit").write_text(B0)
    assert main(["gen", str(root / "design")]) == 0
    (root / "design/a/a.kit").write_text(A1)
    (root / "design/b/b.kit").unlink()
    (root / "design/c").mkdir()
    (root / "design/c/c.kit").write_text(C1)
    return root


@pytest.fixture(scope="module")
def after(before: Path) -> tuple[dict[str, bytes], int, int]:
    """What an uninterrupted run of the second design leaves, and how many files it writes
    and sweeps."""
    root = before.parent / "reference"
    shutil.copytree(before, root)
    from kit_core.regenerate import regenerate

    out = regenerate(root / "design")
    assert out.report is not None and out.report.ok
    assert out.report.written and out.report.swept  # the commit replaces, creates and sweeps
    return snapshot(root), len(out.report.written), len(out.report.swept)


def copy_of(before: Path, tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(before, root)
    return root


def killed_run(root: Path, spec: str) -> int:
    """`kit gen` in a child process that dies (os._exit, no cleanup) at ``spec``."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.environ[ENV] = spec
            code = main(["gen", str(root / "design")])
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def points(written: int, swept: int) -> list[str]:
    return (
        [f"stage:{n}" for n in range(1, written + 1)]
        + ["journal:1"]
        + [f"rename:{n}" for n in range(1, written + 1)]
        + [f"remove:{n}" for n in range(1, swept + 1)]
    )


def test_killed_at_every_point_of_the_commit(
    before: Path, after: tuple[dict[str, bytes], int, int], tmp_path: Path
) -> None:
    """The recovery alone mends the tree: before the commit point it is the tree before the
    run, from it on the tree after it; then a run leaves the uninterrupted run's tree."""
    reference, written, swept = after
    original = snapshot(before)
    for i, spec in enumerate(points(written, swept)):
        root = copy_of(before, tmp_path, f"run{i}")
        assert killed_run(root, spec) == KILLED, spec
        assert (state_dir(root) / JOURNAL_NAME).exists(), spec
        recovery = recover(state_dir(root), root)
        if spec.startswith("stage:"):
            assert recovery.state == "prepare" and snapshot(root) == original, spec
        else:
            assert recovery.state == "commit" and snapshot(root) == reference, spec
        assert not (state_dir(root) / JOURNAL_NAME).exists()
        assert main(["gen", str(root / "design")]) == 0, spec
        assert snapshot(root) == reference, spec


def test_killed_while_recovering(before: Path, after: tuple[dict[str, bytes], int, int], tmp_path: Path) -> None:
    reference, written, _ = after
    root = copy_of(before, tmp_path, "twice")
    assert killed_run(root, f"rename:{max(1, written // 2)}") == KILLED
    assert killed_run(root, "recover:1") == KILLED
    assert main(["gen", str(root / "design")]) == 0
    assert snapshot(root) == reference


def test_a_real_kit_gen_killed_mid_commit(
    before: Path, after: tuple[dict[str, bytes], int, int], tmp_path: Path
) -> None:
    reference, written, _ = after
    root = copy_of(before, tmp_path, "process")
    cmd = [sys.executable, "-m", "kit_core.cli", "gen", str(root / "design")]
    scratch_before = _named_scratch()
    dead = subprocess.run(
        cmd, env={**os.environ, ENV: f"rename:{max(1, written // 2)}"}, capture_output=True, text=True
    )
    assert dead.returncode == KILLED
    assert _named_scratch() <= scratch_before  # its forked helpers' results had no name to leave behind
    staged = [p for p in root.rglob("*") if p.name.endswith(".kit-tmp")]
    assert staged  # it died with files staged and not yet in place
    again = subprocess.run(cmd, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "finished writing what a kit run that was stopped had begun" in again.stderr
    assert snapshot(root) == reference


def _named_scratch() -> set[str]:
    """What a run's forked helpers once left in /dev/shm when the run was killed."""
    shm = Path("/dev/shm")
    return {p.name for p in shm.glob("kit-*.pickle")} if shm.is_dir() else set()


def test_staging_files_of_earlier_runs_are_swept(
    before: Path, after: tuple[dict[str, bytes], int, int], tmp_path: Path
) -> None:
    reference, _, _ = after
    root = copy_of(before, tmp_path, "stale")
    leftovers = [
        root / "internal/types/a/.types.go.k3j2h1g0.kit-tmp",  # mkstemp names of earlier releases
        root / "internal/service/svc/.one.go.kit-tmp",
        root / "config/.config.go.abcdefgh.kit-tmp",
    ]
    for p in leftovers:
        p.write_text("half a file")
    mine = root / "internal/service/svc/notes.kit-tmp"
    mine.write_text("a user's file that only looks like one")
    assert main(["gen", str(root / "design")]) == 0
    assert not [p for p in leftovers if p.exists()]
    assert mine.is_file()
    mine.unlink()
    assert snapshot(root) == reference


def test_recovery_never_overwrites_a_file_that_appeared(
    before: Path, after: tuple[dict[str, bytes], int, int], tmp_path: Path
) -> None:
    reference, _, _ = after
    root = copy_of(before, tmp_path, "appeared")
    assert killed_run(root, "journal:1") == KILLED
    created = [p for p in reference if not (root / p).exists() and not (before / p).exists()]
    stub = next(p for p in created if p.startswith("internal/service/"))
    (root / stub).write_text("package svc // the user's own, written meanwhile\n")
    assert main(["gen", str(root / "design")]) == 0
    assert (root / stub).read_text() == "package svc // the user's own, written meanwhile\n"
