"""Notices of "Command line": things the user must do by hand; kit reports, never acts.

* stubs left by a renamed or dropped service (names their directory) or method (names the
  file): GEN-ONCE logic stubs under `output.service` that this run no longer produces;
* a gen-once `main.go` that never calls `RegisterGRPC` while a proto declares a service,
  or a `config.go` with no gRPC config struct;
* the last proto service dropped (the wiring file `grpc.go` is swept) while `main.go`
  still calls `RegisterGRPC`;
* a gen-once `svccontext.go` that sets a middleware the design no longer declares (it
  would not compile: the REGEN `middlewares.go` lost the slot), or that never sets one the
  design added (the service refuses to start while a route's middleware is nil). The
  declared middlewares are read from the slots kit wrote in `middlewares.go`
  (`type <Name>Middleware = ...`), the set ones from `New<Name>Middleware()` calls.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import Any

from kit_core.generators.base import Notice, OutputFile
from kit_core.writer.headers import GO_GEN_ONCE, first_line
from kit_core.writer.host import Host
from kit_core.writer.roots import output_path


def stale_stub_notices(
    host: Host, manifest: Any, produced: set[str], named: set[str] | frozenset[str] = frozenset()
) -> list[Notice]:
    """``named``: files another notice already names (a twin of a new scaffold)."""
    root = output_path(manifest, "service")
    if root is None:
        return []
    stale = [p for p in host.files_under(root) if p not in produced and p not in named and _is_stub(host, p)]
    if not stale:
        return []
    live_dirs = {posixpath.dirname(p) for p in produced}
    notices: list[Notice] = []
    named_dirs: set[str] = set()
    for p in stale:
        d = posixpath.dirname(p)
        if d in live_dirs:
            notices.append(
                Notice(
                    p,
                    "logic stub of a renamed or dropped method; kit no longer calls it - "
                    "move any code you need and delete the file",
                )
            )
        elif d not in named_dirs:
            named_dirs.add(d)
            notices.append(
                Notice(
                    d,
                    "logic stubs of a renamed or dropped service; kit no longer calls them - "
                    "move any code you need and delete the directory",
                )
            )
    return notices


def _is_stub(host: Host, path: str) -> bool:
    """A gen-once file shaped as kit writes a method's stub: a logic type `<M>Service` (HTTP)
    or `<M>Logic` (gRPC), its constructor `New<type>` and the method `<M>` on it. A gen-once
    file of the user's own (an example's store, a helper) is not a stub, whatever its header."""
    if not path.endswith(".go"):
        return False
    data = host.read(path)
    if data is None or first_line(data) != GO_GEN_ONCE:
        return False
    # deferred: the Go parser (tree-sitter-go) loads only when a gen-once file is inspected
    from kit_core.gosource import GoSource
    from kit_core.stubs.carry import stub_method  # deferred: as GoSource

    source = GoSource.parse(data)
    method = stub_method(source)
    return method is not None and any(f.name == f"New{method.receiver}" for f in source.functions())


def grpc_notices(host: Host, manifest: Any, files: Sequence[Any], swept: set[str]) -> list[Notice]:
    """``files``: the outputs of the run (anything with a `path`)."""
    wiring = output_path(manifest, "wiring")
    if wiring is None:
        return []
    grpc_wiring = posixpath.join(wiring, "grpc.go")
    produced = {f.path for f in files}
    main = _existing_text(host, output_path(manifest, "main"))
    config_dir = output_path(manifest, "config")
    config = _existing_text(host, posixpath.join(config_dir, "config.go") if config_dir else None)
    notices: list[Notice] = []
    if grpc_wiring in produced:
        if main is not None and not _calls(main[1], "RegisterGRPC"):
            notices.append(
                Notice(
                    main[0],
                    "a proto declares a service but this entry point never calls "
                    "wiring.RegisterGRPC - add the call (and stop the returned "
                    "shutdown function) to start the gRPC listener",
                )
            )
        if config is not None and not _has_grpc_config(config[1]):
            notices.append(
                Notice(
                    config[0],
                    "this config has no gRPC config struct - add a `GRPC` field "
                    "(yaml key `grpc`: addr, handlerTimeout, reflection)",
                )
            )
    elif grpc_wiring in swept and main is not None and _calls(main[1], "RegisterGRPC"):
        notices.append(
            Notice(
                main[0],
                "the last proto service was dropped and wiring/grpc.go was removed, "
                "but this entry point still calls RegisterGRPC - delete that call",
            )
        )
    return notices


def _calls(go_text: str, name: str) -> bool:
    """Whether the Go file calls a function or method of this name (comments do not count)."""
    from kit_core.gosource import GoSource  # deferred: tree-sitter-go loads only when a notice needs it

    return bool(GoSource.parse(go_text).calls_to(name))


def _has_grpc_config(go_text: str) -> bool:
    """Whether the `Config` struct of a config.go has the gRPC block (a `GRPC` field or one
    read from the yaml key `grpc`)."""
    # deferred: the Go parser (tree-sitter-go) loads only when a gen-once file is inspected
    from kit_core.gosource import GoSource

    fields = GoSource.parse(go_text).struct_fields("Config") or []
    return any(f.name == "GRPC" or 'yaml:"grpc' in (f.tag or "") for f in fields)


def _existing_text(host: Host, path: str | None) -> tuple[str, str] | None:
    """A gen-once file already on disk (one this run creates is current by construction)."""
    if path is None:
        return None
    data = host.read(path)
    if data is None:
        return None
    return path, data.decode("utf-8", errors="replace")


_SLOT = re.compile(r"^type (\w+)Middleware = ", re.MULTILINE)
_SET = re.compile(r"\bNew(\w+)Middleware\(")


def middleware_notices(host: Host, manifest: Any, files: Sequence[OutputFile], created: set[str]) -> list[Notice]:
    """``files``: the outputs of the run (the slots file's content, when it was rendered);
    ``created``: the paths this run creates (a new svccontext.go is right by construction)."""
    ctx_path = output_path(manifest, "svccontext")
    if ctx_path is None or ctx_path in created or output_path(manifest, "main") is None:
        return []
    ctx = _existing_text(host, ctx_path)
    slots_path = posixpath.join(posixpath.dirname(ctx_path), "middlewares.go")
    slots = next((f.content for f in files if f.path == slots_path), None)
    if slots is None:
        data = host.read(slots_path)
        slots = data.decode("utf-8", "replace") if data is not None else None
    if ctx is None or slots is None:
        return []
    declared = set(_SLOT.findall(slots))
    set_here = set(_SET.findall(ctx[1]))
    notices = [
        Notice(
            ctx_path,
            f"sets the middleware {name}, which the design no longer declares (its slot left "
            f"middlewares.go, so this file does not compile) - delete the line "
            f"`{name}: middleware.New{name}Middleware(),`",
        )
        for name in sorted(set_here - declared)
    ]
    notices += [
        Notice(
            ctx_path,
            f"does not set the middleware {name}, added to the design after this file was written "
            f"(the service refuses to start while a route's middleware is nil) - add "
            f"`{name}: middleware.New{name}Middleware(),` to Middlewares in NewServiceContext",
        )
        for name in sorted(declared)
        if name not in set_here and not re.search(rf"\b{name}\b", ctx[1])
    ]
    return notices
