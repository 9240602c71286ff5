"""A newcomer's first hour, from the README itself (so it cannot drift from what is tested):
in an empty home folder beside a copy of this checkout, `pip install ./kit` builds the
wheel into a fresh virtualenv, `kit init` writes go.mod, `kit gen` + `go mod tidy` make a
project outside this repository that builds against the runtime the wheel carries, copied
into the project (kit's runtime module is never fetched: it is unpublished), the service
answers the README's `curl` lines, and a Go program using the generated client prints what the
README says. Then, with that installed kit: a project pinned by an older kit moves to this
one on `kit gen` and says so, and a project requiring a published runtime is left alone.

The one thing the test changes on the way: the service's ports (free ones instead of
:8080 and :9090), in config/config.yaml, the `curl` lines and the client program's base URL.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from fresh_machine import REPO, copy_checkout, free_port, newcomer_env
from readme_walk import Session, expectations, same_output, steps

from kit_core.runtime_dist import RUNTIME_MODULE, go_version

TOOLS = ("go", "git", "curl", "bash", "cc")
pytestmark = pytest.mark.skipif(not all(shutil.which(t) for t in TOOLS), reason=f"{', '.join(TOOLS)} are needed")


def test_the_readme_first_hour_in_an_empty_folder(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text()
    walk = steps(readme)
    kinds = ["shell", "shell", "file", "shell", "go-func", "serve", "try", "file", "run", "prints"]
    assert [s.kind for s in walk] == kinds
    home = tmp_path / "home"
    copy_checkout(home / "kit")
    session = Session(home, newcomer_env(home))
    port = free_port()
    ran = ""  # the output of the last `run` step
    try:
        for step in walk:
            if step.kind == "shell":
                session.shell(step.body)
            elif step.kind == "file":
                session.write(step.arg, step.body.replace("localhost:8080", f"127.0.0.1:{port}"))
            elif step.kind == "go-func":
                session.replace_func(step.arg, step.body)
            elif step.kind == "serve":
                config = session.cwd / "config/config.yaml"
                text = config.read_text()
                assert 'addr: ":8080"' in text  # what the README says
                config.write_text(text.replace('":8080"', f'"127.0.0.1:{port}"').replace('":9090"', '""'))
                address = session.serve(step.body.strip(), tmp_path / "service.log")
                assert address == f"http://127.0.0.1:{port}"
            elif step.kind == "try":
                for command, expected in expectations(step.body):
                    got = session.shell(command.replace("localhost:8080", f"127.0.0.1:{port}")).stdout
                    assert same_output(got, expected), f"README line {step.line}: {command}\n{got!r} != {expected!r}"
            elif step.kind == "run":
                ran = session.shell(step.body).stdout
            elif step.kind == "prints":
                assert ran == step.body, f"README line {step.line}: printed\n{ran}"
    finally:
        session.stop()
    project = session.cwd
    installed_from_the_wheel(session)
    built_against_the_wheels_runtime(session, project, home)
    upgrading_kit_moves_the_project(session, project, home)
    a_transport_module_builds_from_the_wheel_too(session, project)
    a_published_runtime_is_left_alone(session)


def installed_from_the_wheel(session: Session) -> None:
    where = session.shell('python -c "import kit_core; print(kit_core.__file__)"').stdout.strip()
    package = Path(where).parent
    assert "site-packages" in package.parts and str(REPO) not in where  # not the checkout, not editable
    assert (package / "_runtime" / "go.mod").is_file()


def built_against_the_wheels_runtime(session: Session, project: Path, home: Path) -> None:
    mod = json.loads(session.shell("go mod edit -json").stdout)
    assert {r["Path"]: r["Version"] for r in mod["Require"]}[RUNTIME_MODULE] == go_version()
    (replace,) = [r for r in mod["Replace"] if r["Old"]["Path"] == RUNTIME_MODULE]
    assert replace["New"]["Path"] == "./third_party/kit-runtime"  # in the project: a clone builds
    copy = project / "third_party" / "kit-runtime"
    shipped, digest = session.shell(
        'python -c "from kit_core import runtime_dist as r; print(r.shipped_runtime(), r.runtime().digest)"'
    ).stdout.split()
    assert "site-packages" in shipped  # the runtime the installed wheel carries...
    assert json.loads((copy / ".kit-runtime.json").read_text())["digest"] == digest  # ...is the one copied
    assert not (home / ".cache" / "kit" / "runtime").exists()  # no copy in kit's cache any more
    dir_used = session.shell(f"go list -m -f '{{{{.Dir}}}}' {RUNTIME_MODULE}").stdout.strip()
    assert dir_used == str(copy)
    session.shell("go build -o bin/hello .")
    assert (project / "bin/hello").is_file()


def upgrading_kit_moves_the_project(session: Session, project: Path, home: Path) -> None:
    """go.mod as an older kit left it: its version, its copy in kit's cache."""
    old = home / ".cache/kit/runtime/v0.0.9-0123456789ab"
    session.shell(f"go mod edit -require={RUNTIME_MODULE}@v0.0.9 -replace={RUNTIME_MODULE}={old}")
    out = session.shell("kit gen design")
    assert f"kit was upgraded: moved the kit runtime from v0.0.9 to {go_version()}" in out.stderr
    assert f"go.mod no longer points at kit's cache ({old})" in out.stderr
    assert str(old) not in (project / "go.mod").read_text()
    session.shell("go build -o bin/hello .")


NATS = f"{RUNTIME_MODULE}/events/nats"


def a_transport_module_builds_from_the_wheel_too(session: Session, project: Path) -> None:
    """The runtime's other modules (transports with their own go.mod) are replaced too: code
    importing one tidies and builds; the next `kit gen` requires it at kit's version."""
    probe = project / "internal/probe/probe.go"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        f'package probe\n\nimport "{NATS}"\n\n// Connect opens a NATS transport.\nvar Connect = nats.Connect\n'
    )
    session.shell("go mod tidy && go build ./...")
    assert json.loads(session.shell(f"go list -m -json {NATS}").stdout)["Replace"]["Dir"].endswith("/events/nats")
    out = session.shell("kit gen design")
    assert "go.mod" in out.stderr  # the transport's require moved to kit's version, and it says so
    requires = {r["Path"]: r["Version"] for r in json.loads(session.shell("go mod edit -json").stdout)["Require"]}
    assert requires[NATS] == requires[RUNTIME_MODULE] == go_version()
    session.shell("go build ./...")


def a_published_runtime_is_left_alone(session: Session) -> None:
    session.shell(
        "mkdir ../published && cp -r design ../published/ && cd ../published\n"
        f"go mod init example.com/published && go mod edit -require={RUNTIME_MODULE}@v1.2.3"
    )
    before = (session.cwd / "go.mod").read_text()
    out = session.shell("kit gen design")
    assert "go.mod" not in out.stderr
    assert (session.cwd / "go.mod").read_text() == before
