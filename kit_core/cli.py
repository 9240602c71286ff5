"""The thin command line: `kit init`, `kit gen`, `kit fmt`, `kit diff`, `kit version`.

Exit codes: 0 success; 1 any error (diagnostics, a file `fmt -l` lists, a bad flag or
argument); 2 a missing or unknown command, or a design folder named that does not exist.

Each command imports what it runs inside its own function, deliberately: `kit version`,
`kit help` and a `kit gen` the resident kit answers load nothing else (start-up time).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit_core import __version__, gcpause
from kit_core.printable import printable

if TYPE_CHECKING:
    from kit_core.diagnostics import Diagnostic
    from kit_core.program import DesignError
    from kit_core.regenerate import Loaded, Outcome, Printed
    from kit_core.writer import WriteReport


class _Parser(argparse.ArgumentParser):
    """argparse exits 2 on a bad flag; kit uses 1 for a bad flag of a known command."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def _display_path(path: str) -> str:
    if not path:
        return path
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def render(d: Diagnostic) -> str:
    """`path:line:col: error|warning code: message` with the path relative to the cwd."""
    s = d.span
    return _line(s.path, s.start_line + 1, s.start_col + 1, d.severity.value, d.code, d.message)


def render_printed(p: Printed) -> str:
    return _line(p.path, p.line, p.col, p.severity, p.code, p.message)


def _line(path: str, line: int, col: int, severity: str, code: str, message: str) -> str:
    """One located line; control characters from file names or the design are escaped."""
    return printable(f"{_display_path(path)}:{line}:{col}: {severity} {code}: {message}", one_line=True)


