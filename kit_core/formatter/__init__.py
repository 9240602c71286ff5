"""The formatter's parts: printer (layout), emitter (comments, blank lines), render
(literals, decorators, types), members (bodies), verify (safety), cli (`kit fmt`).
The public API is :mod:`kit_core.format`."""
