"""Values that pass a field's protovalidate rules, for the gRPC answers of `kit mock`.

A design proto importing `buf/validate/validate.proto` annotates fields with
`(buf.validate.field)`. The compiled descriptors carry those options as an extension of
`FieldOptions`; read through a descriptor pool of the compiled files (validate.proto
included) they are `buf.validate.FieldRules` messages. For each field with rules this
builds one value passing them (strings: `const`, `in`, lengths, `prefix`/`suffix`/
`contains`, the well-known formats, `pattern`; numbers: `const`, `in`, the bounds; enums:
`const`, `in`, `not_in`; bytes: `const`, lengths) and, for a repeated field, its
`min_items` and its items' rules. Rules it does not know leave the field's plain value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kit_core.generators.go.mock_values import FORMAT_SAMPLES, pattern_strings
from kit_core.generators.go.render import go_string

EXTENSION = "buf.validate.field"

# FieldRules' `type` oneof member -> (the protoreflect constructor, Python kind)
_NUMBERS = {
    "int32": "Int32",
    "sint32": "Int32",
    "sfixed32": "Int32",
    "int64": "Int64",
    "sint64": "Int64",
    "sfixed64": "Int64",
    "uint32": "Uint32",
    "fixed32": "Uint32",
    "uint64": "Uint64",
    "fixed64": "Uint64",
    "float": "Float32",
    "double": "Float64",
}
# the string rules' well-known formats: one accepted value each
_FORMATS = {
    "email": FORMAT_SAMPLES["email"],
    "uuid": FORMAT_SAMPLES["uuid"],
    "tuuid": FORMAT_SAMPLES["uuid"].replace("-", ""),
    "uri": FORMAT_SAMPLES["uri"],
    "uri_ref": FORMAT_SAMPLES["uri"],
    "hostname": "example.com",
    "address": "example.com",
    "ip": FORMAT_SAMPLES["ipv4"],
    "ipv4": FORMAT_SAMPLES["ipv4"],
    "ipv6": FORMAT_SAMPLES["ipv6"],
    "ip_with_prefixlen": "192.0.2.1/24",
    "ipv4_with_prefixlen": "192.0.2.1/24",
    "ipv6_with_prefixlen": "2001:db8::1/64",
    "ip_prefix": FORMAT_SAMPLES["cidr"],
    "ipv4_prefix": FORMAT_SAMPLES["cidr"],
    "ipv6_prefix": "2001:db8::/64",
    "host_and_port": "example.com:8080",
}


@dataclass(frozen=True, slots=True)
class FieldRule:
    name: str  # the field's full name, `shop.v1.Order.id`
    go: str  # the Go `rule{...}` literal


def field_rules(protos: Any) -> list[FieldRule]:
    """One rule per field of the design's messages that carries protovalidate rules (sorted)."""
    found = _rules_by_field(protos)
    out: list[FieldRule] = []
    for name, (rules, kind) in sorted(found.items()):
        literal = _rule(rules, kind)
        if literal:
            out.append(FieldRule(name, literal))
    return out


def _rules_by_field(protos: Any) -> dict[str, tuple[Any, str]]:
    """Field full name -> (its FieldRules, its descriptor kind), for the design's protos."""
    if not any(dep == "buf/validate/validate.proto" for f in protos.files for dep in f.dependency):
        return {}
    # deferred: protobuf loads only for a design with protos
    from google.protobuf import descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    for f in protos.files:
        pool.Add(f)
    try:
        extension = pool.FindExtensionByName(EXTENSION)
        options_class = message_factory.GetMessageClass(pool.FindMessageTypeByName("google.protobuf.FieldOptions"))
    except KeyError:
        return {}
    out: dict[str, tuple[Any, str]] = {}
    own = set(protos.design)

    def walk(prefix: str, messages: Any) -> None:
        for m in messages:
            full = f"{prefix}.{m.name}" if prefix else m.name
            for field in m.field:
                if not field.options.ByteSize():
                    continue
                options = options_class.FromString(field.options.SerializeToString())
                if options.HasExtension(extension):
                    out[f"{full}.{field.name}"] = (options.Extensions[extension], _kind(field))
            walk(full, m.nested_type)

    for f in protos.files:
        if f.name in own:
            walk(f.package, f.message_type)
    return out


def _kind(field: Any) -> str:
    """`repeated` or the scalar kind's rules member name (`string`, `int32`, `enum`...)."""
    from google.protobuf import descriptor_pb2  # deferred: as in _rules_by_field

    names = {v: k.removeprefix("TYPE_").lower() for k, v in descriptor_pb2.FieldDescriptorProto.Type.items()}
    kind = names[field.type]
    if field.label == descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED:
        return "repeated:" + kind
    return kind


