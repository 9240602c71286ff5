"""The command line: init, version, help, exit codes, located errors, nothing written on error."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kit_core.cli import main
from kit_core.manifest import STARTER


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kit_core.cli", *args], cwd=cwd, capture_output=True, text=True)


def test_version_and_help() -> None:
    out = run("--version")
    assert out.returncode == 0 and out.stdout.startswith("kit ")
    for cmd in ("init", "gen", "fmt"):
        assert run(cmd, "--help").returncode == 0
    assert run("version").returncode == 0


def test_missing_and_unknown_command_exit_2() -> None:
    assert run().returncode == 2
    assert run("bogus").returncode == 2


def test_bad_flag_exits_1() -> None:
    assert run("gen", "--nope").returncode == 1


def test_init_writes_manifest_and_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "design" / "kit.design.yaml"
    assert main(["init", str(tmp_path / "design")]) == 0
    assert target.read_text() == STARTER
    target.write_text("openapi:\n  title: Mine\n")
    assert main(["init", str(tmp_path / "design")]) == 0
    assert "already exists" in capsys.readouterr().out
    assert target.read_text() == "openapi:\n  title: Mine\n"


def test_gen_without_manifest_is_a_located_error(tmp_path: Path) -> None:
    out = run("gen", str(tmp_path))
    assert out.returncode == 1
    assert "design/no-manifest" in out.stderr


def test_gen_without_go_mod_names_the_fix(tmp_path: Path) -> None:
    if any((p / "go.mod").exists() for p in tmp_path.parents):
        pytest.skip("a go.mod above the temporary folder would be found by the walk-up")
    design = tmp_path / "design"
    design.mkdir()
    (design / "kit.design.yaml").write_text(STARTER)
    (design / "a.kit").write_text("package shop\n\ntype Item {\n\tname string\n}\n")
    out = run("gen", str(design))
    assert out.returncode == 1
    assert "no go.mod found at" in out.stderr and "go mod init" in out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["design"]


def test_gen_with_errors_prints_located_diagnostics_and_writes_nothing(tmp_path: Path) -> None:
    design = tmp_path / "design"
    design.mkdir()
    (tmp_path / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n")
    (design / "kit.design.yaml").write_text(STARTER + "bogus: 1\n")
    (design / "a.kit").write_text("package shop\n\ntype item {\n\tname string\n}\n")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    out = run("gen", str(design), cwd=tmp_path)
    assert out.returncode == 1
    assert "design/a.kit:3:6: error decl/name-case:" in out.stderr
    assert "design/kit.design.yaml:" in out.stderr and "warning manifest/unknown-key" in out.stderr
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_gen_finds_the_design_in_a_direct_subfolder(tmp_path: Path) -> None:
    design = tmp_path / "design"
    design.mkdir()
    (design / "kit.design.yaml").write_text(STARTER)
    (design / "a.kit").write_text("package shop\n\ntype lower {}\n")
    out = run("gen", str(tmp_path), cwd=tmp_path)
    assert "design/a.kit:3:6: error decl/name-case" in out.stderr


def test_gen_in_process_runs_without_cyclic_collections(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-shot `kit gen` pauses the cyclic collector for the whole run (each phase paused
    it; between them a full collection walked the whole design), and restores it after."""
    import gc
    import shutil

    from kit_core import regenerate

    shutil.copytree(Path(__file__).resolve().parents[2] / "examples/todo/design", tmp_path / "design")
    (tmp_path / "go.mod").write_text("module example.com/todo\n\ngo 1.26\n")
    monkeypatch.setenv("KIT_NO_DAEMON", "1")
    during: list[bool] = []
    real = regenerate.regenerate

    def watched(*args: object, **kwargs: object) -> regenerate.Outcome:
        out = real(*args, **kwargs)  # type: ignore[arg-type]
        during.append(gc.isenabled())
        return out

    monkeypatch.setattr(regenerate, "regenerate", watched)
    assert main(["gen", str(tmp_path / "design")]) == 0
    assert during == [False] and gc.isenabled()


