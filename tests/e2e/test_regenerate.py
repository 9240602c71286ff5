"""Regeneration keeps user code: stubs survive, stale REGEN files are swept, notices name stubs;
and the wiring refuses to start while the service context leaves an applied middleware nil."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from e2e_harness import GO_ENV, Built, generate, make_project, run


def test_edit_survives_and_rename_sweeps(tmp_path: Path) -> None:
    root = make_project("todo", tmp_path / "todo")
    generate(root)
    stub = root / "internal/service/todo_service/create_todo.go"
    stub.write_text(stub.read_text() + "\n// my edit\n")
    kit = root / "design/todo.kit"
    kit.write_text(re.sub(r"\bCreateTodo\b", "AddTodo", kit.read_text()))
    report = generate(root)
    assert stub.read_text().endswith("// my edit\n")
    assert "internal/transport/todo_service/create_todo.go" in report.swept
    assert (root / "internal/transport/todo_service/add_todo.go").is_file()
    assert (root / "internal/service/todo_service/add_todo.go").is_file()
    assert any("internal/service/todo_service" in n.path + n.message for n in report.notices)
    again = generate(root)
    assert again.written == [] and again.swept == []  # byte-identical: nothing rewritten


def test_wiring_fails_for_a_nil_applied_middleware(todo_built: Built, tmp_path: Path) -> None:
    root = tmp_path / "todo"
    shutil.copytree(todo_built.root, root, ignore=shutil.ignore_patterns("bin"))
    svc = root / "svccontext/svccontext.go"
    svc.write_text(
        svc.read_text().replace("middleware.NewRequestLogMiddleware()", "nil")
        + "\nvar _ = middleware.NewRequestLogMiddleware\n"
    )
    run(["go", "build", "-o", "bin/todo", "."], root)
    proc = subprocess.run(
        [str(root / "bin/todo"), "-config", "none.yaml"],
        cwd=root,
        env=GO_ENV,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert "RequestLog" in proc.stderr and "nil" in proc.stderr
