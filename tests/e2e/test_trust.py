"""End to end (issue #8, "the design is checked right"): a test design generated, vetted,
built and run on loopback. Validation reaches inside generic instances over arrays and maps
(`Page<Item[]>`, `Page<map<string, Item>>`, `Box<Sku[]>`, nested and mixed-in instances),
map keys typed by an enum or a constrained scalar are checked, an int64 bound next to 2^63
is exact, and a qualified middleware and error of another package work over HTTP."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from e2e_harness import Built, Service, build_once, go_available, request, shared_tmp, start

pytestmark = pytest.mark.skipif(not go_available(), reason="the Go toolchain is needed")

GOOD_ITEM = {"name": "x"}
BAD_ITEM = {"name": ""}


@pytest.fixture(scope="module")
def trust_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return build_once("trust", shared_tmp(tmp_path_factory))


@pytest.fixture(scope="module")
def trust(trust_built: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    svc = start(trust_built, tmp_path_factory.mktemp("trust-run"))
    yield svc
    svc.stop()


def _validate(svc: Service, body: dict[str, Any]) -> tuple[int, Any]:
    r = request(svc.base, "POST", "/validate", body)
    return r.status, (r.json if r.body else None)


def test_generated_code_is_gofmt_clean_and_vets(trust_built: Built) -> None:
    assert trust_built.gofmt == ""


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"a": {"items": [[GOOD_ITEM], [GOOD_ITEM, BAD_ITEM]]}}, "a: items[1][1]: name: length less than 1"),
        ({"b": {"items": [{"k": GOOD_ITEM}, {"j": BAD_ITEM}]}}, "b: items[1][j]: name: length less than 1"),
        ({"c": {"value": ["ABC-123", "nope"]}}, "c: value[1]: does not match pattern"),
        ({"d": {"red": 1, "blue": 2}}, "d: key blue: must be one of [red green]"),
        ({"e": {"ABC-123": "x", "bad key": "y"}}, "e: key bad key: does not match pattern"),
        (
            {"f": {"inner": {"value": [GOOD_ITEM, BAD_ITEM]}, "byName": {}}},
            "f: inner: value[1]: name: length less than 1",
        ),
        ({"f": {"inner": {"value": []}, "byName": {"n": [BAD_ITEM]}}}, "f: byName[n][0]: name: length less than 1"),
        ({"g": {"extra": [["ABC-123"], ["zzz"]]}}, "g: extra[1][0]: does not match pattern"),
        (
            {"h": {"items": [{"value": ["ABC-123"]}, {"value": ["bad"]}]}},
            "h: items[1]: value[0]: does not match pattern",
        ),
        ({"i": {"o": {"pink": GOOD_ITEM}}}, "i[o]: key pink: must be one of [red green]"),
        ({"i": {"o": {"red": BAD_ITEM}}}, "i[o][red]: name: length less than 1"),
        ({"big": 9223372036854775807}, "big: above maximum 9223372036854775806"),
        ({"plain": {"items": [BAD_ITEM]}}, "plain: items[0]: name: length less than 1"),
    ],
)
def test_a_violation_anywhere_is_refused(trust: Service, body: dict[str, Any], message: str) -> None:
    assert _validate(trust, body) == (400, {"message": message})


def test_valid_values_pass(trust: Service) -> None:
    body = {
        "a": {"items": [[GOOD_ITEM]]},
        "b": {"items": [{"k": GOOD_ITEM}]},
        "c": {"value": ["ABC-123"]},
        "d": {"red": 1, "green": 2},
        "e": {"ABC-123": "x"},
        "f": {"inner": {"value": [GOOD_ITEM]}, "byName": {"n": [GOOD_ITEM]}},
        "g": {"extra": [["ABC-123"]]},
        "h": {"items": [{"value": ["ABC-123"]}]},
        "i": {"o": {"red": GOOD_ITEM}},
        "big": 9223372036854775806,
        "plain": {"items": [GOOD_ITEM]},
    }
    assert _validate(trust, body) == (204, None)


def test_a_request_that_is_a_generic_instance_over_arrays_is_checked_whole(trust: Service) -> None:
    r = request(trust.base, "POST", "/pages", {"items": [[GOOD_ITEM], [BAD_ITEM]]})
    assert (r.status, r.json) == (400, {"message": "items[1][0]: name: length less than 1"})
    assert request(trust.base, "POST", "/pages", {"items": [[GOOD_ITEM]]}).status == 204


def test_an_event_payload_that_is_such_an_instance_is_checked_whole(trust_built: Built) -> None:
    events = (trust_built.root / "internal" / "events" / "api" / "events.go").read_text()
    assert "PageMadeContract, types.ValidatePageOfArrayOfItem)" in events  # built and vetted above


def test_the_document_advertises_what_is_checked(trust_built: Built) -> None:
    text = (trust_built.root / "docs" / "openapi.yaml").read_text()
    assert "propertyNames" in text and "^[A-Z]{3}-[0-9]{3}$" in text


def test_a_qualified_middleware_guards_the_route(trust: Service) -> None:
    r = request(trust.base, "GET", "/items/a")
    assert (r.status, r.json) == (401, {"message": "no key"})
    r = request(trust.base, "GET", "/items/a", headers={"X-Key": "k"})
    assert (r.status, r.json) == (200, {"name": "a"})


def test_a_qualified_error_answers_its_status_and_body(trust: Service) -> None:
    r = request(trust.base, "GET", "/items/missing", headers={"X-Key": "k"})
    assert (r.status, r.json) == (404, {"id": "missing", "reason": "gone"})


INTEGER_KEYED = ["k8", "k32", "k64", "ku64", "ksmall", "klevel"]


def _key_candidates() -> list[str]:
    """Keys at and beyond every key type's edges, in every spelling strconv would also take."""
    values = {0, 1, -1, 7, -7, -5, -6, 255, 256, 299, 300, 301}
    for bits in (8, 31, 32, 63, 64):
        values |= {2**bits - 1, 2**bits, -(2**bits), -(2**bits) - 1, 2**bits + 1}
    keys = {str(n) for n in values}
    keys |= {"+1", "01", "-0", "-01", "00", "+0", "1.0", "1e2", " 1", "", "x", "0x10", "1_0", "٣"}
    return sorted(keys)


@pytest.mark.parametrize("field", INTEGER_KEYED)
def test_integer_keys_the_document_allows_are_exactly_those_the_service_takes(
    trust_built: Built, trust: Service, field: str
) -> None:
    """Both directions: a key the document's `propertyNames` admits is accepted, and a key it
    refuses is refused (range, constraints, enum set and spelling: no `+`, leading zero, `-0`)."""
    doc = yaml.safe_load((trust_built.root / "docs" / "openapi.yaml").read_text())
    names = doc["components"]["schemas"]["Check"]["properties"][field]["propertyNames"]
    for key in _key_candidates():
        documented = key in names["enum"] if "enum" in names else bool(re.fullmatch(names["pattern"], key))
        status, body = _validate(trust, {field: {key: "x"}})
        assert status == (204 if documented else 400), (field, key, names, body)
