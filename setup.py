"""Builds the tree-sitter grammar of the DSL into `kit_core._kit_grammar` at install time.

Project metadata lives in pyproject.toml; this file only declares the C extension, so
installing kit needs a C compiler but not the tree-sitter CLI (grammar/src/parser.c is
generated and committed).
"""

from glob import glob
from platform import system

from setuptools import Extension, setup

COMPILE_ARGS = ["/std:c11", "/utf-8"] if system() == "Windows" else ["-std=c11", "-fvisibility=hidden"]

setup(
    ext_modules=[
        Extension(
            name="kit_core._kit_grammar",
            sources=["grammar/src/parser.c", "grammar/src/scanner.c", "grammar/bindings/python/binding.c"],
            include_dirs=["grammar/src"],
            depends=sorted(glob("grammar/src/tree_sitter/*.h")),  # shipped in the sdist too
            extra_compile_args=COMPILE_ARGS,
            define_macros=[("PY_SSIZE_T_CLEAN", None), ("TREE_SITTER_HIDE_SYMBOLS", None)],
        )
    ],
)
