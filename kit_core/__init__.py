"""kit: a design-first API toolchain (DSL + proto -> Go service)."""

__version__ = "0.1.0"
