"""End to end: examples/showcase (every declaration kind, type form, decorator, binding)."""

from __future__ import annotations

from e2e_harness import Built, Service, multipart, request

AUTH = {"Authorization": "Bearer t"}


def msg(r: object) -> tuple[int, str]:
    return r.status, r.json.get("message")  # type: ignore[attr-defined]


def test_generated_code_is_gofmt_clean(showcase_built: Built) -> None:
    assert showcase_built.gofmt == ""
    root = showcase_built.root
    for path in (
        "internal/types/shop/types.go",
        "internal/types/shop/validate.go",
        "internal/types/shop/enums.go",
        "internal/types/shop/errors.go",
        "internal/types/shared/types.go",
        "internal/transport/admin/tools/ping.go",
        "internal/routes/admin/tools/routes.go",
        "internal/routes/routes.go",
        "internal/wiring/wiring.go",
        "svccontext/middlewares.go",
    ):
        assert (root / path).is_file(), path
    assert not (root / "internal/types/shared/errors.go").exists()  # no error declared there


def test_every_validator_message(showcase: Service) -> None:
    cases = {
        "name": ("x", "name: length out of range [2, 5]"),
        "short": ("x", "short: length less than 2"),
        "long": ("long", "long: length greater than 3"),
        "code": ("abc", "code: does not match pattern"),
        "email": ("nope", "email: not a valid email"),
        "url": ("ftp://x", "url: not a valid URL"),
        "uri": ("nope", "uri: not a valid URI"),
        "uuid": ("123", "uuid: not a valid UUID"),
        "when": ("2024-13-01", "when: not a valid RFC 3339 datetime"),
        "day": ("2024-1-1", "day: not a valid date"),
        "clock": ("25:00:00", "clock: not a valid time"),
        "phone": ("abc", "phone: not a valid phone"),
        "ipv4": ("::1", "ipv4: not a valid IPv4"),
        "ipv6": ("1.2.3.4", "ipv6: not a valid IPv6"),
        "cidr": ("1.2.3.4", "cidr: not a valid CIDR"),
        "mac": ("zz", "mac: not a valid MAC address"),
        "card": ("12", "card: not a valid credit card number"),
        "b64": ("@@", "b64: not a valid base64"),
        "b64url": ("a+b/", "b64url: not a valid base64url"),
        "color": ("#12", "color: not a valid hex color"),
        "doc": ("{", "doc: not a valid JSON"),
        "gt": (5, "gt: must be greater than 5"),
        "gte": (4, "gte: below minimum 4"[:0] + "gte: below minimum 5"),
        "lt": (5, "lt: must be less than 5"),
        "lte": (6, "lte: above maximum 5"),
        "between": (3, "between: out of range [1.5, 2.5]"),
        "pos": (0, "pos: must be positive"),
        "neg": (0, "neg: must be negative"),
        "mult": (4, "mult: must be a multiple of 3"),
        "fmult": (0.7, "fmult: must be a multiple of 0.5"),
        "few": ([], "few: minItems 1"),
        "uniq": ([1, 1], "uniq: items must be unique"),
        "raw": ("", "raw: length out of range [1, 4]"),
        "contact": ("x", "contact: not a valid email"),
        "share": (101, "share: out of range [0, 100]"),
        "level": (3, "level: must be one of [-1 1 2]"),
        "tint": ("pink", "tint: must be one of [red green blue]"),
    }
    for key, (value, message) in cases.items():
        assert msg(request(showcase.base, "POST", "/v1/shop/check", {key: value})) == (400, message), key
    good = {
        "name": "abc",
        "email": "A <a@b.co>",
        "url": "https://x.io",
        "uuid": "123E4567-e89b-12d3-a456-426614174000",
        "when": "2024-01-02T03:04:05.5+01:00",
        "day": "2024-01-02",
        "clock": "23:59:59",
        "phone": "+1 (555) 010-99",
        "ipv6": "::1",
        "cidr": "10.0.0.0/8",
        "mac": "00:00:5e:00:53:01",
        "card": "4111111111111111",
        "color": "#abc",
        "doc": "[1]",
        "between": 2.5,
        "mult": 9,
        "fmult": 1.5,
        "few": ["a"],
        "uniq": [1, 2],
        "raw": "AQID",
        "level": -1,
        "tint": "blue",
    }
    r = request(showcase.base, "POST", "/v1/shop/check", good)
    assert r.status == 201 and r.json["tint"] == "blue", r.body


