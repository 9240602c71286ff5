"""`@format` names (dsl-facts §7): what each accepts, its message label, a Python check.

The Python checks mirror the runtime's Go checks closely enough for the analyzer to tell
whether an `@default` value breaks a `@format` of its field.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parseaddr
from urllib.parse import urlparse


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    label: str  # as in `<field>: not a valid <label>`
    accepts: str  # one line for hover / docs
    check: Callable[[str], bool]


def _email(v: str) -> bool:
    _, addr = parseaddr(v)
    return bool(re.fullmatch(r"[^@\s]+@[^@\s]+", addr))


def _url(v: str) -> bool:
    try:
        u = urlparse(v)
    except ValueError:
        return False
    return u.scheme in ("http", "https") and bool(u.netloc)


def _uri(v: str) -> bool:
    try:
        return bool(urlparse(v).scheme)
    except ValueError:
        return False


def _ip(v: str, version: int) -> bool:
    try:
        return ipaddress.ip_address(v).version == version and (version == 4 or ":" in v)
    except ValueError:
        return False


def _cidr(v: str) -> bool:
    try:
        ipaddress.ip_network(v, strict=False)
    except ValueError:
        return False
    return "/" in v


def _b64(v: str, alt: bytes | None) -> bool:
    try:
        base64.b64decode(v, altchars=alt, validate=True)
    except (binascii.Error, ValueError):
        return False
    return len(v) % 4 == 0


def _json(v: str) -> bool:
    try:
        json.loads(v)
    except ValueError:
        return False
    return True


def _rx(pattern: str) -> Callable[[str], bool]:
    compiled = re.compile(pattern)
    return lambda v: compiled.fullmatch(v) is not None


_DATETIME = r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"
_MAC = r"([0-9A-Fa-f]{2}[:-]){5,19}[0-9A-Fa-f]{2}|([0-9A-Fa-f]{4}\.){2,9}[0-9A-Fa-f]{4}"

FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("email", "email", "an RFC 5322 address (display-name forms parse)", _email),
        Format("url", "URL", "a parseable URL with scheme http or https", _url),
        Format("uri", "URI", "a parseable URI with a non-empty scheme", _uri),
        Format(
            "uuid",
            "UUID",
            "8-4-4-4-12 hex digits, any version, either case",
            _rx(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"),
        ),
        Format(
            "datetime",
            "RFC 3339 datetime",
            "an RFC 3339 timestamp (fraction and offset allowed)",
            _rx(_DATETIME),
        ),
        Format("date", "date", "YYYY-MM-DD", _rx(r"\d{4}-\d{2}-\d{2}")),
        Format("time", "time", "HH:MM:SS with no offset", _rx(r"\d{2}:\d{2}:\d{2}")),
        Format("phone", "phone", "optional +, then 6-20 of digits, space, (, ), -", _rx(r"\+?[0-9 ()\-]{6,20}")),
        Format("ipv4", "IPv4", "a dotted IPv4 address", lambda v: _ip(v, 4)),
        Format("ipv6", "IPv6", "an IPv6 address (not a plain v4 form)", lambda v: _ip(v, 6)),
        Format("cidr", "CIDR", "a v4 or v6 CIDR block", _cidr),
        Format("mac", "MAC address", "a MAC-48, EUI-64 or 20-octet address with :, - or .", _rx(_MAC)),
        Format("creditcard", "credit card number", "12-19 digits (no checksum)", _rx(r"\d{12,19}")),
        Format("base64", "base64", "standard alphabet, padded", lambda v: _b64(v, None)),
        Format("base64url", "base64url", "URL-safe alphabet, padded", lambda v: _b64(v, b"-_")),
        Format(
            "hexcolor",
            "hex color",
            "optional # then 3 or 6 hex digits",
            _rx(r"#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})"),
        ),
        Format("json", "JSON", "any valid JSON document", _json),
    )
}
