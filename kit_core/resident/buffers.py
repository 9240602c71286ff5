"""What the resident session reads of a file open in an editor: its kind, its text and
version, and its parsed model. kit-lsp's `Document` implements it; a session without an
editor (the resident kit) is given no buffers and reads the disk."""

from __future__ import annotations

from typing import Protocol

from kit_core.model import SourceFile


class Buffer(Protocol):
    @property
    def path(self) -> str: ...

    @property
    def kind(self) -> str:
        """ "kit", "proto", "manifest" or "other" (by the file's name)."""
        ...

    def text_version(self) -> tuple[str, int | None]:
        """The text and the version it is the text of, read together."""
        ...

    def parsed_version(self) -> tuple[SourceFile, int | None]:
        """The parsed text and the version it is the text of, read together."""
        ...
