"""The canonical layout of `kit fmt` (dsl-facts §5.1) and its refusals (§5.2)."""

from __future__ import annotations

import textwrap

import pytest

from kit_core.format import format_source


def fmt(src: str) -> str:
    result = format_source("t.kit", textwrap.dedent(src).lstrip("\n"))
    assert result.ok, [d.message for d in result.diagnostics]
    again = format_source("t.kit", result.text)
    assert again.text == result.text, "not idempotent"
    return result.text


def expect(src: str) -> str:
    return textwrap.dedent(src).lstrip("\n")


CASES = {
    "file order and blank lines": (
        """
        // Header.

        @version("1.0.0")
        package users
        import "shared"
        import b "other"
        type A {}
        middleware M
        """,
        """
        // Header.

        @version("1.0.0")
        package users

        import "shared"
        import b "other"

        type A {}

        middleware M
        """,
    ),
    "aligned fields, decorators on the field line": (
        """
        package p
        type User {
          id string
          email string @format("email") @length(1, 200)
          tags string[] @minItems(1)
              @maxItems(10)
          shared.Audit
        }
        """,
        """
        package p

        type User {
        \tid    string
        \temail string   @format(email) @length(1, 200)
        \ttags  string[] @minItems(1) @maxItems(10)
        \tshared.Audit
        }
        """,
    ),
    "default adds ?, flags lose parens, reserved words stay quoted": (
        """
        package p
        type T {
          n int @default(1)
          id string @default("x") @path
          f string @sensitive() @format("null")
        }
        """,
        """
        package p

        type T {
        \tn  int?   @default(1)
        \tid string @default("x") @path
        \tf  string @sensitive @format("null")
        }
        """,
    ),
    "literals kept as written": (
        """
        package p
        type T {
          a float64 @gte(1.50) @example(-3)
          b string @pattern(`^a\\d+$`) @example("\\u{1F600}")
          c string @example([1,2 , "x"])
        }
        enum E { A = -1 B = 0002 }
        """,
        """
        package p

        type T {
        \ta float64 @gte(1.50) @example(-3)
        \tb string  @pattern(`^a\\d+$`) @example("\\u{1F600}")
        \tc string  @example([1, 2, "x"])
        }

        enum E {
        \tA = -1
        \tB = 0002
        }
        """,
    ),
    "enums: values padded, decorators after one space": (
        """
        package p
        enum Status { Active @doc("on") Disabled }
        enum Color {
          Red = "red" @doc("r")
          Yellow = "yellow"
        }
        """,
        """
        package p

        enum Status {
        \tActive @doc("on")
        \tDisabled
        }

        enum Color {
        \tRed    = "red" @doc("r")
        \tYellow = "yellow"
        }
        """,
    ),
    "services: methods separated, clauses aligned, compact methods expanded": (
        """
        package p
        @prefix("/u")
        service S {
          @middlewares(Auth)
          @timeout(5s)
          get A /a/{id} { response R request Q }
          post B {}
          delete C / {
            response R
          }
        }
        extend service S { get D /d {} }
        """,
        """
        package p

        @prefix("/u")
        service S {
        \t@middlewares(Auth)
        \t@timeout(5s)
        \tget A /a/{id} {
        \t\trequest  Q
        \t\tresponse R
        \t}

        \tpost B {}

        \tdelete C / {
        \t\tresponse R
        \t}
        }

        extend service S {
        \tget D /d {}
        }
        """,
    ),
    "scalars, errors, events, generics, maps": (
        """
        package p
        scalar Email string   @format(email)  @maxLength(200)
        error NotFound Missing
        error Conflict Taken { email string }
        event Placed { payload Order[] }
        type Page<T,U> { items T[] m map<string,U?> }
        """,
        """
        package p

        scalar Email string @format(email) @maxLength(200)

        error NotFound Missing

        error Conflict Taken {
        \temail string
        }

        event Placed {
        \tpayload Order[]
        }

        type Page<T, U> {
        \titems T[]
        \tm     map<string, U?>
        }
        """,
    ),
    "comments stay where they stood": (
        """
        // doc of the package
        package p // trailing
        // doc of T
        type T { // on the brace
          // doc of a
          a string   // after a

          // free comment in the body

          b int
          // last in body
        }   // after the brace


        // free comment


        type U {}
        """,
        """
        // doc of the package
        package p // trailing

        // doc of T
        type T { // on the brace
        \t// doc of a
        \ta string // after a

        \t// free comment in the body

        \tb int
        \t// last in body
        } // after the brace

        // free comment

        type U {}
        """,
    ),
    "one trailing comment among field decorators moves to the line end": (
        """
        package p
        type T {
          a string @minLength(1) // why
            @maxLength(5)
        }
        """,
        """
        package p

        type T {
        \ta string @minLength(1) @maxLength(5) // why
        }
        """,
    ),
    "several comments among field decorators keep their lines": (
        """
        package p
        type T {
          a string @minLength(1) // one
            @maxLength(5) // two
        }
        """,
        """
        package p

        type T {
        \ta string @minLength(1) // one
        \t\t@maxLength(5) // two
        }
        """,
    ),
    "decorators above a first field join it unless a comment sits among them": (
        """
        package p
        type T {
          @doc("a")
          a string
        }
        type U {
          @doc("a") // note
          a string
        }
        """,
        """
        package p

        type T {
        \ta string @doc("a")
        }

        type U {
        \t@doc("a") // note
        \ta string
        }
        """,
    ),
    "crlf in, lf out": (
        "package p\r\ntype T {\r\n  a string // c\r\n}\r\n",
        "package p\n\ntype T {\n\ta string // c\n}\n",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_layout(name: str) -> None:
    src, want = CASES[name]
    assert fmt(src) == expect(want)


@pytest.mark.parametrize("src", ["", "// only a comment\n", "\n\n// a\n\n\n// b\n"])
def test_comment_only_and_empty_files(src: str) -> None:
    out = fmt(src)
    assert out.count("//") == src.count("//")
    assert not out or out.endswith("\n") and not out.endswith("\n\n")


def test_parse_error_is_refused_and_text_kept() -> None:
    src = "package p\ntype A {\n  x string\n"
    result = format_source("t.kit", src)
    assert not result.ok and result.text == src and not result.changed
    assert any(d.code.startswith("parse/") for d in result.diagnostics)


def test_comment_inside_a_field_head_is_refused() -> None:
    src = "package p\ntype A {\n  x // c\n  string\n}\n"
    result = format_source("t.kit", src)
    assert [d.code for d in result.diagnostics] == ["format/comment-position"]
    assert "field x" in result.diagnostics[0].message
    assert result.text == src


def test_unchanged_file_is_not_changed() -> None:
    text = fmt("package p\ntype A { a int }\n")
    assert not format_source("t.kit", text).changed
