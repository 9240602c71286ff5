"""Statements of one Go function body, indented the way gofmt indents them."""

from __future__ import annotations

from dataclasses import dataclass, field

from kit_core.generators.go.render import go_string


@dataclass
class Emitter:
    """Statements of one function body, already indented the way gofmt indents them."""

    lines: list[str] = field(default_factory=list)
    std: set[str] = field(default_factory=set)  # std imports used by the statements
    depth: int = 0  # blocks opened by `open` and not closed yet

    def add(self, stmt: str) -> None:
        """One statement (may span lines, nested lines indented relative to the first)."""
        pad = "\t" * self.depth
        self.lines.append(pad + stmt.replace("\n", "\n" + pad) if pad else stmt)

    def fail(self, cond: str, message: str) -> None:
        self.std.add("errors")
        self.add(f"if {cond} {{\n\treturn errors.New({go_string(message)})\n}}")

    def wrap(self, call: str, fmt_label: str, *args: str) -> None:
        """`if err := <call>; err != nil { return fmt.Errorf("<label>: %w", args..., err) }`"""
        self.std.add("fmt")
        extra = "".join(a + ", " for a in args)
        errorf = f"fmt.Errorf({go_string(fmt_label + ': %w')}, {extra}err)"
        self.add(f"if err := {call}; err != nil {{\n\treturn {errorf}\n}}")

    def dynamic(self, addr: str, fmt_label: str, *args: str) -> None:
        """Validate a type parameter's value through its `Validate()`, when it has one."""
        self.open(f"if x, ok := any({addr}).(interface{{ Validate() error }}); ok")
        self.wrap("x.Validate()", fmt_label, *args)
        self.close()

    def open(self, header: str) -> None:
        self.add(f"{header} {{" if header else "{")
        self.depth += 1

    def close(self) -> None:
        self.depth -= 1
        self.add("}")
