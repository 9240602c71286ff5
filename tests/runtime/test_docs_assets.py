"""The docs page assets embedded in the runtime ship with kit, and only what the pages load."""

from __future__ import annotations

import gzip
import hashlib
import re
from base64 import b64encode
from pathlib import Path

from kit_core.runtime_files import shipped

RUNTIME = Path(__file__).resolve().parents[2] / "runtime"
ASSETS = RUNTIME / "server" / "docsassets"


def declared() -> dict[str, str]:
    """assets.go's table: served path -> integrity."""
    text = (ASSETS / "assets.go").read_text()
    pairs = re.findall(r'Path:\s+"([^"]+)",\s+CDN:\s+"[^"]+",\s+Integrity:\s+"([^"]+)"', text)
    assert pairs, "assets.go declares no asset"
    return dict(pairs)


def test_every_embedded_file_ships_in_the_wheel_and_the_runtime_copy() -> None:
    files = {p.as_posix() for p in shipped(RUNTIME)}
    embedded = sorted(p.relative_to(RUNTIME).as_posix() for p in (ASSETS / "files").rglob("*") if p.is_file())
    assert embedded and not set(embedded) - files
    assert {"server/docsassets/assets.go", "server/docsassets/embed.go", "server/docsassets/noembed.go"} <= files


def test_the_embedded_folder_holds_the_loaded_files_and_their_licences_only() -> None:
    table = declared()
    for path in (ASSETS / "files").rglob("*"):
        if path.is_dir():
            continue
        rel = path.relative_to(ASSETS / "files").as_posix()
        if path.name in ("LICENSE", "NOTICE"):
            continue
        assert rel.endswith(".gz") and rel[: -len(".gz")] in table, f"{rel} is embedded but no page loads it"
    for rel, integrity in table.items():
        data = gzip.decompress((ASSETS / "files" / (rel + ".gz")).read_bytes())
        assert integrity == "sha384-" + b64encode(hashlib.sha384(data).digest()).decode(), rel
        assert (ASSETS / "files" / rel.split("/")[0] / "LICENSE").is_file(), f"{rel} ships without its licence"
