"""kit's rules on a compiled design's protos, located in the .proto files:

* two protos of one directory declare one proto package and one Go package name;
* `option go_package` where kit cannot place the code itself (`output.pb: -`, include roots);
* RPC names the server layer cannot write (`Server`, `Logger`, a test-only or OS-specific
  file name, `X` beside `NewX`, two RPCs writing one file) and services writing one directory.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from kit_core import naming
from kit_core.diagnostics import Diagnostic, Related, make
from kit_core.proto import gopkg
from kit_core.proto.gonames import go_camel_case
from kit_core.proto.places import FILE_PACKAGE, FILE_SERVICE, NAME, SERVICE_METHOD

if TYPE_CHECKING:
    from kit_core.proto.stage import ProtoDesign


def check_design(pd: ProtoDesign, manifest: Any) -> list[Diagnostic]:
    pb = manifest.output.path("pb")
    out = list(_same_directory(pd, pb))
    out += _go_package_needed(pd, pb)
    out += _service_names(pd, manifest.output.file_case)
    return out


def _same_directory(pd: ProtoDesign, pb: str | None) -> Iterator[Diagnostic]:
    first: dict[str, str] = {}
    for name in pd.names:
        d = posixpath.dirname(name)
        if d not in first:
            first[d] = name
            continue
        a, b = pd.file(first[d]), pd.file(name)
        if a is None or b is None:
            continue
        if a.package != b.package:
            yield _mismatch(pd, b, a, "proto package", b.package, a.package)
        elif (na := gopkg.design_package_name(a, pb)) != (nb := gopkg.design_package_name(b, pb)):
            yield _mismatch(pd, b, a, "Go package", nb, na)


def _mismatch(pd: ProtoDesign, f: Any, other: Any, what: str, value: str, other_value: str) -> Diagnostic:
    text, other_text = pd.text(f.name), pd.text(other.name)
    return make(
        "proto/package-mismatch",
        text.located(f, [FILE_PACKAGE]),
        related=(Related(other_text.located(other, [FILE_PACKAGE]), f"{other.name} declares it here"),),
        file=f.name,
        what=what,
        value=value or "(none)",
        other=other.name,
        other_value=other_value or "(none)",
    )


def _go_package_needed(pd: ProtoDesign, pb: str | None) -> Iterator[Diagnostic]:
    for f in pd.files:
        if gopkg.written_go_package(f)[0]:
            continue
        origin = pd.origin(f.name)
        if origin == "design" and pb is None:
            reason = "with `output.pb: -` no plugin runs, so kit imports the pb code from the path you give"
        elif origin == "include":
            reason = "a proto found through proto.includes is imported from the Go package it names"
        else:
            continue
        yield make("proto/go-package", pd.text(f.name).span(0, 0), file=f.name, reason=reason)


def service_dir(service: str, file_case: str) -> str:
    return naming.file_case(go_camel_case(service), file_case)


def _service_names(pd: ProtoDesign, file_case: str) -> Iterator[Diagnostic]:
    """Names are checked first; a place is looked up only for a problem."""
    dirs: dict[str, tuple[str, Any, int]] = {}
    for f in pd.files:
        if f.name not in pd.names:
            continue

        def place(*path: int, f: Any = f) -> Any:
            return pd.text(f.name).located(f, [FILE_SERVICE, *path])

        for si, svc in enumerate(f.service):
            d = service_dir(svc.name, file_case)
            if d in dirs:
                other, other_f, other_si = dirs[d]
                other_span = pd.text(other_f.name).located(other_f, [FILE_SERVICE, other_si, NAME])
                yield make(
                    "proto/service-dir",
                    place(si, NAME),
                    related=(Related(other_span, f"{other} is declared here"),),
                    service=_full(f, svc.name),
                    dir=d,
                    other=other,
                )
            else:
                dirs[d] = (_full(f, svc.name), f, si)
            rpcs = [(m.name, (si, SERVICE_METHOD, mi, NAME)) for mi, m in enumerate(svc.method)]
            for code, key, fields in rpc_problems(_full(f, svc.name), rpcs, file_case):
                yield make(code, place(*key), **fields)


def _full(f: Any, name: str) -> str:
    return f"{f.package}.{name}" if f.package else name


def rpc_problems(
    service: str, rpcs: Sequence[tuple[str, Any]], file_case: str
) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """The naming restrictions of one service's RPCs: (code, the RPC's key, message fields)
    per problem, for RPCs given as (name, key)."""
    files: dict[str, str] = {}
    go_names = {go_camel_case(n): n for n, _ in rpcs}
    for name, key in rpcs:
        go = go_camel_case(name)
        stem = naming.file_case(go, file_case)
        base: dict[str, Any] = {"rpc": name, "service": service}
        if go in ("Server", "Logger"):
            why = (
                "writes server.go, the file of the service's Server"
                if go == "Server"
                else ("clashes with the Logger its logic embeds")
            )
            yield "proto/rpc-name", key, {**base, "reason": f"is refused: it {why} - rename it"}
        elif naming.go_file_is_special(stem):
            what = "a test file" if stem.endswith("_test") else "a file for one OS or architecture only"
            yield "proto/rpc-file-name", key, {**base, "file": stem + ".go", "what": what}
        if stem in files:
            yield (
                "proto/rpc-name",
                key,
                {
                    **base,
                    "reason": f"writes {stem}.go, which RPC {files[stem]} also writes - rename one of them",
                },
            )
        files.setdefault(stem, name)
        if go.startswith("New") and go[3:] in go_names:
            yield (
                "proto/rpc-name",
                key,
                {
                    **base,
                    "reason": f"and RPC {go_names[go[3:]]} both need the Go name {go}Logic "
                    f"(New{go[3:]}Logic builds {go[3:]}Logic) - rename one of them",
                },
            )


def http_dir_clashes(pd: ProtoDesign, manifest: Any, http: Any) -> list[Diagnostic]:
    """A gRPC service whose logic directory under output.service is an HTTP service's too."""
    if http is None:
        return []
    http_dirs = {m.output_dir: m.service for m in http.methods}
    out: list[Diagnostic] = []
    for f in pd.files:
        if f.name not in pd.names:
            continue
        for si, svc in enumerate(f.service):
            d = service_dir(svc.name, manifest.output.file_case)
            if d in http_dirs:
                out.append(
                    make(
                        "proto/service-dir",
                        pd.text(f.name).located(f, [FILE_SERVICE, si, NAME]),
                        service=_full(f, svc.name),
                        dir=f"{manifest.output.path('service')}/{d}",
                        other=f"the HTTP service {http_dirs[d]}",
                    )
                )
    return out
