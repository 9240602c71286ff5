"""Generated code imports only the standard library, the project itself and kit's runtime, so
a project whose go.mod requires the runtime builds without `go mod tidy`."""

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


def foreign(path: str) -> bool:
    if path == MODULE or path.startswith((MODULE + "/", RUNTIME + "/")):
        return False
    return "." in path.split("/", 1)[0]


@pytest.mark.parametrize("example", ["todo", "showcase"])
def test_only_std_project_and_runtime_imports(example: str) -> None:
    files = generate_files(REPO / "examples" / example / "design", MODULE)
    bad = {p: [i for i in imports_of(t) if foreign(i)] for p, t in files.items() if p.endswith(".go")}
    assert {p: i for p, i in bad.items() if i} == {}
    assert f'"{RUNTIME}/config"' in files["config/config.go"]  # YAML is read by the runtime
