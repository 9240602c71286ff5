"""The orchestrator: find a design, load it, check it, generate, write. It names the stages.

    find_design_root -> load_design (manifest + parse every .kit)
      -> compile_protos (kit_core.proto: in-process protoc, proto rules)
      -> check (analyzer + the protos' diagnostics)
      -> units / generate (generators in memory; the protobuf plugins for pb code)
      -> write (writer; all or nothing)

A stage that finds an error stops the run before anything is written. `kit_core.regenerate`
runs these stages for `kit gen` and kit-lsp, incrementally and under the project lock.
Importing this module is cheap (the parser, analyzer and generators load when a stage
runs): a run that finds nothing changed uses only `find_design_root`.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit_core.designfiles import design_files, search_design_root
from kit_core.gcpause import paused_gc
from kit_core.generators.base import TARGETS, GenContext, Notice, OutputFile
from kit_core.generators.units import RenderUnit
from kit_core.manifest import MANIFEST_NAME, Manifest, default_manifest
from kit_core.source import file_span

if TYPE_CHECKING:
    from kit_core.diagnostics import Diagnostic
    from kit_core.model import SourceFile


def make(code: str, span: Any, **fields: Any) -> Diagnostic:
    # deferred: keeps the writer and `import program` light (kit fmt, a no-op run)
    from kit_core.diagnostics import make as make_diagnostic

    return make_diagnostic(code, span, **fields)


class DesignError(Exception):
    """The design cannot be located or opened, or a stage cannot run (the protobuf plugins);
    carries located diagnostics (``diagnostic`` is the first)."""

    def __init__(self, diagnostic: Diagnostic, *more: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic
        self.diagnostics = [diagnostic, *more]


# --------------------------------------------------------------------------- locating


def find_design_root(start: Path) -> Path:
    """The design folder for a path: the path itself, one of its direct subfolders, or a parent.

    Raises DesignError when there is none, or when two subfolders hold a manifest.
    """
    found, several = search_design_root(start)
    if found is not None:
        return found
    start = start.resolve()
    if start.is_file():
        start = start.parent
    if several:
        names = ", ".join(p.name for p in several)
        raise DesignError(
            make(
                "design/no-manifest",
                file_span(str(start)),
                path=f"{start} (several design folders: {names}; name one with -f)",
            )
        )
    raise DesignError(make("design/no-manifest", file_span(str(start)), path=str(start)))


_MODULE_RE = re.compile(r"^\s*module\s+(\S+)", re.MULTILINE)


def find_go_module(project_root: Path) -> tuple[Path, str]:
    """(directory of go.mod, module path) for the project root or its nearest parent."""
    for d in (project_root, *project_root.parents):
        gomod = d / "go.mod"
        if gomod.is_file():
            m = _MODULE_RE.search(gomod.read_text(encoding="utf-8"))
            if m:
                return d, m.group(1).strip('"')
    raise DesignError(make("design/no-go-mod", file_span(str(project_root / "go.mod")), root=str(project_root)))


# --------------------------------------------------------------------------- loading


@dataclass
class Design:
    root: Path  # the design folder (holds kit.design.yaml)
    project_root: Path  # outputs are relative to it (default: the design folder's parent)
    manifest: Manifest
    files: list[SourceFile]
    manifest_diagnostics: list[Diagnostic] = field(default_factory=list)
    module: str | None = None  # Go module path, read from go.mod
    protos: list[Path] = field(default_factory=list)
    overrides: dict[str, str] = field(default_factory=dict)  # editor buffers by absolute path
    compiled: Any = None  # kit_core.proto.ProtoDesign, once compile_protos ran

    @property
    def design_dir(self) -> str:
        """The design folder relative to the project root (POSIX)."""
        try:
            return self.root.relative_to(self.project_root).as_posix()
        except ValueError:
            return self.root.as_posix()


def parse_design_file(path: str, text: str) -> SourceFile:
    # deferred: the parser loads only when a file is parsed
    from kit_core.lower import parse_file

    return parse_file(path, text)


def load_design(
    root: Path,
    overrides: Mapping[str, str] | None = None,
    project_root: Path | None = None,
) -> Design:
    """Read the manifest and parse every `.kit` file; ``overrides`` maps absolute paths to
    editor buffer texts that replace what is on disk (open files in the language server)."""
    root = root.resolve()
    overrides = overrides or {}
    # deferred: PyYAML and the diagnostics registry load only when a manifest is read
    from kit_core.manifest_reader import parse_manifest

    mpath = root / MANIFEST_NAME
    mtext = overrides.get(str(mpath))
    if mtext is None:
        mtext = mpath.read_text(encoding="utf-8") if mpath.is_file() else ""
    manifest, mdiags = parse_manifest(str(mpath), mtext) if mtext else (default_manifest(str(mpath)), [])
    paths = {str(p) for p in design_files(root)} | {p for p in overrides if p.endswith(".kit") and _under(p, root)}
    files = [parse_design_file(p, _read(p, overrides)) for p in sorted(paths)]
    design = Design(root, (project_root or root.parent).resolve(), manifest, files, mdiags)
    design.protos = design_files(root, ".proto")
    design.overrides = dict(overrides)
    return design


def _under(path: str, root: Path) -> bool:
    try:
        Path(path).resolve().relative_to(root)
    except ValueError:
        return False
    return True


def _read(path: str, overrides: Mapping[str, str]) -> str:
    # deferred: keeps the writer and `import program` light (kit fmt, a no-op run)
    from kit_core.design_text import normalize_design, read_design

    if path in overrides:
        return normalize_design(overrides[path])
    return read_design(path)


# --------------------------------------------------------------------------- protos


def compile_protos(design: Design) -> Any:
    """The proto stage (`kit_core.proto.ProtoDesign`): every run compiles the design's protos
    in-process, with the editor's buffers; kept on the design for the later stages."""
    if design.compiled is None:
        # deferred: proto support (protobuf) loads only for a design with protos
        from kit_core.proto import compile_design

        design.compiled = compile_design(design.root, design.project_root, design.manifest, design.overrides)
    return design.compiled


