"""Inlay-hint and code-lens facts say what the generated code does: routes and statuses,
wire locations, inherited validators, middleware chains, file paths, stub status."""

from __future__ import annotations

from pathlib import Path

from kit_core import program
from kit_core.editor.hints import inlay_hints
from kit_core.editor.lenses import IMPLEMENTED, MISSING, TODO, http_facts, openapi_line, rpc_facts, stub_status
from kit_core.proto.outline import messages, outline

KIT = """\
package shop

scalar Email string @format(email) @maxLength(80)

type Query {
	q     string?
	email Email?
	token string? @header("X-Token")
}

middleware Auth
middleware Log

@prefix("/shop")
@middlewares(Log, Auth)
service Shop {
	get Search {
		request  Query
		response Query
	}

	@ignoreMiddleware
	@middlewares(Log)
	@status(202)
	post Post /posts {
		request  Query
	}
}
"""

PROTO = """\
syntax = "proto3";
package stock.v1;
service Stock {
  rpc Get(Req) returns (Level);
  rpc Watch(Req) returns (stream Level);
}
message Req { string sku = 1; }
message Level {
  int64 count = 1;
  message Detail { string note = 1; }
}
"""


def _design(tmp: Path) -> tuple[object, object]:
    (tmp / "design/stock").mkdir(parents=True)
    (tmp / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n")
    (tmp / "design/kit.design.yaml").write_text("openapi:\n  basePath: /api\noutput:\n  fileCase: kebab\n")
    (tmp / "design/shop.kit").write_text(KIT)
    (tmp / "design/stock/stock.proto").write_text(PROTO)
    design = program.load_design(tmp / "design")
    checked = program.check(design)
    assert not checked.has_errors, [d.render() for d in checked.diagnostics]
    return design, checked.analysis


def test_hints_of_a_file(tmp_path: Path) -> None:
    design, analysis = _design(tmp_path)
    path = str(tmp_path / "design/shop.kit")
    got = [(h.at.start_line, h.at.start_col, h.label) for h in inlay_hints(analysis, path)]
    assert got == [
        (5, 14, 'query "q" (Shop.Search) | body "q" (Shop.Post)'),
        (6, 13, "@format(email) @maxLength(80)"),
        (6, 13, 'query "email" (Shop.Search) | body "email" (Shop.Post)'),
        (7, 14, 'header "X-Token"'),
        (16, 11, "GET /api/shop/search · 200"),
        (16, 11, "middlewares: Log → Auth"),
        (24, 17, "POST /api/shop/posts · 202"),
        (24, 17, "middlewares: Log"),
    ]


def test_lens_facts_and_stub_status(tmp_path: Path) -> None:
    design, analysis = _design(tmp_path)
    facts = http_facts(analysis, design.manifest, str(tmp_path / "design/shop.kit"))
    assert [(f.label, f.stub, f.handler, f.operation_id) for f in facts] == [
        ("Shop.Search", "internal/service/shop/search.go", "internal/transport/shop/search.go", "Search"),
        ("Shop.Post", "internal/service/shop/post.go", "internal/transport/shop/post.go", "Post"),
    ]
    search = facts[0]
    assert stub_status(None, search) == (MISSING, 0)
    stub = "package shop\n\nfunc (l *SearchService) Search(req *types.Query) (*types.Query, error) {\n"
    assert stub_status((stub + "\t// TODO: implement Search.\n\treturn nil, nil\n}\n").encode(), search) == (TODO, 2)
    assert stub_status((stub + "\treturn req, nil\n}\n").encode(), search) == (IMPLEMENTED, 2)
    assert openapi_line("paths:\n  /x:\n    get:\n      operationId: Search\n", "Search") == 3
    rpcs = rpc_facts(design.compiled, design.manifest, str(tmp_path / "design/stock/stock.proto"))
    assert [(r.label, r.stub, r.handler, r.span.start_line) for r in rpcs] == [
        ("/stock.v1.Stock/Get", "internal/service/stock/get.go", "internal/grpc/stock/get.go", 3),
        ("/stock.v1.Stock/Watch", "internal/service/stock/watch.go", "internal/grpc/stock/watch.go", 4),
    ]


def test_proto_outline_and_messages(tmp_path: Path) -> None:
    design, _ = _design(tmp_path)
    pd = design.compiled
    syms = outline(pd, "stock/stock.proto")
    assert [(s.kind, s.name) for s in syms] == [("service", "Stock"), ("message", "Req"), ("message", "Level")]
    assert [(c.name, c.detail) for c in syms[0].children] == [
        ("Get", "unary (stock.v1.Req) → stock.v1.Level"),
        ("Watch", "server streaming (stock.v1.Req) → stock.v1.Level"),
    ]
    assert [(c.kind, c.name, c.detail) for c in syms[2].children] == [
        ("field", "count", "int64 = 1"),
        ("message", "Detail", ""),
    ]
    assert syms[1].name_span.start_line == 6 and syms[1].name_span.start_col == 8
    assert messages(pd)["Detail"][1] == "stock.v1.Level.Detail"


def test_renamed_stubs_of_a_method_and_of_a_service(tmp_path: Path) -> None:
    from kit_core.editor.lenses import renamed_stubs
    from kit_core.model import ServiceDecl

    design, analysis = _design(tmp_path)
    post = next(m for m in analysis.http.methods if m.method.name == "Post")
    assert renamed_stubs(analysis, design.manifest, post.method, "Publish") == {
        "internal/service/shop/post.go": "internal/service/shop/publish.go"
    }
    service = next(d for f in design.files for d in f.declarations if isinstance(d, ServiceDecl))
    assert renamed_stubs(analysis, design.manifest, service, "Store") == {
        "internal/service/shop/search.go": "internal/service/store/search.go",
        "internal/service/shop/post.go": "internal/service/store/post.go",
    }
