"""Lowering: designs lowered and checked field by field (spans, literals, trivia, codes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit_core.lower import parse_file
from kit_core.model import (
    EnumDecl,
    ErrorDecl,
    EventDecl,
    Field,
    LiteralKind,
    MiddlewareDecl,
    Mixin,
    ScalarDecl,
    ServiceDecl,
    SourceFile,
    TypeDecl,
)

DESIGNS = Path(__file__).parent / "grammar" / "designs"


def lower(text: str, path: str = "t.kit") -> SourceFile:
    return parse_file(path, text)


def codes(f: SourceFile) -> list[tuple[str, int]]:
    """(code, 1-based line) of every parse diagnostic."""
    return [(d.code, d.span.start_line + 1) for d in f.parse_diagnostics]  # type: ignore[attr-defined]


@pytest.mark.parametrize("design", sorted(DESIGNS.glob("*.kit")), ids=lambda p: p.name)
def test_shared_designs_lower_cleanly(design: Path) -> None:
    f = parse_file(design.name, design.read_text(encoding="utf-8"))
    assert codes(f) == []
    assert f.package


def test_users_design_shape() -> None:
    f = parse_file("users.kit", (DESIGNS / "users.kit").read_text(encoding="utf-8"))
    assert f.package == "users"
    assert [d.name for d in f.decorators] == ["version", "doc"]
    assert f.package_trivia.doc_text == "Users API: the design used by the lowering tests."
    kinds = {type(d) for d in f.declarations}
    assert kinds == {TypeDecl, EnumDecl, ScalarDecl, ErrorDecl, MiddlewareDecl, ServiceDecl, EventDecl}
    user = next(d for d in f.declarations if d.name == "User")
    assert isinstance(user, TypeDecl)
    assert user.doc == "A registered user."
    assert isinstance(user.members[0], Mixin)
    tags = next(m for m in user.members if isinstance(m, Field) and m.name == "tags")
    assert [d.name for d in tags.decorators] == ["maxItems", "uniqueItems"]
    score = next(m for m in user.members if isinstance(m, Field) and m.name == "score")
    arg = score.decorators[0].args[0]
    assert (arg.kind, arg.value, arg.text) == (LiteralKind.FLOAT, -1.5, "-1.5")


def one(body: str) -> SourceFile:
    """Lower ``package p`` plus ``body`` (so body line N is file line N + 1)."""
    return lower("package p\n" + body)


def decl(body: str, index: int = 0):  # type: ignore[no-untyped-def]
    f = one(body)
    assert codes(f) == [], [d.render() for d in f.parse_diagnostics]  # type: ignore[attr-defined]
    return f.declarations[index]


# --------------------------------------------------------------------------- spans


def test_spans_are_zero_based_with_utf16_columns() -> None:
    f = one('type T {\n\tname string @doc("héllo 😀") @maxLength(5)\n}\n')
    t = f.declarations[0]
    assert isinstance(t, TypeDecl)
    field = t.fields[0]
    assert (field.name_span.start_line, field.name_span.start_col, field.name_span.end_col) == (2, 1, 5)
    max_len = field.decorators[1]
    # bytes: é is 2 bytes, 😀 is 4; UTF-16: é is 1 unit, 😀 is 2
    assert (max_len.span.start_col, max_len.span.start_col16) == (33, 30)
    assert (max_len.name_span.start_col, max_len.name_span.start_col16) == (34, 31)
    assert max_len.span.end_col16 == 43
    assert field.decorators[0].args[0].value == "héllo 😀"
    assert t.span.start_line == 1 and t.span.end_line == 3
    assert t.name_span.display() == "t.kit:2:6"


def test_declaration_span_includes_its_decorators() -> None:
    t = decl('// doc\n@doc("x")\n@deprecated\ntype T {}')
    assert (t.span.start_line, t.span.start_col) == (2, 0)
    assert (t.name_span.start_line, t.name_span.start_col) == (4, 5)
    assert t.trivia.doc_text == "doc"


# --------------------------------------------------------------------------- literals


def args(decorator_args: str) -> tuple:  # type: ignore[type-arg]
    t = decl(f"@x({decorator_args})\ntype T {{}}")
    return t.decorators[0].args


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ('"plain"', LiteralKind.STRING, "plain"),
        (r'"a\nb\t\r\"q\" \\ \u{41}\u{1F600}"', LiteralKind.STRING, 'a\nb\t\r"q" \\ A😀'),
        ('`raw \\d+ "x"`', LiteralKind.RAW_STRING, 'raw \\d+ "x"'),
        ("`two\nlines`", LiteralKind.RAW_STRING, "two\nlines"),
        ("42", LiteralKind.INT, 42),
        ("-7", LiteralKind.INT, -7),
        ("9223372036854775807", LiteralKind.INT, 2**63 - 1),
        ("-9223372036854775808", LiteralKind.INT, -(2**63)),
        ("1.5", LiteralKind.FLOAT, 1.5),
        ("-0.25", LiteralKind.FLOAT, -0.25),
        ("true", LiteralKind.BOOL, True),
        ("false", LiteralKind.BOOL, False),
        ("null", LiteralKind.NULL, None),
        ("email", LiteralKind.IDENT, "email"),
        ("Pending", LiteralKind.IDENT, "Pending"),
        ("payload", LiteralKind.IDENT, "payload"),
        ("users.UserNotFound", LiteralKind.IDENT, "users.UserNotFound"),
        ("5s", LiteralKind.DURATION, 5 * 10**9),
        ("100ms", LiteralKind.DURATION, 100 * 10**6),
        ("1.5h", LiteralKind.DURATION, 5400 * 10**9),
        ("2m", LiteralKind.DURATION, 120 * 10**9),
        ("7us", LiteralKind.DURATION, 7000),
        ("7µs", LiteralKind.DURATION, 7000),
        ("3ns", LiteralKind.DURATION, 3),
        ("2MB", LiteralKind.SIZE, 2 * 1024**2),
        ("8KB", LiteralKind.SIZE, 8192),
        ("1.5GB", LiteralKind.SIZE, 1610612736),
        ("0.5KB", LiteralKind.SIZE, 512),
        ("100B", LiteralKind.SIZE, 100),
    ],
)
def test_literal_kinds_and_values(text: str, kind: LiteralKind, value: object) -> None:
    (lit,) = args(text)
    assert (lit.kind, lit.value, lit.text) == (kind, value, text)


def test_array_literals_nest() -> None:
    (arr,) = args('[a, "b", [1, -2], []]')
    assert arr.kind is LiteralKind.ARRAY and arr.value is None
    assert [i.kind for i in arr.items] == [
        LiteralKind.IDENT,
        LiteralKind.STRING,
        LiteralKind.ARRAY,
        LiteralKind.ARRAY,
    ]
    assert [i.value for i in arr.items[2].items] == [1, -2]
    assert arr.items[3].items == ()


def test_flag_and_empty_parens() -> None:
    t = decl("@deprecated\n@nullable()\ntype T {}")
    flag, empty = t.decorators
    assert (flag.name, flag.has_parens, flag.args) == ("deprecated", False, ())
    assert (empty.name, empty.has_parens, empty.args) == ("nullable", True, ())
    assert (flag.name_span.start_col, flag.name_span.end_col) == (1, 11)


# --------------------------------------------------------------------------- types


def test_type_refs() -> None:
    t = decl(
        "type T<K, V> {\n"
        "\ta string?\n\tb int[][]\n\tc map<string, User[]>?\n\td shared.Page<shared.Item, V>[]\n\te K\n}"
    )
    assert [p.name for p in t.params] == ["K", "V"]
    a, b, c, d, e = (f.type for f in t.fields)
    assert (a.name, a.optional, a.array_dims) == ("string", True, 0)
    assert (b.name, b.array_dims, b.text()) == ("int", 2, "int[][]")
    assert c.is_map and c.optional and [x.text() for x in c.args] == ["string", "User[]"]
    assert c.text() == "map<string, User[]>?"
    assert (d.package, d.name, d.array_dims) == ("shared", "Page", 1)
    assert d.text() == "shared.Page<shared.Item, V>[]"
    assert (d.name_span.start_col, d.name_span.end_col) == (10, 14)
    assert e.name == "K"


def test_members_fields_and_mixins() -> None:
    t = decl("type U {\n\tAudit\n\tshared.Base\n\tPage<User>\n\tCount int\n\tevent Event\n\tCreatedAt MyType\n}")
    kinds = [(type(m).__name__, m.name if isinstance(m, Field) else m.ref.text()) for m in t.members]
    assert kinds == [
        ("Mixin", "Audit"),
        ("Mixin", "shared.Base"),
        ("Mixin", "Page<User>"),
        ("Field", "Count"),
        ("Field", "event"),
        ("Mixin", "CreatedAt"),
        ("Mixin", "MyType"),
    ]


def test_compact_one_line_body() -> None:
    t = decl("type User { Audit  id string  name string }")
    assert [type(m).__name__ for m in t.members] == ["Mixin", "Field", "Field"]


def test_enums() -> None:
    f = one('enum S { Active Gone @doc("x") }\nenum C {\n\tRed = "red"\n}\nenum P { Low = -1 High = 9 }')
    s, c, p = f.declarations
    assert isinstance(s, EnumDecl) and isinstance(c, EnumDecl) and isinstance(p, EnumDecl)
    assert [(v.name, v.value) for v in s.values] == [("Active", None), ("Gone", None)]
    assert [d.name for d in s.values[1].decorators] == ["doc"]
    assert c.values[0].value is not None and c.values[0].value.value == "red"
    assert [v.value.value for v in p.values if v.value] == [-1, 9]


def test_enum_value_names_may_be_keywords() -> None:
    e = decl("enum E { event payload type get }")
    assert [v.name for v in e.values] == ["event", "payload", "type", "get"]


def test_scalar_error_middleware() -> None:
    f = one(
        "scalar Email string @format(email) @maxLength(254)\nerror NotFound Missing\n"
        "error Conflict Taken { email string }\nmiddleware Auth"
    )
    s, missing, taken, mw = f.declarations
    assert isinstance(s, ScalarDecl) and s.primitive.name == "string"
    assert [d.name for d in s.decorators] == ["format", "maxLength"]
    assert isinstance(missing, ErrorDecl) and (missing.category, missing.has_body, missing.members) == (
        "NotFound",
        False,
        (),
    )
    assert missing.category_span.start_col == 6
    assert isinstance(taken, ErrorDecl) and taken.has_body and taken.fields[0].name == "email"
    assert isinstance(mw, MiddlewareDecl) and mw.name == "Auth"


# --------------------------------------------------------------------------- services, events


def test_services_methods_routes() -> None:
    f = one(
        '@prefix("/u")\nservice S {\n'
        "\t@timeout(5s)\n\tget A /users/{id}/api-v1 {\n\t\trequest  Req\n\t\tresponse Page<User>\n\t}\n"
        "\tpost B / { response R request Q }\n"
        "\tdelete C {}\n"
        "\toptions D /files/{rest...} {}\n"
        "}\nextend service S { head E /e {} }"
    )
    s, ext = f.declarations
    assert isinstance(s, ServiceDecl) and isinstance(ext, ServiceDecl)
    assert (s.extend, ext.extend) == (False, True)
    a, b, c, d = s.methods
    assert (a.verb, a.name, [x.name for x in a.decorators]) == ("get", "A", ["timeout"])
    assert a.route is not None and a.route.text == "/users/{id}/api-v1"
    assert [(x.text, x.var, x.wildcard) for x in a.route.segments] == [
        ("users", None, False),
        ("{id}", "id", False),
        ("api-v1", None, False),
    ]
    assert a.request is not None and a.request.name == "Req"
    assert a.response is not None and a.response.text() == "Page<User>"
    assert a.span.start_line == 3  # includes the decorator line
    assert b.route is not None and (b.route.text, b.route.segments) == ("/", ())
    assert (b.request and b.request.name, b.response and b.response.name) == ("Q", "R")
    assert c.route is None and c.request is None and c.response is None
    assert d.route is not None and d.route.segments[1].wildcard and d.route.segments[1].var == "rest"
    assert ext.methods[0].verb == "head"


def test_path_segments_may_be_keywords() -> None:
    s = decl("service S { get Logs /logs/{service}/event {} }")
    route = s.methods[0].route
    assert [x.text for x in route.segments] == ["logs", "{service}", "event"]
    assert route.segments[1].var == "service"


def test_events() -> None:
    f = one('@contract("x.y")\nevent A { payload User }\nevent B { payload pkg.User[] }\nevent C {}')
    a, b, c = f.declarations
    assert isinstance(a, EventDecl) and a.payload is not None and a.payload.name == "User"
    assert not a.payload_array and a.decorators[0].name == "contract"
    assert isinstance(b, EventDecl) and b.payload_array and b.payload is not None and b.payload.package == "pkg"
    assert isinstance(c, EventDecl) and c.payload is None


def test_keywords_as_field_names() -> None:
    t = decl("type T { type string event E payload any map map<string, int> get bool }")
    assert [f.name for f in t.fields] == ["type", "event", "payload", "map", "get"]


# --------------------------------------------------------------------------- trivia


def test_doc_and_trailing_comments() -> None:
    f = lower(
        "// Header line one.\n// Header line two.\npackage p // pkg\n\n"
        "// detached by the blank line\n\n"
        "// Doc of T.\n// Second line.\n"
        "type T { // after brace\n"
        "\t// Doc of a.\n"
        '\ta string @doc("x") // trailing a\n'
        "\t// free? no: doc of b\n"
        "\tb int\n"
        "} // after T\n"
    )
    t = f.declarations[0]
    assert f.package_trivia.doc_text == "Header line one.\nHeader line two."
    assert f.package_trivia.trailing is not None and f.package_trivia.trailing.text == "// pkg"
    assert t.trivia.doc_text == "Doc of T.\nSecond line."
    assert t.trivia.trailing is not None and t.trivia.trailing.text == "// after T"
    a, b = t.fields
    assert a.trivia.doc_text == "Doc of a."
    assert a.trivia.trailing is not None and a.trivia.trailing.body == "trailing a"
    assert b.trivia.doc_text == "free? no: doc of b"
    assert [c.text for c in f.comments][3:5] == ["// detached by the blank line", "// Doc of T."]
    assert len(f.comments) == 11
    assert f.comments[-1].span.start_line == 13


def test_trailing_comment_keeps_its_crlf_out() -> None:
    f = lower("package p\r\ntype T {} // x\r\n")
    assert f.comments[0].text == "// x"
    assert f.declarations[0].trivia.trailing == f.comments[0]


def test_method_doc_and_body_comments() -> None:
    s = decl("service S {\n\t// Gets A.\n\t@x\n\tget A /a {\n\t\t// inside\n\t\tresponse R // r\n\t}\n}")
    m = s.methods[0]
    assert m.doc == "Gets A."
    assert [c.text for c in m.body_comments] == ["// inside", "// r"]


def test_doc_decorator_wins_over_comment() -> None:
    t = decl('// comment doc\n@doc("decorator doc")\ntype T {}')
    assert t.doc == "decorator doc"


# --------------------------------------------------------------------------- placement (§2.11)


def test_field_decorators_trail_and_continue_on_following_lines() -> None:
    t = decl("type T {\n\ta string @a\n\t\t@b\n\n\t\t// comment\n\t\t@c\n\tb int\n}")
    a, b = t.fields
    assert [d.name for d in a.decorators] == ["a", "b", "c"]
    assert b.decorators == ()


def test_decorators_above_the_first_field_and_after_a_mixin() -> None:
    t = decl('type T {\n\t@doc("first")\n\ta string\n\tAudit\n\t@doc("after mixin")\n\tb int\n}')
    a, _, b = t.members
    assert isinstance(a, Field) and [d.name for d in a.decorators] == ["doc"]
    assert a.span.start_line == 2 and a.name_span.start_line == 3
    assert isinstance(b, Field) and b.decorators[0].args[0].value == "after mixin"


def test_file_decorators_and_decorators_below_the_package() -> None:
    f = lower('@version("1")\n@doc("api")\npackage p\n@doc("goes to T")\ntype T {}')
    assert [d.name for d in f.decorators] == ["version", "doc"]
    assert f.declarations[0].decorators[0].args[0].value == "goes to T"
    assert f.package_span is not None and f.package_span.start_line == 2


def test_scalar_validators_stop_at_the_line_end() -> None:
    f = one('scalar S string @minLength(1)\n@doc("t")\ntype T {}')
    s, t = f.declarations
    assert [d.name for d in s.decorators] == ["minLength"]
    assert s.span.end_line == 1
    assert [d.name for d in t.decorators] == ["doc"]
    assert codes(f) == []


# --------------------------------------------------------------------------- parse codes


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('middleware M @doc("m")', [("parse/decorator-after-decl", 2)]),
        ('type T {} @doc("x")\ntype U {}', [("parse/decorator-after-decl", 2)]),
        ("service S {\n\tget A /a {} @x\n\tget B /b {}\n}", [("parse/decorator-after-decl", 3)]),
        ("type T\ntype U {}", [("parse/type-without-body", 2)]),
        ("enum E { A = 9223372036854775808 }", [("parse/int-range", 2)]),
        ("enum E { A = -9223372036854775809 }", [("parse/int-range", 2)]),
        ("type T {\n\ta int @gt(99999999999999999999)\n}", [("parse/int-range", 3)]),
        ("type T {\n\ta int @gt(" + "9" * 5000 + ")\n}", [("parse/int-range", 3)]),
        ("type T {\n\ta int @gt(-" + "9" * 5000 + ")\n}", [("parse/int-range", 3)]),
        ('@doc("\\u{110000}")\ntype T {}', [("parse/unicode-escape", 2)]),
        ('@doc("\\u{D800}")\ntype T {}', [("parse/unicode-escape", 2)]),
        ('@doc("\\u{}")\ntype T {}', [("parse/unicode-escape", 2)]),
        ('@doc("\\u{1234567}")\ntype T {}', [("parse/unicode-escape", 2)]),
        ('@doc("\\u{12G}")\ntype T {}', [("parse/unicode-escape", 2)]),
        ('@doc("\\u0041")\ntype T {}', [("parse/unicode-escape", 2)]),
        ('@doc("\\q")\ntype T {}', [("parse/string-escape", 2)]),
        ("@doc(@x)\ntype T {}", [("parse/nested-decorator", 2)]),
        ("@errors([@x])\ntype T {}", [("parse/nested-decorator", 2)]),
        ("type T {\n\ta int @gt(5xyz)\n}", [("parse/number-suffix", 3)]),
        ("@maxSize(2mb)\ntype T {}", [("parse/number-suffix", 2)]),
        ("@maxSize(1TB)\ntype T {}", [("parse/number-suffix", 2)]),
        ("@x(0x10)\ntype T {}", [("parse/number-suffix", 2)]),
        ("@x(1e6)\ntype T {}", [("parse/number-suffix", 2)]),
        ("@timeout(1h30m)\ntype T {}", [("parse/number-suffix", 2)]),
        ("error Teapot T", [("parse/error-category", 2)]),
        ("error RequestTimeout T {}", [("parse/error-category", 2)]),
    ],
)
def test_parse_codes(body: str, expected: list[tuple[str, int]]) -> None:
    assert codes(one(body)) == expected


@pytest.mark.parametrize(
    "body",
    [
        'middleware M\n@doc("m")\ntype T {}',
        "scalar S string @minLength(1) @maxLength(5)",
        "type T {}",
        "enum E { A = 9223372036854775807 B = -9223372036854775808 }",
        '@doc("\\u{10FFFF} \\u{0} \\u{1F600} \\n\\t\\r\\"\\\\")\ntype T {}',
        '@doc("@x")\ntype T {}',
        "@timeout(5s)\n@maxSize(2MB)\ntype T {}",
        "error NotFound T",
        "error GatewayTimeout T {}",
        "service S {\n\tget A /a {}\n\n\t@x\n\tget B /b {}\n}",
    ],
)
def test_near_misses_are_clean(body: str) -> None:
    assert codes(one(body)) == []


@pytest.mark.parametrize(
    "category",
    [
        "BadRequest",
        "Unauthorized",
        "PaymentRequired",
        "Forbidden",
        "NotFound",
        "MethodNotAllowed",
        "NotAcceptable",
        "Conflict",
        "Gone",
        "LengthRequired",
        "PreconditionFailed",
        "PayloadTooLarge",
        "UnsupportedMediaType",
        "UnprocessableEntity",
        "Locked",
        "TooManyRequests",
        "Internal",
        "NotImplemented",
        "BadGateway",
        "ServiceUnavailable",
        "GatewayTimeout",
    ],
)
def test_every_error_category_is_accepted(category: str) -> None:
    assert codes(one(f"error {category} E")) == []


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("type T {\n\ta string", 3, "missing `}` to close `type T {`"),
        ("type T {\n\ta string;\n}", 3, "unexpected character `;`"),
        ("/* block */\ntype T {}", 2, "block comments are not supported - use `//` line comments"),
        ("type T { naïve string }", 2, "unexpected character `ï`"),
        ("@x(-foo)\ntype T {}", 2, "expected number after '-'"),
        ("@x(k: v)\ntype T {}", 2, "named arguments are not supported - the arguments of @x are positional"),
        ("@x({a: 1})\ntype T {}", 2, "object literals are not supported as arguments of @x"),
        ("middleware M(x)", 2, "a middleware takes no parameters"),
        ('@doc("open\n")\ntype T {}', 2, "unterminated string literal"),
        ("service S {\n\tconsume X {}\n}", 3, "`consume` was removed"),
        ("service S {\n\tevent E { payload T }\n}", 3, "event E is declared inside service S"),
        ("service S {\n\tpost A {\n\t\trequest X[]\n\t}\n}", 4, "request of A cannot be a bare array"),
        ("service S {\n\tpost A {\n\t\tresponse X?\n\t}\n}", 4, "response of A cannot be optional"),
        (
            "service S {\n\tpost A {\n\t\trequest X\n\t\trequest Y\n\t}\n}",
            5,
            "duplicate request clause in method A",
        ),
        ("service S { get A /a/ {} }", 2, "route cannot end with `/`"),
        ("service S { get A /a//b {} }", 2, "empty path segment (`//`) in route"),
        ("service S { get A /a- {} }", 2, "path segment a- cannot end with `-`"),
        ("service S { get A /a /b {} }", 2, "unexpected space in route"),
        ("type event {}", 2, "`event` is a keyword and cannot name a type"),
        ('type T { @doc("x") Audit }', 2, "a mixin takes no decorators"),
        ("type T {\n\tAudit\n\ta\n}", 4, "field a needs a type"),
        ('@doc("x")', 2, "decorator @doc is not followed by a declaration"),
        ('import "x"\n@doc("x")\nimport "y"', 3, "an import takes no decorators"),
        ("type T {\n\ta string\n}\npackage q", 5, "the package clause must come first"),
        ("get A /a {}", 2, "method `get ...` must be inside a `service` block"),
        ("enum E { A = -x }", 2, "expected number after '-'"),
        ("enum E { A, B }", 2, "unexpected `,` in enum body"),
        ("type T {\n\ta int @gt(.5)\n}", 3, "unexpected `.`"),
    ],
)
def test_syntax_errors_are_located_and_explained(body: str, line: int, message: str) -> None:
    f = one(body)
    found = [(d.code, d.span.start_line + 1, d.message) for d in f.parse_diagnostics]  # type: ignore[attr-defined]
    assert any(c == "parse/syntax" and ln == line and message in m for c, ln, m in found), found


def test_errors_keep_the_rest_of_the_file() -> None:
    f = one("type A {}\nwhat is this\ntype B { a string }")
    assert [d.name for d in f.declarations] == ["A", "B"]
    assert codes(f) == [("parse/syntax", 3)]


def test_empty_and_comment_only_files() -> None:
    empty = lower("")
    assert (empty.package, empty.declarations, empty.parse_diagnostics) == (None, (), ())
    only = lower("// just a comment\n")
    assert only.package is None and len(only.comments) == 1 and codes(only) == []


# --------------------------------------------------------------------------- incremental, speed


def test_incremental_reparse_matches_fresh_parse() -> None:
    from kit_core import syntax
    from kit_core.lower import lower_tree, parse_with_tree

    text = (DESIGNS / "users.kit").read_bytes()
    first, tree = parse_with_tree("u.kit", text)
    at = text.index(b"type Page<T>")
    new_tree, new_text = syntax.apply_edit(tree, text, syntax.TextEdit(at, at, b"type Extra { x int }\n"))
    again = lower_tree("u.kit", new_text, new_tree)
    assert again == parse_file("u.kit", new_text)
    assert len(again.declarations) == len(first.declarations) + 1


def test_lowering_a_3000_line_file_is_fast() -> None:
    import time

    unit = (DESIGNS / "orders.kit").read_text(encoding="utf-8").split("\n", 2)[2]
    text = "package big\n" + "".join(unit.replace("Order", f"Order{i}") for i in range(3000 // unit.count("\n")))
    assert text.count("\n") >= 2900
    parse_file("big.kit", text)  # warm up
    start = time.perf_counter()
    f = parse_file("big.kit", text)
    elapsed = time.perf_counter() - start
    assert codes(f) == []
    assert elapsed < 0.5, f"lowering 3000 lines took {elapsed * 1000:.0f} ms"


@pytest.mark.parametrize(
    "body",
    [
        "@x(" + "[" * 3000 + "]" * 3000 + ")\ntype T {}",
        "@x(" + "[" * 3000,
        "type T { a " + "A<" * 3000 + "B" + ">" * 3000 + " }",
        "type T { a " + "A<" * 3000,
    ],
    ids=["deep-array", "deep-open-array", "deep-generic", "deep-open-generic"],
)
def test_deep_nesting_is_reported_not_a_crash(body: str) -> None:
    f = one(body)
    assert [c for c, _ in codes(f)] == ["parse/syntax"]


def test_nesting_within_the_limit_is_fine() -> None:
    t = decl("type T { a " + "A<" * 20 + "B" + ">" * 20 + " }")
    ref = t.fields[0].type
    depth = 0
    while ref.args:
        ref, depth = ref.args[0], depth + 1
    assert (depth, ref.name) == (20, "B")


def test_upper_case_name_then_builtin_on_the_next_line_is_a_mixin() -> None:
    t = decl("type Upload {\n\tBase\n\tfile file @form\n\tCount int\n}")
    assert [(type(m).__name__, m.name if isinstance(m, Field) else m.ref.name) for m in t.members] == [
        ("Mixin", "Base"),
        ("Field", "file"),
        ("Field", "Count"),
    ]
