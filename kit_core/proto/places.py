"""Spans of proto text: protoc's (line, column) and descriptor source-info paths.

protoc counts columns in bytes with a tab advancing to the next multiple of 8; spans are
in bytes and UTF-16 units like every other kit span.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kit_core.source import LineIndex, Span, file_span

if TYPE_CHECKING:
    from google.protobuf import descriptor_pb2

# Field numbers of descriptor.proto used in source-info paths.
FILE_PACKAGE = 2
FILE_MESSAGE = 4
FILE_SERVICE = 6
SERVICE_METHOD = 2
NAME = 1


class ProtoText:
    """One proto file's text, for turning places into spans."""

    def __init__(self, path: str, data: bytes) -> None:
        self.path = path
        self.data = data
        # made when a place is first asked for: a large proto that compiles needs none
        self._index: LineIndex | None = None
        self._line_starts: list[int] | None = None
        self._locations: dict[tuple[int, ...], descriptor_pb2.SourceCodeInfo.Location] | None = None

    @property
    def index(self) -> LineIndex:
        if self._index is None:
            self._index = LineIndex(self.data)
        return self._index

    @property
    def _starts(self) -> list[int]:
        if self._line_starts is None:
            starts, data = [0], self.data
            pos = data.find(b"\n")
            while pos != -1:
                starts.append(pos + 1)
                pos = data.find(b"\n", pos + 1)
            self._line_starts = starts
        return self._line_starts

    def _location(
        self, fdp: descriptor_pb2.FileDescriptorProto, path: Sequence[int]
    ) -> descriptor_pb2.SourceCodeInfo.Location | None:
        if self._locations is None:
            self._locations = {}
            for loc in fdp.source_code_info.location:
                self._locations.setdefault(tuple(loc.path), loc)
        return self._locations.get(tuple(path))

    def offset(self, line: int, col: int) -> int:
        """Byte offset of protoc's (line, column), both 0-based."""
        if line < 0 or line >= len(self._starts):
            return len(self.data) if line >= 0 else 0
        start = self._starts[line]
        end = self._starts[line + 1] - 1 if line + 1 < len(self._starts) else len(self.data)
        column = 0
        for pos in range(start, end):
            if column >= col:
                return pos
            column += 8 - column % 8 if self.data[pos] == 0x09 else 1
        return end

    def span(self, line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
        if line < 0:
            return file_span(self.path)
        start = self.offset(line, max(col, 0))
        end = self.offset(end_line, end_col) if end_line is not None and end_col is not None else start
        return self.index.span(self.path, start, max(start, end))

    def located(self, fdp: descriptor_pb2.FileDescriptorProto, path: Sequence[int]) -> Span:
        """The span of a declaration by its source-info path, the file start when unknown."""
        loc = self._location(fdp, path)
        s = list(loc.span) if loc is not None else []
        if len(s) == 3:
            return self.span(s[0], s[1], s[0], s[2])
        if len(s) == 4:
            return self.span(s[0], s[1], s[2], s[3])
        return file_span(self.path)

    def comment(self, fdp: descriptor_pb2.FileDescriptorProto, path: Sequence[int]) -> str:
        """The leading comment of a declaration, stripped."""
        loc = self._location(fdp, path)
        if loc is None:
            return ""
        return "\n".join(line.strip() for line in loc.leading_comments.strip().splitlines())
