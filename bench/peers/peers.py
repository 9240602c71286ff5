"""The Go peers the benchmarks measure kit against, built from their pinned modules.

- ogen (`go.mod` here, a `tool` line): the fastest Go OpenAPI generator, run on the
  `docs/openapi.yaml` kit writes for the same design; the peer of `kit gen`.
- gopls (`gopls/go.mod`, its own module: gopls is built with the x/tools its release
  pins, which ogen's x/tools would otherwise move): the Go language server, opening the
  Go rendering of the same design (kit's generated types package of `big`); the peer of
  kit-lsp.

`build(name)` compiles the peer from the module cache with `go build` (nothing downloads a
binary; the Go build cache makes the second call cheap) into a folder under the user's
cache, and returns the executable. Not timed: a user runs an installed peer.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS = {
    "ogen": (HERE, "github.com/ogen-go/ogen/cmd/ogen"),
    "gopls": (HERE / "gopls", "golang.org/x/tools/gopls"),
}


def bin_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "kit-bench-peers"


def build(name: str) -> Path:
    """The peer's executable, built from its pinned module (the version in its go.mod)."""
    module, package = PEERS[name]
    out = bin_dir()
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local"}
    subprocess.run(["go", "build", "-o", str(out), package], cwd=module, env=env, check=True)
    return out / name


def version(name: str) -> str:
    """The pinned version of the peer's module, as its go.mod requires it."""
    module, package = PEERS[name]
    path = "github.com/ogen-go/ogen" if name == "ogen" else package
    out = subprocess.run(
        ["go", "list", "-m", "-f", "{{.Version}}", path], cwd=module, capture_output=True, text=True, check=True
    )
    return f"{name} {out.stdout.strip()}"


def go_env() -> dict[str, str]:
    """The environment a peer runs in here: offline (the module cache only), the local Go,
    no telemetry upload prompt."""
    return {**os.environ, "GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local", "GOTELEMETRY": "off"}
