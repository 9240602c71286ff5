"""kit_core.semantics on the `ok_shop` case: what generators read from the analysis."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit_core.program import check, load_design
from kit_core.semantics import Location, MethodInfo, TypeIndex, ValueClass, value_class
from kit_core.semantics.types import is_optional, validators

SHOP = Path(__file__).parent / "cases" / "ok_shop"


@pytest.fixture(scope="module")
def analysis():  # type: ignore[no-untyped-def]
    result = check(load_design(SHOP))
    assert not result.has_errors, [d.render() for d in result.diagnostics]
    return result.analysis


def method(analysis, name: str) -> MethodInfo:  # type: ignore[no-untyped-def]
    return next(m for m in analysis.http.methods if m.method.name == name)


def test_routes_and_mux_patterns(analysis) -> None:  # type: ignore[no-untyped-def]
    assert method(analysis, "ListItems").mux_pattern == "GET /api/items/list-items"
    assert method(analysis, "GetItem").mux_pattern == "GET /api/items/{sku}"
    assert method(analysis, "CreateItem").full_route == "/api/items"
    assert method(analysis, "GetItem").path_vars == ("sku",)


def test_default_and_explicit_bindings(analysis) -> None:  # type: ignore[no-untyped-def]
    listing = {b.field.name: (b.location, b.wire_name) for b in method(analysis, "ListItems").request_fields}
    assert listing["page"] == (Location.QUERY, "page")
    assert listing["key"] == (Location.QUERY, "key")  # from the generic mixin Pair<string, int>
    assert listing["ids"] == (Location.HEADER, "X-Ids")
    assert listing["session"] == (Location.COOKIE, "sid")
    create = {b.field.name: b.location for b in method(analysis, "CreateItem").request_fields}
    assert create == {"item": Location.BODY, "contact": Location.BODY}
    upload = method(analysis, "UploadImage")
    assert upload.is_multipart and upload.bound(Location.FORM)[0].field.name == "image"


def test_chains_inherit_append_ignore_and_dedupe(analysis) -> None:  # type: ignore[no-untyped-def]
    assert method(analysis, "GetItem").security == (("bearer",),)
    assert method(analysis, "CreateItem").security == (("bearer",), ("apiKey", "oauth"))
    assert method(analysis, "ListItems").security == ()
    assert method(analysis, "Purge").middlewares == ("Auth", "RateLimit")
    assert method(analysis, "PurgeAll").middlewares == ()
    assert method(analysis, "Purge").tags == ("items", "admin")


def test_output_names_status_and_limits(analysis) -> None:  # type: ignore[no-untyped-def]
    purge = method(analysis, "PurgeAll")
    assert (purge.output_dir, purge.file_stem) == ("admin", "purge_all")
    assert method(analysis, "GetItem").output_dir == "items"
    create = method(analysis, "CreateItem")
    assert (create.status, create.timeout_ns, create.max_body_size) == (202, 5_000_000_000, 1 << 20)
    assert method(analysis, "GetItem").status == 200
    assert method(analysis, "UploadImage").status == 204
    assert method(analysis, "Export").operation_id == "rawExport"
    assert method(analysis, "GetItem").operation_id == "Items_GetItem"
    assert [e.status for e in create.errors] == [409, 401]
    created = {b.field.name: b.location for b in create.response_fields}
    assert created == {"sku": Location.BODY, "location": Location.HEADER}


def test_effective_fields_and_validators(analysis) -> None:  # type: ignore[no-untyped-def]
    index: TypeIndex = analysis.index
    item = analysis.symbols.packages["orders"].types["Item"]
    fields = {ef.name: ef for ef in index.fields(item, "orders")}
    assert list(fields)[:2] == ["createdAt", "updatedAt"]  # the mixin's fields, in place
    assert value_class(fields["createdAt"].shape) is ValueClass.DATETIME
    assert [d.name for d in validators(fields["sku"])] == ["pattern", "length"]  # from scalar Slug
    assert is_optional(fields["priority"]) and not is_optional(fields["name"])
    paged = analysis.symbols.packages["orders"].types["Paged"]
    items = next(ef for ef in index.fields(paged, "orders") if ef.name == "items")
    assert items.shape.text() == "orders.Item[]"  # Page<Item>'s T[] substituted
