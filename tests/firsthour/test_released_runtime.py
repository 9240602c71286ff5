"""The released path: kit's runtime modules published at kit's version, a project that
requires them with no replace (`kit init --runtime published`), built with Go alone.

The runtime is served by a module proxy in a folder (`goproxy.py`), built from the runtime
as the wheel carries it (`kit_core/_runtime/`: `runtime_files.shipped`, what setup.py
copies). The go command runs with a module cache of its own (a made-up release of a real
module path must not land in the machine's cache, where it would shadow the real one) fed
from that proxy and, for third-party modules, from the machine's module download cache:
nothing is fetched from the network.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from fresh_machine import REPO
from goproxy import escape, publish

from kit_core.cli import main
from kit_core.runtime_dist import RUNTIME_MODULE, go_version
from kit_core.runtime_files import shipped

pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="the go command is needed")

NATS = f"{RUNTIME_MODULE}/events/nats"
KAFKA = f"{RUNTIME_MODULE}/events/kafka"


def wheel_runtime(dest: Path) -> Path:
    """The runtime folder a built wheel holds (setup.py copies exactly these files)."""
    src = REPO / "runtime"
    for rel in shipped(src):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / rel, dest / rel)
    return dest


def go_env(name: str) -> str:
    return subprocess.run(["go", "env", name], capture_output=True, text=True, check=True).stdout.strip()


def sh(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float = 1500) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc


def test_a_project_in_released_mode_builds_against_the_published_runtime(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    version = go_version()
    proxy = tmp_path / "proxy"
    assert publish(proxy, wheel_runtime(tmp_path / "wheel/kit_core/_runtime"), version) == [
        RUNTIME_MODULE,
        KAFKA,
        NATS,
    ]
    with zipfile.ZipFile(proxy / escape(RUNTIME_MODULE) / "@v" / f"{version}.zip") as z:
        names = z.namelist()
    assert f"{RUNTIME_MODULE}@{version}/events/bus.go" in names  # the events package is the root module's
    assert not any("/events/nats/" in n or "/events/kafka/" in n or n.endswith("_test.go") for n in names)
    nats_mod = (proxy / escape(NATS) / "@v" / f"{version}.mod").read_text()
    assert f"{RUNTIME_MODULE} {version}" in nats_mod and "replace" not in nats_mod

    project = tmp_path / "rel"
    design = project / "design"
    assert main(["init", str(design), "--module", "example.com/rel", "--runtime", "published"]) == 0
    (design / "rel.kit").write_text(
        "package rel\n\ntype Item {\n\tname string\n}\n\n"
        "service Shop {\n\tget GetItem /item {\n\t\tresponse Item\n\t}\n}\n"
    )
    assert main(["gen", "--no-daemon", "-f", str(design)]) == 0
    assert "go.mod" not in capsys.readouterr().err  # a published requirement is the user's: left alone
    assert not (project / "third_party").exists()
    probe = project / "internal/probe/probe.go"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        f'package probe\n\nimport (\n\t"{KAFKA}"\n\t"{NATS}"\n)\n\n'
        "// Transports the logic would open.\nvar (\n\tConnectNATS = nats.Connect\n\tNewKafka    = kafka.New\n)\n"
    )

    home = tmp_path / "home"
    home.mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "GOMODCACHE": str(tmp_path / "modcache"),
        "GOCACHE": go_env("GOCACHE"),
        "GOPROXY": f"{proxy.as_uri()},{(Path(go_env('GOMODCACHE')) / 'cache' / 'download').as_uri()}",
        "GOSUMDB": "off",  # nothing to ask sum.golang.org: go.sum records what the proxy served
        "GOTOOLCHAIN": "local",
        "GOFLAGS": "-modcacherw",  # the test's module cache can be deleted
    }
    # Offline, the third-party versions must be ones the machine's cache holds: those the
    # showcase example builds with (the e2e tests download them). A networked tidy needs neither
    # this nor -e (the download cache lacks modules only tests of dependencies import).
    example = str(REPO / "examples/showcase/go.mod")
    showcase = json.loads(sh(["go", "mod", "edit", "-json", example], project, env).stdout)
    pins = [f"-require={r['Path']}@{r['Version']}" for r in showcase["Require"] if "kitdev" not in r["Path"]]
    sh(["go", "mod", "edit", *pins], project, env)
    sh(["go", "mod", "tidy", "-e"], project, {**env, "GOFLAGS": "-modcacherw -mod=mod"})
    mod = json.loads(sh(["go", "mod", "edit", "-json"], project, env).stdout)
    assert not mod.get("Replace")
    requires = {r["Path"]: r["Version"] for r in mod["Require"]}
    assert requires[RUNTIME_MODULE] == requires[NATS] == requires[KAFKA] == version
    sums = (project / "go.sum").read_text()
    for module in (RUNTIME_MODULE, NATS, KAFKA):
        assert f"{module} {version} h1:" in sums and f"{module} {version}/go.mod h1:" in sums

    # -trimpath: the third-party packages compiled from this test's module cache are cached
    # by content, not by folder, so a second run does not compile them again
    sh(["go", "build", "-trimpath", "./..."], project, env)
    where = sh(["go", "list", "-m", "-f", "{{.Dir}}", RUNTIME_MODULE], project, env).stdout.strip()
    assert where == str(tmp_path / "modcache" / f"{RUNTIME_MODULE}@{version}")
