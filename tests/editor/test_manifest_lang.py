"""kit.design.yaml as a language: the key under the cursor (from the lines, so half-typed
buffers work), hover text and completions, all from the one key table."""

from __future__ import annotations

from kit_core.editor.manifest_lang import complete, hover, place_at
from kit_core.manifest_keys import BY_NAME, KEYS, REMOVED_KEYS, children
from kit_core.manifest_reader import parse_manifest

TEXT = """\
output:
  types: ./internal/types
  fileCase: ke
openapi:
  securitySchemes:
    key:
      type: apiKey
<indent>
events:
  targets:
    - lang: go
      out: ./x
    - lang: go
<indent>
""".replace("<indent>", " " * 6)  # the cursor sits on indented blank lines


def _labels(line: int, col: int) -> list[str]:
    return [i.label for i in sorted(complete(TEXT, line, col), key=lambda i: i.sort)]


def test_place_of_keys_and_values_in_nested_mappings_and_list_items() -> None:
    cases = {
        (1, 3): ("output", "key", "output.types"),
        (2, 12): ("output", "value", "output.fileCase"),
        (6, 12): ("openapi.securitySchemes.key", "value", "openapi.securitySchemes.key.type"),
        (7, 6): ("openapi.securitySchemes.key", "key", "openapi.securitySchemes.key"),
        (11, 7): ("events.targets[]", "key", "events.targets[].out"),
        (13, 6): ("events.targets[]", "key", "events.targets[]"),
    }
    for (line, col), (section, on, path) in cases.items():
        place = place_at(TEXT, line, col)
        assert place is not None and (place.section, place.on, place.path) == (section, on, path), (line, col)


def test_hover_on_every_key_of_the_table_says_what_it_does() -> None:
    for key in KEYS:
        if "*" in key.name or "[]" in key.name:
            continue
        parts = key.name.split(".")
        text = "".join(f"{'  ' * i}{p}:\n" for i, p in enumerate(parts))
        found = hover(text, len(parts) - 1, len(parts) * 2 - 1)
        assert found is not None and key.doc in found[0], key.name
        if key.default is not None:
            assert f"Default: `{key.default}`" in found[0]
    found = hover(TEXT, 6, 8)
    assert found is not None and "`apiKey` needs `in`, `name`" in found[0]
    unknown = hover("output:\n  tpyes: x\n", 1, 3)
    assert unknown is not None and "not a manifest key" in unknown[0]


def test_key_completion_offers_unwritten_keys_and_required_scheme_fields_first() -> None:
    labels = _labels(7, 6)
    assert labels[:2] == ["in", "name"] and "type" not in labels
    assert _labels(13, 6) == ["out"]
    top = [i.label for i in complete("\n", 0, 0)]
    assert top == ["output", "openapi", "proto", "events"]


def test_value_completion_of_closed_sets_defaults_and_dash() -> None:
    assert _labels(2, 13) == ["snake", "kebab", "camel"]
    main = [i.label for i in complete("output:\n  main: \n", 1, 8)]
    assert main == ["./main.go", '"-"']
    types = {i.label: i for i in complete(TEXT, 6, 12)}
    assert types["apiKey"].extra_lines == ("in: header", "name: X-API-Key")
    assert types["http"].detail == "needs scheme"


def test_new_scheme_snippets_carry_the_required_fields() -> None:
    items = {i.label: i for i in complete("openapi:\n  securitySchemes:\n    \n", 2, 4)}
    assert items["bearer (http)"].extra_lines == ("  type: http", "  scheme: bearer")
    assert "  type: oauth2" in items["oauth (oauth2)"].extra_lines


def test_the_reader_uses_the_table() -> None:
    manifest, diags = parse_manifest("k.yaml", "output:\n  fileCase: kebab\n  kind: contracts\n")
    assert not diags and manifest.output.pb == BY_NAME["output.pb"].contracts_default
    assert set(REMOVED_KEYS) >= {"design", "output.services"}
    assert [k.leaf for k in children("proto.plugins")] == ["go", "goGrpc"]


def test_unknown_security_scheme_fields_are_located_on_the_key() -> None:
    text = "openapi:\n  securitySchemes:\n    b:\n      type: http\n      shceme: bearer\n      x-note: ok\n"
    _, diags = parse_manifest("k.yaml", text)
    (d,) = diags
    assert d.code == "manifest/unknown-key" and (d.span.start_line, d.span.start_col, d.span.end_col) == (4, 6, 12)
