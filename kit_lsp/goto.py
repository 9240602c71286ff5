"""Go to definition beyond the design's own names: from a method to its Go logic stub, and
from a name in a `.kit` file to the `.proto` message of that name where a design holds
both (the message a gRPC call of the same service carries, or a type mirrored in both)."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from kit_core.editor.lenses import http_facts, stub_status
from kit_core.proto.outline import messages
from kit_lsp.convert import lsp_location, uri_of
from kit_lsp.locate import Target
from kit_lsp.state import View


def stub_location(view: View, target: Target) -> list[lsp.Location]:
    """The logic method in the method's stub (the file's top before it is generated)."""
    snap = view.snapshot
    if target.kind != "method" or snap.root is None or snap.analysis is None:
        return []
    for facts in http_facts(snap.analysis, snap.manifest, view.doc.path):
        if facts.span.start_byte == target.node.name_span.start_byte:
            stub = snap.root.parent / facts.stub
            if not stub.is_file():
                return []
            _, line = stub_status(stub.read_bytes(), facts)
            place = lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0))
            return [lsp.Location(uri_of(str(stub)), place)]
    return []


def proto_locations(view: View, name: str) -> list[lsp.Location]:
    """The proto messages named ``name`` (a bare name, or the last part of `pkg.Name`)."""
    snap = view.snapshot
    if snap.protos is None or not snap.protos.compiled:
        return []
    found = messages(snap.protos).get(name.rsplit(".", 1)[-1])
    if found is None:
        return []
    return [lsp_location(found[0], view.encoding, lambda p: Path(p).read_text("utf-8", "replace"))]
