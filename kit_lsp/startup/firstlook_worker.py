"""The first-look process: an opened file's diagnostics before the server has analysed.

Started by kit-lsp at spawn (`kit_lsp.startup.firstlook`), it imports the parser and the analyzer
on the second core while the server answers `initialize` and imports pygls. Then, for each
request line on stdin - a JSON object {uri, path, version, text, encoding, buffers} - it
runs `kit_core.analyzer.partial.first_look` and writes one JSON line to stdout:
{uri, version, diagnostics} (LSP JSON, `kit_lsp.startup.lspjson`), or {uri, version, error}. It
ends when stdin closes (the server has its own analysis, or is gone).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from kit_core.analyzer.partial import first_look
from kit_core.designfiles import MANIFEST_NAME, design_root_for
from kit_core.manifest import Manifest, default_manifest
from kit_core.manifest_reader import parse_manifest
from kit_lsp.startup.lspjson import diagnostic_json


def _manifest(root: Path, buffers: dict[str, str]) -> Manifest:
    """As the server reads it (`kit_core.resident.session`): the buffer over the disk, an empty text
    or none at all the defaults."""
    mpath = root / MANIFEST_NAME
    text = buffers.get(str(mpath))
    if text is None:
        try:
            text = mpath.read_text(encoding="utf-8")
        except OSError:
            return default_manifest(str(mpath))
    if not text.strip():
        return default_manifest(str(mpath))
    return parse_manifest(str(mpath), text)[0]


def answer(request: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"uri": request["uri"], "version": request.get("version")}
    path, buffers = request["path"], dict(request.get("buffers") or {})
    root = design_root_for(path)
    if root is None:
        out["error"] = "not in a design"
        return out
    look = first_look(root, path, request["text"], _manifest(root, buffers), buffers)

    def text_of(p: str) -> str | None:
        f = look.files.get(p)
        return f.source if f is not None else None

    out["diagnostics"] = [diagnostic_json(d, request["encoding"], text_of) for d in look.diagnostics]
    return out


def main() -> None:
    for line in sys.stdin.buffer:
        request = json.loads(line)
        try:
            result = answer(request)
        except Exception as exc:  # noqa: BLE001 - the server's own analysis follows anyway
            result = {"uri": request.get("uri"), "version": request.get("version"), "error": repr(exc)}
        try:
            sys.stdout.write(json.dumps(result, separators=(",", ":")) + "\n")
            sys.stdout.flush()
        except (BrokenPipeError, OSError):
            return


if __name__ == "__main__":
    main()
