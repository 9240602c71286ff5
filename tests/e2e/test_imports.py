"""Generated code imports only the standard library, the project itself and kit's runtime, so
a project whose go.mod requires the runtime builds without `go mod tidy`. The gRPC layer also
imports grpc and protobuf, as the plugins' pb code beside it does: modules the runtime
requires too, and the ones `go get -tool` of the plugins adds."""

from __future__ import annotations

import re

import pytest
from e2e_harness import REPO, generate_files

RUNTIME = "github.com/kitdev/kit/runtime"
MODULE = "example.com/app"
IMPORT = re.compile(r'^\s*(?:[\w.]+\s+)?"([^"]+)"\s*$')


def imports_of(text: str) -> list[str]:
    block = re.search(r"^import \($(.*?)^\)", text, re.M | re.S)
    lines = block.group(1).splitlines() if block else re.findall(r"^import (.*)$", text, re.M)
    return [m.group(1) for line in lines if (m := IMPORT.match(line))]


GRPC_MODULES = ("google.golang.org/grpc", "google.golang.org/protobuf")


def foreign(path: str, grpc_layer: bool = False) -> bool:
    if path == MODULE or path.startswith((MODULE + "/", RUNTIME + "/")):
        return False
    if grpc_layer and path.startswith(GRPC_MODULES):
        return False
    return "." in path.split("/", 1)[0]


@pytest.mark.parametrize("example", ["todo", "showcase"])
def test_only_std_project_and_runtime_imports(example: str) -> None:
    files = generate_files(REPO / "examples" / example / "design", MODULE)
    bad = {}
    for p, t in files.items():
        if p.endswith(".go"):
            grpc_layer = any(i.startswith(f"{MODULE}/internal/pb/") for i in imports_of(t))
            bad[p] = [i for i in imports_of(t) if foreign(i, grpc_layer)]
    assert {p: i for p, i in bad.items() if i} == {}
    assert f'"{RUNTIME}/config"' in files["config/config.go"]  # YAML is read by the runtime
