"""`kit mock [path] [--addr] [--config] [--out] [--build-only]`: build the mock and run it."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

DESCRIPTION = """Generate the service into a folder of its own with every logic stub replaced
by an answer built from the design (the field's @example when it passes the field's
validators, else a value built to pass them), build it and run it. Requests are decoded and
validated by the same generated handlers as `kit gen`'s service; each method answers its
success status with that body (204 without one); each RPC answers messages built from its
proto types (passing their protovalidate rules). The project itself is not touched.
The design folder is found as `kit gen` finds it (kit help gen)."""


def add_parser(sub: Any) -> None:
    mock = sub.add_parser(
        "mock",
        help="build and run a mock of the service, answering from the design",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mock.add_argument("path", nargs="?", default=".", help="the design folder, or a path in the project (default .)")
    mock.add_argument("-f", "--folder", help="the design folder itself (skips the search)")
    mock.add_argument("-c", "--context", help="the project root (default: the design folder's parent)")
    mock.add_argument("--addr", help="listen address of the HTTP server (server.addr), e.g. 127.0.0.1:8080")
    mock.add_argument("--config", help="the configuration file (default: the project's, else the generated one)")
    mock.add_argument("--out", help="where the mock project is generated (default: kit's state folder)")
    mock.add_argument("--build-only", action="store_true", help="generate and build, print the binary, do not run")
    mock.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from kit_core import program
    from kit_core.cli import _design_error, render
    from kit_core.generators.go.layout import Layout
    from kit_core.mock.build import NotAMockFolder, build, prepare

    try:
        folder = Path(args.folder).resolve() if args.folder else program.find_design_root(Path(args.path))
        context = Path(args.context).resolve() if args.context else None
        project = prepare(folder, Path(args.out).resolve() if args.out else None, context)
    except program.DesignError as exc:
        return _design_error(exc)
    except NotAMockFolder as exc:
        print(f"kit: {exc}", file=sys.stderr)
        return 2
    for w in project.warnings:
        print(render(w), file=sys.stderr)
    try:
        binary = build(project)
    except subprocess.CalledProcessError as exc:
        print(f"kit: the mock does not build:\n{exc.stdout}{exc.stderr}", file=sys.stderr)
        return 1
    if args.build_only:
        print(binary)
        return 0
    design = program.load_design(folder, project_root=context)
    layout = Layout.from_manifest(design.manifest, design.module or "")
    config = run_config(project.root, design.project_root, layout.config, args.config, args.addr)
    os.execv(binary, [str(binary), "-config", str(config)])  # the service owns the terminal from here


def run_config(mock_root: Path, project_root: Path, config_dir: str, given: str | None, addr: str | None) -> Path:
    """The configuration the mock runs with: ``given``, else the project's, else the generated
    one; with ``addr`` as `server.addr` (written beside the mock project)."""
    own, generated = project_root / config_dir / "config.yaml", mock_root / config_dir / "config.yaml"
    candidates = [Path(given)] if given else [own, generated]
    source = next((p for p in candidates if p.is_file()), candidates[-1])
    if addr is None:
        return source.resolve()
    import yaml  # only here: every kit command builds this parser

    data = yaml.safe_load(source.read_text(encoding="utf-8")) or {}
    data.setdefault("server", {})["addr"] = addr
    out = mock_root / "mock.config.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return out
