"""One kit run at a time per project: a second `kit gen` (or kit-lsp's generation) waits for
the first and says so; runs started together leave the tree one run leaves."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from kit_core.writer.lock import project_lock
from kit_lsp.generation import Outcome, generate_design

SHOP = """\
package shop

type Item {
	name string @length(1, 9)
}

service Shop {
	get Items /items {
		response Item
	}
}
"""


def make(root: Path) -> Path:
    (root / "design").mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n")
    (root / "design/kit.design.yaml").write_text("openapi:\n  title: Shop\n")
    (root / "design/shop.kit").write_text(SHOP)
    return root / "design"


def kit_gen(design: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "kit_core.cli", "gen", str(design)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_second_run_waits_and_says_so(tmp_path: Path) -> None:
    design = make(tmp_path)
    with project_lock(tmp_path):  # this test plays the other run
        proc = kit_gen(design)
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line == f"kit: waiting for another kit run on {tmp_path.resolve()} (pid {os.getpid()})...\n"
        time.sleep(0.3)
        assert proc.poll() is None and not (tmp_path / "internal").exists()
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert (tmp_path / "internal/types/shop/types.go").is_file()


def test_runs_started_together_leave_one_runs_tree(tmp_path: Path) -> None:
    design = make(tmp_path / "together")
    reference = make(tmp_path / "alone")
    procs = [kit_gen(design) for _ in range(3)]
    for p in procs:
        p.communicate(timeout=300)
        assert p.returncode == 0
    assert (
        subprocess.run([sys.executable, "-m", "kit_core.cli", "gen", str(reference)], capture_output=True).returncode
        == 0
    )

    def tree(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    assert tree(tmp_path / "together") == tree(tmp_path / "alone")
    assert not [p for p in (tmp_path / "together").rglob("*") if p.name.endswith(".kit-tmp")]


def test_language_server_generation_takes_the_lock(tmp_path: Path) -> None:
    design = make(tmp_path)
    messages: list[str] = []
    done: list[Outcome] = []
    with project_lock(tmp_path):
        worker = threading.Thread(target=lambda: done.append(generate_design(design, messages.append)))
        worker.start()
        deadline = time.monotonic() + 60
        while not any(m.startswith("kit: waiting for another kit run") for m in messages):
            assert time.monotonic() < deadline, messages
            time.sleep(0.01)
        time.sleep(0.2)
        assert worker.is_alive() and not (tmp_path / "internal").exists()
    worker.join(120)
    assert done and done[0].ok, done
    assert "internal/types/shop/types.go" in done[0].written
