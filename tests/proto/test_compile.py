"""Protos compile in-process on every run; protoc's messages become located diagnostics and a
proto that does not compile fails the run before anything is written."""

from __future__ import annotations

from pathlib import Path

from helpers import files_under, kit_gen, project, spy_children

from kit_core import program
from kit_core.diagnostics import Severity
from kit_core.manifest_reader import load_manifest
from kit_core.proto import compile_design

GOOD = 'syntax = "proto3";\npackage shop;\nmessage A { string id = 1; }\n'


def compile_dir(design: Path, overrides: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    manifest, _ = load_manifest(design / "kit.design.yaml")
    return compile_design(design, design.parent, manifest, overrides)


def test_compile_error_is_located_and_nothing_is_written(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    design = project(tmp_path, {"shop/a.proto": 'syntax = "proto3";\npackage shop;\nmessage A {\n\tFoo b = 1;\n}\n'})
    monkeypatch.chdir(tmp_path)
    before = files_under(tmp_path)
    code, out, err = kit_gen(str(design))
    assert code == 1
    # protoc counts a tab as 8 columns; kit reports byte columns like every other diagnostic
    assert 'design/shop/a.proto:4:2: error proto/compile: "Foo" is not defined.' in err
    assert files_under(tmp_path) == before


def test_every_failing_file_is_reported(tmp_path: Path) -> None:
    design = project(
        tmp_path,
        {
            "a/a.proto": 'syntax = "proto3";\npackage a;\nmessage A { int32 x = 1 }\n',
            "b/b.proto": 'syntax = "proto3";\npackage b;\nimport "missing/x.proto";\nmessage B {}\n',
            "c/c.proto": GOOD.replace("shop", "c"),
        },
    )
    pd = compile_dir(design)
    places = sorted((Path(d.span.path).name, d.span.start_line, d.message) for d in pd.diagnostics)
    assert ("a.proto", 2, 'Expected ";".') in places
    assert any(name == "b.proto" and line == 2 and "missing/x.proto" in msg for name, line, msg in places)
    assert not pd.files and pd.has_errors


def test_warnings_are_warnings(tmp_path: Path) -> None:
    text = 'syntax = "proto3";\npackage shop;\nimport "google/protobuf/empty.proto";\nmessage A {}\n'
    design = project(tmp_path, {"shop/a.proto": text})
    pd = compile_dir(design)
    assert pd.files and not pd.has_errors
    (warning,) = pd.diagnostics
    assert warning.severity is Severity.WARNING and "is unused" in warning.message
    assert warning.span.path == str(design / "shop/a.proto") and warning.span.start_line == 2


def test_well_known_types_and_siblings_import_by_design_relative_path(tmp_path: Path) -> None:
    design = project(
        tmp_path,
        {
            "common/money.proto": 'syntax = "proto3";\npackage common;\nmessage Money { int64 cents = 1; }\n',
            "shop/a.proto": 'syntax = "proto3";\npackage shop;\nimport "common/money.proto";\n'
            'import "google/protobuf/timestamp.proto";\n'
            "message A { common.Money price = 1; google.protobuf.Timestamp at = 2; }\n",
        },
    )
    pd = compile_dir(design)
    assert not pd.diagnostics
    assert [f.name for f in pd.files][-1] in ("shop/a.proto", "common/money.proto")
    assert {"google/protobuf/timestamp.proto", "common/money.proto", "shop/a.proto"} <= {f.name for f in pd.files}
    assert all(f.source_code_info.location for f in pd.files if f.name == "shop/a.proto")


def test_editor_buffers_replace_the_disk(tmp_path: Path) -> None:
    design = project(tmp_path, {"shop/a.proto": GOOD})
    path = str(design / "shop/a.proto")
    pd = compile_dir(design, {path: 'syntax = "proto3";\npackage shop;\nmessage A { Nope x = 1; }\n'})
    (d,) = pd.diagnostics
    assert d.span.path == path and d.span.start_line == 2 and d.span.start_col == 12 and '"Nope"' in d.message
    new = str(design / "shop/b.proto")  # a buffer not saved yet
    pd = compile_dir(
        design, {new: 'syntax = "proto3";\npackage shop;\nimport "shop/a.proto";\nmessage B { A a = 1; }\n'}
    )
    assert not pd.diagnostics and "shop/b.proto" in pd.names


def test_docs_target_compiles_protos_too(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    design = project(
        tmp_path,
        {"shop/a.proto": 'syntax = "proto3";\npackage shop;\nmessage A { Foo b = 1; }\n'},
        kit={"api/api.kit": "package api\n\ntype T {\n\tid string\n}\n"},
    )
    monkeypatch.chdir(tmp_path)
    code, _, err = kit_gen(str(design), "--target", "docs")
    assert code == 1 and "error proto/compile" in err
    assert not (tmp_path / "docs").exists()


def test_includes_add_import_roots_and_need_go_package(tmp_path: Path) -> None:
    manifest = "proto:\n  includes:\n    - ./third_party\n"
    design = project(
        tmp_path,
        {
            "shop/a.proto": 'syntax = "proto3";\npackage shop;\nimport "vendor/x.proto";\n'
            "message A { vendor.X x = 1; }\n"
        },
        manifest,
    )
    inc = tmp_path / "third_party/vendor/x.proto"
    inc.parent.mkdir(parents=True)
    inc.write_text('syntax = "proto3";\npackage vendor;\nmessage X {}\n')
    (d,) = compile_dir(design).diagnostics
    assert d.code == "proto/go-package" and d.span.path == str(inc)
    inc.write_text('syntax = "proto3";\npackage vendor;\noption go_package = "example.com/v/x;x";\nmessage X {}\n')
    pd = compile_dir(design)
    assert not pd.diagnostics and pd.origin("vendor/x.proto") == "include"


def test_check_merges_proto_diagnostics(tmp_path: Path) -> None:
    design = project(tmp_path, {"shop/a.proto": 'syntax = "proto3";\npackage shop;\nmessage A { Foo b = 1; }\n'})
    loaded = program.load_design(design)
    result = program.check(loaded)
    assert result.has_errors and [d.code for d in result.diagnostics] == ["proto/compile"]


SET = {
    "base/v1/base.proto": 'syntax = "proto3";\npackage base.v1;\nmessage Money { int64 units = 1; }\n',
    "user/v1/user.proto": 'syntax = "proto3";\npackage user.v1;\nimport "base/v1/base.proto";\n'
    'import "google/protobuf/timestamp.proto";\n'
    "message Price { base.v1.Money amount = 1; google.protobuf.Timestamp at = 2; }\n",
    "other/v1/other.proto": 'syntax = "proto3";\npackage other.v1;\nimport "google/protobuf/empty.proto";\n'
    "message Alone { string id = 1; }\n",  # an unused import: a warning, kept when reused
}


def _recompiled(design: Path, last, overrides: dict[str, str]):  # type: ignore[no-untyped-def]
    manifest, _ = load_manifest(design / "kit.design.yaml")
    return compile_design(design, design.parent, manifest, overrides, last)


def test_a_compile_over_the_last_one_is_the_full_compile(tmp_path: Path) -> None:
    """Reusing the last compile's unchanged files gives the very descriptors, order and
    diagnostics of compiling everything, whichever file changed."""
    design = project(tmp_path, SET)
    last = compile_dir(design)
    assert last.compiled and [d.code for d in last.diagnostics] == ["proto/compile"]
    base = str(design / "base/v1/base.proto")
    edits = [
        {base: SET["base/v1/base.proto"] + "message Rate { int32 bp = 1; }\n"},  # imported by user.proto
        {str(design / "user/v1/user.proto"): SET["user/v1/user.proto"].replace("at = 2", "when = 2")},
        {str(design / "other/v1/other.proto"): SET["other/v1/other.proto"].replace("id", "key")},
    ]
    for overrides in edits:
        again, full = _recompiled(design, last, overrides), compile_dir(design, overrides)
        assert [f.name for f in again.files] == [f.name for f in full.files]
        assert [f.SerializeToString() for f in again.files] == [f.SerializeToString() for f in full.files]
        assert [d.render() for d in again.diagnostics] == [d.render() for d in full.diagnostics]


def test_an_importer_is_compiled_against_the_changed_import(tmp_path: Path) -> None:
    design = project(tmp_path, SET)
    last = compile_dir(design)
    base = str(design / "base/v1/base.proto")
    pd = _recompiled(design, last, {base: SET["base/v1/base.proto"].replace("Money", "Cash")})
    (error,) = [d for d in pd.diagnostics if d.is_error]
    assert error.span.path == str(design / "user/v1/user.proto") and '"base.v1.Money" is not defined' in error.message
    # back to what the last good compile was made of: nothing to compile, the same result
    assert _recompiled(design, last, {}).files == last.files


def test_a_large_input_compiles_in_a_child_protoc_with_the_same_messages(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from kit_core.proto import compile as compile_mod

    design = project(
        tmp_path, {**SET, "shop/a.proto": 'syntax = "proto3";\npackage shop;\nmessage A {\n\tFoo b = 1;\n}\n'}
    )
    monkeypatch.setattr(compile_mod, "ISOLATE_BYTES", 0)
    calls = spy_children(monkeypatch)
    in_process = compile_dir(design)
    assert not calls  # a one-off run compiles in-process, whatever the size
    manifest, _ = load_manifest(design / "kit.design.yaml")
    child = compile_design(design, design.parent, manifest, isolate=True)
    assert calls and calls[0].args[1:3] == ["-m", "grpc_tools.protoc"]  # type: ignore[index]
    assert [d.render() for d in child.diagnostics] == [d.render() for d in in_process.diagnostics]
    assert any("shop/a.proto:4:2" in d.render() for d in child.diagnostics)
    fixed = compile_design(design, design.parent, manifest, {str(design / "shop/a.proto"): GOOD}, isolate=True)
    assert fixed.compiled and {f.name for f in fixed.files} >= set(SET)


def test_a_compile_over_the_last_one_sees_a_changed_include(tmp_path: Path) -> None:
    design = project(
        tmp_path,
        {
            "shop/a.proto": 'syntax = "proto3";\npackage shop;\nimport "vendor/x.proto";\n'
            "message A { vendor.X x = 1; }\n"
        },
        "proto:\n  includes:\n    - ./third_party\n",
    )
    inc = tmp_path / "third_party/vendor/x.proto"
    inc.parent.mkdir(parents=True)
    inc.write_text('syntax = "proto3";\npackage vendor;\noption go_package = "example.com/v/x;x";\nmessage X {}\n')
    last = compile_dir(design)
    assert last.compiled
    inc.write_text('syntax = "proto3";\npackage vendor;\noption go_package = "example.com/v/x;x";\nmessage Y {}\n')
    pd = _recompiled(design, last, {})
    assert any('"vendor.X" is not defined' in d.message for d in pd.diagnostics)


def _set_of(n: int) -> dict[str, str]:
    """``n`` protos in packages of 3 that import their predecessor and a proto of another
    package, with comments (source info) and a warning (an unused import)."""
    out = {}
    for i in range(n):
        imports = [f'import "p{i - 1}/v1/a.proto";\n'] if i else ['import "google/protobuf/empty.proto";\n']
        if i > 3:
            imports.append(f'import "p{i // 2}/v1/a.proto";\n')
        fields = "".join(f"  // field {j}\n  string f{j} = {j + 1};\n" for j in range(20))
        uses = f"  p{i - 1}.v1.M{i - 1} prev = 100;\n" if i else ""
        uses += f"  p{i // 2}.v1.M{i // 2} half = 101;\n" if i > 3 else ""
        out[f"p{i}/v1/a.proto"] = (
            f'syntax = "proto3";\npackage p{i}.v1;\n{"".join(imports)}\n// M{i} is message {i}.\n'
            f"message M{i} {{\n{fields}{uses}}}\n"
        )
    return out


def test_two_halves_side_by_side_are_the_serial_compile(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from kit_core.proto import compile as compile_mod

    design = project(tmp_path, _set_of(12))
    serial = compile_dir(design)
    monkeypatch.setattr(compile_mod, "SPLIT_BYTES", 0)
    monkeypatch.setattr(compile_mod, "_cores", lambda: 2)
    children = spy_children(monkeypatch)
    halves = compile_dir(design)
    assert len(children) == 1  # one half in a child protoc, the other in-process
    # descriptor for descriptor (source info included), in protoc's order
    assert [f.SerializeToString() for f in halves.files] == [f.SerializeToString() for f in serial.files]
    assert [d.render() for d in halves.diagnostics] == [d.render() for d in serial.diagnostics]
    assert any("is unused" in d.message for d in halves.diagnostics)
    # a half that fails: the serial compile's messages, every failing file with its places
    broken = {
        str(design / "p2/v1/a.proto"): "syntax = 1",
        str(design / "p9/v1/a.proto"): _set_of(12)["p9/v1/a.proto"].replace("string f3", "Nope f3"),
    }
    monkeypatch.setattr(compile_mod, "SPLIT_BYTES", 10**9)
    serial_bad = compile_dir(design, broken)
    monkeypatch.setattr(compile_mod, "SPLIT_BYTES", 0)
    halves_bad = compile_dir(design, broken)
    assert [d.render() for d in halves_bad.diagnostics] == [d.render() for d in serial_bad.diagnostics]
    assert len({d.span.path for d in halves_bad.diagnostics}) >= 2 and not halves_bad.files


def test_a_large_recompile_keeps_nothing_of_the_last_compiles_set(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A descriptor parsed from protoc's output keeps the whole set alive: the unchanged
    files reused after a large proto was compiled again are copies of their own (else the
    last compile's large proto stays in memory beside the new one)."""
    from kit_core.proto import stage

    design = project(tmp_path, SET)
    last = compile_dir(design)
    edited = {str(design / "user/v1/user.proto"): SET["user/v1/user.proto"] + "// edited\n"}
    small = _recompiled(design, last, edited)
    assert small.file("base/v1/base.proto") is last.file("base/v1/base.proto")  # small: shared as is
    monkeypatch.setattr(stage, "ISOLATE_BYTES", 0)
    large = _recompiled(design, last, edited)
    kept = [n for n in ("base/v1/base.proto", "google/protobuf/timestamp.proto")]
    for name in kept:
        assert large.file(name) is not last.file(name) and large.file(name) == last.file(name)
    assert [f.SerializeToString() for f in large.files] == [f.SerializeToString() for f in small.files]


def test_a_quick_compile_reports_every_failing_file_in_one_run(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """protoc given several inputs stops at the first that fails; a quick compile (the first
    pass's) reports each one's errors, as the full compile does, from one protoc run (or one
    per half)."""
    from kit_core.proto import compile as compile_mod

    protos = {
        "a/a.proto": 'syntax = "proto3";\npackage a;\nmessage A { int32 x = 1 }\n',
        "b/b.proto": 'syntax = "proto3";\npackage b;\nimport "a/a.proto";\nmessage B { a.A a = 1; }\n',
        "c/c.proto": 'syntax = "proto3";\npackage c;\nmessage C { Nope n = 1; }\n',
        "e/e.proto": GOOD.replace("shop", "e"),
    }
    design = project(tmp_path, protos)
    full = compile_dir(design)
    want = sorted((Path(d.span.path).name, d.span.start_line, d.span.start_col, d.message) for d in full.diagnostics)
    assert {name for name, *_ in want} == {"a.proto", "b.proto", "c.proto"}
    roots = (design, compile_mod.well_known_root())
    calls: list[list[str]] = []
    real_run = compile_mod._run
    monkeypatch.setattr(compile_mod, "_run", lambda args, *a: calls.append(args) or real_run(args, *a))
    for split in (10**9, 0):  # one run, then two halves
        monkeypatch.setattr(compile_mod, "SPLIT_BYTES", split)
        monkeypatch.setattr(compile_mod, "_cores", lambda: 2)
        calls.clear()
        quick = compile_mod.compile_protos(roots, sorted(protos), quick=True)
        got = [m for m in quick.messages if not m.warning]
        assert len(calls) == (1 if split else 2)
        assert sorted((Path(m.name).name, m.line, m.col, m.text) for m in got) == want


def test_the_imports_of_a_text_are_its_import_statements() -> None:
    from kit_core.proto.compile import imports_in

    text = 'reimport "x";\n  import public "y";\n// import "z";\nimport\n "w";\nmessage M { string import = 1; }\n'
    assert imports_in(text) == ["y", "w"]
