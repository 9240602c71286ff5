"""A large proto in the language server is checked in two steps: a first pass (protoc on the
text without its custom option values) stands in while the full compile runs in the
background, and the full compile's diagnostics replace it whole. The first pass's errors
are the full compile's, at the same places; what the server ends with is the full compile.
(The size limit is lowered so that small protos take both steps.)"""

from __future__ import annotations

import os
import signal
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import project, spy_children

from kit_core.manifest_reader import load_manifest
from kit_core.model import SourceFile
from kit_core.proto import compile as compile_mod
from kit_core.proto import compile_design, stage
from kit_core.resident.protos import Protos

HEAD = (
    'syntax = "proto3";\npackage shop.v1;\nimport "google/protobuf/descriptor.proto";\n'
    "extend google.protobuf.FieldOptions {\n  int64 limit = 50001;\n}\n"
)
GOOD = HEAD + "message A {\n  string id = 1 [(limit) = 5, deprecated = true];\n  int64 n = 2 [(limit) = 7];\n}\n"
CASES = {
    "syntax error": GOOD.replace("int64 n = 2 [(limit) = 7];", "int64 n = 2 [(limit) = 7]"),
    "unknown type": GOOD.replace("int64 n = 2", "Nowhere n = 2"),
    "bad option value": GOOD.replace("(limit) = 7", '(limit) = "seven"'),
}


@dataclass
class Buf:
    path: str
    text: str
    version: int = 1
    kind: str = "proto"

    def text_version(self) -> tuple[str, int | None]:
        return self.text, self.version

    def parsed_version(self) -> tuple[SourceFile, int | None]:
        raise AssertionError("a proto buffer is never parsed as a .kit file")


