"""Design-wide rules replay their last result when an edit cannot change it
(`Ctx.design_part`), and the HTTP model is reused while no method's binding changed: an
edit in one file must still be seen by every rule that reads across files, and the work
an edit costs must not grow with the design."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kit_core.analyzer import Analyzer, analyze
from kit_core.lower import parse_file
from kit_core.manifest import default_manifest
from kit_core.manifest_reader import parse_manifest
from kit_core.model import SourceFile

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gen_design import write_design  # noqa: E402

MANIFEST = default_manifest("/d/kit.design.yaml")

A_TYPES = "package a\n\ntype User {\n\tid string\n\tname string\n}\n\ntype Req {\n\tid string @path\n}\n"
A_SERVICE = (
    "package a\n\nmiddleware Auth\n\n"
    '@contract("shop.changed")\nevent Changed {\n\tpayload User\n}\n\n'
    "service Users {\n\tget GetUser /users/{id} {\n\t\trequest Req\n\t\tresponse User\n\t}\n}\n"
)
B_TYPES = "package b\n\ntype Order {\n\tid string\n}\n"


def _files(texts: dict[str, str]) -> dict[str, SourceFile]:
    return {path: parse_file(path, text) for path, text in texts.items()}


def _codes(session: Analyzer) -> set[str]:
    return {d.code for d in session.analysis().diagnostics}


def _edit(session: Analyzer, texts: dict[str, str], path: str, text: str) -> set[str]:
    """Edit one file in the session; its diagnostics must be a fresh analysis's."""
    texts[path] = text
    file = parse_file(path, text)
    incremental = session.update(file)
    fresh = analyze(list(_files(texts).values()), MANIFEST)
    assert incremental.diagnostics == fresh.diagnostics
    return {d.code for d in incremental.diagnostics}


@pytest.fixture
def design() -> tuple[Analyzer, dict[str, str]]:
    texts = {"/d/a/types.kit": A_TYPES, "/d/a/service.kit": A_SERVICE, "/d/b/types.kit": B_TYPES}
    session = Analyzer(MANIFEST)
    session.update_all(_files(texts).values())
    assert not session.analysis().has_errors, session.analysis().diagnostics
    return session, texts


def test_a_duplicate_declared_in_another_file_of_the_package(design: tuple[Analyzer, dict[str, str]]) -> None:
    session, texts = design
    _edit(session, texts, "/d/b/types.kit", B_TYPES)  # an edit that changes nothing: replayed
    assert "decl/duplicate" in _edit(session, texts, "/d/a/more.kit", "package a\n\ntype User {\n\tx int\n}\n")
    assert "decl/duplicate" not in _edit(session, texts, "/d/a/more.kit", "package a\n\ntype Other {\n\tx int\n}\n")


def test_a_middleware_of_the_same_name_in_another_package(design: tuple[Analyzer, dict[str, str]]) -> None:
    session, texts = design
    codes = _edit(session, texts, "/d/b/types.kit", B_TYPES + "\nmiddleware Auth\n")
    assert "middleware/collision" in codes
    assert "middleware/collision" not in _edit(session, texts, "/d/b/types.kit", B_TYPES)


def test_an_event_contract_taken_in_another_package(design: tuple[Analyzer, dict[str, str]]) -> None:
    session, texts = design
    event = '\n@contract("shop.changed")\nevent Placed {\n\tpayload Order\n}\n'
    assert "event/contract-collision" in _edit(session, texts, "/d/b/types.kit", B_TYPES + event)


def test_a_route_taken_by_a_service_in_another_package(design: tuple[Analyzer, dict[str, str]]) -> None:
    session, texts = design
    service = "\nservice Orders {\n\tget GetOrder /users/{id} {\n\t\trequest Order\n\t\tresponse Order\n\t}\n}\n"
    codes = _edit(session, texts, "/d/b/types.kit", B_TYPES.replace("id string", "id string @path") + service)
    assert "path/collision" in codes


def test_a_request_type_edited_in_another_file_changes_the_route(design: tuple[Analyzer, dict[str, str]]) -> None:
    """The service's file is untouched: its method's binding changes through the type."""
    session, texts = design
    codes = _edit(session, texts, "/d/a/types.kit", A_TYPES.replace("\tid string @path\n", "\tkey string\n"))
    assert "path/param-missing" in codes
    assert "path/param-missing" not in _edit(session, texts, "/d/a/types.kit", A_TYPES)


def test_a_moved_declaration_with_a_diagnostic_is_reported_where_it_is_now(
    design: tuple[Analyzer, dict[str, str]],
) -> None:
    """A replayed result names places: an edit above a reported declaration moves it."""
    session, texts = design
    _edit(session, texts, "/d/b/types.kit", B_TYPES + "\nmiddleware Auth\n")
    _edit(session, texts, "/d/b/types.kit", "// moved down\n\n" + B_TYPES + "\nmiddleware Auth\n")


# --------------------------------------------------------------------------- work per edit


@contextmanager
def _counting() -> Iterator[dict[str, int]]:
    """Python function calls (generator steps included) of kit_core while the block runs."""
    counts = {"calls": 0}

    def profile(frame: object, event: str, _: object) -> None:
        if event == "call" and "/kit_core/" in frame.f_code.co_filename:  # type: ignore[attr-defined]
            counts["calls"] += 1

    sys.setprofile(profile)
    try:
        yield counts
    finally:
        sys.setprofile(None)


def _work_per_edit(tmp: Path, types: int) -> tuple[int, int]:
    """(calls, design-part visits) of one analysis after each of two edits of the large
    generated design's biggest file: a comment (declarations after it move) and a
    declaration's body (its results, and those that looked it up, are dropped)."""
    info = write_design(tmp / str(types), types, types * 3 // 10, None, 300)
    files = {str(p): parse_file(str(p), p.read_text(encoding="utf-8")) for p in info.files}
    manifest_path = info.root / "kit.design.yaml"
    manifest = parse_manifest(str(manifest_path), manifest_path.read_text(encoding="utf-8"))[0]
    session = Analyzer(manifest)
    assert not session.update_all(files.values()).diagnostics  # sorting them is per diagnostic
    path = str(info.big_file)
    text = info.big_file.read_text(encoding="utf-8")
    edits = [text.replace("// Big5 is", "// Big5 isx", 1), text.replace("@range(0, 1000)", "@range(0, 999)", 1)]
    calls = visits = 0
    for edited in [*edits, text]:
        session.update(parse_file(path, edited))  # warm: the first edit of a file keeps its fingerprints
    for edited in edits:
        file = parse_file(path, edited)
        with _counting() as counts:
            session.update(file)
        calls += counts["calls"]
        visits += session.visits
    return calls, visits


def test_the_work_of_an_edit_does_not_grow_with_the_design(tmp_path: Path) -> None:
    small_calls, small_visits = _work_per_edit(tmp_path, 200)
    large_calls, large_visits = _work_per_edit(tmp_path, 400)
    assert large_visits == small_visits  # the changed file, once per design rule
    assert large_calls <= small_calls * 1.02 + 20, (small_calls, large_calls)
