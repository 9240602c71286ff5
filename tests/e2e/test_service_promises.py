"""End to end: the generated service enforces what its document promises (issue 8 items 11-14)
and decodes exactly (issue 11 item 2), over real loopback HTTP."""

from __future__ import annotations

import re
import select
import socket
from typing import Any

from e2e_harness import Response, Service, chunked, connect, request

JSON = "application/json; charset=utf-8"
AUTH = {"Authorization": "Bearer t"}
FORMS: dict[str, Any] = {
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
    "payload": 1,
    "createdBy": "me",
    "createdAt": "2024-01-02T03:04:05Z",
}


def refused(r: Response, status: int, message: str) -> None:
    assert (r.status, r.json) == (status, {"message": message}), r.body
    assert r.headers["Content-Type"] == JSON and r.headers["X-Content-Type-Options"] == "nosniff"


def check(svc: Service, raw: bytes, ctype: str = "application/json") -> Response:
    return request(svc.base, "POST", "/v1/shop/check", raw=raw, headers={"Content-Type": ctype})


# --- keys match exactly, once ----------------------------------------------------------------


def test_duplicate_and_case_mismatched_keys(showcase: Service) -> None:
    # the gateway's reading ("ab") and the service's can no longer differ
    refused(check(showcase, b'{"name":"ab","NaMe":"zzzzzzzzzzz"}'), 400, "NaMe: unknown field")
    refused(check(showcase, b'{"name":"abc","name":"zzzzzzzzzzz"}'), 400, "name: duplicate key")
    r = request(showcase.base, "POST", "/v1/shop/options", raw=b'{"THE_KEY":"k"}')
    refused(r, 400, "THE_KEY: unknown field")  # @json("the_key") binds that key only
    r = request(showcase.base, "PUT", "/v1/shop/forms", {**FORMS, "attrs": {"a": "1"}}, raw=None)
    assert r.status == 200, r.body
    dup_in_map = re.sub(rb"\}\s*$", b"", _json({**FORMS, "attrs": {"a": "1"}})) + b',"attrs":{}}'
    refused(request(showcase.base, "PUT", "/v1/shop/forms", raw=dup_in_map), 400, "attrs: duplicate key")
    r = request(showcase.base, "PUT", "/v1/shop/forms", raw=_json(FORMS)[:-1] + b',"attrs2":{"a":"1","a":"2"}}')
    refused(r, 400, "attrs2: unknown field")
    raw = _json({**FORMS, "attrs": {}})[:-1].replace(b'"attrs": {}', b'"attrs": {"k": "1", "k": "2"}') + b"}"
    refused(request(showcase.base, "PUT", "/v1/shop/forms", raw=raw), 400, "attrs[k]: duplicate key")
    raw = _json({**FORMS, "payload": {}}).replace(b'"payload": {}', b'"payload": {"a": 1, "a": 2}')
    refused(request(showcase.base, "PUT", "/v1/shop/forms", raw=raw), 400, "payload[a]: duplicate key")


def _json(body: Any) -> bytes:
    import json

    return json.dumps(body).encode()


# --- required means required; null means what the member says ----------------------------------


def test_required_members_and_nulls(showcase: Service) -> None:
    for key in ("headline", "count", "tags", "attrs", "data", "price", "nick", "createdAt"):
        body = {k: v for k, v in FORMS.items() if k != key}
        refused(request(showcase.base, "PUT", "/v1/shop/forms", body), 400, f"{key}: required")
    for key in ("headline", "count", "tags", "attrs", "data", "price", "payload"):
        refused(request(showcase.base, "PUT", "/v1/shop/forms", {**FORMS, key: None}), 400, f"{key}: required")
    r = request(showcase.base, "PUT", "/v1/shop/forms", {**FORMS, "nick": None, "price": {"currency": "EUR"}})
    refused(r, 400, "price: amount: required")
    # an optional member that is not @nullable refuses null; an @nullable one takes it
    refused(
        request(showcase.base, "PUT", "/v1/shop/forms", {**FORMS, "ratio": None}),
        400,
        "ratio: expected number, got null",
    )
    refused(request(showcase.base, "PUT", "/v1/shop/forms", {**FORMS, "extra": None}), 400, "extra: must not be null")
    refused(
        request(showcase.base, "PUT", "/v1/shop/forms", {**FORMS, "color": None}),
        400,
        "color: expected string, got null",
    )
    r = request(showcase.base, "PUT", "/v1/shop/forms", {**FORMS, "nick": "n"})
    assert (r.status, r.json["nick"], r.json["color"]) == (200, "n", "red"), r.body  # default kept


