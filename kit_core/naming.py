"""Every casing rule of generated names in one place (dsl-facts §3.1, §3.2, §3.4)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

# dsl-facts §3.1's list, plus the rest of the initialisms Go's linters know (staticcheck
# ST1003's default list), so that no generated name reads `Uuid` or `Html`.
INITIALISMS = frozenset(
    "id url uri api http https json xml tcp udp dns db sql csv tls ssl sha md5 cdn dom pdf gif jpeg png "
    "xss csrf cpu gpu ram os io eof ip mac utf8 ascii".split()
    + "acl amqp css gid guid html qps rpc rtp sip sla smtp ssh ts ttl uid ui uuid vm xmpp xsrf".split()
)

FILE_CASES = ("snake", "kebab", "camel")

_SEPARATORS = re.compile(r"[_\-]+")


def split_words(name: str) -> list[str]:
    """Split an identifier into words.

    Breaks on `_` and `-`; before an upper-case letter following a lower-case one; inside
    an upper-case run before the last capital when a lower-case letter follows
    (`HTTPRequest` -> HTTP|Request). A digit->letter boundary is not a break
    (`ListV2Items` -> List|V2Items).
    """
    words: list[str] = []
    for part in _SEPARATORS.split(name):
        words.extend(_split_camel(part))
    return [w for w in words if w]


def _split_camel(part: str) -> list[str]:
    words: list[str] = []
    start = 0
    for i in range(1, len(part)):
        prev, cur = part[i - 1], part[i]
        nxt = part[i + 1] if i + 1 < len(part) else ""
        if cur.isupper() and prev.islower():
            words.append(part[start:i])
            start = i
        elif cur.isupper() and prev.isupper() and nxt.islower():
            words.append(part[start:i])
            start = i
    words.append(part[start:])
    return words


def _cap(word: str) -> str:
    if word.lower() in INITIALISMS:
        return word.upper()
    return word[:1].upper() + word[1:].lower()


@cache
def go_name(name: str) -> str:
    """Exported Go name of a DSL field: `userId` -> `UserID`, `avatar_url` -> `AvatarURL`."""
    return "".join(_cap(w) for w in split_words(name))


def screaming_snake(name: str) -> str:
    """Error code constant value: `UserNotFound` -> `USER_NOT_FOUND`, `DBLocked` -> `DB_LOCKED`."""
    return "_".join(w.upper() for w in split_words(name))


def snake(name: str) -> str:
    return "_".join(w.lower() for w in split_words(name))


def kebab(name: str) -> str:
    return "-".join(w.lower() for w in split_words(name))


def camel(name: str) -> str:
    words = split_words(name)
    if not words:
        return ""
    return words[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in words[1:])


def file_case(name: str, case: str) -> str:
    """On-disk name of a service directory or method file under `output.fileCase`."""
    if case == "kebab":
        return kebab(name)
    if case == "camel":
        return camel(name)
    return snake(name)


@cache  # a design rule asks it of every middleware on each analysis that reruns the rule
def middleware_file(name: str, case: str) -> str:
    """Scaffold file of a middleware: `AuthRequired` -> `auth_required_middleware.go` (snake)."""
    return file_case(name + "Middleware", case) + ".go"


def route_from_method(name: str) -> str:
    """Default route of a method without a path: `/<kebab-case name>`, whatever the file case."""
    return "/" + kebab(name)


def error_go_type(name: str) -> str:
    """Go type of a DSL error: `EmailTaken` -> `EmailTakenErr`; names ending in Err/Error stay."""
    if name.endswith("Err") or name.endswith("Error"):
        return name
    return name + "Err"


def enum_const(enum: str, value: str) -> str:
    """Go constant of an enum value: `Status` + `in_progress` -> `StatusInProgress`."""
    return enum + go_name(value)


_GOOS = frozenset(
    "aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris "
    "wasip1 windows zos".split()
)
_GOARCH = frozenset(
    "386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 "
    "mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm".split()
)


def go_file_is_special(file_stem: str) -> bool:
    """Whether the go command treats `<stem>.go` as test-only or OS/arch-specific."""
    if file_stem.endswith("_test"):
        return True
    parts = file_stem.split("_")
    if len(parts) < 2:
        return False
    last = parts[-1]
    if last in _GOOS or last in _GOARCH:
        return True
    return len(parts) >= 3 and parts[-2] in _GOOS and last in _GOARCH


def unique_go_names(names: Sequence[str]) -> list[str]:
    """Go names for fields in order; a later clash gets `_2`, `_3`... (first keeps the name)."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for n in names:
        base = go_name(n)
        count = seen.get(base, 0) + 1
        seen[base] = count
        out.append(base if count == 1 else f"{base}_{count}")
    return out
