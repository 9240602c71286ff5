"""Who may talk to whom: a client and a resident kit of the same identity would run the same
code the same way, so the client can hand its run over. The identity covers everything the
process executes and reads besides the project:

- every kit package's files (`kit_core`, `kit_lsp`): name, size and time of each, the
  version, and `gofmt` (`kit_core.incremental.build.build_id` for `kit_core`, the cache's
  identity too);
- the interpreter: its real path, size and time, its version and flags;
- the import path (`sys.path`, without its first entry: the folder of the command that
  started the process, which differs between a `kit` script and ``python -m``);
- what is installed on that path: the name (which holds the version) of every
  distribution's metadata folder and the name, size and time of every `.pth` file (an
  editable install's hook) - installing or upgrading anything there changes the identity,
  a superset of what kit imports, read with one listing per folder;
- the environment variables a run reads (`PATH`, `HOME`, `TMPDIR`, `GO*`, `KIT_*`, `XDG_*`;
  not the resident kit's own `KIT_DAEMON_*` settings).

A resident kit computes it when it starts; any difference with a client's makes it refuse
the client and exit, and the client runs (or starts a new resident kit).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

from kit_core.incremental.build import build_id, package_files
from kit_core.incremental.keys import digest

_KIT_PACKAGES = ("kit_core", "kit_lsp")
_ENV_PREFIXES = ("KIT_", "GO", "XDG_")
_ENV_NAMES = ("PATH", "HOME", "TMPDIR")
_OWN_PREFIX = "KIT_DAEMON_"  # the resident kit's own settings (idle time, log level) change no output
_INSTALLED = (".dist-info", ".egg-info", ".egg-link")


def identity() -> str:

    return digest(
        build_id(), *(_package_files(name) for name in _KIT_PACKAGES[1:]), _interpreter(), *_import_path(), _env()
    )


def _package_files(name: str) -> str:
    """The files of a kit package found on the import path (not imported: the client does
    not load kit-lsp to know it)."""

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return f"{name}:none"
    return "\n".join([name, *(package_files(Path(p).resolve()) for p in spec.submodule_search_locations)])


def _interpreter() -> str:
    exe = os.path.realpath(sys.executable)
    try:
        st = os.stat(exe)
        stamp = f"{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        stamp = "?"
    return f"{exe}:{stamp}:{sys.version}:{sys.flags}"


def _import_path() -> list[str]:
    entries = sys.path if sys.flags.safe_path else sys.path[1:]
    parts = [json.dumps(entries)]
    for entry in entries:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for name in names:
            if name.endswith(_INSTALLED):
                parts.append(f"{entry}/{name}")
            elif name.endswith(".pth"):
                st = os.stat(os.path.join(entry, name))
                parts.append(f"{entry}/{name}:{st.st_size}:{st.st_mtime_ns}")
    return parts


def _env() -> str:
    env = sorted(
        (k, v)
        for k, v in os.environ.items()
        if (k in _ENV_NAMES or k.startswith(_ENV_PREFIXES)) and not k.startswith(_OWN_PREFIX)
    )
    return json.dumps(env)
