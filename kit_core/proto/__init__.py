"""The proto stage: compile a design's protos in-process, check them, describe them for Go.

    pd = compile_design(design_root, project_root, manifest, overrides)   # every run
    ps = ProtoSet.build(pd.files, pd.names, manifest, module)             # Go generation
    files, diags = run_plugins(ps, project_root, module_root, manifest)   # pb code

`compile_design` is also what the language server calls as you type (``overrides`` are
the editor's buffers): it returns located diagnostics and the compiled descriptors.
"""

from kit_core.proto.model import GoPackage, GoType, ProtoSet, Rpc, Service
from kit_core.proto.stage import ProtoDesign, compile_design, design_protos

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
