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


def _notices(root: Path) -> list[tuple[str, str]]:
    from kit_core.regenerate import regenerate

    out = regenerate(root / "design", project_root=root)
    assert out.report is not None and out.report.ok, out.diagnostics
    return [(n.path, n.message) for n in out.report.notices]


def test_notices_name_the_edit_that_keeps_it_compiling(todo_built: Built, tmp_path: Path) -> None:
    """A file case change gives scaffolds new names (kit writes no second copy, which would
    not compile) and a dropped middleware leaves svccontext.go (the user's) setting a slot that
    middlewares.go lost: each prints the notice naming the file and the edit; doing the edits
    compiles."""
    root = tmp_path / "todo"
    shutil.copytree(todo_built.root, root, ignore=shutil.ignore_patterns("bin"))
    manifest = root / "design/kit.design.yaml"
    manifest.write_text(manifest.read_text().replace("output:\n", "output:\n  fileCase: kebab\n", 1))
    old = "internal/middleware/request_log_middleware.go"
    rename = (
        old,
        "declares NewRequestLogMiddleware, like the scaffold kit now names request-log-middleware.go "
        "(output.fileCase or a rename changed the file name); kit did not write "
        "internal/middleware/request-log-middleware.go, which would not compile beside it - rename this "
        "file to request-log-middleware.go",
    )
    assert rename in _notices(root)
    assert not (root / "internal/middleware/request-log-middleware.go").exists()
    (root / old).rename(root / "internal/middleware/request-log-middleware.go")
    assert all("rename this file" not in m for _, m in _notices(root))

    kit = root / "design/todo.kit"
    kit.write_text(
        kit.read_text()
        .replace("middleware RequestLog\n", "middleware Audit\n")
        .replace("@middlewares(RequestLog)", "@middlewares(Audit)")
    )
    notices = _notices(root)
    svc = "svccontext/svccontext.go"
    assert (
        svc,
        "sets the middleware RequestLog, which the design no longer declares (its slot left "
        "middlewares.go, so this file does not compile) - delete the line "
        "`RequestLog: middleware.NewRequestLogMiddleware(),`",
    ) in notices
    assert (
        svc,
        "does not set the middleware Audit, added to the design after this file was written (the "
        "service refuses to start while a route's middleware is nil) - add "
        "`Audit: middleware.NewAuditMiddleware(),` to Middlewares in NewServiceContext",
    ) in notices
    text = (root / svc).read_text()
    (root / svc).write_text(
        text.replace("RequestLog: middleware.NewRequestLogMiddleware(),", "Audit: middleware.NewAuditMiddleware(),")
    )
    assert all(p != svc for p, _ in _notices(root))
    run(["go", "build", "./..."], root)
