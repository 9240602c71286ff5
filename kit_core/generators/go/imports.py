"""The import block of one Go file: groups, sorted paths and collision-free names."""

from __future__ import annotations

from dataclasses import dataclass, field

# Names the templates write literally; a design package is never imported under one of them.
RESERVED = frozenset(
    "base64 bytes config context embed errors events fmt handler http json log logic math mail middleware mime "
    "multipart net netip os regexp routes server signal slices strconv strings svccontext syscall "
    "telemetry time transport types unicode url utf8 wiring".split()
)


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

    def design(self, path: str, package: str) -> str:
        """Import a design package's Go package, named after the DSL package when free."""
        if path in self._paths:
            return self._paths[path] or package
        name = package if package not in RESERVED else package + "types"
        base, n = name, 2
        while name in self._names and self._names[name] != path:
            name, n = f"{base}{n}", n + 1
        self._names[name] = path
        self._paths[path] = name if name != package else None
        return name

    def named(self, path: str, package: str) -> str:
        """`design`, spelling the name out when it is not the path's last element (pb
        packages: `inventoryv1 ".../pb/inventory/v1"`), as goimports would."""
        name = self.design(path, package)
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
