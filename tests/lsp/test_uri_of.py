"""`uri_of` remembers absolute paths' URIs; a relative path still follows the working folder."""

from __future__ import annotations

import os
from pathlib import Path

from kit_lsp.startup.lspjson import uri_of


def test_uri_of_is_the_path_uri_and_a_relative_path_follows_the_working_folder(tmp_path: Path) -> None:
    for path in ("/a/b c/ü.kit", "/tmp/x#y%z.kit", str(tmp_path / "d" / "e.kit")):
        assert uri_of(path) == Path(path).as_uri()
        assert uri_of(path) == Path(path).as_uri()  # remembered, the same
    here = os.getcwd()
    try:
        for folder in (tmp_path / "one", tmp_path / "two"):
            folder.mkdir()
            os.chdir(folder)
            assert uri_of("design/a.kit") == (folder / "design/a.kit").as_uri()
    finally:
        os.chdir(here)
