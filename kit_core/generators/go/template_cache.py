"""Compiled templates kept beside the templates, as Python keeps `.pyc` files beside modules.

Compiling kit's ~40 templates costs ~55 ms in every process that renders (a clean `kit gen`
pays it before its rendering can start); loading their compiled code costs a few. jinja2
checks each entry against its template's source (a checksum) and its own and Python's
versions, so an entry is never stale. Entries are written, like `.pyc` files, unless Python
may not write bytecode (``PYTHONDONTWRITEBYTECODE``) or the folder is read-only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

FOLDER = Path(__file__).resolve().parent.parent / "templates" / "__pycache__"  # outside the loader's folder


class TemplateCache(jinja2.FileSystemBytecodeCache):
    def __init__(self, folder: Path = FOLDER) -> None:
        super().__init__(str(folder), "%s.jinja")

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except OSError:
            pass  # unreadable: the template is compiled

    def dump_bytecode(self, bucket: Bucket) -> None:
        if sys.dont_write_bytecode:
            return
        try:
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass  # a read-only install compiles in every process, as before


def compile_all(env: jinja2.Environment) -> None:
    """Write every template's entry (an install step, like `compileall`), whatever
    ``PYTHONDONTWRITEBYTECODE`` says."""
    saved, sys.dont_write_bytecode = sys.dont_write_bytecode, False
    try:
        for name in env.list_templates():
            env.get_template(name)
    finally:
        sys.dont_write_bytecode = saved
