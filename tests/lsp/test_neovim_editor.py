"""A real editor beyond the basics: a current Neovim (0.11+), headless, set up as
editors/neovim/README.md says, shows kit-lsp's inlay hints and code lenses, runs a lens
(the server asks Neovim to show the stub), attaches to a proto of the design, and renames a
method whose code the next generation carries into the new stub
(tests/lsp/nvim/editor.lua)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from lsp_helpers import STOCK_PROTO, write_design
from nvim_support import NVIM_RTP, isolated_env, needs_nvim, run_nvim

from kit_core import program
from kit_core.generators import go, openapi
from kit_core.writer import write_outputs

# the body of a fresh stub (what the user replaces)
FRESH_BODY = (
    '\t// TODO: implement CreateItem; until then callers get 501 {"message":"CreateItem is not implemented yet"}.\n'
    '\treturn nil, svccontext.NotImplemented("CreateItem")\n'
)

HERE = Path(__file__).parent / "nvim"

KIT = """\
package shop

scalar Name string @length(1, 40)

type Item {
	id   string
	name Name
}

type ItemKey {
	id string @path
}

middleware Auth

@prefix("/items")
@middlewares(Auth)
service Items {
	get GetItem /{id} {
		request  ItemKey
		response Item
	}

	post CreateItem / {
		request  Item
		response Item
	}
}
"""

PROTO = STOCK_PROTO

FILES = {
    "go.mod": "module example.com/shop\n\ngo 1.26\n",
    "design/kit.design.yaml": 'openapi:\n  title: Shop\n  basePath: /api\noutput:\n  pb: "-"\n',
    "design/shop/shop.kit": KIT,
    "design/stock/v1/stock.proto": PROTO,
}

BODY = '\tl.Info("creating", "name", string(req.Name))\n\treturn req, nil\n'


def _project(root: Path) -> Path:
    write_design(root, FILES)
    design = program.load_design(root / "design")
    checked = program.check(design)
    assert not checked.has_errors, [d.render() for d in checked.diagnostics]
    ctx = program.gen_context(design, checked.analysis)
    files = go.generate(ctx)[0] + openapi.generate(ctx)
    assert write_outputs(root, files, design.manifest).ok
    stub = root / "internal/service/items/create_item.go"
    stub.write_text(stub.read_text().replace(FRESH_BODY, BODY))
    return root


@needs_nvim
def test_neovim_shows_hints_lenses_protos_and_carries_a_renamed_stub(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    out = tmp_path / "result.json"
    env = isolated_env(
        tmp_path,
        KIT_NVIM_OUT=str(out),
        KIT_NVIM_RTP=str(NVIM_RTP),
        KIT_LSP_CMD=json.dumps([sys.executable, "-m", "kit_lsp"]),
        KIT_ROOT=str(root),
    )
    proc = run_nvim(["-u", str(HERE / "init.lua"), "-c", f"luafile {HERE / 'editor.lua'}"], env, root, timeout=240)
    assert out.exists(), f"Neovim wrote no result:\n{proc.stdout}\n{proc.stderr}"
    r = json.loads(out.read_text())
    assert r["errors"] == []
    assert [(h["line"], h["label"]) for h in r["hints"]] == [
        (5, 'body "id"'),
        (6, "@length(1, 40)"),
        (6, 'body "name"'),
        (10, 'path "id"'),
        (18, "GET /api/items/{id} · 200"),
        (18, "middlewares: Auth"),
        (23, "POST /api/items · 201"),
        (23, "middlewares: Auth"),
    ]
    assert [(lens["line"], lens["title"]) for lens in r["lenses"]] == [
        (18, "open handler"),
        (18, "open in OpenAPI"),
        (18, "open stub"),
        (18, "stub: TODO"),
        (23, "open handler"),
        (23, "open in OpenAPI"),
        (23, "open stub"),
        (23, "stub: implemented"),
    ]
    assert r["shown"]["file"] == str(root / "internal/service/items/create_item.go")
    stub_lines = (root / "internal/service/items/create_item.go").read_text().splitlines()
    assert stub_lines[r["shown"]["line"] - 1].startswith("func (l *CreateItemService) CreateItem(")
    assert r["proto_filetype"] == "proto"
    assert [(d["lnum"], d["code"]) for d in r["proto_diagnostics"]] == [(12, "proto/compile")]
    assert "func (l *AddItemService) AddItem(req *types.Item) (*types.Item, error) {\n" + BODY in r["new_stub"]
    assert r["old_stub"] is not None and BODY in r["old_stub"]  # the old file is left