def test_deep_paths_in_arrays_and_maps(showcase: Service) -> None:
    cases = [
        (
            {"nested": {"k": [{"amount": 1, "currency": "EUR"}, {"amount": "x"}]}},
            "nested[k][1]: amount: expected integer, got string",
        ),
        ({"nested": {"k": [{"amount": 1}]}}, "nested[k][0]: currency: required"),
        ({"grid": [[1], [2, "3"]]}, "grid[1][1]: expected integer, got string"),
        ({"scores": {"a": 1, "b": 1.5}}, "scores[b]: expected integer, got number"),
        (
            {"page": {"items": [{"amount": 1, "currency": "EUR", "x": 1}], "more": True}},
            "page: items[0]: x: unknown field",
        ),
        ({"byId": {"7": "a", "x": "b"}}, 'byId: key "x": expected integer'),
        ({"byId": {"3000000000": "a"}}, 'byId: key "3000000000": integer out of range'),
    ]
    for patch, message in cases:
        refused(request(showcase.base, "PUT", "/v1/shop/forms", {**FORMS, **patch}), 400, message)
    r = request(showcase.base, "PUT", "/v1/shop/forms", {**FORMS, "byId": {"7": "a", "-1": "b"}, "scores": {"z": None}})
    assert (r.status, r.json["byId"], r.json["scores"]) == (200, {"-1": "b", "7": "a"}, {"z": None}), r.body


# --- numbers: integers as JSON Schema reads them, ranges named ------------------------------------


def test_numbers(showcase: Service) -> None:
    r = check(showcase, b'{"gt": 6.0, "mult": 1.2e1}')
    assert (r.status, r.json) == (201, {"gt": 6, "mult": 12}), r.body  # JSON Schema's integer takes 6.0
    refused(check(showcase, b'{"gt": 6.5}'), 400, "gt: expected integer, got number")
    refused(check(showcase, b'{"gt": 1e400}'), 400, "gt: number out of range for int64")
    refused(check(showcase, b'{"between": 1e400}'), 400, "between: number out of range for float64")
    r = request(showcase.base, "PUT", "/v1/shop/forms", {**FORMS, "count": 2**31})
    refused(r, 400, "count: number out of range for int32")


def test_query_numbers_refuse_what_integers_refuse(showcase: Service) -> None:
    for value in ("0x1p-2", "1_000", "0x10", "1e400", "Infinity", "1.5.2", ""):
        r = request(showcase.base, "GET", f"/v1/shop/bind/1?f={value}", None, AUTH)
        assert r.status == 400 and r.json["message"].startswith("f: "), (value, r.body)
    r = request(showcase.base, "GET", "/v1/shop/bind/1?f=1e400", None, AUTH)
    refused(r, 400, 'f: number "1e400" out of range for float64')
    r = request(showcase.base, "GET", "/v1/shop/bind/1?n=99999999999999999999", None, AUTH)
    refused(r, 400, 'n: number "99999999999999999999" out of range for int64')
    r = request(showcase.base, "GET", "/v1/shop/bind/1?f=-1.5e2&n=-3", None, AUTH)
    assert (r.status, r.json["f"], r.json["n"]) == (200, -150, -3), r.body


def test_required_query_parameter(showcase: Service) -> None:
    refused(request(showcase.base, "GET", "/v1/shop/sleep"), 400, "ms: required")


def test_format_time_is_what_the_document_says(showcase: Service) -> None:
    for clock in ("12:00:00Z", "12:00:00.5", "1:02:03", "24:00:00", "12:60:00"):
        refused(check(showcase, _json({"clock": clock})), 400, "clock: not a valid time")
    assert check(showcase, _json({"clock": "23:59:59"})).status == 201


# --- JSON in means JSON -----------------------------------------------------------------------------


def test_json_content_type_required(showcase: Service) -> None:
    for ctype in ("text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", "application/jsonx"):
        refused(check(showcase, b'{"name": "abc"}', ctype), 415, "unsupported media type")
    r = request(showcase.base, "POST", "/v1/shop/check", raw=b'{"name": "abc"}', headers={"Content-Type": ""})
    assert r.status == 415, r.body
    for ctype in ("application/json", "APPLICATION/JSON; charset=UTF-8", "application/merge-patch+json"):
        assert check(showcase, b'{"name": "abc"}', ctype).status == 201, ctype
    r = request(showcase.base, "POST", "/v1/shop/accept", raw=b"x", headers={"Content-Type": "text/plain"})
    assert r.status == 202  # nothing in the body: the type does not matter
    r = request(showcase.base, "GET", "/v1/shop/bind/1", None, {**AUTH, "Content-Type": "text/plain"})
    assert r.status == 200
    # a chunked body without a type, and the simple request of a browser form
    r = chunked(showcase.base, "POST", "/v1/shop/check", [b'{"name":', b' "abc"}'], {"Content-Type": "text/plain"})
    refused(r, 415, "unsupported media type")


# --- net/http's own refusals are framework errors too ------------------------------------------


def raw_answer(svc: Service, data: bytes) -> tuple[int, dict[str, str], bytes]:
    with connect(svc.base, timeout=10) as conn:
        conn.sendall(data)
        answer = b""
        while b"\r\n\r\n" not in answer or not _complete(answer):
            chunk = conn.recv(65536)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    m = re.search(rb"Content-Length: (\d+)", head)
    return m is not None and len(body) >= int(m[1])


