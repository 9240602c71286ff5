"""Builds the tree-sitter grammar of the DSL into `kit_core._kit_grammar` at install time, and
ships the Go runtime inside the package (`kit_core/_runtime/`).

Project metadata lives in pyproject.toml; this file only declares the C extension and the
runtime copy, so installing kit needs a C compiler but not the tree-sitter CLI
(grammar/src/parser.c is generated and committed).
"""

import importlib.util
import shutil
from glob import glob
from pathlib import Path
from platform import system

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

COMPILE_ARGS = ["/std:c11", "/utf-8"] if system() == "Windows" else ["-std=c11", "-fvisibility=hidden"]
HERE = Path(__file__).resolve().parent


def _runtime_files():
    """kit_core.runtime_files, loaded by path: the package's dependencies are not installed yet."""
    spec = importlib.util.spec_from_file_location("_kit_runtime_files", HERE / "kit_core" / "runtime_files.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithRuntime(build_py):
    """Copies runtime/ (without tests) to kit_core/_runtime/ in the build, so a wheel carries it.

    An editable install reads runtime/ from the checkout instead (kit_core.runtime_dist).
    """

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        source = HERE / "runtime"
        target = Path(self.build_lib) / "kit_core" / "_runtime"
        if target.exists():
            shutil.rmtree(target)
        for rel in _runtime_files().shipped(source):
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / rel, target / rel)


setup(
    cmdclass={"build_py": BuildPyWithRuntime},
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
