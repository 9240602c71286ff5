"""Generate a large synthetic kit design for benchmarks.

    python bench/gen_design.py OUT_DIR [--size default|large] [--packages N] [--types 2000] [--methods 600]
                                       [--big-lines 3000]

The design is valid (no diagnostics) and exercises what the analyzer does on real designs:
every package has a types file and a service file; types use scalars with validators,
enums, mixins, generic instances and references to the shared package `p0` (as real
designs share common types); services use prefixes, middlewares, path variables, header/query bindings and
`@errors`; every package declares an event. One extra package `big` holds a single file of
about `--big-lines` lines (for the language-server benchmark).

Sizes (`SIZES`, `--size`): `default` is the 2,000-type / 600-method design of 100
packages; `large` is five times it, 10,000 types / 3,000 methods in 500 packages (each
package the same shape as in the default design, so "five times the design" is five times
as many packages, not packages five times as big). `--packages` defaults to one package
per 20 types (100 for the default size).

`write_design(root, types, methods, packages, big_lines)` is the importable entry point.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

MANIFEST = """\
output:
  fileCase: snake
openapi:
  title: Bench
  version: 1.0.0
  basePath: /api
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
"""


TYPES_PER_PACKAGE = 20


@dataclass(frozen=True)
class Size:
    types: int
    methods: int


SIZES = {"default": Size(2000, 600), "large": Size(10000, 3000)}


def default_packages(types: int) -> int:
    """One package per TYPES_PER_PACKAGE types, as the default design has."""
    return max(1, types // TYPES_PER_PACKAGE)


@dataclass(frozen=True)
class DesignInfo:
    root: Path
    files: tuple[Path, ...]
    types: int
    methods: int
    packages: int
    big_file: Path
    edit_file: Path  # a mid-design types file the incremental benchmark edits


def _common(p: int) -> list[str]:
    return [
        f"package p{p}",
        "",
        f"scalar Code{p} string @pattern(`^[A-Z0-9]+$`) @length(2, 32)",
        f"scalar Amount{p} float64 @gte(0) @lte(1000000)",
        "",
        f"enum State{p} {{",
        '\tActive = "active"',
        '\tInactive = "inactive"',
        "}",
        "",
        f"type Base{p} {{",
        "\tid string @length(1, 64)",
        "\tcreatedAt datetime",
        "\tupdatedAt datetime?",
        "}",
        "",
        f"type List{p}<T> {{",
        "\titems T[] @maxItems(500)",
        "\ttotal int @gte(0)",
        "}",
        "",
        f"error NotFound Missing{p} {{",
        "\tid string",
        "}",
        "",
    ]


def _type(p: int, t: int, has_prev: bool) -> list[str]:
    lines = [f"// T{p}x{t} is a generated record.", f"type T{p}x{t} {{", f"\tBase{p}"]
    lines += [
        f"\tcode Code{p}",
        "\tname string @length(1, 200)",
        f"\tamount Amount{p}?",
        "\tcount int? @range(0, 100) @default(1)",
        "\temail string? @format(email)",
        "\ttags string[] @maxItems(10) @uniqueItems",
        f"\tstate State{p}? @default(Active)",
        "\tattributes map<string, string>?",
    ]
    if t:
        lines.append(f"\tprevious T{p}x{t - 1}?")
    if has_prev:
        lines.append(f"\tshared p0.T0x{t % 5}?")
    lines.append("}")
    lines.append("")
    return lines


def _verb(m: int) -> str:
    return ("get", "put", "post", "delete")[m % 4]


def _service(p: int, methods: int, types: int) -> list[str]:
    lines = [f"package p{p}", "", f"middleware Auth{p}", ""]
    for m in range(methods):
        t = m % types
        lines += [
            f"type Get{p}x{m}Req {{",
            "\tid string @path",
            '\ttrace string? @header("X-Trace-Id")',
            "\tpage int? @default(1) @gte(1)",
            *([f"\tfilter List{p}<T{p}x{t}>?"] if _verb(m) in ("put", "post") else []),
            "}",
            "",
        ]
    lines += [
        f'@prefix("/p{p}")',
        f"@middlewares(Auth{p})",
        "@security(bearer)",
        f'@tags("p{p}")',
        f"service Svc{p} {{",
    ]
    for m in range(methods):
        t = m % types
        verb = _verb(m)
        lines += [
            f"\t@errors(Missing{p})",
            f"\t{verb} Op{p}x{m} /r{m}/{{id}} {{",
            f"\t\trequest  Get{p}x{m}Req",
            f"\t\tresponse T{p}x{t}",
            "\t}",
            "",
        ]
    lines += ["}", "", f'@contract("bench.p{p}.changed")', f"event Changed{p} {{", f"\tpayload T{p}x0[]", "}", ""]
    return lines


def _big(lines_wanted: int) -> list[str]:
    lines = ["package big", "", "type BigBase {", "\tid string @length(1, 64)", "}", ""]
    i = 0
    while len(lines) < lines_wanted:
        lines += [
            f"// Big{i} is one of many records in one file.",
            f"type Big{i} {{",
            "\tBigBase",
            "\tname string @length(1, 80)",
            "\tvalue float64 @range(0, 1000)",
            "\tnote string?",
            "\tflags string[] @maxItems(8)",
            f"\tnext Big{i - 1}?" if i else "\tfirst bool",
            "}",
            "",
        ]
        i += 1
    return lines


def write_design(
    root: Path, types: int = 2000, methods: int = 600, packages: int | None = None, big_lines: int = 3000
) -> DesignInfo:
    """Write the design under ``root`` (created if missing) and describe it; ``packages``
    defaults to one per TYPES_PER_PACKAGE types."""
    if packages is None:
        packages = default_packages(types)
    root.mkdir(parents=True, exist_ok=True)
    (root / "kit.design.yaml").write_text(MANIFEST, encoding="utf-8")
    per_types = max(1, types // packages)
    per_methods = max(1, methods // packages)
    files: list[Path] = []
    for p in range(packages):
        folder = root / f"p{p}"
        folder.mkdir(exist_ok=True)
        body = _common(p)
        for t in range(per_types):
            body += _type(p, t, p > 0 and t < per_types)
        files.append(folder / "types.kit")
        files[-1].write_text("\n".join(body), encoding="utf-8")
        files.append(folder / "service.kit")
        files[-1].write_text("\n".join(_service(p, per_methods, per_types)), encoding="utf-8")
    big = root / "big" / "big.kit"
    big.parent.mkdir(exist_ok=True)
    big.write_text("\n".join(_big(big_lines)), encoding="utf-8")
    files.append(big)
    edit = root / f"p{packages // 2}" / "types.kit"
    return DesignInfo(root, tuple(files), per_types * packages, per_methods * packages, packages + 1, big, edit)


def add_size_arguments(ap: argparse.ArgumentParser) -> None:
    """--size, --types, --methods and --packages, as every bench script takes them."""
    ap.add_argument("--size", choices=sorted(SIZES), help="a preset: default 2,000 types, large 10,000")
    ap.add_argument("--types", type=int, help="types (default 2000)")
    ap.add_argument("--methods", type=int, help="methods (default 600)")
    ap.add_argument("--packages", type=int, help=f"packages (default one per {TYPES_PER_PACKAGE} types)")


def resolve_size(args: argparse.Namespace) -> None:
    """Fill types, methods and packages from --size where they were not given."""
    size = SIZES[args.size or "default"]
    args.types = size.types if args.types is None else args.types
    args.methods = size.methods if args.methods is None else args.methods
    args.packages = default_packages(args.types) if args.packages is None else args.packages


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    add_size_arguments(ap)
    ap.add_argument("--big-lines", type=int, default=3000)
    args = ap.parse_args(argv)
    resolve_size(args)
    info = write_design(args.out, args.types, args.methods, args.packages, args.big_lines)
    lines = sum(len(f.read_text(encoding="utf-8").splitlines()) for f in info.files)
    print(
        f"wrote {len(info.files)} files ({lines} lines): {info.packages} packages, {info.types} types, "
        f"{info.methods} methods under {info.root}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
