"""The import block of one Go file: groups, sorted paths and collision-free names."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kit_core.gowords import KEYWORDS, PREDECLARED, STD_PACKAGES

# Names the templates write literally (kit's own and the runtime's packages); a design
# package is never imported under one of them.
RESERVED = frozenset(
    "config events handler log logic middleware routes server svccontext telemetry transport types wiring".split()
)
# A design or pb package imported under one of these names would hide the standard package
# or the predeclared identifier (`testing`, `string`) in the whole file.
CLASHES = RESERVED | STD_PACKAGES | PREDECLARED | KEYWORDS


def clashes(name: str) -> bool:
    """Whether a package imported as ``name`` would hide a name the file may need (or begins
    with the underscore protoc-gen-go escapes a keyword with: `_type`)."""
    return name in CLASHES or name.startswith("_")


def pb_alias(path: str, package: str) -> str:
    """The alias of a proto package whose name clashes: `<parent dir><package>pb`, letters and
    digits only (`.../pb/grpc/testing` -> `grpctestingpb`, `.../pb/string` -> `stringpb`)."""
    parent = path.rsplit("/", 2)[-2] if path.count("/") >= 2 else ""
    parent = "" if parent == "pb" else parent
    return re.sub(r"[^a-z0-9]", "", f"{parent}{package}".lower()) + "pb"


@dataclass
class ImportSet:
    """Imports of one file. ``local_prefix`` (the module path) decides the third group."""

    local_prefix: str
    _paths: dict[str, str | None] = field(default_factory=dict)  # path -> alias (None: package name)
    _names: dict[str, str] = field(default_factory=dict)  # name in file -> path

    def std(self, path: str) -> str:
        """Import a standard-library or runtime package under its own name; returns the name."""
        name = path.rsplit("/", 1)[-1]
        self._paths.setdefault(path, None)
        self._names.setdefault(name, path)
        return name

    def alias(self, path: str, alias: str) -> str:
        """Import a package under a fixed alias chosen by the caller (`types`, `logic`...)."""
        self._paths[path] = alias
        self._names[alias] = path
        return alias

    def reserve(self, *names: str) -> None:
        """Keep names the file declares itself (local variables) from design packages."""
        for name in names:
            self._names.setdefault(name, "")

    def package(self, path: str, name: str) -> str:
        """Import a package whose Go name is ``name``, spelling the name out only when the
        path's last element is another (no redundant alias); returns the name."""
        self._paths[path] = None if path.rsplit("/", 1)[-1] == name else name
        self._names[name] = path
        return name

    def design(self, path: str, package: str, clash_alias: str = "") -> str:
        """Import a design package's Go package, named after the DSL package when that hides
        nothing, else ``clash_alias`` (`<package>types` by default)."""
        if path in self._paths:
            return self._paths[path] or package
        name = package if not clashes(package) else clash_alias or package + "types"
        base, n = name, 2
        while name in self._names and self._names[name] != path:
            name, n = f"{base}{n}", n + 1
        self._names[name] = path
        self._paths[path] = name if name != package else None
        return name

    def pb(self, path: str, package: str) -> str:
        """Import a proto package's Go package (`named`); under `pb_alias` when its name clashes."""
        return self.named(path, package, pb_alias(path, package))

    def named(self, path: str, package: str, clash_alias: str = "") -> str:
        """`design`, spelling the name out when it is not the path's last element (pb
        packages: `inventoryv1 ".../pb/inventory/v1"`), as goimports would."""
        name = self.design(path, package, clash_alias)
        if self._paths[path] is None and name != path.rsplit("/", 1)[-1]:
            self._paths[path] = name
        return name

    def render(self) -> str:
        if not self._paths:
            return ""
        groups: list[list[str]] = [[], [], []]
        for path in sorted(self._paths):
            alias = self._paths[path]
            line = f'\t{alias} "{path}"' if alias else f'\t"{path}"'
            groups[self._group(path)].append(line)
        blocks = ["\n".join(g) for g in groups if g]
        return "import (\n" + "\n\n".join(blocks) + "\n)\n\n"

    def _group(self, path: str) -> int:
        if path == self.local_prefix or path.startswith(self.local_prefix + "/"):
            return 2
        first = path.split("/", 1)[0]
        return 1 if "." in first else 0
