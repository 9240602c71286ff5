"""A small project on disk, generated through the program API (Go side, no protobuf plugins)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kit_core import program
from kit_core.generators import go
from kit_core.stubs import expected_stubs
from kit_core.writer import WriteReport, write_outputs

KIT = """\
package shop

type Item {
	id   string
	name string
}

type NewItem {
	name string
}

type Money {
	amount int
}

type ItemID {
	id string @path
}

type ItemKey {
	id string @path
}

@prefix("/items")
service Items {
	post CreateItem / {
		request  NewItem
		response Item
	}

	get GetItem /{id} {
		request  ItemID
		response Item
	}
}
"""

PROTO = """\
syntax = "proto3";

package stock.v1;

service Stock {
  rpc Get(GetRequest) returns (Level);
  rpc Watch(GetRequest) returns (stream Level);
}

message GetRequest { string sku = 1; }
message Level { int64 count = 1; }
"""


def project(root: Path, kit: str | None = KIT, proto: str | None = None) -> Path:
    (root / "design").mkdir(parents=True, exist_ok=True)
    (root / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n")
    (root / "design/kit.design.yaml").write_text("openapi:\n  title: Shop\n")
    if kit is not None:
        (root / "design/shop.kit").write_text(kit)
    if proto is not None:
        (root / "design/stock/v1").mkdir(parents=True, exist_ok=True)
        (root / "design/stock/v1/stock.proto").write_text(proto)
    return root


def load(root: Path) -> tuple[Any, Any]:
    design = program.load_design(root / "design", project_root=root)
    checked = program.check(design)
    assert not checked.has_errors, [d.render() for d in checked.diagnostics]
    return design, checked.analysis


def generate(root: Path, renames: dict[str, str] | None = None) -> WriteReport:
    design, analysis = load(root)
    files, _ = go.generate(program.gen_context(design, analysis))
    report = write_outputs(root, files, design.manifest, targets=("go",), renames=renames)
    assert report.ok, report.errors
    return report


def expected(root: Path) -> list[Any]:
    design, analysis = load(root)
    return expected_stubs(program.gen_context(design, analysis), design.compiled)


def reader(root: Path) -> Any:
    def read(path: str) -> bytes | None:
        p = root / path
        return p.read_bytes() if p.is_file() else None

    return read
