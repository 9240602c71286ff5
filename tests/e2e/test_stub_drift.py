"""Stub drift and renames on a built project with implemented logic: a renamed method's
code moves into its new stub, a drifted stub is fixed by the signature rewrite, and the
project builds."""

from __future__ import annotations

import shutil
from pathlib import Path

from e2e_harness import Built, generate, run

from kit_core import program
from kit_core.stubs import expected_stubs, find_drift
from kit_core.stubs.edits import apply_edits

SERVICE = "internal/service/todo_service"


def test_renamed_method_keeps_its_code_and_a_drift_fix_builds(todo_built: Built, tmp_path: Path) -> None:
    root = tmp_path / "todo"
    shutil.copytree(todo_built.root, root, ignore=shutil.ignore_patterns("bin"))
    old_body = (root / SERVICE / "get_todo.go").read_text().split(") GetTodo(", 1)[1].split("{", 1)[1]
    kit = root / "design/todo.kit"
    text = kit.read_text().replace("get GetTodo", "get FetchTodo")
    delete = text.index("DeleteTodo")
    text = text[:delete] + text[delete:].replace("request  TodoID", "request  TodoKey", 1)
    kit.write_text(text + "\ntype TodoKey {\n\tid string @path\n}\n")

    report = generate(root)
    fetch = (root / SERVICE / "fetch_todo.go").read_text()
    assert fetch.split(") FetchTodo(", 1)[1].split("{", 1)[1] == old_body
    assert any(n.path == f"{SERVICE}/get_todo.go" and "carried" in n.message for n in report.notices)
    (drift,) = [n for n in report.notices if n.path == f"{SERVICE}/delete_todo.go"]
    assert "request type changed from `*types.TodoID` to `*types.TodoKey`" in drift.message

    design = program.load_design(root / "design", project_root=root)
    checked = program.check(design)
    expected = expected_stubs(program.gen_context(design, checked.analysis), design.compiled)
    (found,) = find_drift(expected, lambda p: (root / p).read_bytes() if (root / p).is_file() else None)
    stub = root / found.expected.path
    stub.write_bytes(apply_edits(stub.read_bytes(), found.edits))
    run(["go", "build", "./..."], root)
