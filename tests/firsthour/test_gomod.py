"""kit's runtime in a project's go.mod: kit's copy inside the project, and the lines kit owns.

The full paths (a wheel in a fresh virtualenv; a committed project cloned and built with Go
alone; the runtime served by a module proxy) are in test_readme.py and
test_committed_project.py; these tests pin synthetic runtimes and read go.mod back.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from kit_core import gomod, runtime_copy, runtime_dist
from kit_core.cli import main
from kit_core.manifest import STARTER
from kit_core.writer.headers import has_kit_regen_header

pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="the go command is needed")

ROOT_MOD = runtime_dist.RUNTIME_MODULE
NATS_MOD = f"{ROOT_MOD}/events/nats"
COPY = runtime_copy.PROJECT_COPY
ROOT_REP = gomod.Replacement(f"./{COPY}")
NATS_REP = gomod.Replacement(f"./{COPY}/events/nats")


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


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_copy_in_the_project_holds_every_module_without_tests_and_is_the_same_everywhere(
    tmp_path: Path,
) -> None:
    rt = runtime_dist.runtime(fake_runtime(tmp_path / "src"), "v0.1.0")
    assert [(m.path, m.rel) for m in rt.modules] == [(ROOT_MOD, "."), (NATS_MOD, "events/nats")]
    one, two = go_mod(tmp_path / "one"), go_mod(tmp_path / "elsewhere" / "two")
    gomod.pin_runtime(one, rt)
    gomod.pin_runtime(two, rt)
    copy = one / COPY
    assert (copy / "server/server.go").is_file() and (copy / "events/nats/nats.go").is_file()
    assert not (copy / "server/server_test.go").exists() and not (copy / "server/testdata").exists()
    assert tree(copy) == tree(two / COPY)  # no path, time or machine in it: commits do not churn
    marker = json.loads((copy / runtime_dist.MARKER).read_text())
    assert (marker["version"], marker["digest"]) == ("v0.1.0", rt.digest)
    assert "events/nats/go.mod" in marker["files"] and str(tmp_path) not in json.dumps(marker)
    assert runtime_dist.is_managed(copy) and runtime_dist.is_managed(copy / "events/nats")
    before = {p: p.stat().st_mtime_ns for p in copy.rglob("*")}
    assert gomod.pin_runtime(one, rt) == []  # current: nothing written, nothing said
    assert {p: p.stat().st_mtime_ns for p in copy.rglob("*")} == before


def test_a_changed_runtime_refreshes_the_copy_and_keeps_a_file_of_the_user(tmp_path: Path) -> None:
    project = go_mod(tmp_path / "app")
    first = runtime_dist.runtime(fake_runtime(tmp_path / "a", "1"), "v0.1.0")
    gomod.pin_runtime(project, first)
    (project / COPY / "NOTES.txt").write_text("mine\n")
    src = fake_runtime(tmp_path / "b", "2")
    (src / "events/nats/nats.go").unlink()
    (src / "events/nats/conn.go").write_text("package nats\n")
    second = runtime_dist.runtime(src, "v0.1.0")
    assert second.digest != first.digest
    (notice,) = gomod.pin_runtime(project, second)
    assert notice.message.startswith(f"refreshed kit's copy of the kit runtime v0.1.0 in {COPY}/")
    copy = project / COPY
    assert '"2"' in (copy / "server/server.go").read_text()
    assert not (copy / "events/nats/nats.go").exists() and (copy / "events/nats/conn.go").is_file()
    assert (copy / "NOTES.txt").read_text() == "mine\n"
    # Test files are not part of what a project builds: changing them changes nothing.
    (src / "server/server_test.go").write_text("package server // changed\n")
    assert gomod.pin_runtime(project, runtime_dist.runtime(src, "v0.1.0")) == []


def test_this_installation_ships_the_runtime() -> None:
    shipped = runtime_dist.shipped_runtime()
    assert (shipped / "go.mod").is_file()
    assert runtime_dist.modules(shipped)[0].path == ROOT_MOD


def test_the_sweep_cannot_take_the_copy_of_the_real_runtime(tmp_path: Path) -> None:
    """kit's sweep removes only files that carry its REGEN header (and only in output
    folders): no file of the copy does, wherever a manifest puts its outputs."""
    project = go_mod(tmp_path / "app")
    gomod.pin_runtime(project, runtime_dist.runtime())
    files = [p for p in (project / COPY).rglob("*") if p.is_file()]
    assert len(files) > 50
    assert not [p for p in files if has_kit_regen_header(p.read_bytes())]


def test_a_fresh_go_mod_gets_the_require_and_replace_lines_only(tmp_path: Path) -> None:
    original = (
        "// my service\nmodule example.com/app\n\ngo 1.26\n\n"
        "require golang.org/x/text v0.42.0 // pinned for a reason\n\nexclude golang.org/x/net v0.1.0\n"
    )
    project = go_mod(tmp_path / "app", original)
    rt = runtime_dist.runtime(fake_runtime(tmp_path / "src"), "v0.1.0")
    notices = gomod.pin_runtime(project, rt)
    assert len(notices) == 1 and notices[0].path == str(project / "go.mod")
    assert notices[0].message.startswith(f"pinned the kit runtime v0.1.0: kit's copy of it in {COPY}/")
    assert "go mod edit" in notices[0].message
    after = go_json(project)
    assert after.requires == {"golang.org/x/text": "v0.42.0", ROOT_MOD: "v0.1.0"}  # NATS: replace only
    assert after.replaces == {ROOT_MOD: ROOT_REP, NATS_MOD: NATS_REP}  # relative: nothing outside the project
    text = (project / "go.mod").read_text()
    # The user's lines are kept with their comments (go mod edit groups requires in a block).
    kept = [line.strip() for line in text.splitlines()]
    for line in ("// my service", "golang.org/x/text v0.42.0 // pinned for a reason"):
        assert line in kept
    assert "exclude golang.org/x/net v0.1.0" in kept
    assert gomod.pin_runtime(project, rt) == []  # pinned already: nothing to say
    assert (project / "go.mod").read_text() == text


def test_upgrading_kit_moves_the_project_and_says_so(tmp_path: Path) -> None:
    project = go_mod(tmp_path / "app")
    old = runtime_dist.runtime(fake_runtime(tmp_path / "old", "1"), "v0.0.9")
    new = runtime_dist.runtime(fake_runtime(tmp_path / "new", "2"), "v0.1.0")
    gomod.pin_runtime(project, old)
    # `go mod tidy` required the nested module once the code imported it (pseudo-version).
    subprocess.run(
        ["go", "mod", "edit", f"-require={NATS_MOD}@v0.0.0-00010101000000-000000000000"], cwd=project, check=True
    )
    notices = gomod.pin_runtime(project, new)
    assert len(notices) == 1
    assert notices[0].message.startswith(
        f"kit was upgraded: moved the kit runtime from v0.0.9 to v0.1.0, kit's copy in {COPY}/"
    )
    after = go_json(project)
    assert after.requires[ROOT_MOD] == after.requires[NATS_MOD] == "v0.1.0"
    assert after.replaces == {ROOT_MOD: ROOT_REP, NATS_MOD: NATS_REP}
    assert '"2"' in (project / COPY / "server/server.go").read_text()
    assert json.loads((project / COPY / runtime_dist.MARKER).read_text())["version"] == "v0.1.0"


@pytest.mark.parametrize("same_version", [False, True])
def test_a_go_mod_pointing_at_kits_cache_moves_into_the_project(tmp_path: Path, same_version: bool) -> None:
    """An earlier kit wrote `replace => <kit's cache>/runtime/<version>-<digest>`: the next run moves
    the project to its own copy and says so; the cache path need not exist (a colleague's)."""
    old_version = "v0.1.0" if same_version else "v0.0.9"
    elsewhere = Path("/home/someone-else/.cache/kit/runtime") / f"{old_version}-0123456789ab"
    mine = tmp_path / "cache" / "runtime" / f"{old_version}-ba9876543210"
    for i, old_copy in enumerate((elsewhere, mine)):
        project = go_mod(tmp_path / f"app{i}")
        subprocess.run(
            [
                "go", "mod", "edit",
                f"-require={ROOT_MOD}@{old_version}", f"-replace={ROOT_MOD}={old_copy}",
                f"-require={NATS_MOD}@{old_version}", f"-replace={NATS_MOD}={old_copy}/events/nats",
            ],
            cwd=project,
            check=True,
        )  # fmt: skip
        rt = runtime_dist.runtime(fake_runtime(tmp_path / "src"), "v0.1.0")
        (notice,) = gomod.pin_runtime(project, rt)
        if same_version:
            assert notice.message.startswith(f"moved the kit runtime v0.1.0 into the project, to {COPY}/")
        else:
            assert notice.message.startswith("kit was upgraded: moved the kit runtime from v0.0.9 to v0.1.0")
        assert f"go.mod no longer points at kit's cache ({old_copy})" in notice.message
        after = go_json(project)
        assert after.replaces == {ROOT_MOD: ROOT_REP, NATS_MOD: NATS_REP}
        assert after.requires[ROOT_MOD] == after.requires[NATS_MOD] == "v0.1.0"
        text = (project / "go.mod").read_text()
        assert str(tmp_path) not in text and "/home/" not in text
        assert (project / COPY / "events/nats/go.mod").is_file()


def test_a_transport_required_by_tidy_is_moved_to_kit_version_and_named(tmp_path: Path) -> None:
    project = go_mod(tmp_path / "app")
    rt = runtime_dist.runtime(fake_runtime(tmp_path / "src"), "v0.1.0")
    gomod.pin_runtime(project, rt)
    subprocess.run(
        ["go", "mod", "edit", f"-require={NATS_MOD}@v0.0.0-00010101000000-000000000000"], cwd=project, check=True
    )
    (notice,) = gomod.pin_runtime(project, rt)
    assert notice.message.startswith(f"pinned {NATS_MOD} to the kit runtime v0.1.0;")
    assert go_json(project).requires[NATS_MOD] == "v0.1.0"


def test_a_copy_removed_from_the_project_is_written_again(tmp_path: Path) -> None:
    project = go_mod(tmp_path / "app")
    rt = runtime_dist.runtime(fake_runtime(tmp_path / "src"), "v0.1.0")
    gomod.pin_runtime(project, rt)
    text = (project / "go.mod").read_text()
    shutil.rmtree(project / "third_party")
    (notice,) = gomod.pin_runtime(project, rt)
    assert notice.message == f"wrote kit's copy of the kit runtime v0.1.0 to {COPY}/ (it was missing; commit it)"
    assert (project / COPY / "go.mod").is_file() and (project / "go.mod").read_text() == text


def test_a_folder_of_the_user_at_the_copy_path_is_never_written(tmp_path: Path) -> None:
    project = go_mod(tmp_path / "app")
    (project / COPY).mkdir(parents=True)
    (project / COPY / "go.mod").write_text("module example.com/mine\n")
    rt = runtime_dist.runtime(fake_runtime(tmp_path / "src"), "v0.1.0")
    (notice,) = gomod.pin_runtime(project, rt)
    assert notice.message.startswith(f"could not pin the kit runtime: {project / COPY} exists and is not kit's copy")
    assert sorted(p.name for p in (project / COPY).iterdir()) == ["go.mod"]
    assert (project / COPY / "go.mod").read_text() == "module example.com/mine\n"
    assert (project / "go.mod").read_text() == "module example.com/app\n\ngo 1.26\n"


@pytest.mark.parametrize(
    "lines",
    [
        f"require {ROOT_MOD} v1.2.3\n",  # a published version
        f"require {ROOT_MOD} v0.0.0\n\nreplace {ROOT_MOD} => ../kit/runtime\n",  # a checkout of kit
        f"require {ROOT_MOD} v0.0.0\n\nreplace {ROOT_MOD} => example.com/fork/runtime v1.0.0\n",  # a fork
        f"require {ROOT_MOD} v0.0.0\n\nreplace {ROOT_MOD} => ./{COPY}\n",  # a folder of the user's at that path
    ],
)
def test_a_runtime_the_user_chose_is_left_alone(tmp_path: Path, lines: str) -> None:
    text = f"module example.com/app\n\ngo 1.26\n\n{lines}"
    project = go_mod(tmp_path / "app", text)
    if COPY in lines:
        (project / COPY).mkdir(parents=True)
    rt = runtime_dist.runtime(fake_runtime(tmp_path / "src"), "v0.1.0")
    assert gomod.pin_runtime(project, rt) == []
    assert (project / "go.mod").read_text() == text
    assert not (project / COPY).exists() or not any((project / COPY).iterdir())


@pytest.mark.parametrize("required", ["v0.0.9", "v0.1.0-rc1", "v0.0.0-20260101000000-0123456789ab"])
def test_an_older_published_runtime_is_left_alone_with_advice(tmp_path: Path, required: str) -> None:
    text = f"module example.com/app\n\ngo 1.26\n\nrequire {ROOT_MOD} {required}\n"
    project = go_mod(tmp_path / "app", text)
    (notice,) = gomod.pin_runtime(project, runtime_dist.runtime(fake_runtime(tmp_path / "src"), "v0.1.0"))
    assert notice.message.startswith(f"go.mod requires the published kit runtime {required}, older than this kit's")
    assert f"run `go get {ROOT_MOD}@v0.1.0`" in notice.message
    assert (project / "go.mod").read_text() == text and not (project / "third_party").exists()


def test_a_go_mod_the_go_command_refuses_is_a_notice(tmp_path: Path) -> None:
    project = go_mod(tmp_path / "app", "module example.com/app\n\ngo 1.26\n\nrequire (\n")
    notices = gomod.pin_runtime(project, runtime_dist.runtime(fake_runtime(tmp_path / "src"), "v0.1.0"))
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


def test_kit_init_runtime_published_requires_kits_version_without_replace_and_gen_leaves_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if gomod.find(tmp_path) is not None:
        pytest.skip("a go.mod above the temporary folder governs it")
    project = tmp_path / "rel"
    assert main(["init", str(project / "design"), "--module", "example.com/rel", "--runtime", "published"]) == 0
    out = capsys.readouterr().out
    assert f"requires the published kit runtime {runtime_dist.go_version()} (no replace)" in out
    mod = go_json(project)
    assert mod.requires == {ROOT_MOD: runtime_dist.go_version()} and mod.replaces == {}
    _design_files(project)
    assert main(["gen", "-f", str(project / "design")]) == 0
    assert "go.mod" not in capsys.readouterr().err
    assert go_json(project) == mod and not (project / "third_party").exists()
    # on a go.mod that names the runtime already, the flag changes nothing and says so
    pinned = go_mod(tmp_path / "pinned")
    gomod.pin_runtime(pinned)
    text = (pinned / "go.mod").read_text()
    assert main(["init", str(pinned / "design"), "--runtime", "published"]) == 0
    assert "names the kit runtime already; --runtime published is not applied" in capsys.readouterr().out
    assert (pinned / "go.mod").read_text() == text


def _design(project: Path) -> None:
    (project / "design").mkdir(parents=True)
    (project / "design/kit.design.yaml").write_text(STARTER)
    _design_files(project)


def _design_files(project: Path) -> None:
    (project / "design/shop.kit").write_text(
        "package shop\n\ntype Item {\n\tname string\n}\n\n"
        "service Shop {\n\tget GetItem /item {\n\t\tresponse Item\n\t}\n}\n"
    )


def test_kit_gen_pins_the_runtime_and_docs_only_runs_do_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = go_mod(tmp_path / "app")
    _design(project)
    assert main(["gen", "-f", str(project / "design"), "--target", "docs"]) == 0
    assert ROOT_MOD not in (project / "go.mod").read_text()
    assert main(["gen", "-f", str(project / "design")]) == 0
    assert f"notice: {project / 'go.mod'}: pinned the kit runtime" in capsys.readouterr().err
    pinned = go_json(project)
    assert pinned.requires[ROOT_MOD] == runtime_dist.go_version()
    assert pinned.replaces[ROOT_MOD] == ROOT_REP and (project / COPY / "go.mod").is_file()
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
    rt = runtime_dist.runtime(fake_runtime(tmp_path / "src"), "v0.1.0")
    monkeypatch.setenv("PATH", str(tmp_path / "no-go"))
    notices = gomod.pin_runtime(project, rt)
    assert [n.message for n in notices] == [
        "could not pin the kit runtime: the go command is not on PATH (install Go 1.26 or later)"
    ]
    assert (project / "go.mod").read_text() == "module example.com/app\n\ngo 1.26\n"
    assert os.environ["PATH"] == str(tmp_path / "no-go")