@pytest.fixture
def large(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every input is large: a first pass, and the full compile in a child protoc, held
    until the first pass is out (on a large proto it takes ~4 times as long; on these
    small ones it could end first and be taken at once)."""
    monkeypatch.setattr(stage, "ISOLATE_BYTES", 0)
    monkeypatch.setattr(compile_mod, "ISOLATE_BYTES", 0)
    looked = threading.Semaphore(0)
    real_look, real_run = stage.first_pass, compile_mod._run_child

    def look(*args: Any) -> Any:
        try:
            return real_look(*args)
        finally:
            looked.release()

    def run(args: list[str], cancel: threading.Event | None) -> tuple[int, list[str]]:
        if cancel is not None:  # the full compile
            looked.acquire(timeout=30)
        return real_run(args, cancel)

    monkeypatch.setattr(stage, "first_pass", look)
    monkeypatch.setattr(compile_mod, "_run_child", run)


class Session:
    def __init__(self, design: Path) -> None:
        self.design = design
        self.path = str(design / "shop/v1/a.proto")
        self.manifest, _ = load_manifest(design / "kit.design.yaml")
        self.protos = Protos(design)
        self.ready = threading.Event()
        self.protos.on_ready = self.ready.set

    def compile(self, text: str, version: int = 1) -> Any:
        design = self.protos.compile(self.manifest, {self.path: Buf(self.path, text, version)})[0]
        self.protos.diagnostics(self.manifest, None)  # published: what is on display
        return design

    def settled(self, text: str, version: int = 1) -> Any:
        """What the server ends with: the design once the background compile was taken in."""
        if self.protos.pending:
            assert self.ready.wait(120)
            self.ready.clear()
        return self.compile(text, version)

    def full(self, text: str) -> Any:
        return compile_design(self.design, self.design.parent, self.manifest, {self.path: text})


def rendered(pd: Any) -> list[str]:
    return [d.render() for d in pd.diagnostics]


@pytest.mark.parametrize("case", list(CASES))
def test_the_first_pass_is_the_full_compile_without_option_errors(tmp_path: Path, large: None, case: str) -> None:
    design = project(tmp_path, {"shop/v1/a.proto": GOOD})
    s = Session(design)
    text = CASES[case]
    first = s.compile(text)
    assert not first.files and s.protos.pending  # a first pass: nothing compiled yet
    final = s.settled(text)
    full = s.full(text)
    assert rendered(final) == rendered(full) and final.has_errors
    if case == "bad option value":
        # interpreting option values is what the first pass leaves out
        assert not first.has_errors
        assert any('"shop.v1.limit"' in line and "a.proto:9:26:" in line for line in rendered(final))
    else:
        assert rendered(first) == [line for line in rendered(full) if ": error " in line]
        assert rendered(first)


@pytest.mark.parametrize("others", [0, 1], ids=["alone", "with another proto"])
def test_a_good_proto_ends_compiled_and_is_reused(tmp_path: Path, large: None, others: int) -> None:
    # with more than one proto the full compile starts after the first pass (which may
    # take both cores), instead of beside it
    unused = 'import "google/protobuf/timestamp.proto";\n'  # a warning the other proto keeps
    more = {
        f"other/v1/o{i}.proto": f'syntax = "proto3";\npackage other.v1;\n{unused}message O{i} {{}}\n'
        for i in range(others)
    }
    design = project(tmp_path, {"shop/v1/a.proto": GOOD, **more})
    s = Session(design)
    assert not s.compile(GOOD).has_errors
    final = s.settled(GOOD)
    assert final.compiled and rendered(final) == rendered(s.full(GOOD))
    # an edit over it takes a first pass over the good compile (its imports as compiled)
    edited = GOOD.replace("int64 n = 2", "Nowhere n = 2")
    first = s.compile(edited, 2)
    assert [line for line in rendered(first) if '"Nowhere" is not defined' in line]
    # the other proto is not compiled again: its warning stays on display, as the full compile has it
    warned = [line for line in rendered(s.full(edited)) if "/other/v1/" in line]
    assert [line for line in rendered(first) if "/other/v1/" in line] == warned and len(warned) == others
    assert rendered(s.settled(edited, 2)) == rendered(s.full(edited))


def test_an_edit_ends_the_full_compile_it_makes_stale(tmp_path: Path, large: None) -> None:
    design = project(tmp_path, {"shop/v1/a.proto": GOOD})
    s = Session(design)
    cancel_events: list[threading.Event] = []
    real_run = compile_mod._run_child

    def spy(args: list[str], cancel: threading.Event | None) -> tuple[int, list[str]]:
        if cancel is not None:
            cancel_events.append(cancel)
        return real_run(args, cancel)

    compile_mod._run_child = spy  # type: ignore[assignment]
    try:
        s.compile(CASES["bad option value"])
        edited = CASES["unknown type"]
        s.compile(edited, 2)
        assert cancel_events[0].is_set()  # the first full compile is no longer wanted
        final = s.settled(edited, 2)
    finally:
        compile_mod._run_child = real_run  # type: ignore[assignment]
    assert rendered(final) == rendered(s.full(edited))
    assert not any('"seven"' in line or "shop.v1.limit" in line for line in rendered(final))


def test_a_cancelled_child_protoc_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    design = project(tmp_path, {"shop/v1/a.proto": GOOD})
    monkeypatch.setattr(compile_mod, "ISOLATE_BYTES", 0)
    children = spy_children(monkeypatch)
    cancel = threading.Event()
    cancel.set()
    roots = (design, compile_mod.well_known_root())
    with pytest.raises(compile_mod.Cancelled):
        compile_mod.compile_protos(roots, ["shop/v1/a.proto"], cancel=cancel, isolate=True)
    (child,) = children
    assert child.returncode == -signal.SIGKILL  # ended, and waited for


def test_without_a_listener_the_full_compile_is_all(tmp_path: Path, large: None) -> None:
    """`kit gen`'s resident session (no ``on_ready``) never shows a first pass."""
    design = project(tmp_path, {"shop/v1/a.proto": GOOD})
    s = Session(design)
    s.protos.on_ready = None
    text = CASES["bad option value"]
    assert rendered(s.compile(text)) == rendered(s.full(text)) and not s.protos.pending


BASE = 'syntax = "proto3";\npackage base.v1;\nmessage Base {\n  string id = 1;\n}\n'
OPENED = GOOD.replace(
    'import "google/protobuf/descriptor.proto";\n',
    'import "google/protobuf/descriptor.proto";\nimport "base/v1/base.proto";\n',
)
OPENED = OPENED.replace("int64 n = 2 [(limit) = 7];", "int64 n = 2 [(limit) = 7];\n  base.v1.Base base = 3;")
OTHER = 'syntax = "proto3";\npackage other.v1;\nmessage O {\n  string id = 1;\n}\n'
BAD = 'syntax = "proto3";\npackage zed.v1;\nmessage Z {\n  Nowhere id = 1;\n}\n'


def protoc_inputs(args: list[str]) -> list[str]:
    """The protos a protoc command line compiles: its inputs, and those the one input that
    imports them all names (`compile._umbrella`)."""
    roots = [Path(a[2:]) for a in args if a.startswith("-I")]
    out: list[str] = []
    for name in (a for a in args if not a.startswith("-")):
        if name.startswith(compile_mod.UMBRELLA_DIR + "/"):
            text = next(r / name for r in roots if (r / name).is_file()).read_text()
            out += compile_mod.imports_in(text)
        else:
            out.append(name)
    return out


def in_file(pd: Any, name: str) -> list[str]:
    return [line for line in rendered(pd) if f"/{name}:" in line]


def test_an_opened_proto_of_a_set_is_looked_at_with_its_imports_only(
    tmp_path: Path, large: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over no earlier compile, the first pass compiles the open proto and what it imports
    (counted: the files given to protoc); a proto it did not look at gets nothing until the
    full compile, which has its error."""
    others = {f"other/v{i}/o.proto": OTHER.replace("other.v1", f"other.v{i}") for i in range(1, 4)}
    protos = {"shop/v1/a.proto": OPENED, "base/v1/base.proto": BASE, "zed/v1/bad.proto": BAD, **others}
    s = Session(project(tmp_path, protos))
    given: list[list[str]] = []
    real_run = compile_mod._run_child

    def spy(args: list[str], cancel: threading.Event | None) -> tuple[int, list[str]]:
        if cancel is None:  # the first pass (the full compile can be cancelled)
            given.append(protoc_inputs(args))
        return real_run(args, cancel)

    monkeypatch.setattr(compile_mod, "_run_child", spy)
    first = s.compile(OPENED)
    assert given == [["base/v1/base.proto", "shop/v1/a.proto"]]
    assert first.first_pass and not first.has_errors
    assert not in_file(first, "zed/v1/bad.proto")  # not looked at: nothing shown, not an empty verdict
    final = s.settled(OPENED)
    assert rendered(final) == rendered(s.full(OPENED))
    (error,) = in_file(final, "zed/v1/bad.proto")
    assert '"Nowhere" is not defined' in error

    # its error on display, the next first pass looks at it again (the design has an error:
    # no compile to reuse, so the whole design is compiled again): current, never stale
    edited = OPENED.replace("int64 n = 2", "Nowhere n = 2")
    given.clear()
    first = s.compile(edited, 2)
    assert given == [["base/v1/base.proto", "shop/v1/a.proto", "zed/v1/bad.proto"]]
    assert in_file(first, "zed/v1/bad.proto") == [error]
    assert [line for line in in_file(first, "shop/v1/a.proto") if '"Nowhere" is not defined' in line]
    assert rendered(s.settled(edited, 2)) == rendered(s.full(edited))


def test_a_first_pass_with_nothing_open_compiles_nothing(
    tmp_path: Path, large: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `.kit` file's analysis in a design whose protos are large and not open: no proto is
    looked at ahead of the full compile (it would be the whole set)."""
    design = project(tmp_path, {"shop/v1/a.proto": GOOD, "zed/v1/bad.proto": BAD})
    s = Session(design)
    manifest, protos = s.manifest, s.protos
    quick_runs: list[list[str]] = []
    real_run = compile_mod._run

    def spy(args: list[str], isolate: bool, cancel: threading.Event | None = None) -> tuple[int, list[str]]:
        if cancel is None:  # not the full compile
            quick_runs.append(args)
        return real_run(args, isolate, cancel)

    monkeypatch.setattr(compile_mod, "_run", spy)
    first = protos.compile(manifest, {})[0]
    assert not quick_runs
    assert first.first_pass and not first.diagnostics
    assert protos.pending and s.ready.wait(120)
    final = protos.compile(manifest, {})[0]  # the full compile, taken in
    assert not protos.pending and rendered(final) == rendered(s.full(GOOD)) and final.has_errors


def test_background_jobs_wait_for_the_full_compile(tmp_path: Path) -> None:
    """Stub drift and breaking changes read compiled protos: over a first pass (nothing
    compiled yet) they would find every gRPC stub and message gone; they leave what they
    published until the full compile is in."""
    from types import SimpleNamespace

    from kit_lsp.features import breaking, stub_drift

    design = project(tmp_path, {"shop/v1/a.proto": GOOD})
    first = SimpleNamespace(first_pass=True, compiled=False, files=(), names=("shop/v1/a.proto",))
    snap: Any = SimpleNamespace(root=design, analysis=SimpleNamespace(has_errors=False), protos=first)
    assert stub_drift.compute(snap) is None
    server: Any = SimpleNamespace(state=SimpleNamespace(settings=SimpleNamespace(breaking_baseline="HEAD")))
    assert breaking.make_compute(server)(snap) is None


def test_the_full_compile_behind_a_first_pass_runs_at_a_lower_priority(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first pass is what the editor waits for: the full compile's child protoc yields the
    cores to it and to the server."""
    design = project(tmp_path, {"shop/v1/a.proto": GOOD})
    monkeypatch.setattr(compile_mod, "ISOLATE_BYTES", 0)
    niceness: dict[str, int] = {}
    real_lower = compile_mod._lower_priority

    def lower(pid: int) -> None:
        real_lower(pid)
        niceness["child"] = os.getpriority(os.PRIO_PROCESS, pid)  # the child is waited for after this

    monkeypatch.setattr(compile_mod, "_lower_priority", lower)
    roots = (design, compile_mod.well_known_root())
    compile_mod.compile_protos(roots, ["shop/v1/a.proto"], isolate=True)
    assert not niceness  # a compile that cannot be cancelled is awaited: it keeps its priority
    done = compile_mod.compile_protos(roots, ["shop/v1/a.proto"], isolate=True, cancel=threading.Event())
    assert done.files and niceness["child"] == min(os.getpriority(os.PRIO_PROCESS, 0) + compile_mod.BACKGROUND_NICE, 19)
