"""The proto stage: compile a design's protos in-process, check them, describe them for Go.

    pd = compile_design(design_root, project_root, manifest, overrides)   # every run
    ps = ProtoSet.build(pd.files, pd.names, manifest, module)             # Go generation
    files, diags = run_plugins(ps, project_root, module_root, manifest)   # pb code

`compile_design` is also what the language server calls as you type (``overrides`` are
the editor's buffers): it returns located diagnostics and the compiled descriptors.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kit_core.proto.model import GoPackage, GoType, ProtoSet, Rpc, Service
    from kit_core.proto.stage import ProtoDesign, compile_design, design_protos

# loaded on first use: a design without protos never needs protobuf or protoc (~20 ms of imports)
_HOMES = {"GoPackage": "model", "GoType": "model", "ProtoSet": "model", "Rpc": "model", "Service": "model"}
_HOMES |= {"ProtoDesign": "stage", "compile_design": "stage", "design_protos": "stage"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"kit_core.proto.{home}"), name)


__all__ = [
    "GoPackage",
    "GoType",
    "ProtoDesign",
    "ProtoSet",
    "Rpc",
    "Service",
    "compile_design",
    "design_protos",
]
