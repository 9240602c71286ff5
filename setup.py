"""Builds the tree-sitter grammar of the DSL into `kit_core._kit_grammar` at install time.

Project metadata lives in pyproject.toml; this file only declares the C extension, so
installing kit needs a C compiler but not the tree-sitter CLI (grammar/src/parser.c is
generated and committed).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            name="kit_core._kit_grammar",
            sources=["grammar/src/parser.c", "grammar/bindings/python/binding.c"],
            include_dirs=["grammar/src"],
            extra_compile_args=["-std=c11", "-O2", "-Wno-unused-but-set-variable"],
            define_macros=[("PY_SSIZE_T_CLEAN", None), ("TREE_SITTER_HIDE_SYMBOLS", None)],
        )
    ],
)
