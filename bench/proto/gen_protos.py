"""Synthetic proto designs for the large-proto benchmark (`bench/proto/bench_proto.py`).

    python bench/proto/gen_protos.py OUT [--big-mb 5] [--set 600]

Two designs, each a folder with `kit.design.yaml` whose `proto.includes` names the folder
holding `buf/validate/validate.proto` (protovalidate's rules, from the Go module cache):

* ``big``: one ~5 MB proto (`big/v1/big.proto`): messages with comments, scalar, enum,
  map, repeated and oneof fields, field options (`deprecated`, `json_name`) and
  protovalidate rules as real APIs write them, nested messages and enums, top-level enums,
  and services whose RPCs take and return those messages (all four kinds);
* ``set``: a googleapis-sized set of ``--set`` protos in directories of 6 (one proto
  package per directory, `<area>/v1/*.proto`), each importing a shared types proto,
  a sibling of its directory, a proto of another directory, well-known types and the
  rules; the last proto of each directory declares a service.

Both compile cleanly (no diagnostics); `write_big()` and `write_set()` are importable.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

RULES_MODULE = "github.com/bufbuild/protovalidate@v1.2.2"  # holds buf/validate/validate.proto
SCALARS = ("string", "int64", "int32", "bool", "double", "bytes", "uint32")
KINDS = (("", ""), ("", "stream "), ("stream ", ""), ("stream ", "stream "))


@dataclass(frozen=True)
class Written:
    root: Path  # the design folder
    names: list[str]  # import names of the design's protos
    edited: str  # the import name a benchmark edits
    rules: Path  # the import root holding buf/validate/validate.proto


def rules_root() -> Path:
    """protovalidate's proto folder, downloaded through the Go module proxy when not cached."""
    out = subprocess.run(
        ["go", "mod", "download", "-json", RULES_MODULE], capture_output=True, text=True, check=True
    ).stdout
    root = Path(json.loads(out)["Dir"]) / "proto" / "protovalidate"
    assert (root / "buf/validate/validate.proto").is_file(), root
    return root


def _manifest(root: Path, rules: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "kit.design.yaml").write_text(f"proto:\n  includes:\n    - {rules}\n")


def _rule(kind: str, i: int) -> str:
    """A protovalidate rule like the ones real APIs carry, for a field of type ``kind``."""
    if kind == "string":
        return [
            "(buf.validate.field).string = {min_len: 1, max_len: 256}",
            '(buf.validate.field).string.pattern = "^[a-z][a-z0-9-]{0,62}$"',
            "(buf.validate.field).string.email = true",
            "(buf.validate.field).string.uuid = true",
        ][i % 4]
    if kind in ("int64", "int32"):
        return f"(buf.validate.field).{kind} = {{gte: 0, lte: {1000 + i}}}"
    if kind == "uint32":
        return "(buf.validate.field).uint32.gt = 0"
    if kind == "double":
        return "(buf.validate.field).double = {gte: -90.0, lte: 90.0}"
    return "(buf.validate.field).required = true"


def _message(name: str, i: int, enum: str, other: str | None, indent: str = "") -> str:
    """One message of ~40 lines: comments, rules, a nested enum and message, a oneof, a map."""
    p = indent
    lines = [
        f"{p}// {name} is message {i} of the benchmark: a resource with an id, a display name,",
        f"{p}// timestamps, labels and a state, documented the way API protos document theirs.",
        f"{p}message {name} {{",
        f'{p}  option (buf.validate.message).cel = {{id: "{name.lower()}.window", '
        f'message: "end must follow start", expression: "this.end_seq >= this.start_seq"}};',
        f"{p}  // The state of the {name}.",
        f"{p}  enum State {{",
        f"{p}    STATE_UNSPECIFIED = 0;",
        f"{p}    STATE_ACTIVE = 1;",
        f"{p}    STATE_DELETED = 2 [deprecated = true];",
        f"{p}  }}",
        f"{p}  // A part of the {name}, kept inline.",
        f"{p}  message Part {{",
        f"{p}    string key = 1 [(buf.validate.field).string.min_len = 1];",
        f"{p}    int64 size = 2;",
        f"{p}  }}",
    ]
    n = 1
    for j, kind in enumerate(SCALARS):
        lines.append(f"{p}  // Field {j} of {name}: a {kind} value the server checks.")
        lines.append(f"{p}  {kind} f{j}_{kind} = {n} [{_rule(kind, i + j)}];")
        n += 1
    lines += [
        f"{p}  int64 start_seq = {n};",
        f"{p}  int64 end_seq = {n + 1};",
        f'{p}  string display_name = {n + 2} [json_name = "displayName", deprecated = true];',
        f"{p}  State state = {n + 3} [(buf.validate.field).enum.defined_only = true];",
        f"{p}  {enum} kind = {n + 4};",
        f"{p}  repeated Part parts = {n + 5} [(buf.validate.field).repeated.max_items = 100];",
        f"{p}  map<string, string> labels = {n + 6} [(buf.validate.field).map.max_pairs = 64];",
        f"{p}  google.protobuf.Timestamp create_time = {n + 7};",
        f"{p}  oneof source {{",
        f"{p}    string uri = {n + 8};",
        f"{p}    bytes inline = {n + 9};",
        f"{p}  }}",
    ]
    if other:
        lines.append(f"{p}  {other} parent = {n + 10};")
    lines.append(f"{p}}}")
    return "\n".join(lines) + "\n"