def test_net_http_refusals_are_json(showcase: Service, showcase_limits: Service) -> None:
    cases = [
        (
            showcase,
            b"GET /v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (40 << 10) + b"\r\n\r\n",
            431,
            "request header fields too large",
        ),
        (
            showcase,
            b"POST /v1/shop/check HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            501,
            "unsupported transfer encoding",
        ),
        (showcase, b"GET /v1/ping HTTP/1.1\r\n\r\n", 400, "bad request: missing required Host header"),
        # a head not completed within server.readHeaderTimeout (300ms in this run)
        (showcase_limits, b"GET /v1/ping HTTP/1.1\r\nHost: x\r\n", 408, "request timeout"),
    ]
    for svc, data, status, message in cases:
        got, headers, body = raw_answer(svc, data)
        assert (got, body) == (status, b'{"message":"' + message.encode() + b'"}\n'), (status, body)
        assert headers["Content-Type"] == JSON and headers["X-Content-Type-Options"] == "nosniff"


# --- safe defaults ------------------------------------------------------------------------------------


def peak_rss_mib(svc: Service) -> float:
    with open(f"/proc/{svc.proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def test_a_50mb_body_to_an_any_field_is_refused_early(showcase_limits: Service) -> None:
    svc = showcase_limits
    # declared: refused from its Content-Length, without a byte of the body read
    head = (
        b"PUT /v1/shop/forms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 52428800\r\n\r\n"
    )
    status, _, body = raw_answer(svc, head)
    assert (status, body) == (413, b'{"message":"request entity too large"}\n')
    # chunked: the default 1 MiB cap stops the reading; 50 MB of an `any` used to cost 1.46 GB
    payload = b'{"payload": [' + b"[1,2,3,4,5,6,7,8,9,0]," * ((50 << 20) // 22) + b"[]]}"
    with connect(svc.base, timeout=30) as conn:
        conn.sendall(
            b"PUT /v1/shop/forms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        sent = 0
        for i in range(0, len(payload), 1 << 16):
            if select.select([conn], [], [], 0)[0]:
                break  # answered: the rest of the body is not wanted
            chunk = payload[i : i + (1 << 16)]
            conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent += len(chunk)
        else:
            conn.sendall(b"0\r\n\r\n")
        answer = conn.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert sent < 8 << 20, sent  # refused early: a few chunks past the cap, not 50 MB
    assert peak_rss_mib(svc) < 150, f"peak RSS {peak_rss_mib(svc):.0f} MiB"


def test_a_client_that_never_reads_is_cut_off(showcase_limits: Service) -> None:
    svc = showcase_limits
    mark = svc.mark()
    conn = connect(svc.base, timeout=30)
    try:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        conn.sendall(b"GET /v1/shop/raw?mb=64 HTTP/1.1\r\nHost: x\r\n\r\n")
        # the logic's write fails once server.writeTimeout (500ms here) passed; the client read nothing
        line = svc.wait_log(
            mark, lambda x: x.get("msg") == "http request" and x.get("path") == "/v1/shop/raw", timeout=30
        )
        assert line["bytes"] < 64 << 20, line
        received = 0
        while True:
            try:
                chunk = conn.recv(1 << 20)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += len(chunk)
        assert received < 64 << 20  # cut off: the connection ended before the answer did
    finally:
        conn.close()


def test_long_timeout_routes_still_answer(showcase_limits: Service) -> None:
    # Sleep has @timeout(200ms), within the 500ms write timeout: answered as before
    assert request(showcase_limits.base, "GET", "/v1/shop/sleep?ms=1").status == 204


def test_required_header_and_cookie(showcase: Service) -> None:
    full = {**AUTH, "X-Key": "k", "X-Level": "2", "Cookie": "sid=s"}
    assert request(showcase.base, "GET", "/v1/shop/headed", None, full).status == 204
    for name, headers in (
        ("X-Key", {k: v for k, v in full.items() if k != "X-Key"}),
        ("sid", {k: v for k, v in full.items() if k != "Cookie"}),
        ("X-Level", {k: v for k, v in full.items() if k != "X-Level"}),
    ):
        refused(request(showcase.base, "GET", "/v1/shop/headed", None, headers), 400, f"{name}: required")
    r = request(showcase.base, "GET", "/v1/shop/headed", None, {**full, "X-Level": "2.5"})
    refused(r, 400, 'X-Level: expected integer, got "2.5"')


def test_lenient_json_still_exact(showcase_limits: Service) -> None:
    # server.strictJSON: false takes unknown members and data after the value, never a repeated
    # key, and a key in another case is an unknown member: ignored, not bound
    r = check(showcase_limits, b'{"name": "abc", "NaMe": "zzzzzzzzzzz", "bogus": [1, {"x": null}]} trailing')
    assert (r.status, r.json) == (201, {"name": "abc"}), r.body
    refused(check(showcase_limits, b'{"name": "abc", "name": "zz"}'), 400, "name: duplicate key")
