"""`kit diff --format json` and `--format sarif` (SARIF 2.1.0, as code-scanning tools read
it): parsed and checked, locations pointing at the design file and line of each change;
and the comparison is about the design only, whatever generated code lies beside it."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

from kit_core.breaking import CODES, Place
from kit_core.breaking.report import as_json
from kit_core.cli import main

MakeRepo = Callable[[dict[str, str]], Any]
Diff = Callable[..., tuple[int, list[str], str]]

SHOP = "design/shop.kit"
KIT = """\
package shop

type Money {
	amount   int64
	currency string
}

type Quote {
	sku   string
	price Money
}

event Quoted {
	payload Quote
}

service Prices {
	post CreateQuote /quotes {
		request  Quote
		response Quote
	}
}
"""

# SARIF 2.1.0's required properties (sarif-schema-2.1.0.json) for what kit writes, with the
# shapes code scanning reads; no package on PyPI ships the schema itself.
SARIF = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string", "format": "uri"},
        "runs": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/run"}},
    },
    "$defs": {
        "message": {
            "type": "object",
            "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
            "properties": {"text": {"type": "string", "minLength": 1}},
        },
        "run": {
            "type": "object",
            "required": ["tool"],
            "properties": {
                "tool": {
                    "type": "object",
                    "required": ["driver"],
                    "properties": {
                        "driver": {
                            "type": "object",
                            "required": ["name"],
                            "properties": {
                                "name": {"type": "string"},
                                "version": {"type": "string"},
                                "rules": {"type": "array", "items": {"$ref": "#/$defs/rule"}},
                            },
                        }
                    },
                },
                "results": {"type": "array", "items": {"$ref": "#/$defs/result"}},
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "originalUriBaseIds": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "properties": {"uri": {"type": "string", "format": "uri-reference"}},
                    },
                },
            },
        },
        "rule": {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": {"type": "string"},
                "shortDescription": {"$ref": "#/$defs/message"},
                "defaultConfiguration": {
                    "type": "object",
                    "properties": {"level": {"enum": ["none", "note", "warning", "error"]}},
                },
            },
        },
        "result": {
            "type": "object",
            "required": ["message"],
            "properties": {
                "ruleId": {"type": "string"},
                "ruleIndex": {"type": "integer", "minimum": -1},
                "level": {"enum": ["none", "note", "warning", "error"]},
                "message": {"$ref": "#/$defs/message"},
                "locations": {"type": "array", "items": {"$ref": "#/$defs/location"}},
                "relatedLocations": {"type": "array", "items": {"$ref": "#/$defs/location"}},
            },
        },
        "location": {
            "type": "object",
            "properties": {
                "physicalLocation": {
                    "type": "object",
                    "anyOf": [{"required": ["artifactLocation"]}, {"required": ["address"]}],
                    "properties": {
                        "artifactLocation": {
                            "type": "object",
                            "properties": {
                                "uri": {"type": "string", "format": "uri-reference"},
                                "uriBaseId": {"type": "string"},
                            },
                        },
                        "region": {
                            "type": "object",
                            "properties": {
                                "startLine": {"type": "integer", "minimum": 1},
                                "startColumn": {"type": "integer", "minimum": 1},
                                "endLine": {"type": "integer", "minimum": 1},
                                "endColumn": {"type": "integer", "minimum": 1},
                            },
                        },
                    },
                }
            },
        },
    },
}


@pytest.fixture
def repo(make_repo: MakeRepo) -> Any:
    repo = make_repo({SHOP: KIT})
    repo.edit(
        SHOP,
        ("\tcurrency string\n", ""),
        ("\tsku   string\n", "\tsku   string\n\tnote  string\n"),
        ("event Quoted", '@contract("prices.quoted")\nevent Quoted'),
    )
    return repo


def _document(repo: Any, capsys: pytest.CaptureFixture[str], fmt: str) -> Any:
    code = main(["diff", "main", str(repo.root / "design"), "--format", fmt, "--exit-code"])
    out, err = capsys.readouterr()
    assert code == 1 and "3 changes break clients since main" in err
    return json.loads(out)


def test_json(repo: Any, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _document(repo, capsys, "json")
    assert doc["baseline"] == "main"
    assert [(c["code"], c["file"], c["line"], c["column"], c["gone"]) for c in doc["changes"]] == [
        ("breaking/removed", SHOP, 3, 6, False),  # Money, where currency was taken out
        ("breaking/required", SHOP, 9, 2, False),  # note, the new required field
        ("breaking/removed", SHOP, 13, 7, True),  # the event, at the baseline (its contract changed)
    ]
    money, note, event = doc["changes"]
    assert money["message"] == "field currency of Money was removed"
    assert money["was"] == {"ref": "main", "file": SHOP, "line": 5, "column": 2}
    assert money["reaches"] == [  # the event is gone as a whole (its contract changed)
        {"path": "price.currency", "side": "request", "via": "Prices.CreateQuote"},
        {"path": "price.currency", "side": "response", "via": "Prices.CreateQuote"},
    ]
    assert money["text"] == (
        "field currency of Money was removed (at price.currency in the request of "
        "Prices.CreateQuote and the response of Prices.CreateQuote)"
    )
    assert note["was"] is None and note["message"] == note["text"] == (
        'request field note (body "note") of Prices.CreateQuote is new and required'
    )
    assert note["reaches"] == [{"path": "note", "side": "request", "via": "Prices.CreateQuote"}]
    assert event["was"] == {"ref": "main", "file": SHOP, "line": 13, "column": 7}


def test_sarif(repo: Any, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _document(repo, capsys, "sarif")
    jsonschema.validate(doc, SARIF, format_checker=jsonschema.FormatChecker())
    (run,) = doc["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(CODES) and all(r["shortDescription"]["text"] for r in rules)
    now = (repo.root / SHOP).read_text().splitlines()
    then = subprocess.run(
        ["git", "show", f"main:{SHOP}"], cwd=repo.root, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    seen = []
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] and result["level"] == "warning"
        (loc,) = result["locations"]
        artifact, region = loc["physicalLocation"]["artifactLocation"], loc["physicalLocation"]["region"]
        assert artifact == {"uri": SHOP, "uriBaseId": "SRCROOT"}
        lines = now if "endLine" in region else then  # a change with nothing left points at the baseline
        text = lines[region["startLine"] - 1][region["startColumn"] - 1 :]
        seen.append((result["ruleId"], text.split()[0]))
    assert seen == [("breaking/removed", "Money"), ("breaking/required", "note"), ("breaking/removed", "Quoted")]
    assert run["results"][0]["message"]["text"].startswith("field currency of Money was removed (at price.currency")
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == repo.root.resolve().as_uri() + "/"


def test_generated_code_beside_the_design_changes_nothing(repo: Any, kit_diff: Diff) -> None:
    before = kit_diff(repo)[1]
    assert main(["gen", str(repo.root / "design")]) == 0  # the service (and, later, clients) it generates
    clients = repo.root / "clients/shop"
    clients.mkdir(parents=True)
    (clients / "shop.proto").write_text('syntax = "proto3";\npackage clients.shop;\nmessage Money { int64 a = 1; }\n')
    (clients / "client.ts").write_text("export interface Money { amount: number }\n")
    assert kit_diff(repo)[1] == before
    subprocess.run(["git", "add", "-A"], cwd=repo.root, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "generated"], cwd=repo.root, check=True
    )
    (clients / "shop.proto").unlink()  # generated code gone or changed since the ref: still nothing
    (clients / "client.ts").write_text("// regenerated\n")
    assert main(["diff", "HEAD", str(repo.root / "design"), "--exit-code"]) == 0


def test_a_message_lists_a_few_paths_and_json_all() -> None:
    from kit_core.breaking import Change, Reach
    from kit_core.breaking.change import SHOWN

    reaches = tuple(Reach(f"f{i:02}.x", "request", "S.M") for i in range(SHOWN + 3))
    change = Change("breaking/removed", "field x of T was removed", None, None, reaches)
    assert change.text.endswith("; at f07.x in the request of S.M; and at 3 more paths)")
    assert change.text.count(" in the request of S.M") == SHOWN
    assert (
        len(
            as_json([Change("breaking/removed", "m", None, Place("main", "a.kit", 1, 1), reaches)], "main", "/")[
                "changes"
            ][0]["reaches"]
        )
        == SHOWN + 3
    )