def _say(message: str) -> None:
    print(printable(message), file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- commands


def cmd_init(args: argparse.Namespace) -> int:
    from kit_core.manifest import MANIFEST_NAME, STARTER

    folder = Path(args.design_dir)
    target = folder / MANIFEST_NAME
    if target.exists():
        print(f"kit: {target} already exists, nothing to do")
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    target.write_text(STARTER, encoding="utf-8")
    print(f"kit: wrote {target}")
    has_go_mod = _init_go_module(folder.resolve().parent, args.module, args.runtime)
    print("next steps:")
    if not has_go_mod:
        print("  - create go.mod in the project root (the design folder's parent): go mod init <module>")
    print(f"  - add a .kit file to {folder} starting with `package <name>` (or a .proto file)")
    print(f"  - run: kit gen {folder}, then go mod tidy")
    if any(folder.rglob("*.proto")):
        _print_plugin_pins(folder.resolve().parent)
    return 0


def _init_go_module(project_root: Path, module: str | None, runtime_mode: str = "copy") -> bool:
    """go.mod for a new project (unless one governs it already), pinned to kit's runtime:
    kit's copy inside the project, or (``published``) the published modules at kit's version."""
    from kit_core import gomod

    existing = gomod.find(project_root)
    if existing is not None:
        if module:
            print(f"kit: {existing / gomod.GO_MOD} already exists; --module {module} is not applied")
        if runtime_mode == "published":
            _require_published(existing)
        return True
    chosen = module or gomod.default_module(project_root)
    try:
        written = gomod.init_module(project_root, chosen)
    except gomod.GoCommandError as exc:
        print(f"kit: go.mod not written: {exc}", file=sys.stderr)
        return False
    hint = "" if module else " (a default: choose one with --module, or change it with `go mod edit -module`)"
    print(f"kit: wrote {_display_path(str(written))} with module {chosen}{hint}")
    if runtime_mode == "published":
        _require_published(project_root)
    else:
        _print_notices(gomod.pin_runtime(project_root))
    return True


def _require_published(project_root: Path) -> None:
    from kit_core import gomod

    try:
        note = gomod.require_published(project_root)
    except (gomod.GoCommandError, OSError) as exc:
        note = f"could not require the published kit runtime: {exc}"
    print(f"kit: {note}")


def _print_plugin_pins(project_root: Path) -> None:
    """The design holds protos: their Go code comes from the plugins pinned in go.mod."""
    from kit_core.proto.plugins import GO_GRPC_TOOL, GO_TOOL, go_mod_tools, pin_commands

    gomod = next((d / "go.mod" for d in (project_root, *project_root.parents) if (d / "go.mod").is_file()), None)
    pinned = go_mod_tools(gomod.read_text(encoding="utf-8")) if gomod is not None else set()
    missing = [t for t in (GO_TOOL, GO_GRPC_TOOL) if t not in pinned]
    if missing:
        print("this design holds .proto files: pin the protobuf Go plugins in go.mod (from the project root):")
        for command in pin_commands(missing):
            print(f"  {command}")


def cmd_gen(args: argparse.Namespace) -> int:
    from kit_core import daemon, interrupt

    named = args.folder or (args.path if args.path != "." else None)
    if named is not None and not Path(named).exists():
        # before the search: it would walk up from a folder that is not there and talk
        # about what it found above (or about a missing go.mod), not about the typo
        _say(f"kit: {named}: no such design folder")
        return 2
    interrupt.on_sigint()  # Ctrl-C: one line and status 130, the tree as before or as after
    try:
        code = _gen_resident(args) if daemon.enabled() and not args.no_daemon else None
        if code is None:
            code = _gen_in_process(args)
    except interrupt.Cancelled:
        _say(interrupt.interrupted_line(interrupt.wrote()))
        return interrupt.EXIT_STATUS
    if interrupt.pending():  # it came while the files were written: they were finished first
        _say(interrupt.interrupted_line(True))
        return interrupt.EXIT_STATUS
    return code


def _gen_resident(args: argparse.Namespace) -> int | None:
    """The run handed to the user's resident kit (None: run it here), for a design folder
    only (a missing or ambiguous design folder is reported by the run in this process)."""
    from kit_core import daemon
    from kit_core.daemon.client import run_gen
    from kit_core.designfiles import search_design_root

    # found here without `program` (the client stays light)
    root = Path(args.folder).resolve() if args.folder else search_design_root(Path(args.path))[0]
    if root is None or not daemon.holds_design(root):
        return None
    context = Path(args.context) if args.context else None
    return run_gen(root, context, args.target, daemon.interactive())


def _gen_in_process(args: argparse.Namespace) -> int:
    from kit_core import program
    from kit_core.gcpause import paused_gc

    try:
        root = Path(args.folder).resolve() if args.folder else program.find_design_root(Path(args.path))
    except program.DesignError as exc:
        return _design_error(exc)
    # one run, then the process ends: the cyclic collector, paused within each phase, would
    # otherwise walk the whole design between them (~0.1 s on 2,000 types) to find next to nothing
    with paused_gc():
        return gen_here(root, Path(args.context) if args.context else None, args.target)


def gen_here(
    root: Path,
    context: Path | None,
    targets: Sequence[str] | None,
    loaded_for: Callable[[Path], Loaded | None] | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> int:
    """`kit gen` in this process. ``loaded_for``: the design as a resident process (the
    resident kit, `kit_core.daemon`) holds it analysed, when that is what is on disk;
    ``progress`` is called at each stage of the run (the resident kit cancels there)."""
    from kit_core import program
    from kit_core.regenerate import TARGETS, regenerate
    from kit_core.statedir import StateDirError

    try:
        loaded = partial(loaded_for, root) if loaded_for is not None else None
        outcome = regenerate(
            root,
            project_root=context,
            targets=targets or TARGETS,
            parallel=True,
            on_wait=_say,
            loaded=loaded,
            resident=loaded_for is not None,
            progress=progress,
        )
    except program.DesignError as exc:
        return _design_error(exc)
    except StateDirError as exc:
        _say(f"kit: error: {exc}")
        return 1
    _print_recovery(outcome)
    for p in outcome.diagnostics:
        print(render_printed(p), file=sys.stderr)
    if outcome.has_errors or outcome.report is None:
        print("kit: the design has errors; nothing was written", file=sys.stderr)
        return 1
    notices = list(outcome.report.notices)
    if outcome.report.ok and "go" in (targets or TARGETS):
        from kit_core.gomod import pin_runtime
        from kit_core.interrupt import shielded

        with shielded():  # go.mod is part of the tree the run leaves: written whole
            notices.extend(pin_runtime(outcome.project_root))
    return _print_report(outcome, notices)


def _design_error(exc: DesignError) -> int:
    for d in exc.diagnostics:
        print(render(d), file=sys.stderr)
    print("kit: nothing was written", file=sys.stderr)
    return 1


def _print_recovery(outcome: Outcome) -> None:
    r = outcome.recovery
    if r.state == "commit":
        _say(f"kit: finished writing what a kit run that was stopped had begun ({len(r.completed)} files)")
    elif r.state == "prepare":
        _say("kit: removed the staged files of a kit run that was stopped before writing")


def _print_report(outcome: Outcome, notices: Sequence[object]) -> int:
    report = outcome.report
    assert report is not None
    for p in report.problems:
        print(render(p), file=sys.stderr)
    if report.problems:
        print("kit: nothing was written", file=sys.stderr)
        return 1
    for path in report.written:
        print(printable(f"wrote   {path}"))
    for path in report.swept:
        print(printable(f"swept   {path}"))
    _print_notices(notices)
    print(summary(report))
    return 0


def summary(report: WriteReport) -> str:
    """The run's counts, in two groups that hold the same files run after run (a run writing
    everything and the next writing nothing add up to one total): the files kit regenerates
    (written or unchanged) and the gen-once files that are yours (created or kept)."""
    created = set(report.gen_once_created)
    written, unchanged = len(report.written) - len(created), len(report.unchanged)
    kept = len(report.skipped_gen_once)
    regen, yours = written + unchanged, len(created) + kept
    return (
        f"kit: {regen + yours} files: {regen} regenerated ({written} written, {unchanged} unchanged), "
        f"{yours} yours ({len(created)} created, {kept} kept); {len(report.swept)} swept"
    )


def _print_notices(notices: Sequence[object]) -> None:
    for n in notices:
        _say(f"notice: {getattr(n, 'path', '')}: {getattr(n, 'message', n)}")


def cmd_fmt(args: argparse.Namespace) -> int:
    from kit_core import format as fmt

    return int(fmt.run(args.paths or ["."], list_only=args.list, write=args.write or not args.list))


def cmd_version(_: argparse.Namespace) -> int:
    print(f"kit {__version__}")
    return 0


# --------------------------------------------------------------------------- parser


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="kit", description="kit: design-first API toolchain (DSL and protos in, Go service out)")
    p.add_argument("-v", "--version", action="version", version=f"kit {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    init = sub.add_parser("init", help="write a default kit.design.yaml into a design folder")
    init.add_argument("design_dir", nargs="?", default="design", help="the design folder (created if missing)")
    init.add_argument(
        "-m",
        "--module",
        help="module path of the go.mod written when the project has none (default: example.com/<folder>)",
    )
    init.add_argument(
        "--runtime",
        choices=("copy", "published"),
        default="copy",
        help="how go.mod reaches kit's Go runtime: kit's copy in third_party/kit-runtime/ (default), or the "
        "published modules at kit's version, no replace (once a kit release has published them)",
    )
    init.set_defaults(run=cmd_init)

    gen = sub.add_parser(
        "gen",
        help="check the design and generate the Go service and documents",
        description=GEN_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    gen.add_argument(
        "path", nargs="?", default=".", help="the design folder, or a path in the project (default .): the rule above"
    )
    gen.add_argument("-f", "--folder", help="the design folder itself (skips the search)")
    gen.add_argument("-c", "--context", help="the project root (default: the design folder's parent)")
    gen.add_argument(
        "--target", action="append", choices=["go", "docs"], help="what to generate; repeatable; default all"
    )
    gen.add_argument(
        "--no-daemon",
        action="store_true",
        help="run in this process, not in the user's resident kit (also: KIT_NO_DAEMON=1)",
    )
    gen.set_defaults(run=cmd_gen)

    fmt = sub.add_parser("fmt", help="format design files (`-` reads stdin and writes stdout)")
    fmt.add_argument("-l", "--list", action="store_true", help="list files that need formatting; exit 1 if any")
    fmt.add_argument("-w", "--write", action="store_true", help="rewrite files in place (default without -l)")
    fmt.add_argument("paths", nargs="*", help="files or folders (default .), or - for stdin")
    fmt.set_defaults(run=cmd_fmt)

    _add_diff(sub)
    _add_mock(sub)

    version = sub.add_parser("version", help="print the version")
    version.set_defaults(run=cmd_version)
    helpcmd = sub.add_parser("help", help="show this help, or a command's (kit help gen)")
    helpcmd.add_argument("topic", nargs="?", metavar="command", help="the command to explain")
    helpcmd.set_defaults(run=partial(_print_help, p, sub.choices))
    return p


def _add_diff(sub: Any) -> None:
    """`kit diff`'s arguments; its code (`kit_core.breaking`, ~0.2 s of imports: protobuf, the
    decorator registry) loads only when it runs, so every other command starts without it."""
    diff = sub.add_parser(
        "diff",
        help="list the changes that break clients since a git ref",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="List the changes that break clients between the design at a git ref and the work tree,\n"
        "to any depth (nested types, array and map elements, generic instances, enums, error bodies,\n"
        "event payloads, nested proto messages), each with its path and the methods, RPCs or events\n"
        "it reaches. As a client sees it: a request is what it sends, a response or error body what\n"
        "it receives, an event payload both.\n"
        "  everywhere:        a field removed, renamed, moved or retyped\n"
        "  what is sent:      a field made required, a new required field, a narrowed validator,\n"
        "                     a removed enum value\n"
        "  what is received:  a field that may now be absent\n"
        "  nothing:           optional fields, enum values and wider validators added\n"
        "Protos follow buf's wire and JSON rules. Details: docs/editor.md (`kit diff`).",
    )
    diff.add_argument("ref", help="the baseline: a branch, tag or commit")
    diff.add_argument("path", nargs="?", default=".", help="a path in or above the design folder (default .)")
    diff.add_argument("-f", "--folder", help="the design folder itself (skips the search)")
    diff.add_argument("-c", "--context", help="the project root (default: the design folder's parent)")
    diff.add_argument("--exit-code", action="store_true", help="exit 1 when a breaking change is found")
    diff.add_argument(
        "--format",
        choices=("text", "json", "sarif"),
        default="text",
        help="text: one located line per change (default); json: kit's report; sarif: SARIF 2.1.0 for code scanning",
    )
    diff.set_defaults(run=_cmd_diff)


def _add_mock(sub: Any) -> None:
    """`kit mock`'s arguments (kit_core/mock/command.py)."""
    from kit_core.mock.command import add_parser

    add_parser(sub)


def _cmd_diff(args: argparse.Namespace) -> int:
    from kit_core.breaking.cli import cmd_diff

    return cmd_diff(args)


def _print_help(
    parser: argparse.ArgumentParser, commands: Mapping[str, argparse.ArgumentParser], args: argparse.Namespace
) -> int:
    """`kit help`: kit's help; `kit help <command>`: that command's, as `kit <command> --help`."""
    if args.topic is None:
        parser.print_help()
        return 0
    if args.topic not in commands:
        print(f"kit: unknown command {args.topic!r}; commands: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    commands[args.topic].print_help()
    return 0


GEN_DESCRIPTION = """Check the design and generate the Go service and documents.

Which design: with -f, that folder. Otherwise, from PATH (default: the current folder):
  1. PATH itself, when it holds kit.design.yaml;
  2. its one direct subfolder holding kit.design.yaml;
  3. the nearest folder above PATH holding kit.design.yaml;
  4. the project root (the nearest folder at or above PATH holding go.mod): the root
     itself or its one direct subfolder holding kit.design.yaml.
So `kit gen` works from the project root, from the design folder, and from anywhere in
the project (internal/, a service folder). Two candidate folders at one step: name one.
A PATH or FOLDER that does not exist is refused (exit 2)."""


COMMANDS = ("init", "gen", "fmt", "diff", "mock", "version", "help")


def main(argv: Sequence[str] | None = None) -> int:
    gcpause.install()  # one run on a whole design: kit's bulk phases pause the collector
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        print(f"kit: unknown command {argv[0]!r}; commands: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    return int(args.run(args))


def run() -> None:
    """The `kit` command: `main`, then an exit that skips freeing the interpreter's objects one
    by one (about 0.2 s after a run on a large design: every file is closed and the output
    flushed by then; the operating system reclaims the rest, locks included)."""
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
