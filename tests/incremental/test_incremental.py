"""Incremental generation: byte for byte what a full run writes, over random edits; only what
an edit can change is rendered; a no-op run parses nothing; a damaged or foreign cache is
never trusted; the cache stays out of the project."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from designs import EDITS, Edit, copy_project, tree, write_project
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit_core.generators.openapi.incremental import forget
from kit_core.incremental import render as render_module
from kit_core.incremental import store
from kit_core.regenerate import Outcome, regenerate
from kit_core.statedir import state_dir

EXAMPLES = int(os.environ.get("KIT_PROP_EXAMPLES", "8"))


def gen(design: Path, **kw: object) -> Outcome:
    out = regenerate(design, **kw)  # type: ignore[arg-type]
    assert out.report is not None and out.report.ok, (out.diagnostics, out.report)
    return out


def located(out: Outcome, root: Path) -> list[tuple[str, int, int, str, str]]:
    return [(os.path.relpath(d.path, root), d.line, d.col, d.code, d.message) for d in out.diagnostics]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(EDITS), min_size=1, max_size=5))
def test_incremental_run_writes_what_a_full_run_writes(
    tmp_path_factory: pytest.TempPathFactory, edits: list[Edit]
) -> None:
    base = tmp_path_factory.mktemp("inc")
    a = base / "a"
    gen(write_project(a), resident=True)
    for i, edit in enumerate(edits):
        b = base / f"full{i}"
        copy_project(a, b)  # the full run starts from the same tree, with no cache
        edit(a)
        edit(b)
        inc = regenerate(a / "design", resident=True)  # as kit-lsp: document pieces kept between runs
        forget()
        full = regenerate(b / "design")
        assert not full.fast and full.reused == 0
        assert located(inc, a) == located(full, b), edit.__name__
        assert tree(a) == tree(b), f"after {[e.__name__ for e in edits[: i + 1]]}"


@pytest.mark.parametrize("edit", EDITS, ids=lambda e: e.__name__)
def test_every_edit_keeps_the_design_valid(tmp_path: Path, edit: Edit) -> None:
    design = write_project(tmp_path)
    gen(design)
    edit(tmp_path)
    gen(design)
    edit(tmp_path)  # and back
    gen(design)


def test_one_file_edit_renders_only_what_it_can_change(tmp_path: Path) -> None:
    design = write_project(tmp_path)
    first = gen(design)
    assert first.reused == 0 and len(first.rendered) > 10
    notes = design / "notes/notes.kit"
    notes.write_text(notes.read_text().replace("free text", "short text"))
    again = gen(design)
    assert sorted(again.rendered) == ["go/types/notes", "openapi/document"]
    assert again.report is not None and again.report.written == ["internal/types/notes/types.go"]
    shared = design / "shared/shared.kit"
    shared.write_text(shared.read_text().replace("@length(1, 64)", "@length(1, 65)"))
    third = gen(design)
    # every package references shared (orders through items): their units render again; what
    # reads no declaration of it (the wiring, the scaffolds, the routes umbrella) does not
    assert {"go/types/shared", "go/types/items", "go/types/orders", "go/types/notes"} <= set(third.rendered)
    assert not {"go/wiring", "go/scaffold", "go/http"} & set(third.rendered)


def test_no_op_run_renders_and_parses_nothing(tmp_path: Path) -> None:
    design = write_project(tmp_path)
    gen(design)
    assert gen(design).fast  # stats of just-written files are re-read once ("racy")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "kit_core.cli", "gen", str(design)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert "0 written" in out.stdout
    imported = {line.split("|")[-1].strip() for line in out.stderr.splitlines() if "|" in line}
    heavy_modules = ("kit_core.lower", "kit_core.analyzer", "kit_core.generators.go", "kit_core.breaking")
    for heavy in (*heavy_modules, "kit_core.decorators", "google.protobuf", "jinja2", "yaml", "tree_sitter"):
        assert heavy not in imported, f"a no-op run imported {heavy}"


def test_edited_or_deleted_outputs_are_rewritten(tmp_path: Path) -> None:
    design = write_project(tmp_path)
    gen(design)
    reference = tree(tmp_path)
    types = tmp_path / "internal/types/items/types.go"
    types.write_text(types.read_text() + "// mine\n")
    (tmp_path / "internal/types/shared/validate.go").unlink()
    (tmp_path / "internal/service/item_service/get_item.go").unlink()
    out = gen(design)
    assert not out.fast
    assert tree(tmp_path) == reference


def _damage(folder: Path, how: str) -> None:
    path = store.path_of(folder)
    raw = path.read_bytes()
    if how == "truncated":
        path.write_bytes(raw[: len(raw) // 2])
    elif how == "edited":
        path.write_bytes(raw.replace(b'"inputs":"', b'"inputs":"0', 1))
    elif how == "other kit":
        cache = store.load(folder, _build(raw), _project(raw))
        assert cache is not None
        cache.build = "0" * 32
        store.save(folder, cache)
    elif how == "garbage":
        path.write_bytes(os.urandom(4000))


def _build(raw: bytes) -> str:
    import json

    return str(json.loads(raw.partition(b"\n")[2])["build"])


def _project(raw: bytes) -> str:
    import json

    return str(json.loads(raw.partition(b"\n")[2])["project"])


@pytest.mark.parametrize("how", ["truncated", "edited", "other kit", "garbage"])
def test_damaged_or_foreign_cache_is_ignored(tmp_path: Path, how: str) -> None:
    design = write_project(tmp_path)
    gen(design)
    reference = tree(tmp_path)
    _damage(state_dir(tmp_path), how)
    types = tmp_path / "internal/types/items/types.go"
    types.write_text(types.read_text() + "// mine\n")
    out = gen(design)
    assert not out.fast and out.reused == 0  # nothing taken from it
    assert tree(tmp_path) == reference
    assert gen(design).fast  # and a sound cache was written in its place


def test_manifest_change_renders_everything_again(tmp_path: Path) -> None:
    design = write_project(tmp_path)
    first = gen(design)
    manifest = design / "kit.design.yaml"
    manifest.write_text(manifest.read_text().replace("fileCase: snake", "fileCase: kebab"))
    out = gen(design)
    assert out.reused == 0 and len(out.rendered) == len(first.rendered)
    renames = [n for n in out.notices if "rename this file to" in n.message]
    assert renames  # scaffolds and grouped stubs changed names: kit wrote no second copy
    for n in renames:
        old = tmp_path / n.path
        old.rename(old.with_name(n.message.rsplit("rename this file to ", 1)[1]))
    gen(design)
    manifest.write_text(manifest.read_text() + "# a comment changes no output\n")
    assert gen(design).rendered == []


def test_cache_stays_out_of_the_project(tmp_path: Path) -> None:
    design = write_project(tmp_path)
    before = set(tree(tmp_path))
    out = gen(design)
    written = set(out.report.written) if out.report else set()
    assert set(tree(tmp_path)) == before | written
    folder = state_dir(tmp_path)
    assert folder.is_relative_to(Path(os.environ["KIT_CACHE_DIR"]))
    assert store.path_of(folder).is_file()


def test_rendering_on_two_processes_gives_the_same_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    serial, forked = tmp_path / "serial", tmp_path / "forked"
    gen(write_project(serial))
    monkeypatch.setattr(render_module, "MIN_PARALLEL_WEIGHT", 0)
    out = gen(write_project(forked), parallel=True)
    assert len(out.rendered) > 10
    assert tree(serial) == tree(forked)
