"""A first look at one file of a design: its diagnostics from the packages it reaches only.

kit-lsp shows an opened file's diagnostics before the whole design is analysed (a large
design takes a second or more). The file's package is loaded - every file declaring it -
and analysed with the analyzer itself; the names its file rules looked up (the session's
recorded dependencies) name the packages that decide them, which are loaded in turn until
nothing new is named (middleware names are project-wide: a lookup of one loads every
package with a file whose text declares it). Whole packages only, so a lookup finds
what the full analysis finds.

What the file rules report is then exactly what the full analysis reports for the file.
Design rules are kept only where a closed set of packages decides them (`LOCAL_RULES`:
a package's own names, cycles through the file's package or its types); the others -
duplicate routes, operation ids and contracts across packages, project-wide middleware
names, imports against the design's folders, file positions - are left to the full
analysis, which the server runs next.

Which files declare which package is read from the package clause without parsing (a
regular expression over the bytes); a file where that could be fooled (a backquoted string
before the clause) is parsed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from kit_core.analyzer.session import DESIGN_RULES, Analysis, Analyzer
from kit_core.design_text import read_design
from kit_core.designfiles import design_files
from kit_core.diagnostics import Diagnostic
from kit_core.diagnostics.diagnostic import identity
from kit_core.lower import parse_file
from kit_core.manifest import Manifest
from kit_core.model import SourceFile

LOCAL_RULES = frozenset({"names", "package cycles", "mixin cycles"})
"""Design rules whose findings in a file are decided by the packages that file reaches."""

_PACKAGE = re.compile(rb"^[ \t]*package[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)
_MIDDLEWARE = b"middleware"


@dataclass
class FirstLook:
    diagnostics: tuple[Diagnostic, ...]  # the file's, as far as the loaded packages decide
    files: dict[str, SourceFile]  # what was loaded (the file included)
    packages: frozenset[str | None]  # the packages loaded


@dataclass
class _Listing:
    """The design's files by package (None: no package clause) and which mention middleware."""

    by_package: dict[str | None, list[str]]
    middleware: list[tuple[str | None, bytes]]  # (package, text) of the files mentioning middleware
    parsed: dict[str, SourceFile]  # files that had to be parsed to know their package


def _listing(root: Path, path: str, buffers: Mapping[str, str]) -> _Listing:
    listing = _Listing({}, [], {})
    inside = str(root) + os.sep
    names = {str(p) for p in design_files(root)} | {p for p in buffers if p.endswith(".kit") and p.startswith(inside)}
    for name in sorted(names - {path}):
        try:
            data = buffers[name].encode("utf-8") if name in buffers else Path(name).read_bytes()
        except (OSError, UnicodeEncodeError):
            continue
        package = _package_of(name, data, listing, buffers)
        listing.by_package.setdefault(package, []).append(name)
        if _MIDDLEWARE in data:
            listing.middleware.append((package, data))
    return listing


def _package_of(path: str, data: bytes, listing: _Listing, buffers: Mapping[str, str]) -> str | None:
    found = _PACKAGE.search(data)
    if found is not None and b"`" not in data[: found.start()]:
        return found.group(1).decode("ascii")
    parsed = listing.parsed[path] = _parse(path, buffers)
    return parsed.package


def _parse(path: str, buffers: Mapping[str, str]) -> SourceFile:
    text = buffers.get(path)
    return parse_file(path, text) if text is not None else parse_file(path, read_design(path))


def first_look(
    root: Path, path: str, text: str, manifest: Manifest | None, buffers: Mapping[str, str] | None = None
) -> FirstLook:
    """The diagnostics of ``path`` (its text: ``text``) in the design at ``root``, from the
    packages it reaches (see the module's docs); ``buffers``: editor texts over the disk."""
    buffers = buffers or {}
    listing = _listing(root, path, buffers)
    opened = parse_file(path, text)
    files: dict[str, SourceFile] = {path: opened}
    packages: set[str | None] = {opened.package}
    while True:
        for package in packages:
            for name in listing.by_package.get(package, ()) if package is not None else ():
                if name not in files:
                    files[name] = listing.parsed.get(name) or _parse(name, buffers)
        analyzer = Analyzer(manifest)
        analyzer.recorded = set()
        analysis = analyzer.update_all(files[p] for p in sorted(files))
        wanted = _reached(analyzer.recorded, listing)
        if wanted <= packages:
            break
        packages |= wanted
    return FirstLook(_decided(analysis, path), files, frozenset(packages))


def _reached(recorded: set[tuple[str, str, str]], listing: _Listing) -> set[str | None]:
    wanted: set[str | None] = set()
    for kind, package, name in recorded:
        if package == "*":
            wanted |= _middleware_packages(listing, name if kind == "M" else None)
        elif package in listing.by_package:
            wanted.add(package)
    return wanted


def _middleware_packages(listing: _Listing, name: str | None) -> set[str | None]:
    """The packages that may declare middleware ``name`` (None: any middleware), by their
    text: a superset (a comment naming it counts too), which is safe."""
    if name is None:
        return {package for package, _ in listing.middleware}
    declares = re.compile(rb"\bmiddleware\s+" + re.escape(name.encode("utf-8")) + rb"\b")
    return {package for package, data in listing.middleware if declares.search(data)}


def _decided(analysis: Analysis, path: str) -> tuple[Diagnostic, ...]:
    return tuple(d for d in analysis.for_file(path) if identity(d) not in design_wide(analysis))


def design_wide(analysis: Analysis) -> set[object]:
    """The identities of what an analysis's design-wide rules (not `LOCAL_RULES`) reported."""
    by_rule = analysis.by_design_rule
    return {identity(d) for name, _ in DESIGN_RULES if name not in LOCAL_RULES for d in by_rule.get(name, ())}
