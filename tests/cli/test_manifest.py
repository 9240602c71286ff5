"""Manifest: defaults, unknown keys, removed keys, output keys checked as a set."""

from __future__ import annotations

import pytest

from kit_core.manifest import REMOVED_KEYS, STARTER
from kit_core.manifest_reader import parse_manifest


def codes(text: str) -> list[tuple[str, int]]:
    _, diags = parse_manifest("kit.design.yaml", text)
    return [(d.code, d.span.start_line + 1) for d in diags]


def test_starter_manifest_is_clean_and_defaults_fill_the_rest() -> None:
    m, diags = parse_manifest("kit.design.yaml", STARTER)
    assert diags == []
    assert m.openapi.title == "My API" and m.openapi.version == "1.0.0" and m.openapi.base_path == "/api"
    assert m.output.main == "./main.go" and m.output.pb == "./internal/pb" and m.output.file_case == "snake"
    assert m.events_targets is None


def test_empty_manifest_takes_every_default() -> None:
    m, diags = parse_manifest("kit.design.yaml", "")
    assert diags == []
    assert m.openapi.version == "0.1.0" and m.openapi.title is None
    assert m.output.types == "./internal/types" and m.output.grpc == "./internal/grpc"


def test_contracts_kind_moves_defaults_under_gen() -> None:
    m, _ = parse_manifest("kit.design.yaml", "output:\n  kind: contracts\n")
    assert m.output.types == "./gen/types" and m.output.pb == "./gen/pb"
    assert m.events_out_default() == "./gen/events"


def test_unknown_key_warns_with_its_line() -> None:
    _, diags = parse_manifest("kit.design.yaml", "openapi:\n  title: T\n  colour: red\n")
    assert [(d.code, d.severity.value, d.span.start_line) for d in diags] == [("manifest/unknown-key", "warning", 2)]
    assert diags[0].message == "openapi.colour is not a manifest key and is ignored"


@pytest.mark.parametrize("key", sorted(REMOVED_KEYS))
def test_removed_keys_stop_the_run(key: str) -> None:
    if key == "events.targets[].layout":
        text = "events:\n  targets:\n    - lang: go\n      out: ./ev\n      layout: flat\n"
    else:
        head, _, leaf = key.rpartition(".")
        text = f"{leaf}: x\n" if not head else f"{head}:\n  {leaf}: x\n"
    _, diags = parse_manifest("kit.design.yaml", text)
    assert [d.code for d in diags] == ["manifest/removed-key"]
    assert diags[0].message == f"{key} is no longer a manifest key - {REMOVED_KEYS[key]}; drop it"


def test_two_outputs_naming_one_directory_collide() -> None:
    assert codes("output:\n  types: ./x\n  routes: x/\n") == [("manifest/output-collision", 3)]


def test_dash_only_on_keys_with_a_disabled_mode() -> None:
    assert codes("output:\n  main: '-'\n  openapi: '-'\n  pb: '-'\n") == []
    assert codes("output:\n  types: '-'\n") == [("manifest/value", 2)]


def test_outputs_stay_inside_the_project() -> None:
    assert codes("output:\n  types: ../elsewhere\n") == [("manifest/value", 2)]
    assert codes("output:\n  types: /abs\n") == [("manifest/value", 2)]


def test_file_case_and_kind_values() -> None:
    _, diags = parse_manifest("kit.design.yaml", "output:\n  fileCase: upper\n")
    assert diags[0].message == 'output.fileCase "upper" is not supported - use "kebab", "snake", or "camel"'
    assert codes("output:\n  kind: library\n") == [("manifest/value", 2)]


def test_event_targets() -> None:
    m, diags = parse_manifest("kit.design.yaml", "events:\n  targets:\n    - lang: go\n      out: ./ev\n")
    assert diags == [] and m.events_targets is not None and m.events_targets[0].out == "./ev"
    assert [c for c, _ in codes("events:\n  targets:\n    - lang: rust\n      out: ./x\n")] == ["manifest/value"]
    assert [c for c, _ in codes("events:\n  targets:\n    - lang: go\n")] == ["manifest/value"]


def test_yaml_syntax_error_is_located_and_never_raises() -> None:
    assert codes("openapi: [\n") == [("manifest/syntax", 2)]


def test_events_targets_join_the_output_set() -> None:
    assert codes("events:\n  targets:\n    - lang: go\n      out: ./internal/types\n") == [
        ("manifest/output-collision", 3)
    ]
    assert codes("events:\n  targets:\n    - lang: go\n      out: ./internal/types/events\n") == [
        ("manifest/output-nested", 3)
    ]
    assert codes("events:\n  targets:\n    - lang: go\n      out: ../shared/events\n") == [("manifest/value", 3)]
    assert codes("output:\n  types: ./internal/events\n") == [("manifest/output-collision", 2)]  # the default out


def test_no_output_directory_at_the_project_root_or_inside_another() -> None:
    assert codes("output:\n  types: .\n") == [("manifest/output-root", 2)]
    assert codes("output:\n  routes: ./\n") == [("manifest/output-root", 2)]
    assert codes("output:\n  transport: ./internal\n") != []  # holds every other internal/ output
    assert codes("output:\n  service: ./internal/transport/logic\n") == [("manifest/output-nested", 2)]
    assert codes("output:\n  main: ./main.go\n  types: ./gen/types\n") == []  # file outputs may sit anywhere
