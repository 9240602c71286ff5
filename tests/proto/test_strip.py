"""The first look's transform: custom option values blanked, every other byte in place, so
that protoc's lines and columns on the stripped text are those of the real one."""

from __future__ import annotations

import pytest

from kit_core.proto.strip import strip_custom_options


def stripped(text: str) -> str:
    out = strip_custom_options(text.encode("utf-8"))
    assert out is not None
    assert len(out) == len(text.encode("utf-8"))
    # newlines and tabs stay where they were: protoc's (line, column) do not move
    assert [i for i, b in enumerate(out) if b in b"\n\t"] == [i for i, b in enumerate(text.encode()) if b in b"\n\t"]
    return out.decode("utf-8")


def squeeze(text: str) -> str:
    return " ".join(text.split())


def test_a_custom_option_list_goes_whole() -> None:
    text = "  string id = 1 [(buf.validate.field).string = {min_len: 1, max_len: 256}];\n"
    assert stripped(text) == "  string id = 1" + " " * (len(text) - len("  string id = 1;\n")) + ";\n"


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ('int64 a = 1 [(x.y) = 1, packed = true, (x.z).w = {a: "]"}];', "int64 a = 1 [ packed = true ];"),
        (
            'int64 a = 1 [deprecated = true, (x.y) = 1, json_name = "aB"];',
            'int64 a = 1 [ json_name = "aB"];',
        ),
        # `deprecated` decides no error: it goes too (no option left to interpret)
        ('int64 a = 1 [(x.y) = 1, deprecated = true, (x.z).w = {a: "]"}];', "int64 a = 1 ;"),
        ("V = 2 [deprecated = true];", "V = 2 ;"),
        ('string d = 1 [json_name = "dN", deprecated = false];', 'string d = 1 [json_name = "dN" ];'),
        ('string d = 1 [json_name = "deprecated = true"];', 'string d = 1 [json_name = "deprecated = true"];'),
        ('int64 a = 1 [json_name = "aB", (x.y) = {b: [1, 2]}];', 'int64 a = 1 [json_name = "aB" ];'),
        ("V = 1 [(x.y) = 1];", "V = 1 ;"),
        ('string p = 1 [(v.f).string.pattern = "^[a-z](x)$"];', "string p = 1 ;"),
        ("int64 a = 1 [(x.y) = {a: {b: <c: 1>}; d: 2}];", "int64 a = 1 ;"),
    ],
)
def test_custom_entries_go_builtin_ones_that_decide_errors_stay(text: str, left: str) -> None:
    assert squeeze(stripped(text)) == squeeze(left)


def test_custom_option_statements_go_builtin_ones_that_decide_errors_stay() -> None:
    text = (
        'option go_package = "x/y;y";\n'
        "option java_multiple_files = true;\n"
        "option optimize_for = LITE_RUNTIME;\n"
        "option (a.b) = true;\n"
        "message M {\n"
        '  option (buf.validate.message).cel = {id: "w", expression: "this.a >= this.b; {"};\n'
        "  option (c) = {\n    d: 1\n    e: [1, 2]\n  };\n"
        "  int64 a = 1;\n"
        "}\n"
        "enum E {\n  option allow_alias = true;\n  option deprecated = true;\n  A = 0;\n  B = 0;\n}\n"
        'service S {\n  rpc R(M) returns (M) {\n    option (google.api.http) = {get: "/v1/{a}"};\n  }\n}\n'
    )
    out = stripped(text)
    assert "option allow_alias = true;" in out and "option optimize_for = LITE_RUNTIME;" in out
    assert "go_package" not in out and "java_multiple_files" not in out and "deprecated" not in out
    assert "(a.b)" not in out and "cel" not in out and "d: 1" not in out and "google.api" not in out
    assert "message M {" in out and "int64 a = 1;" in out and "rpc R(M) returns (M) {" in out


def test_comments_and_strings_are_not_options() -> None:
    text = (
        "// option (x) = 1; and [(y) = 2]\n"
        "/* option (z) = {\n a: 1 } */\n"
        'string s = 1 [default = "option (q) = 1;"];\n'
        "int32 option = 2;\n"
        "int32 options = 3;\n"
    )
    assert stripped(text) == text


def test_non_ascii_and_tabs_keep_their_bytes() -> None:
    text = '\tint64 a = 1 [(x.y) = {s: "héllo\tw"}];\tint64 b = 2;\n'
    out = stripped(text)
    # the two bytes of "é" are two spaces: what follows keeps its byte column
    assert out.endswith("\tint64 b = 2;\n") and out.encode().index(b"int64 b") == text.encode().index(b"int64 b")


@pytest.mark.parametrize(
    "text",
    [
        "int64 a = 1 [(x.y) = {a: 1];\n",  # an unbalanced value
        'int64 a = 1 [(x.y) = "no end];\n',  # an unterminated string
        "option (x) = {a: 1;\nmessage M {}\n",  # a statement running into the next
        "int64 a = 1 [(x.y) = 1;\nint64 b = 2;\n",  # a list running into the next statement
        "/* never closed\noption (x) = 1;\n",
    ],
)
def test_text_that_does_not_scan_has_no_stripped_form(text: str) -> None:
    assert strip_custom_options(text.encode()) is None


def test_nothing_to_strip_is_the_same_bytes() -> None:
    data = b'syntax = "proto3";\nmessage A { string id = 1 [packed = true]; map<string, A> m = 2; }\n'
    assert strip_custom_options(data) == data
