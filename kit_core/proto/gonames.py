"""Go names protoc-gen-go and protoc-gen-go-grpc give proto declarations (rewritten from
protobuf-go's `internal/strs`: kit must name the generated types exactly as they do)."""

from __future__ import annotations

import posixpath

from kit_core.gowords import KEYWORDS


def go_camel_case(s: str) -> str:
    """protobuf-go's `strs.GoCamelCase`: `get_order` -> `GetOrder`, `Outer.Inner` -> `Outer_Inner`."""
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        nxt = s[i + 1] if i + 1 < n else ""
        if c == "." and _lower(nxt):
            pass  # skip '.' in ".{{lowercase}}"
        elif c == ".":
            out.append("_")
        elif c == "_" and (i == 0 or s[i - 1] == "."):
            out.append("X")
        elif c == "_" and _lower(nxt):
            pass  # skip '_' in "_{{lowercase}}"
        elif c.isascii() and c.isdigit():
            out.append(c)
        else:
            out.append(c.upper() if _lower(c) else c)
            while i + 1 < n and _lower(s[i + 1]):
                i += 1
                out.append(s[i])
        i += 1
    return "".join(out)


def _lower(c: str) -> bool:
    return "a" <= c <= "z" if c else False


def go_sanitized(s: str) -> str:
    """protobuf-go's `strs.GoSanitized`: a valid Go identifier for a package name."""
    s = "".join(ch if ch.isalpha() or ch.isdigit() else "_" for ch in s)
    if s in KEYWORDS or not s[:1].isalpha():
        return "_" + s
    return s


def package_name_of(import_path: str) -> str:
    """The default Go package name of an import path (its last element, sanitized)."""
    return go_sanitized(posixpath.basename(import_path))


def message_go_name(full_name: str, package: str) -> str:
    """Go type of a message: its name relative to the proto package, camel-cased."""
    name = full_name.lstrip(".")
    if package and name.startswith(package + "."):
        name = name[len(package) + 1 :]
    return go_camel_case(name)
