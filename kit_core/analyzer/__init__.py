"""The analyzer: every semantic rule of the spec, split by rule family.

    from kit_core.analyzer import analyze, Analyzer
    analysis = analyze(files, manifest)     # Analysis(diagnostics, symbols, index, http, ...)
    session = Analyzer(manifest); session.update_all(files); session.update(edited)

Rule families (each a module with `check_file(ctx, file)` and/or `check_design(ctx)`):
names (packages, case, duplicates, Go names, middlewares), decorators (closed set,
placement, arguments), types (references, generics, maps, scalars, package cycles),
fields (bodies, mixins, collisions), validators (families, ranges, overflow), fieldopts
(@default, @sensitive, @nullable, bindings per field, cross-field), enums, services
(references, methods, groups, operationIds), routes (syntax, path variables, request
bindings, collisions), events, security (schemes, basePath), imports, filepos.
"""

from kit_core.analyzer.session import Analysis, Analyzer, Split, analyze, analyze_split

__all__ = ["Analysis", "Analyzer", "Split", "analyze", "analyze_split"]