def proto_set(design: Design) -> Any:
    """The compiled protos as the Go side sees them; None without protos or when they failed."""
    pd = compile_protos(design)
    if not pd.compiled:
        return None
    # deferred: proto support (protobuf) loads only for a design with protos
    from kit_core.proto import ProtoSet

    if design.module is None:
        _, design.module = find_go_module(design.project_root)
    return ProtoSet.build(pd.files, pd.names, design.manifest, design.module)


# --------------------------------------------------------------------------- checking


@dataclass
class CheckResult:
    diagnostics: list[Diagnostic]
    analysis: Any  # kit_core.analyzer.Analysis

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def check(design: Design) -> CheckResult:
    """Parse errors, manifest problems and every analyzer rule, sorted by place."""
    # deferred: the analyzer loads only when a design is checked
    from kit_core.analyzer import analyze

    return _checked(design, analyze(design.files, design.manifest))


@dataclass
class SplitCheck:
    """`check` in two parts (`check_split`): ``rules()`` runs the analyzer's rules - in another
    process, whose diagnostics come back; ``partial()`` is the check without them (what
    generators read: enough to generate from, not to know whether the design has errors);
    ``complete(found)`` is then what `check` returns."""

    rules: Callable[[], tuple[Diagnostic, ...]]
    partial: Callable[[], CheckResult]
    complete: Callable[[Iterable[Diagnostic]], CheckResult]


def check_split(design: Design) -> SplitCheck:
    # deferred: the analyzer loads only when a design is checked
    from kit_core.analyzer import analyze_split

    split = analyze_split(design.files, design.manifest)

    def partial() -> CheckResult:
        return _checked(design, split.analysis())

    def complete(found: Iterable[Diagnostic]) -> CheckResult:
        return _checked(design, split.complete(found))

    return SplitCheck(split.rules, partial, complete)


def _checked(design: Design, analysis: Any) -> CheckResult:
    # deferred: keeps the writer and `import program` light (kit fmt, a no-op run)
    from kit_core.diagnostics import Diagnostic, merge

    parse_diags = [d for f in design.files for d in f.parse_diagnostics if isinstance(d, Diagnostic)]
    pd = compile_protos(design)
    proto_diags = list(pd.diagnostics)
    if pd.compiled:
        # deferred: proto support (protobuf) loads only for a design with protos
        from kit_core.proto.checks import http_dir_clashes

        proto_diags += http_dir_clashes(pd, design.manifest, getattr(analysis, "http", None))
    diags = merge(design.manifest_diagnostics, parse_diags, analysis.diagnostics, proto_diags)
    diags.sort(key=lambda d: (d.span.path, d.span.start_line, d.span.start_col, d.code))
    return CheckResult(diags, analysis)


# --------------------------------------------------------------------------- generating


@dataclass
class GenResult:
    files: list[OutputFile]
    notices: list[Notice]


