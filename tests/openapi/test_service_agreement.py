"""The document says what the generated service does (schemathesis findings, issue 8 items
11-14 and the conformance brief): each test fails on the document as it was before."""

from __future__ import annotations

import re
from pathlib import Path

from kit_core.generators.openapi.constraints import FORMAT_PATTERNS
from kit_core.generators.openapi.schemas import BASE64_PATTERN, FLOAT32_MAX

from .helpers import doc, op, schema

PKG = "package shop\n\n"
HELPERS = Path(__file__).resolve().parents[2] / "kit_core/generators/templates/go/helpers"

SERVICE = (
    PKG
    + """\
type Opts {
\tnote string?
\tlevel int? @default(1)
}

@requiresOneOf(a, b)
type OneOf {
\ta string?
\tb string?
}

type Need {
\tname string
}

error Internal Broken {
\tdetail string
}

error BadRequest Refused {
\treason string
}

error NotFound Missing {}

type Q {
\tid string @path
}

service Shop {
\tpost Opts /opts { request Opts }
\tpost OneOf /one { request OneOf }
\tpost Need /need { request Need }

\t@errors(Broken, Refused, Missing)
\tpost Fails /fails { request Need }

\t@errors(Refused, Broken)
\tget Plain /plain/{id} { request Q }

\t@errors(Broken)
\tget Bare /bare {}
}
"""
)


def test_request_body_is_required_only_when_the_empty_object_is_refused() -> None:
    d = doc(SERVICE)
    assert op(d, "/opts", "post")["requestBody"]["required"] is False  # every field optional
    assert op(d, "/one", "post")["requestBody"]["required"] is True  # @requiresOneOf refuses {}
    assert op(d, "/need", "post")["requestBody"]["required"] is True


def _error_schema(d: dict, path: str, verb: str, status: str) -> dict:
    return op(d, path, verb)["responses"][status]["content"]["application/json"]["schema"]


def test_a_declared_error_at_a_framework_status_also_documents_the_framework_body() -> None:
    d = doc(SERVICE)
    framework = {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}
    for status, typed in (("500", "Broken"), ("400", "Refused")):
        s = _error_schema(d, "/fails", "post", status)
        assert s["anyOf"][0] == {"$ref": f"#/components/schemas/{typed}"}
        assert {k: v for k, v in s["anyOf"][1].items() if k != "description"} == framework
    assert _error_schema(d, "/fails", "post", "404") == {"$ref": "#/components/schemas/Missing"}
    # a GET with only a path binding is still bound and validated: 400 is the framework's too
    assert "anyOf" in _error_schema(d, "/plain/{id}", "get", "400")
    assert "anyOf" in _error_schema(d, "/bare", "get", "500")  # unknown errors, panics


def test_any_without_nullable_refuses_null_and_nullable_takes_it() -> None:
    d = doc(
        PKG + "type T {\n\ta any\n\tb any?\n\tc any @nullable\n\td any[]\n}\n"
        "service S {\n\tpost M /m { request T response T }\n}\n"
    )
    props = schema(d, "T")["properties"]
    assert props["a"] == {"not": {"type": "null"}}
    assert props["b"] == {"not": {"type": "null"}}  # optional: absent, never null
    assert props["c"] == {}
    assert props["d"] == {"type": "array", "items": {}}  # a nil element is null both ways


def test_types_refuse_unknown_members_as_the_strict_decoder_does() -> None:
    d = doc(SERVICE)
    assert schema(d, "Need")["additionalProperties"] is False
    assert "additionalProperties" not in schema(d, "Broken")  # errors are written, never read


def test_float32_bytes_and_regex_formats_are_stated_as_keywords() -> None:
    d = doc(
        PKG + "type T {\n\tf float32\n\tb bytes\n\tp string @format(phone)\n}\n"
        "service S {\n\tpost M /m { request T }\n}\n"
    )
    props = schema(d, "T")["properties"]
    assert props["f"]["maximum"] == FLOAT32_MAX and props["f"]["minimum"] == -FLOAT32_MAX
    assert props["b"]["pattern"] == BASE64_PATTERN
    assert props["p"] == {"type": "string", "format": "phone", "pattern": FORMAT_PATTERNS["phone"]}


def test_format_patterns_are_the_go_helpers_regexes() -> None:
    for name, pattern in FORMAT_PATTERNS.items():
        go = (HELPERS / f"{name}.go.j2").read_text()
        [source] = re.findall(r"regexp\.MustCompile\(`([^`]*)`\)", go)
        assert source == pattern, name
