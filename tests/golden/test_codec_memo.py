"""The codec builds each member's read case and written value once per shape and flags, with
stand-ins for the access and the presence check (`codec_read.Reader`, `codec_write.Writer`):
every member of the example and golden designs reads the same as built for itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_preformatted import context, designs

from kit_core.generators.go.codec_fields import wire_fields
from kit_core.generators.go.codec_read import Reader, mode
from kit_core.generators.go.codec_write import Writer
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.jsonwire import Lines


@pytest.mark.parametrize("design_dir", designs(), ids=lambda p: p.parent.name)
def test_memoised_members_read_as_built_alone(design_dir: Path) -> None:
    g = GoGen.build(context(design_dir))
    members = 0
    for pkg in g.design.packages():
        mapper = g.mapper(g.imports(), pkg.name)
        reader, writer = Reader(mapper), Writer(mapper)  # shared by the package, as `codec.generate` does
        for name in sorted(pkg.types):
            for bit, f in enumerate(wire_fields(g, mapper, pkg.types[name], pkg.name)):
                check = f"d.Field(&seen[{bit // 64}], 1<<{bit % 64}, kitjson.{mode(f)})"
                assert reader.member(f, bit) == reader._member(f, f.access, check)
                replayed, alone = Lines(), Lines()
                writer._replay(f, replayed)
                writer._member_value(f, f.access, alone)
                assert replayed.done() == alone.done()
                members += 1
    assert members > 0 or design_dir.parent.name not in ("todo", "showcase")
