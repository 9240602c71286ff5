"""Run protoc-gen-go and protoc-gen-go-grpc on the compiled design (no protoc binary).

kit builds the `CodeGeneratorRequest` itself from the in-process compile (with the
`M<file>=<import path>;<name>` mapping it decided and `module=<module>`), feeds it to each
plugin over stdin and reads its `CodeGeneratorResponse`. By default the plugins are the
`go tool` entries pinned in the project's go.mod, run from the project root;
`proto.plugins.go` / `proto.plugins.goGrpc` name a command on PATH or a path instead.
"""

from __future__ import annotations

import posixpath
import shutil
import subprocess
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from google.protobuf.compiler import plugin_pb2

from kit_core.diagnostics import Diagnostic, make
from kit_core.generators.base import OutputFile, Owner
from kit_core.proto.model import ProtoSet
from kit_core.source import Span, file_span

GO_TOOL = "google.golang.org/protobuf/cmd/protoc-gen-go"
GO_GRPC_TOOL = "google.golang.org/grpc/cmd/protoc-gen-go-grpc"
PLUGIN_TIMEOUT = 600  # seconds: the first `go tool` run builds the plugin


@dataclass(frozen=True, slots=True)
class Plugin:
    label: str  # protoc-gen-go | protoc-gen-go-grpc
    command: tuple[str, ...]
    cwd: Path
    span: Span  # where a failure is reported: the manifest key, or go.mod


def pin_commands(tools: Sequence[str] = (GO_TOOL, GO_GRPC_TOOL)) -> list[str]:
    return [f"go get -tool {t}@latest" for t in tools]


def go_mod_tools(text: str) -> set[str]:
    """The `tool` directives of a go.mod (single lines and blocks)."""
    tools: set[str] = set()
    in_block = False
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if in_block:
            if line == ")":
                in_block = False
            elif line:
                tools.add(line.split()[0])
        elif line.startswith("tool") and line[4:5] in (" ", "\t", "("):
            rest = line[4:].strip()
            if rest.startswith("("):
                in_block = rest[1:].strip() != ")"
            elif rest:
                tools.add(rest.split()[0])
    return tools


def resolve_plugins(manifest: Any, project_root: Path, go_mod: Path) -> tuple[list[Plugin], list[Diagnostic]]:
    """The two plugins to run, or the diagnostics saying why they cannot run."""
    configured = {"protoc-gen-go": manifest.proto.plugin_go, "protoc-gen-go-grpc": manifest.proto.plugin_go_grpc}
    keys = {"protoc-gen-go": "proto.plugins.go", "protoc-gen-go-grpc": "proto.plugins.goGrpc"}
    tools = {"protoc-gen-go": GO_TOOL, "protoc-gen-go-grpc": GO_GRPC_TOOL}
    plugins: list[Plugin] = []
    unpinned: list[str] = []
    diags: list[Diagnostic] = []
    pinned = go_mod_tools(_read(go_mod))
    for label, value in configured.items():
        span = manifest.key_spans.get(keys[label], file_span(str(go_mod)))
        if value:
            command = _configured(value, project_root)
            if command is None:
                diags.append(make("proto/plugin-missing", span, message=f"{keys[label]} {value!r} is not found"))
            else:
                plugins.append(Plugin(label, (command,), project_root, span))
        elif tools[label] not in pinned:
            unpinned.append(tools[label])
        else:
            plugins.append(Plugin(label, ("go", "tool", label), project_root, file_span(str(go_mod))))
    if unpinned:
        commands = " and ".join(f"`{c}`" for c in pin_commands(unpinned))
        diags.append(
            make(
                "proto/plugin-missing",
                file_span(str(go_mod)),
                message=f"the protobuf Go plugins are not pinned in {go_mod}: run {commands} in "
                f"{go_mod.parent} (or set proto.plugins.go / proto.plugins.goGrpc in the manifest)",
            )
        )
    elif not diags and any(p.command[0] == "go" for p in plugins) and shutil.which("go") is None:
        diags.append(make("proto/plugin-missing", file_span(str(go_mod)), message="the go command is not on PATH"))
    return plugins, diags


def _configured(value: str, project_root: Path) -> str | None:
    if "/" not in value:
        return shutil.which(value)
    path = Path(value) if Path(value).is_absolute() else project_root / value
    return str(path) if path.is_file() else None


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def request(ps: ProtoSet, module: str) -> plugin_pb2.CodeGeneratorRequest:
    req = plugin_pb2.CodeGeneratorRequest()
    req.file_to_generate.extend(ps.design)
    req.parameter = ",".join([f"module={module}", *ps.go_mappings()])
    req.proto_file.extend(ps.files)
    return req


def run_plugins(
    ps: ProtoSet, plugins: Sequence[Plugin], module: str, pb_root: str
) -> tuple[list[OutputFile], list[Diagnostic]]:
    """Every plugin's files (project-relative, under ``pb_root``) or its failures."""
    data = request(ps, module).SerializeToString()
    with ThreadPoolExecutor(max_workers=max(1, len(plugins))) as pool:
        results = list(pool.map(lambda p: _run(p, data, pb_root), plugins))
    files = [f for fs, _ in results for f in fs]
    diags = [d for _, ds in results for d in ds]
    return sorted(files, key=lambda f: f.path), diags


def _run(p: Plugin, data: bytes, pb_root: str) -> tuple[list[OutputFile], list[Diagnostic]]:
    def failed(message: str) -> tuple[list[OutputFile], list[Diagnostic]]:
        return [], [make("proto/plugin", p.span, plugin=" ".join(p.command), message=message)]

    try:
        proc = subprocess.run(
            list(p.command), input=data, cwd=p.cwd, capture_output=True, timeout=PLUGIN_TIMEOUT, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return failed(str(exc))
    if proc.returncode != 0:
        return failed(proc.stderr.decode("utf-8", errors="replace").strip() or f"exit status {proc.returncode}")
    try:
        resp = plugin_pb2.CodeGeneratorResponse.FromString(proc.stdout)
    except Exception as exc:  # noqa: BLE001 - any decoding failure is the plugin's
        return failed(f"unreadable response: {exc}")
    if resp.error:
        return failed(resp.error)
    out: list[OutputFile] = []
    for f in resp.file:
        path = posixpath.normpath(f.name)
        if f.insertion_point or not (pb_root in ("", ".") or path.startswith(pb_root.rstrip("/") + "/")):
            return failed(f"it wrote {f.name}, outside output.pb ({pb_root})")
        out.append(OutputFile(path, f.content, Owner.REGEN))
    return out, []
