"""The user's gen-once logic stubs against what the design now generates.

    expected = expected_stubs(gen_context)            # the stubs kit would write now
    drifts = find_drift(expected, read)               # stubs on disk whose signature drifted
    edits = signature_edits(drift)                    # rewrite the signature, never the body
    files, notices = carry_renamed(host, files, manifest)   # a renamed method keeps its code

Stubs are read with the `tree-sitter-go` reader (`kit_core.gosource`); signatures are
compared by their types keyed by import path, so another import alias or other spacing is
not drift. `kit gen` prints drift as notices; kit-lsp shows it on the method in the `.kit`
or `.proto` file with a quick fix.
"""

from kit_core.stubs.carry import carry_renamed
from kit_core.stubs.drift import Drift, drift_diagnostics, drift_notices, find_drift
from kit_core.stubs.edits import Edit, signature_edits
from kit_core.stubs.expected import Expected, expected_stubs, logic_method

__all__ = [
    "Drift",
    "Edit",
    "Expected",
    "carry_renamed",
    "drift_diagnostics",
    "drift_notices",
    "expected_stubs",
    "find_drift",
    "logic_method",
    "signature_edits",
]