# --------------------------------------------------------------------------- first-hour edges


def test_help_names_a_command() -> None:
    top = run("help")
    assert top.returncode == 0 and "{init,gen,fmt,diff,mock,version,help}" in top.stdout
    gen = run("help", "gen")
    assert gen.returncode == 0 and gen.stdout == run("gen", "--help").stdout
    assert "the project root (the nearest folder at or above PATH holding go.mod)" in gen.stdout
    assert run("help", "fmt").stdout == run("fmt", "--help").stdout
    assert run("help", "mock").stdout == run("mock", "--help").stdout and "--addr" in run("mock", "--help").stdout
    nope = run("help", "nope")
    assert nope.returncode == 2 and "unknown command 'nope'" in nope.stderr


def test_init_suggests_the_same_gen_form_as_everything_else(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/x\n\ngo 1.26\n")
    out = run("init", "design", cwd=tmp_path)
    assert "run: kit gen design, then go mod tidy" in out.stdout and "-f" not in out.stdout


@pytest.mark.parametrize("args", [("gen", "nowhere"), ("gen", "-f", "nowhere")])
def test_a_missing_design_folder_is_named_as_such(tmp_path: Path, args: tuple[str, ...]) -> None:
    out = run(*args, cwd=tmp_path)
    assert (out.returncode, out.stderr) == (2, "kit: nowhere: no such design folder\n")
    assert list(tmp_path.iterdir()) == []


def test_a_misspelt_manifest_key_gets_did_you_mean(tmp_path: Path) -> None:
    design = tmp_path / "design"
    design.mkdir()
    (design / "kit.design.yaml").write_text("outptu:\n  fileCase: snake\n")
    (design / "a.kit").write_text("package shop\n\ntype lower {}\n")
    out = run("gen", "design", cwd=tmp_path)
    assert (
        "design/kit.design.yaml:1:1: warning manifest/unknown-key: "
        "outptu is not a manifest key and is ignored - did you mean output?"
    ) in out.stderr


def _project(root: Path) -> Path:
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples/todo/design", root / "design")
    (root / "go.mod").write_text("module example.com/todo\n\ngo 1.26\n")
    return root


SUMMARY = re.compile(
    r"^kit: (\d+) files: (\d+) regenerated \((\d+) written, (\d+) unchanged\), "
    r"(\d+) yours \((\d+) created, (\d+) kept\); (\d+) swept$",
    re.MULTILINE,
)


@pytest.mark.skipif(shutil.which("go") is None, reason="kit gen pins the runtime with the go command")
def test_gen_from_inside_the_project_and_summaries_that_add_up(tmp_path: Path) -> None:
    """`kit gen` from `internal/` finds the design (the project root's `design/`); the first
    run and the next count the same files, in groups a user can reconcile."""
    root = _project(tmp_path)
    first = run("gen", cwd=root)
    assert first.returncode == 0, first.stderr
    (root / "internal" / "deep").mkdir()
    second = run("gen", cwd=root / "internal" / "deep")
    assert second.returncode == 0, second.stderr
    a = [int(n) for n in SUMMARY.search(first.stdout).groups()]  # type: ignore[union-attr]
    b = [int(n) for n in SUMMARY.search(second.stdout).groups()]  # type: ignore[union-attr]
    for total, regen, written, unchanged, yours, created, kept, _ in (a, b):
        assert total == regen + yours and regen == written + unchanged and yours == created + kept
    assert a[0] == b[0] and a[1] == b[1] and a[4] == b[4]  # the same files, run after run
    assert (a[5], a[6]) == (a[4], 0) and (b[2], b[5], b[6]) == (0, 0, b[4])  # created, then kept
    owned = [
        p
        for p in root.rglob("*")
        if p.is_file()
        and "design" not in p.parts
        and p.name not in ("go.mod", "go.sum")
        and "third_party" not in p.parts
    ]
    assert a[0] == len(owned)  # every file kit generates, counted once (its runtime copy is not output)
