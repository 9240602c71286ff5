"""Incremental generation: what a run can take from the last one, and how it knows.

* `keys.py` - digests of what each render unit reads (`kit_core.generators.units`);
* `store.py` - the cache file, outside the project, and its integrity checks;
* `verify.py` - whether an output on disk is still what the last run left;
* `inputs.py` - one digest of every input file, for the run that finds nothing changed;
* `render.py` - rendering units, on two processes when there are many;
* `build.py` - which kit wrote a cache (a cache is trusted only by that kit).

The run itself is `kit_core.regenerate`.
"""
