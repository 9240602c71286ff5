"""Read a user's Go file (the `tree-sitter-go` wheel, never regular expressions).

    src = GoSource.parse(text)
    src.package                      # "main"
    src.functions()                  # top-level functions: name, params, results, place
    src.methods("GetOrderLogic")     # methods of one receiver type (pointer or value)
    src.calls()                      # every call: callee as written ("wiring.RegisterGRPC")
    src.struct_fields("Config")      # fields of a struct type, embedded ones by type name

Used for the notices about gen-once files kit does not rewrite (a `main.go` that never calls
`RegisterGRPC`, a `config.go` without the gRPC struct) and, later, to compare a user's stub
signatures with the design (stub drift: `kit_core.stubs`), which reads `GoFunc.sig`: byte
offsets of the parameters, results and body, and each type keyed by import path.
"""

from kit_core.gosource.source import (
    GoCall,
    GoField,
    GoFunc,
    GoImport,
    GoParam,
    GoSignature,
    GoSource,
    assumed_name,
)

__all__ = ["GoCall", "GoField", "GoFunc", "GoImport", "GoParam", "GoSignature", "GoSource", "assumed_name"]