def _enum(name: str, values: int) -> str:
    body = "".join(f"  // Value {v} of {name}.\n  {name.upper()}_V{v} = {v};\n" for v in range(1, values))
    return f"// {name} is a top-level enum.\nenum {name} {{\n  {name.upper()}_UNSPECIFIED = 0;\n{body}}}\n"


def _service(name: str, msgs: list[str]) -> str:
    rpcs = []
    for k, m in enumerate(msgs):
        cs, ss = KINDS[k % 4]
        rpcs.append(f"  // Call{k} reads and writes {m}.\n  rpc Call{k}({cs}{m}) returns ({ss}{m});\n")
    return f"// {name} serves the benchmark's messages.\nservice {name} {{\n{''.join(rpcs)}}}\n"


HEADER = (
    'syntax = "proto3";\n\npackage {package};\n\n'
    'import "buf/validate/validate.proto";\n'
    'import "google/protobuf/timestamp.proto";\n'
    "{imports}"
    '\noption go_package = "example.com/bench/pb/{go}";\n\n'
)


def big_text(target_bytes: int) -> str:
    """One proto of about ``target_bytes``: messages, enums and services in blocks of 40."""
    parts = [HEADER.format(package="bench.big.v1", imports="", go="bigv1;bigv1")]
    size, block = len(parts[0]), 0
    while size < target_bytes:
        enum = f"Kind{block}"
        chunk = [_enum(enum, 8)]
        names = [f"Res{block}x{i}" for i in range(40)]
        for i, name in enumerate(names):
            other = names[i - 1] if i else None
            if i % 10 == 9:  # a message nesting another whole message
                inner = _message("Inner", i, enum, None, "  ")
                chunk.append(_message(name, i, enum, other)[:-2] + "\n" + inner + "}\n")
            else:
                chunk.append(_message(name, i, enum, other))
        chunk.append(_service(f"Svc{block}", names[:12]))
        text = "\n".join(chunk) + "\n"
        parts.append(text)
        size += len(text)
        block += 1
    return "".join(parts)


def write_big(root: Path, megabytes: float = 5.0, rules: Path | None = None) -> Written:
    rules = rules or rules_root()
    _manifest(root, rules)
    path = root / "big/v1/big.proto"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(big_text(int(megabytes * 1_000_000)))
    return Written(root, ["big/v1/big.proto"], "big/v1/big.proto", rules)


SHARED = (
    HEADER.format(package="bench.shared.v1", imports="", go="sharedv1;sharedv1")
    + "// Money is an amount in a currency.\nmessage Money {\n  string currency = 1 "
    "[(buf.validate.field).string.len = 3];\n  int64 units = 2;\n  int32 nanos = 3;\n}\n\n"
    "// PageRequest asks for one page of a list.\nmessage PageRequest {\n  int32 page_size = 1 "
    "[(buf.validate.field).int32 = {gte: 0, lte: 1000}];\n  string page_token = 2;\n"
    "  google.protobuf.Timestamp as_of = 3;\n}\n" + _enum("Region", 12)
)

PER_DIR = 6


def _set_proto(d: int, i: int) -> str:
    pkg = f"bench.area{d}.v1"
    imports = ['import "shared/v1/shared.proto";\n']
    if i:
        imports.append(f'import "area{d}/v1/p{i - 1}.proto";\n')
    if d:
        imports.append(f'import "area{(d * 7 + 3) % d}/v1/p{i % PER_DIR}.proto";\n')
    head = HEADER.format(package=pkg, imports="".join(imports), go=f"area{d}v1;area{d}v1")
    enum = f"Kind{i}"
    names = [f"Thing{i}x{k}" for k in range(8)]
    body = [_enum(enum, 6)]
    for k, name in enumerate(names):
        other = names[k - 1] if k else (f"Thing{i - 1}x7" if i else "bench.shared.v1.Money")
        body.append(_message(name, k, enum, other))
    if d:
        body.append(f"message Link{i} {{\n  bench.area{(d * 7 + 3) % d}.v1.Thing{i % PER_DIR}x0 target = 1;\n}}\n")
    body.append("message Listing {\n  bench.shared.v1.PageRequest page = 1;\n}\n".replace("Listing", f"Listing{i}"))
    if i == PER_DIR - 1:
        body.append(_service(f"Area{d}Service", names))
    return head + "\n".join(body)


def write_set(root: Path, protos: int = 600, rules: Path | None = None) -> Written:
    rules = rules or rules_root()
    _manifest(root, rules)
    (root / "shared/v1").mkdir(parents=True, exist_ok=True)
    (root / "shared/v1/shared.proto").write_text(SHARED)
    names = ["shared/v1/shared.proto"]
    dirs = max(1, (protos - 1) // PER_DIR)
    for d in range(dirs):
        (root / f"area{d}/v1").mkdir(parents=True, exist_ok=True)
        for i in range(PER_DIR):
            name = f"area{d}/v1/p{i}.proto"
            (root / name).write_text(_set_proto(d, i))
            names.append(name)
    # the edited proto: in the middle of the set, imported by the rest of its directory
    return Written(root, names, f"area{dirs // 2}/v1/p1.proto", rules)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--big-mb", type=float, default=5.0)
    ap.add_argument("--set", type=int, default=600)
    args = ap.parse_args()
    rules = rules_root()
    big = write_big(args.out / "big", args.big_mb, rules)
    many = write_set(args.out / "set", args.set, rules)
    size = sum((many.root / n).stat().st_size for n in many.names)
    print(f"{big.root}: {(big.root / big.edited).stat().st_size / 1e6:.1f} MB in one proto")
    print(f"{many.root}: {len(many.names)} protos, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
