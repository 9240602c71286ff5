"""editors/helix/languages.toml: valid TOML naming the kit language, the server command
kit installs and the grammar folder of this repository."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SNIPPET = REPO / "editors" / "helix" / "languages.toml"


def test_helix_snippet_parses_and_names_server_and_grammar() -> None:
    config = tomllib.loads(SNIPPET.read_text())
    (lang,) = config["language"]
    assert lang["name"] == "kit" and lang["file-types"] == ["kit"] and lang["scope"] == "source.kit"
    assert lang["comment-token"] == "//" and lang["indent"] == {"tab-width": 4, "unit": "\t"}  # `kit fmt`'s layout
    assert lang["grammar"] == "kit"
    (server,) = lang["language-servers"]
    command = config["language-server"][server]["command"]
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts[command] == "kit_lsp.server:main"  # the command kit installs
    (grammar,) = config["grammar"]
    assert grammar["name"] == "kit"
    # The path is the user's checkout; its last part is this repository's grammar folder.
    folder = Path(grammar["source"]["path"])
    assert folder.name == "grammar" and (REPO / folder.name / "src" / "parser.c").is_file()
    assert (REPO / "grammar" / "tree-sitter.json").read_text().count('"name": "kit"') == 1
