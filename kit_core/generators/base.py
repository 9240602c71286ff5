"""What every generator receives and returns. Generators never touch the disk: the writer does."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kit_core.manifest import Manifest


TARGETS = ("go", "docs")  # what `kit gen` writes when no --target narrows it


class Owner(str, Enum):
    REGEN = "regen"  # rewritten on every run, carries the `Code generated ... DO NOT EDIT.` header
    GEN_ONCE = "gen-once"  # written only when absent


@dataclass(frozen=True, slots=True)
class OutputFile:
    path: str  # POSIX path relative to the project root, e.g. "internal/types/todo/types.go"
    content: str
    owner: Owner


@dataclass(frozen=True, slots=True)
class GenContext:
    """Everything a generator may read.

    ``analysis`` is the analyzer's result (symbols + semantics); ``module`` is the Go
    module path from go.mod; ``runtime_module`` is the Go module of kit's runtime.
    ``protos`` describes the compiled protos (services, Go packages) for the gRPC layer.
    ``keys`` (`kit_core.incremental.keys.DesignKeys`), given in a long-lived process
    (kit-lsp), lets a generator keep the pieces of a design-wide output between runs, keyed
    by the digests of what each piece reads (the OpenAPI document does); None otherwise.
    """

    manifest: Manifest
    analysis: Any
    module: str
    project_root: str
    design_dir: str  # design folder relative to the project root, e.g. "design"
    runtime_module: str = "github.com/kitdev/kit/runtime"
    protos: Any = None  # kit_core.proto.ProtoSet of the design's protos, None without protos
    keys: Any = None


@dataclass(frozen=True, slots=True)
class Notice:
    """A message printed after a run (stale stubs, main.go needing a manual edit)."""

    path: str
    message: str