def test_nested_paths_required_and_type_forms(showcase: Service) -> None:
    base = {
        "headline": "h",
        "count": 1,
        "nick": None,
        "tags": [],
        "grid": [],
        "attrs": {},
        "scores": {},
        "nested": {},
        "data": "",
        "price": {"amount": 1, "currency": "EUR"},
        "page": {"items": [], "more": False},
        "payload": {"k": [1]},
        "createdBy": "me",
        "createdAt": "2024-01-02T03:04:05Z",
    }
    r = request(showcase.base, "PUT", "/v1/shop/forms", base)
    assert r.status == 200, r.body
    body = r.json
    assert body["headline"] == "h"  # @json key
    assert body["color"] == "red" and body["priority"] == 1 and body["labels"] == ["a", "b"]  # @default
    assert body["tags"] == [] and body["grid"] == [] and body["attrs"] == {} and body["data"] == ""
    assert body["page"]["items"] == [] and body["nick"] is None
    assert "secret" not in body and "Secret" not in body  # @sensitive
    assert "ratio" not in body and "discount" not in body  # optional unset: left out
    assert body["createdBy"] == "me"  # mixin fields are flat
    r = request(showcase.base, "PUT", "/v1/shop/forms", {**base, "price": {"amount": 1}})
    assert msg(r) == (400, "price: currency: required")
    items = [{"amount": 1, "currency": "EUR"}, {"amount": -1, "currency": "USD"}]
    r = request(showcase.base, "PUT", "/v1/shop/forms", {**base, "page": {"items": items, "more": True}})
    assert msg(r) == (400, "page: items[1]: amount: below minimum 0")
    r = request(showcase.base, "PUT", "/v1/shop/forms", {k: v for k, v in base.items() if k != "payload"})
    assert msg(r) == (400, "payload: required")
    r = request(showcase.base, "PUT", "/v1/shop/forms", {**base, "page": {"items": []}})
    assert msg(r) == (400, "page: more: required")  # issue 8 item 11: required means required
    r = request(showcase.base, "PUT", "/v1/shop/forms", {**base, "page": {"items": [], "more": "yes"}})
    assert msg(r) == (400, "page: more: expected boolean, got string")
    r = request(showcase.base, "PUT", "/v1/shop/forms", {**base, "secret": "x"})
    assert msg(r) == (400, "secret: unknown field")


def test_cross_field_rules(showcase: Service) -> None:
    r = request(showcase.base, "POST", "/v1/shop/contact", {"name": "n"})
    assert msg(r) == (400, "requiresOneOf [email phone] - at least one must be set")
    r = request(showcase.base, "POST", "/v1/shop/contact", {"name": "n", "email": "a@b.co", "phone": "123456"})
    assert msg(r) == (400, "mutuallyExclusive [email phone] - at most one may be set")
    r = request(showcase.base, "POST", "/v1/shop/contact", {"name": "", "email": "a@b.co"})
    assert msg(r) == (400, "name: length less than 1")
    assert request(showcase.base, "POST", "/v1/shop/contact", {"name": "n", "phone": "123456"}).status == 201


def test_bindings_and_response_headers(showcase: Service) -> None:
    headers = {**AUTH, "X-Ids": "1, 2,3", "X-Trace-Id": "abc", "Cookie": "sid=s-1"}
    r = request(showcase.base, "GET", "/v1/shop/bind/42?q=hi&n=3&f=1.5&b=true&color=green&pr=2&note=x", None, headers)
    assert r.status == 200, r.body
    assert r.json == {
        "id": 42,
        "q": "hi",
        "n": 3,
        "f": 1.5,
        "b": True,
        "ids": [1, 2, 3],
        "trace": "abc",
        "sid": "s-1",
        "color": "green",
        "pr": 2,
        "note": "x",
    }
    assert r.headers["X-Total"] == "7"
    assert r.headers.get_all("X-Tags") == ["a", "b"]
    assert any(c.startswith("token=tok") for c in r.cookies)
    assert r.headers["X-Trace"] == "1"  # service middleware
    r = request(showcase.base, "GET", "/v1/shop/bind/7", None, AUTH)
    assert r.json == {"id": 7, "ids": []}


