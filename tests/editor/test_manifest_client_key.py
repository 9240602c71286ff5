"""`output.client` in kit.design.yaml: hover, completion and diagnostics come from the one key
table like every other output key."""

from __future__ import annotations

from kit_core.editor.manifest_lang import complete, hover
from kit_core.manifest_reader import parse_manifest


def test_hover_and_completion_of_output_client() -> None:
    found = hover("output:\n  client: ./client\n", 1, 4)
    assert found is not None and "Go client of the HTTP API" in found[0] and "Default: `./client`" in found[0]
    assert "client" in [i.label for i in complete("output:\n  \n", 1, 2)]
    assert [i.label for i in complete("output:\n  client: \n", 1, 10)] == ["./client", '"-"']


def test_defaults_and_dash() -> None:
    manifest, diags = parse_manifest("k.yaml", "output:\n  types: ./internal/types\n")
    assert not diags and manifest.output.client == "./client" and manifest.output.path("client") == "client"
    manifest, diags = parse_manifest("k.yaml", 'output:\n  client: "-"\n')
    assert not diags and manifest.output.path("client") is None
    manifest, diags = parse_manifest("k.yaml", "output:\n  kind: contracts\n")
    assert not diags and manifest.output.client == "-"


def test_output_client_is_checked_with_the_other_outputs() -> None:
    _, diags = parse_manifest("k.yaml", "output:\n  client: ../elsewhere\n")
    assert [(d.code, d.span.start_line) for d in diags] == [("manifest/value", 1)]
    assert "output.client '../elsewhere' must stay inside the project" in diags[0].message
    _, diags = parse_manifest("k.yaml", "output:\n  client: ./internal/types/client\n")
    assert len(diags) == 1 and "output.client" in diags[0].message and "output.types" in diags[0].message
