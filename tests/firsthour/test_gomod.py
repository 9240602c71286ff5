"""kit's runtime in a project's go.mod: the per-version copy, and the lines kit owns.

The full path (a wheel in a fresh virtualenv, `go mod tidy`, `go build`) is in
test_wheel_project.py; these tests pin synthetic runtimes and read go.mod back.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from kit_core import gomod, runtime_dist
from kit_core.cli import main
from kit_core.manifest import STARTER

pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="the go command is needed")

ROOT_MOD = runtime_dist.RUNTIME_MODULE
NATS_MOD = f"{ROOT_MOD}/events/nats"


def fake_runtime(base: Path, marker: str = "1") -> Path:
    """A runtime with the root module and one nested module, a test file and test data."""
    files = {
        "go.mod": f"module {ROOT_MOD}\n\ngo 1.26\n",
        "server/server.go": f"package server\n\n// Version {marker}\nconst Version = {marker!r}\n".replace("'", '"'),
        "server/server_test.go": "package server\n",
        "server/testdata/x.json": "{}\n",
        "events/nats/go.mod": f"module {NATS_MOD}\n\ngo 1.25\n",
        "events/nats/nats.go": "package nats\n",
    }
    for rel, text in files.items():
        p = base / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return base


def go_mod(directory: Path, text: str = "module example.com/app\n\ngo 1.26\n") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "go.mod").write_text(text)
    return directory


def go_json(directory: Path) -> gomod.GoMod:
    return gomod.read(directory)


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIT_CACHE_DIR", str(tmp_path / "cache"))


def test_go_version_of_kit_versions() -> None:
    assert runtime_dist.go_version("0.1.0") == "v0.1.0"
    assert runtime_dist.go_version("1.10.2") == "v1.10.2"
    assert runtime_dist.go_version("0.2.0.dev3") == "v0.2.0-dev3"
    assert runtime_dist.go_version("0.2.0rc1") == "v0.2.0-rc1"


def test_the_copy_is_made_once_read_only_and_without_tests(tmp_path: Path) -> None:
    src = fake_runtime(tmp_path / "src")
    copy = runtime_dist.materialize(src, "v0.1.0")
    assert copy.root.parent == tmp_path / "cache" / "runtime"
    assert copy.root.name.startswith("v0.1.0-")
    assert [(m.path, m.rel) for m in copy.modules] == [(ROOT_MOD, "."), (NATS_MOD, "events/nats")]
    assert (copy.root / "server/server.go").is_file() and (copy.root / "events/nats/nats.go").is_file()
    assert not (copy.root / "server/server_test.go").exists()
    assert not (copy.root / "server/testdata").exists()
    assert not (copy.root / "server/server.go").stat().st_mode & stat.S_IWUSR
    assert runtime_dist.is_managed(copy.root)
    mtime = (copy.root / runtime_dist.MARKER).stat().st_mtime_ns
    assert runtime_dist.materialize(src, "v0.1.0").root == copy.root
    assert (copy.root / runtime_dist.MARKER).stat().st_mtime_ns == mtime  # not copied again
    assert [p.name for p in copy.root.parent.iterdir()] == [copy.root.name]  # no temp folder left


def test_a_changed_runtime_gets_a_new_copy_and_the_old_one_stays(tmp_path: Path) -> None:
    first = runtime_dist.materialize(fake_runtime(tmp_path / "a", "1"), "v0.1.0")
    second = runtime_dist.materialize(fake_runtime(tmp_path / "b", "2"), "v0.1.0")
    assert first.root != second.root and first.root.is_dir() and second.root.is_dir()
    # Test files are not part of what a project builds: changing them changes nothing.
    (tmp_path / "b/server/server_test.go").write_text("package server // changed\n")
    assert runtime_dist.materialize(tmp_path / "b", "v0.1.0").root == second.root


def test_this_installation_ships_the_runtime() -> None:
    shipped = runtime_dist.shipped_runtime()
    assert (shipped / "go.mod").is_file()
    assert runtime_dist.modules(shipped)[0].path == ROOT_MOD


def test_a_fresh_go_mod_gets_the_require_and_replace_lines_only(tmp_path: Path) -> None:
    original = (
        "// my service\nmodule example.com/app\n\ngo 1.26\n\n"
        "require golang.org/x/text v0.42.0 // pinned for a reason\n\nexclude golang.org/x/net v0.1.0\n"
    )
    project = go_mod(tmp_path / "app", original)
    copy = runtime_dist.materialize(fake_runtime(tmp_path / "src"), "v0.1.0")
    notices = gomod.pin_runtime(project, copy)
    assert len(notices) == 1 and notices[0].path == str(project / "go.mod")
    assert "pinned the kit runtime v0.1.0" in notices[0].message and "go mod edit" in notices[0].message
    after = go_json(project)
    assert after.requires == {"golang.org/x/text": "v0.42.0", ROOT_MOD: "v0.1.0"}  # NATS: replace only
    assert after.replaces == {
        ROOT_MOD: gomod.Replacement(str(copy.root)),
        NATS_MOD: gomod.Replacement(str(copy.root / "events/nats")),
    }
    text = (project / "go.mod").read_text()
    # The user's lines are kept with their comments (go mod edit groups requires in a block).
    kept = [line.strip() for line in text.splitlines()]
    for line in ("// my service", "golang.org/x/text v0.42.0 // pinned for a reason"):
        assert line in kept
    assert "exclude golang.org/x/net v0.1.0" in kept
    assert gomod.pin_runtime(project, copy) == []  # pinned already: nothing to say
    assert (project / "go.mod").read_text() == text


def test_upgrading_kit_moves_the_project_and_says_so(tmp_path: Path) -> None:
    project = go_mod(tmp_path / "app")
    old = runtime_dist.materialize(fake_runtime(tmp_path / "old", "1"), "v0.0.9")
    new = runtime_dist.materialize(fake_runtime(tmp_path / "new", "2"), "v0.1.0")
    gomod.pin_runtime(project, old)
    # `go mod tidy` required the nested module once the code imported it (pseudo-version).
    subprocess.run(
        ["go", "mod", "edit", f"-require={NATS_MOD}@v0.0.0-00010101000000-000000000000"], cwd=project, check=True
    )
    notices = gomod.pin_runtime(project, new)
    assert len(notices) == 1
    assert "kit was upgraded: moved the kit runtime from v0.0.9 to v0.1.0" in notices[0].message
    after = go_json(project)
    assert after.requires[ROOT_MOD] == after.requires[NATS_MOD] == "v0.1.0"
    assert after.replaces[ROOT_MOD].path == str(new.root)
    assert after.replaces[NATS_MOD].path == str(new.root / "events/nats")


def test_a_transport_required_by_tidy_is_moved_to_kit_version_and_named(tmp_path: Path) -> None:
    project = go_mod(tmp_path / "app")
    copy = runtime_dist.materialize(fake_runtime(tmp_path / "src"), "v0.1.0")
    gomod.pin_runtime(project, copy)
    subprocess.run(
        ["go", "mod", "edit", f"-require={NATS_MOD}@v0.0.0-00010101000000-000000000000"], cwd=project, check=True
    )
    (notice,) = gomod.pin_runtime(project, copy)
    assert notice.message.startswith(f"pinned {NATS_MOD} to the kit runtime v0.1.0 (")
    assert go_json(project).requires[NATS_MOD] == "v0.1.0"


def test_a_copy_removed_from_the_cache_is_made_again(tmp_path: Path) -> None:
    project = go_mod(tmp_path / "app")
    src = fake_runtime(tmp_path / "src")
    copy = runtime_dist.materialize(src, "v0.1.0")
    gomod.pin_runtime(project, copy)
    shutil.rmtree(tmp_path / "cache")
    again = runtime_dist.materialize(src, "v0.1.0")
    assert again.root == copy.root and (again.root / "go.mod").is_file()
    assert go_json(project).managed(ROOT_MOD)


@pytest.mark.parametrize(
    "lines",
    [
        f"require {ROOT_MOD} v1.2.3\n",  # a published version
        f"require {ROOT_MOD} v0.0.0\n\nreplace {ROOT_MOD} => ../kit/runtime\n",  # a checkout of kit
        f"require {ROOT_MOD} v0.0.0\n\nreplace {ROOT_MOD} => example.com/fork/runtime v1.0.0\n",  # a fork
    ],
)
def test_a_runtime_the_user_chose_is_left_alone(tmp_path: Path, lines: str) -> None:
    text = f"module example.com/app\n\ngo 1.26\n\n{lines}"
    project = go_mod(tmp_path / "app", text)
    copy = runtime_dist.materialize(fake_runtime(tmp_path / "src"), "v0.1.0")
    assert gomod.pin_runtime(project, copy) == []
    assert (project / "go.mod").read_text() == text


def test_a_go_mod_the_go_command_refuses_is_a_notice(tmp_path: Path) -> None:
    project = go_mod(tmp_path / "app", "module example.com/app\n\ngo 1.26\n\nrequire (\n")
    notices = gomod.pin_runtime(project, runtime_dist.materialize(fake_runtime(tmp_path / "src"), "v0.1.0"))
    assert len(notices) == 1 and notices[0].message.startswith("could not pin the kit runtime: ")
    assert "go.mod" in notices[0].message


def test_kit_init_writes_go_mod_with_the_module_flag_and_pins_the_runtime(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if gomod.find(tmp_path) is not None:
        pytest.skip("a go.mod above the temporary folder governs it")
    project = tmp_path / "shop"
    assert main(["init", str(project / "design"), "--module", "example.com/shop/api"]) == 0
    out = capsys.readouterr()
    assert (project / "design/kit.design.yaml").read_text() == STARTER
    assert go_json(project).module == "example.com/shop/api"
    assert go_json(project).managed(ROOT_MOD)
    assert "with module example.com/shop/api\n" in out.out
    assert "pinned the kit runtime" in out.err


def test_kit_init_prints_the_default_module_and_keeps_an_existing_go_mod(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if gomod.find(tmp_path) is not None:
        pytest.skip("a go.mod above the temporary folder governs it")
    project = tmp_path / "My Todo_App"
    project.mkdir()
    monkeypatch.chdir(project)
    assert main(["init"]) == 0
    assert "with module example.com/my-todo_app (a default: choose one with --module" in capsys.readouterr().out
    assert go_json(project).module == "example.com/my-todo_app"

    other = go_mod(tmp_path / "other", "module example.com/mine\n\ngo 1.26\n")
    assert main(["init", str(other / "api" / "design"), "--module", "example.com/x"]) == 0
    assert "already exists; --module example.com/x is not applied" in capsys.readouterr().out
    assert (other / "go.mod").read_text() == "module example.com/mine\n\ngo 1.26\n"
    assert not (other / "api" / "go.mod").exists()


def _design(project: Path) -> None:
    (project / "design").mkdir(parents=True)
    (project / "design/kit.design.yaml").write_text(STARTER)
    (project / "design/shop.kit").write_text(
        "package shop\n\ntype Item {\n\tname string\n}\n\n"
        "service Shop {\n\tget GetItem /item {\n\t\tresponse Item\n\t}\n}\n"
    )


def test_kit_gen_pins_the_runtime_and_docs_only_runs_do_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = go_mod(tmp_path / "app")
    _design(project)
    assert main(["gen", "-f", str(project / "design"), "--target", "docs"]) == 0
    assert ROOT_MOD not in (project / "go.mod").read_text()
    assert main(["gen", "-f", str(project / "design")]) == 0
    assert f"notice: {project / 'go.mod'}: pinned the kit runtime" in capsys.readouterr().err
    pinned = go_json(project)
    assert pinned.requires[ROOT_MOD] == runtime_dist.go_version()
    assert Path(pinned.replaces[ROOT_MOD].path).parent == tmp_path / "cache" / "runtime"
    assert main(["gen", "-f", str(project / "design")]) == 0
    assert "go.mod" not in capsys.readouterr().err  # nothing changed, nothing said


def test_the_repository_examples_keep_their_own_replace() -> None:
    repo = Path(__file__).resolve().parents[2]
    examples = sorted(p.parent for p in (repo / "examples").glob("*/go.mod"))
    assert len(examples) >= 2
    for example in examples:
        mod = gomod.read(example)
        assert mod.replaces[ROOT_MOD] == gomod.Replacement("../../runtime")
        assert not mod.managed(ROOT_MOD)


def test_go_mod_edit_is_what_changes_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the go command nothing is edited by hand: the run says so instead."""
    project = go_mod(tmp_path / "app")
    copy = runtime_dist.materialize(fake_runtime(tmp_path / "src"), "v0.1.0")
    monkeypatch.setenv("PATH", str(tmp_path / "no-go"))
    notices = gomod.pin_runtime(project, copy)
    assert [n.message for n in notices] == [
        "could not pin the kit runtime: the go command is not on PATH (install Go 1.26 or later)"
    ]
    assert (project / "go.mod").read_text() == "module example.com/app\n\ngo 1.26\n"
    assert os.environ["PATH"] == str(tmp_path / "no-go")