def test_binding_refusals(showcase: Service) -> None:
    for query in ("f=NaN", "f=%2BInf", "f=-Inf"):
        r = request(showcase.base, "GET", f"/v1/shop/bind/1?{query}", None, AUTH)
        assert r.status == 400 and r.json["message"].startswith("f: "), query
    assert request(showcase.base, "GET", "/v1/shop/bind/x", None, AUTH).status == 400
    assert request(showcase.base, "GET", "/v1/shop/bind/1?n=1.5", None, AUTH).status == 400
    r = request(showcase.base, "GET", "/v1/shop/bind/1?color=pink", None, AUTH)
    assert msg(r) == (400, "color: must be one of [red green blue]")
    assert msg(request(showcase.base, "GET", "/v1/shop/bind/1")) == (401, "unauthorized")  # method middleware


def test_a_malformed_bound_cookie_is_refused_not_ignored(showcase: Service) -> None:
    """net/http drops a cookie whose value holds a tab or a quote; a bound one is read as sent
    (schemathesis: `weight=w5^=Fm:b+r}EL<TAB>0{'` for a float64 cookie was taken as absent)."""
    headers = {**AUTH, "Cookie": 'weight=1.5\tx; sid=a"b'}
    r = request(showcase.base, "GET", "/v1/shop/bind/1", None, headers)
    assert msg(r)[0] == 400 and msg(r)[1].startswith("weight: "), r.body  # type: ignore[attr-defined]
    r = request(showcase.base, "GET", "/v1/shop/bind/1", None, {**AUTH, "Cookie": 'sid=a"b; weight=2'})
    assert (r.status, r.json["sid"]) == (200, 'a"b'), r.body  # type: ignore[attr-defined]


def test_multipart_upload(showcase: Service) -> None:
    def upload(fields: dict[str, str], files: list[tuple[str, str, str, bytes]]) -> object:
        body, ctype = multipart(fields, files)
        return request(
            showcase.base,
            "POST",
            "/v1/shop/upload?title=fromquery",
            raw=body,
            headers={"Content-Type": ctype},
        )

    r = upload(
        {"title": "doc", "count": "2"},
        [
            ("file", "a.txt", "text/plain; charset=utf-8", b"hello"),
            ("more", "b.png", "image/png", b"x"),
            ("more", "c.png", "image/png", b"y"),
        ],
    )
    assert r.status == 201, r.body  # type: ignore[attr-defined]
    assert r.json == {"title": "doc", "count": 2, "name": "a.txt", "size": 5, "more": 2}  # type: ignore[attr-defined]
    assert msg(upload({"title": "doc"}, [])) == (400, "file: required")
    r = upload({"title": "doc"}, [("file", "a.pdf", "application/pdf", b"%PDF")])
    assert msg(r) == (400, "file: disallowed content type")
    r = upload({"title": "doc"}, [("file", "a.png", "image/png", b"x" * 1500)])
    assert msg(r) == (400, "file: file size exceeds 1024 bytes")
    r = upload({}, [("file", "a.txt", "text/plain", b"x")])  # the query's title is not taken
    assert msg(r) == (400, "title: required")
    r = upload({"title": "doc"}, [("file", "a.txt", "text/plain", b"x" * 4096)])
    assert msg(r) == (413, "request entity too large")
    r = request(showcase.base, "POST", "/v1/shop/upload", {"title": "x"})
    assert r.status == 400


