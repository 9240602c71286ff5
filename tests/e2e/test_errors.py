"""End to end: every row of the spec's "Errors / HTTP" table, over real loopback HTTP.

Three runs of the built showcase: `showcase` (the plain test config), `showcase_logged`
(info logs, tracing without an exporter, server.handlerTimeout 600ms: tests read its log
lines) and `showcase_hooked` (main.go's test edit switched on: a validation-failure hook
of its own, answering 422, and the deprecated blanket Timeout middleware at 300ms).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from e2e_harness import Response, Service, chunked, connect, multipart, request

JSON = "application/json; charset=utf-8"
AUTH = {"Authorization": "Bearer t"}
INTERNAL = {"message": "internal server error"}
HEX32 = re.compile(r"^[0-9a-f]{32}$")
HEX16 = re.compile(r"^[0-9a-f]{16}$")


def framework(r: Response, status: int, message: str) -> None:
    """A framework error: {message} with the JSON content type and nosniff."""
    assert (r.status, r.json) == (status, {"message": message}), r.body
    assert r.headers["Content-Type"] == JSON
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def access_line(svc: Service, mark: int, path: str) -> dict[str, Any]:
    return svc.wait_log(mark, lambda line: line.get("msg") == "http request" and line.get("path") == path)


def assert_traced(line: dict[str, Any], request_id: str | None = None) -> None:
    assert HEX32.match(line.get("trace_id", "")) and HEX16.match(line.get("span_id", "")), line
    if request_id is not None:
        assert line.get("request_id") == request_id, line


# --- no route matches: 404 {message} -------------------------------------------------------


def test_no_route_matches(showcase: Service) -> None:
    for path in ("/nothing", "/v1/shop/nothing", "/v1/shop/bind/1/more", "/v1/shop/check/"):
        framework(request(showcase.base, "GET", path), 404, "not found")
    framework(request(showcase.base, "POST", "/v1/nothing", {"a": 1}), 404, "not found")


# --- method not allowed: 405 {message} plus Allow ------------------------------------------


def test_method_not_allowed(showcase: Service) -> None:
    r = request(showcase.base, "PUT", "/v1/shop/check", {})
    framework(r, 405, "method not allowed")
    assert r.headers["Allow"] == "POST"
    r = request(showcase.base, "POST", "/v1/shop/bind/1", {})
    framework(r, 405, "method not allowed")
    assert set(re.split(r",\s*", r.headers["Allow"])) == {"GET", "HEAD"}


# --- body read past its cap: 413 request entity too large ----------------------------------


def test_body_over_cap_honest_content_length(showcase: Service) -> None:
    # @maxBodySize(64): a Content-Length above the cap is refused before the handler runs.
    r = request(showcase.base, "POST", "/v1/shop/small", raw=b'{"text":"' + b"x" * 100 + b'"}')
    framework(r, 413, "request entity too large")
    assert request(showcase.base, "POST", "/v1/shop/small", {"text": "fits"}).status == 204


@pytest.mark.parametrize(
    "head",
    [b"Expect: 100-continue\r\nContent-Length: 100000\r\n", b"Content-Length: 1048576\r\n"],
    ids=["expect-continue", "over-256KiB"],
)
def test_body_over_cap_answered_without_the_body(showcase: Service, head: bytes) -> None:
    # The client sends the head only: the 413 comes without a byte of the body sent, and no
    # "100 Continue" invites it.
    with connect(showcase.base, timeout=5) as conn:
        conn.sendall(
            b"POST /v1/shop/small HTTP/1.1\r\nHost: e2e\r\nContent-Type: application/json\r\n" + head + b"\r\n"
        )
        answer = conn.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413 "), answer
    assert b'{"message":"request entity too large"}' in answer


def test_body_over_cap_answered_without_a_small_body(showcase: Service) -> None:
    with connect(showcase.base, timeout=2) as conn:
        conn.sendall(
            b"POST /v1/shop/small HTTP/1.1\r\nHost: e2e\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100000\r\n\r\n"
        )
        answer = conn.recv(65536)  # times out while the server waits for the 100000 bytes
    assert answer.startswith(b"HTTP/1.1 413 "), answer


def test_body_over_cap_chunked(showcase: Service) -> None:
    # No Content-Length: the capped reader stops the decoder past 64 bytes.
    r = chunked(showcase.base, "POST", "/v1/shop/small", [b'{"text":"', b"x" * 100, b'"}'])
    framework(r, 413, "request entity too large")
    r = chunked(showcase.base, "POST", "/v1/shop/small", [b'{"text":"', b"x" * 10, b'"}'])
    assert (r.status, r.body) == (204, b"")
    r = chunked(showcase.base, "POST", "/v1/shop/small", [b'{"text":', b" 5}"])
    framework(r, 400, "text: expected string, got number")  # read and decoded


def test_multipart_body_over_cap_chunked(showcase: Service) -> None:
    # @maxBodySize(2KB) on a multipart method: the parser's read past the cap is a 413 too.
    body, ctype = multipart({"title": "doc"}, [("file", "a.txt", "text/plain", b"x" * 3000)])
    r = chunked(showcase.base, "POST", "/v1/shop/upload", [body[:1000], body[1000:]], {"Content-Type": ctype})
    framework(r, 413, "request entity too large")
    body, ctype = multipart({"title": "doc"}, [("file", "a.txt", "text/plain", b"x" * 300)])
    r = chunked(showcase.base, "POST", "/v1/shop/upload", [body[:100], body[100:]], {"Content-Type": ctype})
    assert (r.status, r.json["size"]) == (201, 300), r.body


# --- panic in handler: 500 {message}; logged with stack and trace ids ----------------------


def test_panic_answers_500_logs_and_keeps_serving(showcase_logged: Service) -> None:
    svc = showcase_logged
    mark = svc.mark()
    r = request(svc.base, "GET", "/v1/shop/trouble/panic")
    framework(r, 500, "internal server error")
    assert "panicked" not in r.text
    request_id = r.headers["X-Request-Id"]
    line = svc.wait_log(mark, lambda line: line.get("msg") == "panic recovered")
    assert line["level"] == "ERROR" and line["panic"] == "trouble: the logic panicked"
    assert line["path"] == "/v1/shop/trouble/panic" and line["response_started"] is False
    assert "goroutine " in line["stack"] and "/internal/service/shop/trouble.go:" in line["stack"]
    assert_traced(line, request_id)
    access = access_line(svc, mark, "/v1/shop/trouble/panic")
    assert (access["status"], access["level"], access["trace_id"]) == (500, "ERROR", line["trace_id"])
    # The process is still up and serving, on a new connection and on the same route.
    r = request(svc.base, "GET", "/v1/shop/trouble/ok")
    assert (r.status, r.json) == (200, {"value": 1.5})
    assert svc.proc.poll() is None


def test_panic_in_the_plain_config(showcase: Service) -> None:
    framework(request(showcase.base, "GET", "/v1/shop/trouble/panic"), 500, "internal server error")
    assert request(showcase.base, "GET", "/v1/shop/trouble/ok").status == 200


# --- decode or validation failure: 400 through the validation-failure hook -----------------


def test_decode_failures(showcase: Service) -> None:
    cases = [
        (b'{"name": 5}', "name: expected string, got number"),
        (b'{"gt": 1.5}', "gt: expected integer, got number"),
        (b'{"few": "a"}', "few: expected array, got string"),
        (b'{"nope": 1}', "nope: unknown field"),
        (b'{"name": "abc"} {}', "body: unexpected data after the JSON value"),
        (b'{"name": "abc"} x', "body: unexpected data after the JSON value"),
        (b"[]", "body: expected object, got array"),
        (b'"x"', "body: expected object, got string"),
        (b'{"name": ', "body: unexpected end of JSON input"),
    ]
    for raw, message in cases:
        framework(request(showcase.base, "POST", "/v1/shop/check", raw=raw), 400, message)
    r = request(showcase.base, "POST", "/v1/shop/check", raw=b'{"name": "abc",}')
    assert r.status == 400 and r.json["message"].startswith("body: "), r.body  # syntax error
    r = request(showcase.base, "POST", "/v1/shop/check", raw=b"")  # an empty body decodes as {}
    assert (r.status, r.json) == (201, {}), r.body


def test_validation_failure_default_answer(showcase: Service) -> None:
    framework(request(showcase.base, "POST", "/v1/shop/check", {"gt": 1}), 400, "gt: must be greater than 5")
    framework(request(showcase.base, "GET", "/v1/shop/sleep?ms=-1"), 400, "ms: below minimum 0")


def test_failures_go_through_the_validation_hook(showcase_hooked: Service) -> None:
    svc = showcase_hooked

    def hooked(r: Response, message: str) -> None:
        assert (r.status, r.json) == (422, {"hook": "e2e", "message": message}), r.body

    hooked(request(svc.base, "POST", "/v1/shop/check", raw=b"{} {}"), "body: unexpected data after the JSON value")
    hooked(request(svc.base, "POST", "/v1/shop/check", {"name": 5}), "name: expected string, got number")
    hooked(request(svc.base, "POST", "/v1/shop/check", {"gt": 1}), "gt: must be greater than 5")
    hooked(request(svc.base, "GET", "/v1/shop/bind/1?f=NaN", None, AUTH), 'f: expected finite number, got "NaN"')
    r = request(svc.base, "POST", "/v1/shop/upload", raw=b"junk", headers={"Content-Type": "multipart/form-data"})
    hooked(r, "body: invalid multipart form: no multipart boundary param in Content-Type")
    # A body past its cap is not the hook's: 413 in both of its forms.
    framework(request(svc.base, "POST", "/v1/shop/small", raw=b"{}" + b" " * 100), 413, "request entity too large")
    r = chunked(svc.base, "POST", "/v1/shop/small", [b'{"text":"', b"x" * 100, b'"}'])
    framework(r, 413, "request entity too large")


# --- multipart body the parser refuses: 400 through the validation-failure hook ------------


def test_multipart_body_refused(showcase: Service) -> None:
    def upload(raw: bytes, ctype: str) -> Response:
        return request(showcase.base, "POST", "/v1/shop/upload", raw=raw, headers={"Content-Type": ctype})

    refusals = [
        (b"junk", "multipart/form-data", "no multipart boundary param in Content-Type"),
        (b"junk", "multipart/form-data; boundary=zz", "multipart: NextPart: EOF"),
        (b'{"title": "x"}', "application/json", "request Content-Type isn't multipart/form-data"),
    ]
    for raw, ctype, cause in refusals:
        framework(upload(raw, ctype), 400, f"body: invalid multipart form: {cause}")
    body, ctype = multipart({"title": "doc"}, [("file", "a.txt", "text/plain", b"hello")])
    framework(upload(body[: len(body) - 20], ctype), 400, "body: invalid multipart form: unexpected EOF")


def test_non_finite_floats_refused_in_every_binding(showcase: Service) -> None:
    for value in ("NaN", "+Inf", "-Inf", "Infinity"):
        r = request(showcase.base, "GET", "/v1/shop/bind/1", None, {**AUTH, "X-Rate": value})
        framework(r, 400, f'X-Rate: expected finite number, got "{value}"')
        r = request(showcase.base, "GET", "/v1/shop/bind/1", None, {**AUTH, "Cookie": f"weight={value}"})
        framework(r, 400, f'weight: expected finite number, got "{value}"')
        r = request(showcase.base, "GET", f"/v1/shop/bind/1?f={value.replace('+', '%2B')}", None, AUTH)
        framework(r, 400, f'f: expected finite number, got "{value}"')
        body, ctype = multipart({"title": "doc", "ratio": value}, [("file", "a.txt", "text/plain", b"x")])
        r = request(showcase.base, "POST", "/v1/shop/upload", raw=body, headers={"Content-Type": ctype})
        framework(r, 400, f'ratio: expected finite number, got "{value}"')
    r = request(showcase.base, "GET", "/v1/shop/bind/1", None, {**AUTH, "X-Rate": "0.5", "Cookie": "weight=2e3"})
    assert (r.status, r.json["rate"], r.json["weight"]) == (200, 0.5, 2000), r.body
    body, ctype = multipart({"title": "doc", "ratio": "-1.25"}, [("file", "a.txt", "text/plain", b"x")])
    r = request(showcase.base, "POST", "/v1/shop/upload", raw=body, headers={"Content-Type": ctype})
    assert (r.status, r.json["ratio"]) == (201, -1.25), r.body


# --- handler returns a deadline error: 504 gateway timeout ---------------------------------


def test_deadline_error_answers_504(showcase: Service, showcase_logged: Service) -> None:
    framework(request(showcase.base, "GET", "/v1/shop/sleep?ms=2000"), 504, "gateway timeout")  # @timeout(200ms)
    framework(request(showcase.base, "GET", "/v1/shop/fail/deadline"), 504, "gateway timeout")  # returned by logic
    # server.handlerTimeout (600ms in this run) bounds a route without @timeout.
    started = time.monotonic()
    framework(request(showcase_logged.base, "GET", "/v1/shop/trouble/wait"), 504, "gateway timeout")
    assert 0.5 < time.monotonic() - started < 5


# --- context error after the client has gone: nothing written, access log 499 --------------


def test_client_gone_is_logged_as_499(showcase_logged: Service) -> None:
    svc = showcase_logged
    mark = svc.mark()
    conn = connect(svc.base)
    conn.sendall(b"GET /v1/shop/trouble/wait HTTP/1.1\r\nHost: e2e\r\nX-Request-Id: e2e-client-gone\r\n\r\n")
    time.sleep(0.15)  # the logic is waiting on its context (server.handlerTimeout is 600ms)
    conn.close()
    line = access_line(svc, mark, "/v1/shop/trouble/wait")
    assert (line["status"], line["bytes"], line["level"]) == (499, 0, "INFO"), line
    assert line["route"] == "/v1/shop/trouble/{kind}", line
    assert_traced(line, "e2e-client-gone")
    time.sleep(0.6)  # past the handler deadline: nothing else about the request is logged
    late = [x for x in svc.log_since(mark) if x.get("request_id") == "e2e-client-gone"]
    assert late == [line], late


# --- success response that cannot be encoded: 500, logged as unhandled service error -------


def test_unencodable_response(showcase_logged: Service) -> None:
    svc = showcase_logged
    for kind, value in (("nan", "NaN"), ("inf", "-Inf")):
        mark = svc.mark()
        r = request(svc.base, "GET", f"/v1/shop/trouble/{kind}")
        framework(r, 500, "internal server error")
        line = svc.wait_log(mark, lambda line: line.get("msg") == "unhandled service error")
        assert line["level"] == "ERROR" and line["error"] == f"json: unsupported value: {value}", line
        assert line["path"] == f"/v1/shop/trouble/{kind}" and line["route"] == "/v1/shop/trouble/{kind}"
        assert_traced(line, r.headers["X-Request-Id"])
        assert access_line(svc, mark, f"/v1/shop/trouble/{kind}")["status"] == 500


# --- unknown error returned by logic: 500, opaque message; logged --------------------------


def test_unknown_error_is_opaque_and_logged(showcase_logged: Service) -> None:
    svc = showcase_logged
    mark = svc.mark()
    r = request(svc.base, "GET", "/v1/shop/fail/other")
    framework(r, 500, "internal server error")
    assert "hunter2" not in r.text
    line = svc.wait_log(mark, lambda line: line.get("msg") == "unhandled service error")
    assert line["level"] == "ERROR" and line["error"] == "database password is hunter2", line
    assert line["path"] == "/v1/shop/fail/other" and line["route"] == "/v1/shop/fail/{kind}"
    assert_traced(line, r.headers["X-Request-Id"])


# --- blanket timeout middleware deadline: 503 ----------------------------------------------


def test_blanket_timeout_middleware(showcase_hooked: Service) -> None:
    # main.go's test edit adds srv.Use(server.Timeout(300ms)): the deprecated middleware
    # answers its plain-text 503 before the logic's own answer.
    started = time.monotonic()
    r = request(showcase_hooked.base, "GET", "/v1/shop/trouble/wait")
    assert (r.status, r.text) == (503, "service unavailable\n")
    assert r.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert 0.25 < time.monotonic() - started < 5
    r = request(showcase_hooked.base, "GET", "/v1/shop/trouble/ok")
    assert (r.status, r.json) == (200, {"value": 1.5})


# --- typed error from logic: its status, body, headers and cookies -------------------------


def test_typed_errors(showcase: Service) -> None:
    r = request(showcase.base, "GET", "/v1/shop/fail/throttled")
    assert (r.status, r.json) == (429, {})  # every JSON body field optional and unset
    assert r.headers["Content-Type"] == JSON
    assert r.headers["Retry-After"] == "30"  # @header field
    assert [c.split(";")[0] for c in r.cookies] == ["sid=s1"]  # @cookie field
    r = request(showcase.base, "GET", "/v1/shop/fail/missing")  # no body field at all
    assert (r.status, r.json) == (404, {"code": "ITEM_MISSING", "message": "Not found"})
    assert r.headers["Content-Type"] == JSON and "Retry-After" not in r.headers and r.cookies == []
    r = request(showcase.base, "GET", "/v1/shop/fail/clash")  # optional fields: set ones only
    assert (r.status, r.json) == (409, {"hint": "try later"})
    r = request(showcase.base, "GET", "/v1/shop/fail/broken")  # @sensitive field left out
    assert (r.status, r.json) == (500, {"detail": "d"})