def _rule(rules: Any, kind: str) -> str:
    """The Go `rule{...}` literal for one field's rules ("" when nothing applies)."""
    parts: list[str] = []
    if kind.startswith("repeated:"):
        if rules.WhichOneof("type") == "repeated":
            repeated = rules.repeated
            if repeated.min_items > 1:
                parts.append(f"items: {repeated.min_items}")
            value = _value(repeated.items, kind.removeprefix("repeated:")) if repeated.HasField("items") else None
            if value is not None:
                parts.append(f"value: ruled({value})")
    else:
        value = _value(rules, kind)
        if value is not None:
            parts.append(f"value: ruled({value})")
    return "rule{" + ", ".join(parts) + "}" if parts else ""


def _value(rules: Any, kind: str) -> str | None:
    """A `protoreflect.ValueOfX(...)` passing the scalar rules, or None (none to follow)."""
    member = rules.WhichOneof("type")
    if member is None:
        return None
    typed = getattr(rules, member)
    if member == "string":
        text = _string(typed)
        return None if text is None else f"protoreflect.ValueOfString({go_string(text)})"
    if member == "bytes":
        data = _bytes(typed)
        return None if data is None else f"protoreflect.ValueOfBytes([]byte({go_string(data)}))"
    if member == "enum":
        return f"protoreflect.ValueOfEnum({_enum(typed)})"
    if member in _NUMBERS:
        number = _number(typed, member in ("float", "double"))
        return None if number is None else f"protoreflect.ValueOf{_NUMBERS[member]}({number})"
    return None


def _string(r: Any) -> str | None:
    if r.HasField("const"):
        return str(r.const)
    if len(getattr(r, "in")):
        return str(getattr(r, "in")[0])
    lo = r.len if r.HasField("len") else r.min_len
    hi = r.len if r.HasField("len") else (r.max_len if r.HasField("max_len") else None)
    well_known = r.WhichOneof("well_known")
    candidates = [_FORMATS[well_known]] if well_known in _FORMATS else []
    if r.HasField("pattern"):
        candidates += [s for s in pattern_strings(r.pattern) if re.search(r.pattern, s)]
    if not candidates:
        candidates = ["example"]
    for text in candidates:
        text = f"{r.prefix}{text}" if r.prefix and not text.startswith(r.prefix) else text
        text = f"{text}{r.contains}" if r.contains and r.contains not in text else text
        text = f"{text}{r.suffix}" if r.suffix and not text.endswith(r.suffix) else text
        text = text.ljust(lo, "x")[: hi if hi is not None else None]  # "example" cut to a length of 4
        if _passes(r, text, lo, hi):
            return text
    return None


def _passes(r: Any, text: str, lo: int, hi: int | None) -> bool:
    return (
        lo <= len(text)
        and (hi is None or len(text) <= hi)
        and text.startswith(r.prefix)
        and text.endswith(r.suffix)
        and r.contains in text
        and (not r.HasField("pattern") or re.search(r.pattern, text) is not None)
    )


def _bytes(r: Any) -> str | None:
    if r.HasField("const"):
        return bytes(r.const).decode("latin-1")
    lo = r.len if r.HasField("len") else r.min_len
    text = "example"
    hi = r.len if r.HasField("len") else (r.max_len if r.HasField("max_len") else None)
    text = text.ljust(lo, "x")
    return text if hi is None else text[:hi]


def _enum(r: Any) -> int:
    if r.HasField("const"):
        return int(r.const)
    if len(getattr(r, "in")):
        return int(getattr(r, "in")[0])
    banned = set(r.not_in)
    return next(n for n in range(1, 1 << 16) if n not in banned)


def _number(r: Any, floating: bool) -> str | None:
    if r.HasField("const"):
        return repr(r.const)
    if len(getattr(r, "in")):
        return repr(getattr(r, "in")[0])
    lower = r.WhichOneof("greater_than")
    upper = r.WhichOneof("less_than")
    lo = getattr(r, lower) if lower else None
    hi = getattr(r, upper) if upper else None
    step = 0.5 if floating else 1
    value: float | int = 1
    if lo is not None:
        value = lo + step if lower == "gt" else lo
    if hi is not None and (value > hi or (value == hi and upper == "lt")):
        value = hi - step if upper == "lt" else hi
    banned = set(r.not_in)
    while value in banned:
        value += step
    return repr(value) if floating else str(int(value))
