"""Render units: how a generator tells the run what each piece of its output depends on.

A generator returns its output as a list of units instead of files:

    RenderUnit(
        name="go/types/shop",                  # stable and unique across all generators
        render=lambda: package_types(g, pkg),  # -> list[OutputFile]; pure (see below)
        packages=("shop",),                    # design packages it reads
        extra=("...",),                        # anything else that decides the output
    )

The run (`kit_core.incremental`) hashes what a unit declares into its key, renders only the
units whose key changed since the last run (or whose files on disk no longer are what was
written), and takes the others' outputs as they are. So the contract is:

* ``render()`` is a pure function of the declared inputs plus what every unit depends on
  implicitly: the manifest, the Go module path, the design folder's place in the project,
  and kit itself (its version and code). It reads no clock, no environment, no disk; the
  order of its outputs is fixed.
* ``packages``: the DSL packages (by `package` name) whose declarations the output reads.
  The key covers the text of every file of those packages *and of every package they
  reference, transitively* (a qualified name `other.Name` anywhere in a file - comments
  included, which only costs a render - makes `other` a dependency). A unit reading a
  package's declarations only through such references need not name the referenced one.
* ``whole_design``: the output reads the whole design (every DSL and proto file) - the
  safe default for anything design-wide (the OpenAPI document, cross-package tables).
* ``files``: other inputs read by content, as paths relative to the design folder
  (protos of a gRPC unit, for example).
* ``extra``: strings for everything else the output depends on that the above does not
  cover (the list of route directories for the routes umbrella, the applied middlewares
  for the wiring file). Cheap to compute: keys are computed on every run.
* ``weight``: a rough cost (declarations rendered), to share units between processes.
* ``keeps``: its render keeps pieces of its output for the next run in the process
  (`GenContext.keys`: the OpenAPI document's parts, client.go's helper sets); such a unit
  is rendered by the process that lives on, never by a forked helper, whose pieces would
  be lost with it (the next run would then render the whole document again).

A unit must produce the same files whenever its key is the same; a unit that declares too
little gives stale output, and the test `tests/incremental` (random edits, incremental run
compared byte for byte with a full run) is there to catch it. When in doubt, declare more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kit_core.generators.base import OutputFile


@dataclass(frozen=True, slots=True)
class RenderUnit:
    name: str
    render: Callable[[], list[OutputFile]]
    packages: tuple[str, ...] = ()
    whole_design: bool = False
    files: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    weight: int = 1
    keeps: bool = False
