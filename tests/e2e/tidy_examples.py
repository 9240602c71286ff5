"""Refresh the committed go.mod/go.sum of the examples after the runtime's requirements change.

    python3 tests/e2e/tidy_examples.py [todo showcase notes]

Each example is generated into a temp project (with the tests' logic), `go mod tidy` runs
there, and go.mod/go.sum are copied back with the runtime replace pointing at ../../runtime.
The e2e tests build with -mod=readonly: a stale example go.mod fails them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import e2e_harness as h  # noqa: E402


def tidy(example: str) -> None:
    with tempfile.TemporaryDirectory(prefix="kit-tidy-") as tmp:
        root = Path(tmp) / example
        h.make_project(example, root)
        h.generate(root)
        h.overlay_logic(example, root)
        subprocess.run(["go", "mod", "tidy"], cwd=root, check=True, env={**h.GO_ENV, "GOFLAGS": "-mod=mod"})
        src = h.REPO / "examples" / example
        (src / "go.mod").write_text((root / "go.mod").read_text().replace(str(h.RUNTIME), "../../runtime"))
        shutil.copy(root / "go.sum", src / "go.sum")


if __name__ == "__main__":
    for name in sys.argv[1:] or ["todo", "showcase", "notes"]:
        tidy(name)
        print(f"examples/{name}: go.mod and go.sum refreshed")
