"""A small design with what makes generation depend across files: packages referencing
each other (generics, mixins, qualified errors), validation needed through another
package's type, groups, middlewares declared in one package and applied in another,
events over another package's payload - and edits that keep it valid."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

MANIFEST = """\
output:
  fileCase: snake
openapi:
  title: Shop
  version: 1.0.0
  basePath: /api
"""

SHARED = """\
package shared

// Audit holds creation facts.
type Audit {
	createdBy string @length(1, 64)
}

type Page<T> {
	items T[] @maxItems(100)
	total int @gte(0)
}

scalar Sku string @pattern(`^[A-Z]{3}-[0-9]+$`)

enum Level {
	Low = 1
	High = 2
}

error NotFound Missing {
	id string
}

middleware Auth
"""

ITEMS = """\
package items

type Item {
	shared.Audit
	sku   shared.Sku
	name  string @length(1, 80)
	level shared.Level?
	tags  string[] @maxItems(5)
}

type ItemReq {
	id string @path
}

type ListReq {
	page int? @default(1) @gte(1)
}

@prefix("/items")
@middlewares(Auth)
service ItemService {
	@errors(shared.Missing)
	get GetItem /{id} {
		request  ItemReq
		response Item
	}

	get ListItems / {
		request  ListReq
		response shared.Page<Item>
	}

	post PutMany /many {
		request shared.Page<Item[]>
	}
}

event ItemChanged {
	payload Item
}
"""

ORDERS = """\
package orders

type Line {
	item  items.Item
	count int @range(1, 99)
}

type Order {
	id    string
	lines Line[]
	note  string?
}

type OrderReq {
	id string @path
}

middleware Trace

@group("admin/orders")
service OrderService {
	@middlewares(Trace)
	get GetOrder /orders/{id} {
		request  OrderReq
		response Order
	}
}
"""

NOTES = """\
package notes

// Note is free text.
type Note {
	text string
}

// Signed validates only through shared.Audit.
type Signed {
	shared.Audit
}
"""

FILES = {
    "kit.design.yaml": MANIFEST,
    "shared/shared.kit": SHARED,
    "items/items.kit": ITEMS,
    "orders/orders.kit": ORDERS,
    "notes/notes.kit": NOTES,
}

Edit = Callable[[Path], None]


def write_project(root: Path, files: dict[str, str] = FILES) -> Path:
    (root / "design").mkdir(parents=True, exist_ok=True)
    (root / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n", encoding="utf-8")
    for name, text in files.items():
        path = root / "design" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "design"


def _sub(name: str, old: str, new: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / "design" / name
        if not path.exists():
            return
        text = path.read_text(encoding="utf-8")
        changed = text.replace(new, old, 1) if new and new in text else text.replace(old, new, 1)
        path.write_text(changed, encoding="utf-8")

    edit.__name__ = f"toggle {name}: {old.strip()[:30]!r}"
    return edit


def _toggle_file(name: str, text: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / "design" / name
        if path.exists():
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

    edit.__name__ = f"toggle file {name}"
    return edit


def _output(rel: str, delete: bool = False) -> Edit:
    """A user's hand on an output on disk: an edit, or a deletion."""

    def edit(root: Path) -> None:
        path = root / rel
        if path.is_file() and delete:
            path.unlink()
        elif path.is_file():
            path.write_text(path.read_text(encoding="utf-8") + "// edited by hand\n", encoding="utf-8")

    edit.__name__ = f"{'delete' if delete else 'edit'} output {rel}"
    return edit


def _rename_method(root: Path) -> None:
    path = root / "design/items/items.kit"
    text = path.read_text(encoding="utf-8")
    new = re.sub(r"\bGetItem\b", "FetchItem", text) if "GetItem" in text else re.sub(r"\bFetchItem\b", "GetItem", text)
    path.write_text(new, encoding="utf-8")


EDITS: list[Edit] = [
    _sub("shared/shared.kit", "@length(1, 64)", "@length(1, 65)"),  # a validator other packages inherit
    _sub("shared/shared.kit", "\tcreatedBy string @length(1, 64)\n", "\tcreatedBy string\n"),  # need moves away
    _sub("shared/shared.kit", "\tHigh = 2\n", "\tHigh = 2\n\tTop = 3\n"),
    _sub("shared/shared.kit", "middleware Auth\n", "middleware Auth\n\nmiddleware Audit\n"),
    _sub("items/items.kit", "\tname  string @length(1, 80)", "\tname  string @length(1, 81)"),
    _sub("items/items.kit", "event ItemChanged {\n\tpayload Item\n}\n", ""),
    _sub("items/items.kit", "\t@errors(shared.Missing)\n", ""),
    _sub("orders/orders.kit", '@group("admin/orders")', '@group("admin/sales")'),
    _sub("orders/orders.kit", "\tnote  string?\n", "\tnote  string? @maxLength(200)\n"),
    _sub("orders/orders.kit", "\t@middlewares(Trace)\n", "\t@middlewares(Trace, Auth)\n"),
    _sub("notes/notes.kit", "// Note is free text.", "// Note is free text, kept short."),
    _sub("notes/notes.kit", "\ttext string\n", "\ttext string\n\tby   items.Item?\n"),
    _sub("kit.design.yaml", "fileCase: snake", "fileCase: kebab"),
    _sub("kit.design.yaml", "basePath: /api", "basePath: /v2"),
    _toggle_file("notes/more.kit", "package notes\n\ntype Extra {\n\tn int @gte(1)\n}\n"),
    _toggle_file("notes/item.kit", "package notes\n\ntype Item {\n\tn int\n}\n"),  # a name two packages declare
    _toggle_file("audit/audit.kit", "package audit\n\nevent Seen {\n\tpayload orders.Order\n}\n"),
    _rename_method,
    _output("internal/types/items/types.go"),
    _output("docs/openapi.yaml"),
    _output("internal/types/shared/validate.go", delete=True),
    _output("internal/service/item_service/list_items.go", delete=True),
]


def copy_project(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, symlinks=True)


def tree(root: Path) -> dict[str, bytes]:
    """Every file of a project (design and outputs), by relative path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
