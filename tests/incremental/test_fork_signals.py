"""A forked helper takes no Ctrl-C before its own code runs (`kit_core.scratch.fork`).

Python's after-fork hooks run in the child before `os.fork` returns there; an interrupt
landing in them was printed as "Exception ignored in: _after_fork" with a traceback (seen
by `test_interrupt.py` under load). The child now holds SIGINT until `child_ends` runs its
work, where an interrupt ends it quietly; the parent's mask is as before the fork.
"""

from __future__ import annotations

import os
import signal

from kit_core import scratch


def _blocked() -> set[int]:
    return {int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])}


def test_the_child_holds_ctrl_c_until_its_work_runs_and_the_parent_does_not() -> None:
    before = _blocked()
    tmp = scratch.Scratch("kit-test-fork")
    try:
        pid = scratch.fork()
        if pid == 0:  # the child: held now, released once child_ends runs the work
            held = int(signal.SIGINT) in _blocked()
            scratch.child_ends(tmp, lambda: (held, int(signal.SIGINT) in _blocked()))
        assert _blocked() == before
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert tmp.taken(None) == (True, int(signal.SIGINT) in before)
    finally:
        tmp.close()


def test_an_interrupt_sent_to_the_child_at_once_ends_it_quietly() -> None:
    tmp = scratch.Scratch("kit-test-fork")
    read, write = os.pipe()
    try:
        pid = scratch.fork()
        if pid == 0:
            os.close(read)
            os.dup2(write, 2)  # what the child would print goes to the parent
            os.kill(os.getpid(), signal.SIGINT)  # held: lands when child_ends releases it
            scratch.child_ends(tmp, lambda: "done")
        os.close(write)
        _, status = os.waitpid(pid, 0)
        printed = os.read(read, 65536)
        assert os.waitstatus_to_exitcode(status) == 1  # interrupted, so not trusted
        assert printed == b""
    finally:
        os.close(read)
        tmp.close()
