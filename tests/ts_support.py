"""Helpers of the TypeScript client tests: the client of an example or a design folder as
`output.tsClient` writes it, and `tsc` over it (tests/ts holds tsc and the tsconfig)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TS = REPO / "tests" / "ts"
TSC = TS / "node_modules" / ".bin" / "tsc"


def generate_client(out: Path, example: str = "showcase") -> dict[str, str]:
    """The example's client, as `output.tsClient: ./web/api` writes it (the examples keep
    the key unset, so their outputs and goldens stay as they are)."""
    root = out / "project"
    shutil.copytree(REPO / "examples" / example / "design", root / "design")
    shutil.copy(REPO / "examples" / example / "go.mod", root / "go.mod")
    manifest = root / "design" / "kit.design.yaml"
    manifest.write_text(manifest.read_text().replace("output:\n", "output:\n  tsClient: ./web/api\n", 1))
    return generated(root)


def generated(root: Path) -> dict[str, str]:
    """The `.ts` files a project's design generates (in memory), by project-relative path."""
    from kit_core import program

    design = program.load_design(root / "design", project_root=root)
    checked = program.check(design)
    assert not [d for d in checked.diagnostics if d.is_error]
    files = program.generate(design, checked.analysis, ("docs",)).files
    return {f.path: f.content for f in files if f.path.endswith(".ts")}


def compile_client(work: Path, files: dict[str, str], driver: Path | None) -> subprocess.CompletedProcess[str]:
    if shutil.which("node") is None or not TSC.exists():
        pytest.skip("node and tests/ts/node_modules (scripts/test-tools/typescript.sh) are needed")
    for path, text in files.items():
        dest = work / "api" / Path(path).name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text)
    shutil.copy(TS / "tsconfig.json", work / "tsconfig.json")
    if driver is not None:
        shutil.copy(driver, work / driver.name)
    (work / "package.json").write_text('{"type": "module"}\n')
    return subprocess.run(
        [str(TSC), "-p", str(work)], cwd=work, capture_output=True, text=True, timeout=300, check=False
    )
