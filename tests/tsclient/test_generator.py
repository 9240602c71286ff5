"""The TypeScript client generator (`output.tsClient`) on small designs: opt-in, names, types,
bindings and error tables as written. tests/e2e/test_ts_client.py compiles and runs it."""

from __future__ import annotations

from pathlib import Path

from ts_support import compile_client, generated

from kit_core.manifest_keys import BY_NAME
from kit_core.manifest_reader import parse_manifest

MANIFEST = "output:\n  tsClient: ./web/api\nopenapi:\n  basePath: /api\n"

SHOP = """package shop

enum Color {
\tRed = "red"
\tBlue
}

enum Level {
\tLow = -1
\tHigh = 2
}

type Money {
\tamount int64
}

type Response {
\tok bool
}

type Page<T> {
\titems T[]
\tnext  string?
}

type Item {
\tid      int64              @path
\ttags    string[]?          @query
\ttrace   string?            @header("X-Trace")
\tsid     string?            @cookie("sid")
\ttitle   string             @json("headline")
\tnote    string             @nullable
\tsecret  string             @sensitive
\tscores  map<string, int?>
\tcolor   Color?
\tlevel   Level?
\tat      datetime?
\traw     bytes?
\tprice   Money?
\tpage    Page<Money>?
}

type Got {
\ttotal int      @header("X-Total")
\tname  string?
}

error NotFound Missing

error BadRequest Request

error Conflict Clash {
\twhy   string?
\twait  int     @header("Retry-After")
\tinner string  @sensitive
}

service Shop {
\t@errors(Missing, Clash)
\tput Save /items/{id} {
\t\trequest  Item
\t\tresponse Got
\t}

\tget Ping {}

\tget Files /files/{rest...} {
\t\trequest FilesReq
\t}
}

type FilesReq {
\trest string @path
}

@prefix("/admin")
service Admin {
\tget Ping {}
}
"""

BILLING = """package billing

type Money {
\tcents int
}
"""


def project(tmp_path: Path, manifest: str = MANIFEST) -> Path:
    design = tmp_path / "design"
    (design / "shop").mkdir(parents=True)
    (design / "billing").mkdir()
    (design / "kit.design.yaml").write_text(manifest)
    (design / "shop" / "shop.kit").write_text(SHOP)
    (design / "billing" / "billing.kit").write_text(BILLING)
    (tmp_path / "go.mod").write_text("module example.com/app\n\ngo 1.22\n")
    return tmp_path


def test_nothing_is_written_without_the_key(tmp_path: Path) -> None:
    assert generated(project(tmp_path, "openapi:\n  basePath: /api\n")) == {}
    assert generated(project(tmp_path / "dash", 'output:\n  tsClient: "-"\n')) == {}


def test_the_key_is_documented_and_checked_like_every_output() -> None:
    key = BY_NAME["output.tsClient"]
    assert key.default == "-" and key.dash and "TypeScript" in key.doc
    _, diags = parse_manifest("kit.design.yaml", "output:\n  tsClient: ../web\n")
    assert [d.code for d in diags] == ["manifest/value"]
    _, diags = parse_manifest("kit.design.yaml", "output:\n  tsClient: ./internal/types/ts\n")
    assert [d.code for d in diags] == ["manifest/output-nested"]


def test_files_are_written_where_the_key_says_and_are_deterministic(tmp_path: Path) -> None:
    first = generated(project(tmp_path / "a"))
    assert sorted(first) == ["web/api/client.ts", "web/api/types.ts"]
    assert first == generated(project(tmp_path / "b"))


def test_types(tmp_path: Path) -> None:
    types = generated(project(tmp_path))["web/api/types.ts"]
    assert 'export type Color = "red" | "Blue";' in types
    assert "export type Level = -1 | 2;" in types
    # a name two packages declare, and one the client module declares, take their package
    assert "export interface ShopMoney {\n  amount: number;\n}" in types
    assert "export interface BillingMoney {\n  cents: number;\n}" in types
    assert "export interface ShopResponse {" in types
    assert "export interface Page<T> {\n  items: T[];\n  next?: string;\n}" in types
    item = types.split("export interface Item {\n", 1)[1].split("}\n", 1)[0]
    assert item.splitlines() == [
        "  id: number;",
        "  tags?: string[];",
        "  trace?: string;",
        "  sid?: string;",
        "  headline: string;",
        "  note: string | null;",
        "  scores: Record<string, number | null>;",
        "  color?: Color;",
        "  level?: Level;",
        "  at?: string;",
        "  raw?: string;",
        "  price?: ShopMoney;",
        "  page?: Page<ShopMoney>;",
    ]
    assert "export interface ClashBody {\n  why?: string;\n  wait: number;\n}" in types


def test_client_sends_every_binding_and_maps_errors(tmp_path: Path) -> None:
    client = generated(project(tmp_path))["web/api/client.ts"]
    assert 'import type * as T from "./types.js";' in client
    save = client.split("async save(", 1)[1].split("\n    },\n", 1)[0]
    assert save.startswith("req: T.Item, call?: CallOptions): Promise<T.Got> {")
    assert 't.send("PUT", `/api/items/${pathValue(req.id)}`' in save
    assert 'query: [["tags", req.tags]]' in save
    assert 'headers: [["X-Trace", req.trace]]' in save
    assert 'cookies: [["sid", req.sid]]' in save
    # the body: JSON keys only, the bound and sensitive fields left out
    assert 'json: pick(req, ["headline", "note", "scores", "color", "level", "at", "raw", "price", "page"])' in save
    assert "if (res.status !== 200) throw await failure(res, [Missing, Clash]);" in save
    assert 'readBound(res, out, [["total", "X-Total", "header", "n", false]]);' in save
    # a method name two services share takes its service
    assert "async shopPing(call?: CallOptions): Promise<void>" in client
    assert "async adminPing(call?: CallOptions): Promise<void>" in client
    clash = client.split("export class Clash ", 1)[1].split("\n}\n", 1)[0]
    assert "static readonly status = 409;" in clash
    assert 'static readonly keys: readonly string[] | null = ["why"];' in clash
    assert '[["wait", "Retry-After", "header", "n", false]]' in clash
    assert "static readonly keys: readonly string[] | null = null;" in client.split("export class Missing ", 1)[1]
    assert 'static readonly code = "MISSING";' in client
    # an error named like a global the module uses takes its package
    assert "export class ShopRequest extends ApiError<T.ShopRequestBody>" in client


def test_the_clients_of_odd_designs_type_check(tmp_path: Path) -> None:
    """Clashing and reserved names, a wildcard, generic and header-read fields: tsc --strict
    (and the checks strict leaves out) accepts what the generator writes."""
    files = generated(project(tmp_path))
    client = files["web/api/client.ts"]
    assert "`/api/files/${pathValue(req.rest, true)}`" in client
    built = compile_client(tmp_path / "ts", files, None)
    assert built.returncode == 0, built.stdout + built.stderr