def test_multipart_part_of_the_wrong_kind_is_refused(showcase: Service) -> None:
    """The document declares a `file` part a binary string: a text part of that name (no
    filename) is refused, never silently dropped (schemathesis: `more={}` was accepted); so is
    a file part under a text field's name."""

    def upload(fields: dict[str, str], files: list[tuple[str, str, str, bytes]]) -> object:
        body, ctype = multipart(fields, files)
        return request(showcase.base, "POST", "/v1/shop/upload", raw=body, headers={"Content-Type": ctype})

    a_file = ("file", "a.txt", "text/plain", b"x")
    assert msg(upload({"title": "doc", "more": "{}"}, [a_file])) == (400, "more: expected a file, got text")
    assert msg(upload({"title": "doc", "file": "hello"}, [])) == (400, "file: expected a file, got text")
    # a text part beside real file parts of the same name is refused too
    r = upload({"title": "doc", "more": "x"}, [a_file, ("more", "b.png", "image/png", b"y")])
    assert msg(r) == (400, "more: expected a file, got text")
    r = upload({"title": "doc"}, [a_file, ("more", "b.png", "image/png", b"y")])
    assert r.status == 201, r.body  # type: ignore[attr-defined]
    # and the other way round: a file part named like a text field is refused, not dropped
    r = upload({"title": "doc"}, [a_file, ("count", "n.txt", "text/plain", b"3")])
    assert msg(r) == (400, "count: expected text, got a file")
    r = upload({}, [a_file, ("title", "t.txt", "text/plain", b"doc")])
    assert msg(r) == (400, "title: expected text, got a file")


def test_success_statuses_and_empty_values(showcase: Service) -> None:
    r = request(showcase.base, "POST", "/v1/shop/accept", {})
    assert r.status == 202  # @status
    assert r.json == {"nick": None, "list": [], "nlist": None, "m": {}, "raw": "", "the_key": ""}
    full = {"nick": None, "nlist": None, "list": ["a"], "maybe": [], "m": {}, "raw": "", "the_key": ""}
    r = request(showcase.base, "POST", "/v1/shop/options", full)
    assert r.status == 201
    assert r.json == {
        "nick": None,
        "list": ["a"],
        "maybe": [],
        "nlist": None,
        "m": {},
        "raw": "",
        "the_key": "",
    }
    r = request(showcase.base, "POST", "/v1/shop/options", {**full, "name": None})
    assert msg(r) == (400, "name: expected string, got null")  # issue 8 item 11: not @nullable
    assert request(showcase.base, "DELETE", "/v1/shop/gone").status == 204
    r = request(showcase.base, "GET", "/v1/ping")  # @group service without a prefix, default route
    assert (r.status, r.body) == (204, b"")
    r = request(showcase.base, "GET", "/v1/shop/generic")
    assert (r.status, r.json) == (200, {"items": [], "total": 0})


def test_generic_request_required_type_parameter(showcase: Service) -> None:
    r = request(showcase.base, "POST", "/v1/shop/boxed", {"note": "n"})
    assert msg(r) == (400, "value: required")
    r = request(showcase.base, "POST", "/v1/shop/boxed", {"value": {"amount": -2, "currency": "EUR"}})
    assert msg(r) == (400, "value: amount: below minimum 0")
    r = request(showcase.base, "POST", "/v1/shop/boxed", {"value": {"amount": 2, "currency": "EUR"}})
    assert r.status == 201 and r.json == {"echo": {"value": {"amount": 2, "currency": "EUR"}}}


def test_timeout_body_limit_passthrough_and_middleware_chains(showcase: Service) -> None:
    r = request(showcase.base, "GET", "/v1/shop/sleep?ms=1000")
    assert msg(r) == (504, "gateway timeout")
    r = request(showcase.base, "GET", "/v1/shop/sleep?ms=1")
    assert r.status == 204 and "X-Trace" not in r.headers  # @ignoreMiddleware
    assert msg(request(showcase.base, "GET", "/v1/shop/sleep?ms=-1")) == (400, "ms: below minimum 0")
    r = request(showcase.base, "POST", "/v1/shop/small", raw=b"{}" + b" " * 100)
    assert msg(r) == (413, "request entity too large")
    assert request(showcase.base, "POST", "/v1/shop/small", {}).status == 204
    r = request(showcase.base, "GET", "/v1/shop/raw")
    assert (r.status, r.text, r.headers["Content-Type"]) == (200, "raw ok", "text/plain")
    assert request(showcase.base, "GET", "/v1/shop/raw?fail=1").status == 404
    assert msg(request(showcase.base, "GET", "/v1/shop/secure")) == (
        401,
        "unauthorized",
    )  # extend block chain
    r = request(showcase.base, "GET", "/v1/shop/secure", None, AUTH)
    assert (r.status, r.body) == (204, b"")  # a response type with no body field: 204