def gen_context(design: Design, analysis: Any, keys: Any = None) -> GenContext:
    if design.module is None:
        _, design.module = find_go_module(design.project_root)
    return GenContext(
        manifest=design.manifest,
        analysis=analysis,
        module=design.module,
        project_root=str(design.project_root),
        design_dir=design.design_dir,
        protos=proto_set(design) if design.protos or design.overrides else None,
        keys=keys,
    )


def units(design: Design, analysis: Any, targets: Iterable[str] = TARGETS, keys: Any = None) -> list[RenderUnit]:
    """The render units of the selected generators (`kit_core.generators.units`); ``keys``: see
    `GenContext.keys`."""
    ctx = gen_context(design, analysis, keys)
    chosen = set(targets)
    out: list[RenderUnit] = []
    contracts = design.manifest.output.kind == "contracts"
    if "docs" in chosen and not contracts and design.files:  # contracts, proto-only: no document
        # deferred: the generators (jinja2) load only when output is rendered
        from kit_core.generators import openapi

        out.extend(openapi.units(ctx))
    if "docs" in chosen and not contracts and design.files:  # the TypeScript client: a document of the API too
        # deferred: the generators (jinja2) load only when output is rendered
        from kit_core.generators import typescript

        out.extend(typescript.units(ctx))
    if "go" in chosen and (design.files or (ctx.protos is not None and ctx.protos.services and not contracts)):
        # deferred: the generators (jinja2) load only when output is rendered
        from kit_core.generators import go

        out.extend(go.units(ctx))
    if "go" in chosen and ctx.protos is not None:
        # deferred: the generators (jinja2) load only when output is rendered
        from kit_core.generators.go import protos_key

        extra = (protos_key(ctx.protos), *pb_inputs(design))
        out.append(RenderUnit("pb", partial(pb_code, design, ctx.protos), extra=extra))
    return out


def generate(design: Design, analysis: Any, targets: Iterable[str] = TARGETS) -> GenResult:
    """Run the selected generators in memory; nothing touches the disk here (the protobuf
    plugins read the compiled protos from their stdin). Raises DesignError when the plugins
    cannot run or fail."""
    # deferred: the Go generators (jinja2) load only when Go is rendered
    from kit_core.generators.go.gofmt import gofmt_all

    with paused_gc(freeze=False):
        files = [f for u in units(design, analysis, targets) for f in u.render()]
        files = gofmt_all(sorted(files, key=lambda f: f.path))
    return GenResult(files, [])


def pb_code(design: Design, protos: Any) -> list[OutputFile]:
    """The plugins' pb code of the design's own protos (none with `output.pb: -`)."""
    pb = design.manifest.output.path("pb")
    if pb is None or not protos.design:
        return []
    # deferred: proto support (protobuf) loads only for a design with protos
    from kit_core.proto.plugins import resolve_plugins, run_plugins

    mod_dir, module = find_go_module(design.project_root)
    plugins, diags = resolve_plugins(design.manifest, design.project_root, mod_dir / "go.mod")
    if not diags:
        files, diags = run_plugins(protos, plugins, module, pb)
    if diags:
        raise DesignError(*diags)
    return files


def pb_inputs(design: Design) -> tuple[str, ...]:
    """Which plugins the pb code comes from (part of its render unit's key, beside the compiled
    protos): the files of `watched_inputs`, by size and time."""
    return tuple(f"{p}={file_identity(p)}" for p in watched_inputs(design))


def watched_inputs(design: Design) -> list[str]:
    """Files outside the design that decide generated output: go.mod and go.sum (they pin the
    plugins run through `go tool`), the plugins the manifest names, as the plugins stage finds
    them (a bare name on PATH, a path from the project root), and the protos of
    `proto.includes`. A run that finds nothing changed checks these too."""
    out: list[str] = []
    mod_dir, _ = find_go_module(design.project_root)
    out += [str(mod_dir / "go.mod"), str(mod_dir / "go.sum")]
    if not design.protos:
        return out
    for name in (design.manifest.proto.plugin_go, design.manifest.proto.plugin_go_grpc):
        plugin = (shutil.which(name) if "/" not in name else str(design.project_root / name)) if name else None
        if plugin:
            out.append(plugin)
    for inc in design.manifest.proto.includes:
        base = (design.project_root / inc).resolve()
        protos = design_files(base, ".proto") if base.is_dir() else []
        out += sorted({str(base), *(str(p.parent) for p in protos)})  # a proto added shows on its folder
        out += [str(p) for p in protos]
    return out


def file_identity(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"
