"""`kit gen` prepares the runtime's pin in a thread while it runs (`kit_core.pinahead`): the
project changes only when the pin is applied, the result is `pin_runtime`'s, and the thread
is finished before the process forks."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from kit_core import gomod, pinahead

GO_MOD = "module example.com/app\n\ngo 1.26\n"


def _project(root: Path) -> Path:
    root.mkdir()
    (root / "go.mod").write_text(GO_MOD)
    return root


@pytest.mark.skipif(shutil.which("go") is None, reason="the go command is needed")
def test_the_prepared_pin_changes_nothing_until_applied_then_equals_pin_runtime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(gomod, "_settled", {})
    ahead, plain = _project(tmp_path / "ahead"), _project(tmp_path / "plain")
    pin = pinahead.PinAhead(ahead)
    pin.wait()
    assert (ahead / "go.mod").read_text() == GO_MOD
    notices = pin.apply()
    expected = gomod.pin_runtime(plain)
    assert [n.message for n in notices] == [n.message for n in expected] and len(notices) == 1
    assert (ahead / "go.mod").read_text() == (plain / "go.mod").read_text() != GO_MOD


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is needed")
def test_a_fork_waits_for_the_preparing_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    done = threading.Event()

    def slow(project_root: Path) -> gomod.PreparedPin:
        time.sleep(0.3)
        done.set()
        return gomod.PreparedPin()

    monkeypatch.setattr(pinahead, "prepare_pin", slow)
    pin = pinahead.PinAhead(tmp_path)
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    assert done.is_set() and not pin.thread.is_alive()  # joined by the fork, not after it
    assert pin.apply() == []
