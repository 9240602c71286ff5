"""`@default` at every depth, over HTTP: nested objects, array elements, map values, mixins."""

from __future__ import annotations

import copy
from typing import Any

from e2e_harness import Service, request

LINE = {"sku": "a", "qty": 1, "price": {"amount": 1, "currency": "EUR"}, "tags": []}
ORDER: dict[str, Any] = {"id": "0b6c5e0e-8f0a-4c3e-9a43-3f0f2b9a1c55", "lines": [LINE]}


def place(svc: Service, body: dict[str, Any]) -> Any:
    return request(svc.base, "POST", "/v1/shop/orders", body)


def test_defaults_fill_nested_objects_elements_and_map_values(showcase: Service) -> None:
    body = {
        **ORDER,
        "lines": [LINE, {**LINE, "color": "red"}],
        "byCode": {"x": LINE},
        "first": LINE,
    }
    r = place(showcase, body)
    assert r.status == 201, r.body
    got = r.json
    assert (got["note"], got["rush"]) == ("none", False)  # own defaults
    assert (got["source"], got["currency"]) == ("web", "EUR")  # defaults of an embedded mixin
    assert [line["color"] for line in got["lines"]] == ["green", "red"]  # element default, explicit kept
    assert got["byCode"]["x"]["color"] == "green"  # map value
    assert got["first"]["color"] == "green"  # optional nested object


def test_explicit_values_win_over_defaults_and_null_does_not_cancel_them(showcase: Service) -> None:
    r = place(showcase, {**ORDER, "note": "rush it", "rush": True, "source": "app"})
    assert (r.json["note"], r.json["rush"], r.json["source"]) == ("rush it", True, "app")
    # issue 8 item 11: a null on an optional member that is not @nullable is refused (it used to
    # clear the default silently), at every depth and through a mixin
    r = place(showcase, {**ORDER, "note": None})
    assert (r.status, r.json) == (400, {"message": "note: expected string, got null"})
    r = place(showcase, {**ORDER, "lines": [{**LINE, "color": None}]})
    assert (r.status, r.json) == (400, {"message": "lines[0]: color: expected string, got null"})
    r = place(showcase, {**ORDER, "source": None})
    assert (r.status, r.json) == (400, {"message": "source: expected string, got null"})


def test_nested_decoding_stays_strict_and_keeps_json_paths(showcase: Service) -> None:
    bad_type = copy.deepcopy(ORDER)
    bad_type["lines"][0]["qty"] = "x"
    r = place(showcase, bad_type)
    assert (r.status, r.json) == (400, {"message": "lines[0]: qty: expected integer, got string"})
    r = place(showcase, {**ORDER, "lines": [{**LINE, "bogus": 1}]})
    assert (r.status, r.json) == (400, {"message": "lines[0]: bogus: unknown field"})
    invalid = {**ORDER, "lines": [LINE, {**LINE, "qty": 0}]}
    assert place(showcase, invalid).json == {"message": "lines[1]: qty: below minimum 1"}
    r = place(showcase, {**ORDER, "first": {**LINE, "color": "pink"}})
    assert r.json == {"message": "first: color: must be one of [red green blue]"}
