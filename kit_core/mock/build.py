"""Generate and build the mock of a project into a folder of its own."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit_core import program
from kit_core.diagnostics.codes import make
from kit_core.diagnostics.diagnostic import Diagnostic
from kit_core.generators.base import OutputFile, Owner
from kit_core.statedir import state_dir

# `replace <module> [version] => <relative dir>`: made absolute (the mock folder is elsewhere)
_REPLACE = re.compile(r"^(\s*(?:replace\s+)?\S+(?:\s+\S+)?\s+=>\s+)(\.{1,2}/\S*)(\s*)$", re.M)


@dataclass(frozen=True, slots=True)
class MockProject:
    root: Path  # the mock's project folder
    warnings: list[Diagnostic]


def default_out(project_root: Path) -> Path:
    """kit's state folder of the project (outside its tree): `<state>/mock`."""
    return state_dir(project_root) / "mock"


def prepare(design_dir: Path, out: Path | None = None, project_root: Path | None = None) -> MockProject:
    """Generate the mock project (Go, OpenAPI document, mock stubs and answers) into ``out``.
    Raises `program.DesignError` on a design with errors (nothing written)."""
    design = program.load_design(design_dir, project_root=project_root)
    checked = program.check(design)
    if checked.has_errors:
        raise program.DesignError(*[d for d in checked.diagnostics if d.is_error])
    result = program.generate(design, checked.analysis, ("go", "docs"))
    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.go.gocontext import GoGen

    # deferred: the Go generators (jinja2) load only when Go is rendered
    from kit_core.generators.go.gofmt import gofmt_all

    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.go.mock import generate as mock_files

    gen = program.gen_context(design, checked.analysis)
    mocks, missing = mock_files(GoGen.build(gen))
    replaced = {f.path for f in mocks}
    files: list[OutputFile] = [f for f in result.files if f.path not in replaced]
    files += gofmt_all(sorted(mocks, key=lambda f: f.path))
    files += pb_additions(design.project_root, getattr(gen, "protos", None), {f.path for f in files})
    root = out if out is not None else default_out(design.project_root)
    clear(root)
    for f in files:
        path = root / f.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f.content, encoding="utf-8")
    mod_dir, _ = program.find_go_module(design.project_root)
    gomod = (mod_dir / "go.mod").read_text(encoding="utf-8")
    (root / "go.mod").write_text(absolute_replaces(gomod, mod_dir), encoding="utf-8")
    if (mod_dir / "go.sum").is_file():
        shutil.copy(mod_dir / "go.sum", root / "go.sum")
    warnings = [make("mock/no-example", m.span, field=m.label, pattern=m.pattern) for m in missing]
    return MockProject(root, warnings)


def pb_additions(project_root: Path, protos: Any, written: set[str]) -> list[OutputFile]:
    """The project's own Go files beside the pb code (a request's `Validate` method, which the
    gRPC server layer runs): the mock validates requests as the service does only with them."""
    if protos is None:
        return []
    out: list[OutputFile] = []
    for directory in sorted(set(protos.pb_dirs.values())):
        for path in sorted((project_root / directory).glob("*.go")):
            rel = path.relative_to(project_root).as_posix()
            if rel in written or path.name.endswith("_test.go"):
                continue
            text = path.read_text(encoding="utf-8")
            if not _GENERATED.search(text):  # a stale pb file of a proto since removed is not the user's
                out.append(OutputFile(rel, text, Owner.GEN_ONCE))
    return out


# the Go convention for a generated file (https://go.dev/s/generatedcode)
_GENERATED = re.compile(r"^// Code generated .* DO NOT EDIT\.$", re.M)

MARKER = ".kit-mock"  # in a folder kit mock wrote: the next run may replace it


class NotAMockFolder(Exception):
    """``--out`` names a folder with files that kit mock did not write: it is left alone."""


def clear(root: Path) -> None:
    """Empty the mock folder of a previous run; refuse a folder kit mock did not write."""
    if root.exists() and any(root.iterdir()):
        if not (root / MARKER).is_file():
            raise NotAMockFolder(f"{root} holds files kit mock did not write; name an empty or new folder")
        shutil.rmtree(root)
    root.mkdir(parents=True, exist_ok=True)
    (root / MARKER).write_text("written by kit mock; replaced on its next run\n", encoding="utf-8")


def absolute_replaces(gomod: str, mod_dir: Path) -> str:
    """go.mod with every relative `replace` target made absolute against ``mod_dir``."""
    return _REPLACE.sub(lambda m: f"{m[1]}{(mod_dir / m[2]).resolve().as_posix()}{m[3]}", gomod)


def build(project: MockProject, binary: Path | None = None) -> Path:
    """`go build` of the mock project; returns the binary. Raises CalledProcessError."""
    exe = binary or project.root / "bin" / "mock"
    subprocess.run(["go", "build", "-o", str(exe), "."], cwd=project.root, check=True, capture_output=True, text=True)
    return exe
