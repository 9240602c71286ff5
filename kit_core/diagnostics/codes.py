"""The one registry of diagnostic codes: code -> severity, message template, summary.

Every diagnostic is created through :func:`make`, which checks that the code exists and
that the template's named fields are all given. `docs/diagnostics/<code>.md` documents
each code (a test keeps the two in step).
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from kit_core.diagnostics.diagnostic import Diagnostic, Fix, Related, Severity
from kit_core.printable import printable
from kit_core.source import Span


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    severity: Severity
    template: str  # str.format template with named fields
    summary: str  # one line for the reference docs / hover

    @property
    def fields(self) -> frozenset[str]:
        return frozenset(f for _, f, _, _ in string.Formatter().parse(self.template) if f)


CODES: dict[str, Code] = {}


def register(code: str, severity: Severity, template: str, summary: str) -> Code:
    if code in CODES:
        raise ValueError(f"diagnostic code {code!r} registered twice")
    entry = Code(code, severity, template, summary)
    CODES[code] = entry
    return entry


def make(
    code: str,
    span: Span,
    *,
    related: tuple[Related, ...] = (),
    fixes: tuple[Fix, ...] = (),
    severity: Severity | None = None,
    **fields: object,
) -> Diagnostic:
    """Build a diagnostic of a registered code; a bug (unknown code, missing field) raises."""
    entry = CODES.get(code)
    if entry is None:
        raise KeyError(f"unknown diagnostic code {code!r}; valid codes: {sorted(CODES)}")
    missing = entry.fields - fields.keys()
    if missing:
        raise KeyError(f"diagnostic {code!r} needs fields {sorted(missing)}")
    message = printable(entry.template.format(**fields), one_line=True)
    return Diagnostic(code, severity or entry.severity, message, span, related, fixes)


E, W = Severity.ERROR, Severity.WARNING

# ---- parse errors (lowering) ------------------------------------------------------------
register("parse/syntax", E, "{message}", "text that is not valid kit syntax")
register(
    "parse/decorator-after-decl",
    E,
    "decorator @{name} after a declaration on its line - put it on the line above",
    "a decorator written after a declaration on the same line",
)
register(
    "parse/type-without-body",
    E,
    "type {name} needs a body - write `type {name} {{}}` for an empty type",
    "`type T` written without braces",
)
register(
    "parse/int-range",
    E,
    "integer literal {text} is outside the signed 64-bit range (max 9223372036854775807)",
    "an integer literal (or enum value) that does not fit int64",
)
register(
    "parse/unicode-escape", E, "invalid unicode escape {text}: {reason}", "a `\\u{...}` escape that names no character"
)
register("parse/string-escape", E, "invalid escape {text} in string literal", "an unknown string escape")
register(
    "parse/nested-decorator",
    E,
    "decorator @{inner} cannot be an argument of @{outer}",
    "a decorator written as another decorator's argument",
)
register("parse/number-suffix", E, 'invalid number suffix "{suffix}"', "a number followed by an unknown unit")
register("parse/error-category", E, 'unknown error category "{name}"', "an `error` with an unknown category")

# ---- manifest and design loading ----------------------------------------------------------
register(
    "manifest/unknown-key", W, "{key} is not a manifest key and is ignored{hint}", "a manifest key kit does not know"
)
register(
    "manifest/removed-key",
    E,
    "{key} is no longer a manifest key - {note}; drop it",
    "a manifest key removed in an earlier release",
)
register("manifest/value", E, "{message}", "a manifest value of the wrong type or outside its allowed set")
register("manifest/syntax", E, "kit.design.yaml is not valid YAML: {message}", "a manifest that does not parse")
register(
    "manifest/output-collision",
    E,
    "{first} and {second} name one directory {path}",
    "two output keys resolving to one directory",
)
register(
    "manifest/output-nested",
    E,
    "{inner} {inner_path} lies inside {outer} {outer_path} - give each output its own "
    "directory beside the others (package and service names under one would collide with the other)",
    "an output directory inside another output directory",
)
register(
    "manifest/output-root",
    E,
    "{key} names the project root - give it a directory of its own (a generated directory at "
    "the root would be swept across the whole project)",
    "an output directory that is the project root",
)

# ---- writing outputs ------------------------------------------------------------------------
register(
    "output/user-file",
    E,
    "{path} has no generated header, so it is treated as your file and kit will not overwrite it; "
    "move it away (or restore the first line `{header}`) and run again",
    "a file without the generated header at a path kit regenerates",
)
register(
    "output/blocked",
    E,
    "cannot write {path}: {reason}",
    "something on disk (or a duplicate output) in the way of an output",
)
register(
    "output/outside-project",
    E,
    "{path} leads outside the project through the symlink {link} -> {target}; kit writes and deletes "
    "only inside {root}",
    "an output or a swept directory reached through a symlink to outside the project",
)
register(
    "output/dangling-symlink",
    E,
    "{link} is a symlink to {target}, which does not exist - remove the link or create its target",
    "a symlink with no target where kit writes",
)
register(
    "output/symlink-file",
    E,
    "{path} is a symbolic link; kit writes only regular files - remove the link and run again",
    "a symbolic link at the path of an output file",
)
register(
    "output/symlink-alias",
    E,
    "output.{first} and output.{second} are one directory through a symlink ({path}) - give each its own directory",
    "two output keys made one directory by a symlink",
)
register(
    "output/write-failed",
    E,
    "writing failed, the run was rolled back and nothing changed: {reason}",
    "the disk refused a write; everything the run had changed was put back",
)
register(
    "design/no-manifest",
    E,
    "no kit.design.yaml found at {path} or any parent directory",
    "`kit gen` run outside a design folder",
)
register(
    "design/no-go-mod",
    E,
    "no go.mod found at {root} or any parent directory; run `go mod init <module>` first",
    "a project without go.mod (the module path is read from it)",
)

# ---- analyzer: files, packages, imports, references ---------------------------------------
register(
    "package/missing",
    E,
    "this file {what} but has no package clause - add `package <name>` as its first line",
    "a file that imports or declares something without a `package` clause",
)
register(
    "package/name",
    E,
    "package name {name} is refused: {reason} - choose another name",
    "a package named `init`, `main`, `_`, a Go keyword or a predeclared Go name",
)
register("import/unresolved", E, 'import "{path}" names no folder of the design', "an import of a missing folder")
register(
    "import/self",
    W,
    'import "{path}" names this file\'s own folder; imports change nothing - drop it',
    "an import of the file's own folder",
)
register(
    "import/escape",
    E,
    'import "{path}" must be a relative path inside the design folder',
    "an absolute import path or one starting with `.` or `..`",
)
register("import/duplicate", E, 'import "{path}" is written twice in this file', "the same import twice in a file")
register(
    "import/alias-conflict",
    E,
    'import alias {alias} is already used for "{other}"',
    "two imports of one file with the same alias",
)
register("ref/unknown-symbol", E, "unknown {what} {name}{hint}", "a reference to a name nothing declares")
register(
    "ref/unknown-package",
    E,
    "unknown package {package} in {name} - no file declares `package {package}`",
    "a qualified reference to a package no file declares",
)
register("ref/qualified", E, "{name}: {reason}", "a reference qualified with the own package or twice")
register(
    "ref/package-cycle",
    E,
    "packages {cycle} reference each other's types in a cycle; their Go type packages would import "
    "each other - move the shared types into one package",
    "types of several packages referencing each other in a cycle",
)

# ---- analyzer: declarations -----------------------------------------------------------------
register(
    "decl/name-case",
    E,
    "{kind} name {name} must start with an upper-case letter (it is used "
    "verbatim as a "
    "Go identifier) - write {suggestion}",
    "a lower-case declaration, method or type parameter name",
)
register(
    "decl/builtin-name",
    E,
    "{kind} {name} is named like the built-in type {name} - choose another name",
    "a declaration named after a built-in type such as `string`",
)
register(
    "decl/duplicate", E, "{kind} {name} is already declared in {where}", "two declarations of one name in a package"
)
register(
    "decl/go-name-collision",
    E,
    "{kind} {name} produces the Go name {go_name}, which {other} - rename it",
    "a declaration whose generated Go name clashes with another generated name",
)
register(
    "scalar/bad-primitive",
    E,
    "scalar {name} cannot be over {primitive} - use string, bytes, bool or a number type",
    "a scalar over `datetime`, `file`, `any` or a declared type",
)
register(
    "enum/mixed-types",
    E,
    "enum {name} mixes {first} and {second} values - use one form for every value",
    "an enum mixing bare, string and int values",
)
register("enum/empty-values", E, "enum {name} has no values", "an enum without values")
register(
    "enum/duplicate-name", E, "enum value {value} is declared twice in enum {name}", "two values of one name in an enum"
)
register(
    "enum/duplicate-literal",
    E,
    "enum {name}: values {value} and {other} share the wire value {literal}",
    "two values of an enum with one wire value",
)
register(
    "enum/value-collision",
    W,
    "enum values {value} and {other} both become the Go constant {const}",
    "two enum values producing one Go constant",
)

# ---- analyzer: types, generics, mixins, fields ---------------------------------------------
register(
    "type/map-key",
    E,
    "map key {type} must be string, an int or uint type, or a scalar or enum over one",
    "a map key of another type",
)
register(
    "type/map-value",
    E,
    "map value {type} cannot be an optional array or map - drop the ?",
    "an optional array or map as a map value",
)
register(
    "generic/non-generic",
    E,
    "{name} {reason} and takes no type arguments - drop <{args}>",
    "type arguments on a built-in, a non-generic type or a type parameter",
)
register(
    "generic/optional-arg",
    E,
    "type argument {type} cannot be optional - drop the ? and make the field optional inside the generic type instead",
    "an optional generic argument such as `Page<string?>`",
)
register(
    "generic/arity",
    E,
    "{name} takes {expected} type argument(s), got {got}",
    "a generic type used with the wrong number of arguments",
)
register(
    "generic/instantiation-cycle",
    E,
    "{name} instantiates itself with {arg} inside its own body; "
    "a generic "
    "type may refer to itself only with its own parameters",
    "`Tree<Tree<T>>` inside `Tree`",
)
register("mixin/non-type", E, "mixin {name} is {kind}; only a type can be mixed in", "a mixin naming a non-type")
register("mixin/cycle", E, "mixin cycle: {cycle}", "types that mix each other in")
register("mixin/conflict", E, "{detail}", "a mixin repeating a field or a mixin")
register(
    "mixin/arity",
    E,
    "mixin {name} takes {expected} type argument(s), got {got}",
    "a generic mixin with the wrong number of arguments",
)
register("field/duplicate", E, "field {name} is declared twice in {owner}", "two fields of one name in a body")
register(
    "field/name-collision",
    E,
    "fields {name} and {other} of {owner} share the {what} {key}{hint}",
    "own and mixin fields sharing a JSON key (error) or a Go name (warning)",
)
register(
    "field/invalid-go-name",
    E,
    "field {name} of {owner} becomes the Go name {go_name}, {reason} - rename the field",
    "a field whose Go name clashes with generated methods or is not an identifier",
)

# ---- analyzer: decorators ------------------------------------------------------------------
register("decorator/unknown", E, "unknown decorator @{name}{hint}", "a decorator outside the closed set")
register("decorator/removed", E, "@{name} was removed - {note}", "a decorator of an earlier release")
register(
    "decorator/placement",
    E,
    "@{name} cannot be used on {site}; it goes on {sites}",
    "a decorator on a site it does not belong to",
)
register("decorator/typemismatch", E, "@{name} {reason}", "a decorator that does not fit the type it decorates")
register(
    "decorator/duplicate",
    E,
    "@{name} is repeated here; it may appear once per {site}",
    "a non-repeatable decorator written twice on one site",
)
register("decorator/arity", E, "@{name} takes {expected}, got {got}", "a decorator with a wrong argument count")
register(
    "decorator/argtype",
    E,
    "@{name}: argument {position} must be {expected}, got {got}",
    "a decorator argument of the wrong literal kind",
)
register("decorator/argvalue", E, "{message}", "a decorator argument with an invalid value")
register(
    "decorator/ref",
    E,
    "@{name}: {what} {value} is not declared{hint}",
    "an identifier argument naming no middleware, error, field, scheme or enum value",
)
register(
    "decorator/conflict",
    E,
    "@{name} conflicts with {other}: {reason}",
    "`@default` breaking a validator; `@sensitive` with validators, bindings, `@nullable`, `@default`",
)
register(
    "decorator/empty-range",
    E,
    "no value satisfies {constraints}{where}",
    "bounds that no value meets, such as `@positive @negative`",
)
register(
    "decorator/range",
    E,
    "@{name}({low}, {high}) has its bounds reversed - write @{name}({high}, {low})",
    "a (min, max) decorator whose min is above its max",
)
register(
    "decorator/bound-overflow",
    E,
    "@{name}({value}) is outside the range of {type} ({low} to {high})",
    "a bound beyond the range of the field's type",
)
register("decorator/redundant", W, "@{name} is redundant: {reason}", "a decorator that changes nothing")
register(
    "decorator/default-needs-optional",
    W,
    "@default makes field {field} optional - write its type as {type}?",
    "a field with `@default` whose type does not carry `?`",
)
register(
    "decorator/flag-empty-parens",
    W,
    "@{name} takes no arguments - drop the empty parentheses",
    "a flag decorator written with `()`",
)
register(
    "decorator/arg-prefer-ident",
    W,
    "write @{name}({value}) without quotes",
    "a quoted argument naming a registered identifier",
)
register(
    "decorator/single-field-mutex",
    W,
    "@{name} lists one field; it means something only with two or more",
    "`@mutuallyExclusive` or `@requiresOneOf` naming a single field",
)
register(
    "decorator/duplicate-group-field",
    W,
    "@{name} lists field {field} twice",
    "a field listed twice in a cross-field decorator",
)
register(
    "decorator/cross-field-not-optional",
    E,
    "field {field} cannot be listed in @{name}: {reason}",
    "a field in `@requiresOneOf`/`@mutuallyExclusive` that is not optional or is otherwise excluded",
)

# ---- analyzer: bindings, routes, paths ------------------------------------------------------
register(
    "binding/file-position",
    E,
    "a file may only be a top-level field of a request type; {where}",
    "a `file` anywhere except the top level of a request type",
)
register(
    "binding/form-without-file",
    E,
    "@form on field {field}, but request {request} has no file field - send it in the body or add a file",
    "`@form` in a request with no file",
)
register(
    "binding/conflict",
    E,
    "field {field} has two bindings, @{first} and @{second} - keep one",
    "two binding decorators on one field",
)
register(
    "binding/type",
    E,
    "field {field} ({type}) cannot {binding}: {reason}",
    "a field whose type cannot travel in its binding",
)
register(
    "binding/verb",
    E,
    "@{binding} on field {field} of a {verb} request - {verb} requests have no body; "
    "bind it with @query, @path, @header or @cookie",
    "`@body`/`@form` in a body-less verb's request",
)
register(
    "binding/duplicate-wire-name",
    E,
    "fields {field} and {other} both bind {location} {wire}",
    "two request fields bound to one wire name",
)
register("route/pattern", E, "route segment {segment} is invalid: {reason}", "a malformed route")
register(
    "route/body-size-below-files",
    W,
    "@maxBodySize({size}) of {method} is below the {files} its files may take (their @maxSize): "
    "uploads the design allows are refused with 413 - raise @maxBodySize above {files} plus the other "
    "form parts",
    "a method's @maxBodySize smaller than what its files' @maxSize declare",
)
register(
    "route/duplicate-path-var",
    E,
    "route variable {{{var}}} appears twice in {route}",
    "a route naming one variable twice",
)
register(
    "path/param-missing",
    E,
    "route variable {{{var}}} of {method}: {reason}",
    "a route variable without an `@path` field, or naming a `@sensitive` field",
)
register(
    "path/param-orphan",
    E,
    "@path field {field} names no variable of {method} route {route}",
    "an `@path` field naming no route variable",
)
register(
    "path/collision",
    E,
    "{pattern} ({method}) conflicts with {other_pattern} ({other}); the Go mux cannot register both",
    "two routes the Go mux cannot both register",
)
register(
    "path/health-conflict",
    E,
    "route {route} of {method} is the server's built-in {what} endpoint - choose another path",
    "a route equal to `/healthz` or `/readyz`",
)
register(
    "path/base-format",
    W,
    "openapi.basePath {path} should {reason}",
    "a basePath not starting with `/`, ending with `/` or holding `//`",
)

# ---- analyzer: services, groups, middleware, operations --------------------------------------
register(
    "service/duplicate",
    E,
    "service {name} is already declared in package {package} - add methods with `extend service {name}`",
    "two primary declarations of one service in a package",
)
register(
    "service/duplicate-method",
    E,
    "method {method} is already declared in service {service}",
    "two methods of one name in a service",
)
register(
    "service/duplicate-route",
    E,
    "{method} and {other} of service {service} have the same route {pattern}",
    "two methods of a service with one verb and route shape",
)
register(
    "service/extend-decorator-not-method",
    E,
    "@{name} cannot be used on `extend service {service}` - {hint}",
    "a method or primary-only decorator on an `extend service` block",
)
register(
    "service/extend-orphan",
    E,
    "extend service {name} has no primary `service {name}` in package {package}{hint}",
    "an `extend service` without a primary in its package",
)
register(
    "service/method-file-name",
    E,
    "method {method} writes {file}, which the go command treats as "
    "{what} - "
    "rename the method or set output.fileCase to kebab or camel",
    "a method whose file is test-only or OS/arch-specific for the go command",
)
register(
    "service/method-name-clash",
    E,
    "method {method} {reason}",
    "methods of one directory writing one file or Go name; a method named `Logger`",
)
register(
    "middleware/collision",
    E,
    "middleware {name} collides with {other}: {reason}",
    "two middlewares writing one scaffold, or one name in two packages",
)
register(
    "group/package-straddle",
    E,
    "group {group} holds services of packages {package} and {other} - a group's services must share one DSL package",
    "a group with contributors from several packages",
)
register(
    "group/method-collision",
    E,
    "method {method} of {service} and of {other} both write into group {group}",
    "two services of one group with one method name",
)
register(
    "operation/duplicate-id",
    E,
    "operationId {id} of {method} is already used by {other}",
    "two operations with one operationId",
)
register(
    "openapi/security-scheme",
    E,
    "security scheme {scheme} ({type}) needs {field}",
    "a manifest security scheme missing a field its type requires",
)

# ---- analyzer: events --------------------------------------------------------------------------
register("event/payload-missing", E, "event {name} needs a `payload <Type>`", "an event without a payload")
register(
    "event/payload-kind",
    E,
    "event {name} payload {type} {reason}",
    "an event payload that is not a declared type or a one-dimensional array of one",
)
register(
    "event/payload-binding",
    E,
    "event {name} payload reaches field {field} bound with @{binding}; "
    "payloads "
    "travel as JSON only - drop the binding or use another type",
    "an event payload with bound fields",
)
register(
    "event/duplicate-name",
    E,
    "event {name} is already declared in package {package}",
    "two events of one name in a package",
)
register(
    "event/contract-collision",
    E,
    "events {name} and {other} share the contract {contract} - set a distinct @contract",
    "two events with one wire identity",
)
register("event/contract-format", E, "@contract({value}) {reason}", "an empty or whitespace contract subject")
register(
    "service/message-type",
    E,
    "{clause} {type} {reason}",
    "a request or response naming a built-in type, or a request naming an enum or scalar",
)
register(
    "internal/analyzer-error",
    E,
    "internal error in the {rule} rules: {error} - please report it with the design that triggers it",
    "a bug in kit's analyzer (the design may be fine)",
)

# ---- protos (kit_core/proto) -----------------------------------------------------------------
register("proto/compile", E, "{message}", "a proto file that protoc refuses (the run writes nothing)")
register(
    "proto/package-mismatch",
    E,
    "{file} declares {what} {value} but {other} in the same directory declares "
    "{other_value} - the protos of one directory form one package",
    "two protos of one directory declaring different proto packages or Go package names",
)
register(
    "proto/go-package",
    E,
    "{file} has no `option go_package` - {reason}",
    "a proto that must carry `option go_package` (with `output.pb: -`, or found through `proto.includes`)",
)
register(
    "proto/rpc-name",
    E,
    "RPC {rpc} of {service} {reason}",
    "an RPC named `Server` or `Logger`, two RPCs `X` and `NewX`, or two RPCs writing one file",
)
register(
    "proto/rpc-file-name",
    E,
    "RPC {rpc} of {service} writes {file}, which the go command treats as {what} - "
    "rename the RPC or set output.fileCase to kebab or camel",
    "an RPC whose file is test-only or OS/arch-specific for the go command",
)
register(
    "proto/service-dir",
    E,
    "service {service} writes {dir}, which {other} also writes - rename one of them",
    "two gRPC services (or a gRPC and an HTTP service) writing one directory",
)
register(
    "proto/plugin-missing",
    E,
    "{message}",
    "the protobuf Go plugins are not pinned in go.mod (or a configured plugin is not found)",
)
register("proto/plugin", E, "{plugin} failed: {message}", "a protobuf plugin that failed or wrote outside output.pb")

# ---- logic stubs against the design (kit_core/stubs) --------------------------------------------
register(
    "stub/drift",
    W,
    "logic stub {stub} of {label} {detail}",
    "a gen-once logic stub whose method signature no longer matches what the design generates",
)
register(
    "stub/renamed",
    Severity.INFO,
    "{label} has no logic stub yet: {old} holds the code of {old_label}, "
    "which the design no longer has, with the same signature - the next generation carries it into {new}",
    "a renamed method whose code the next generation carries into its new stub",
)

# ---- the mock build (kit_core/mock: `kit mock`) --------------------------------------------------
register(
    "mock/no-example",
    W,
    "{field} has @pattern(`{pattern}`) and no @example the mock can answer with - add an @example that matches it",
    "a @pattern field the mock cannot build a value for: no matching @example",
)

# ---- breaking changes against a baseline (kit_core/breaking: `kit diff`, kit-lsp) ------------
register(
    "breaking/removed",
    W,
    "{message}",
    "a route, method, field (at any depth), enum value, event, message, service or RPC a client uses was removed",
)
register("breaking/renamed", W, "{message}", "a method, field or proto field a client names was renamed")
register(
    "breaking/required",
    W,
    "{message}",
    "a field a client sends became required (or a new one is), or a field it receives may now be absent",
)
register("breaking/narrowed", W, "{message}", "the validators of a field a client sends refuse values they accepted")
register("breaking/wire", W, "{message}", "a field travels under another wire name or in another location")
register("breaking/status", W, "{message}", "a method's success status or an error's status changed")
register("breaking/route", W, "{message}", "a method's verb or full route changed")
register("breaking/type", W, "{message}", "a field's type, or an RPC's request or response message, changed")
register("breaking/field-number", W, "{message}", "a proto field moved to another number")
register("breaking/streaming", W, "{message}", "an RPC's streaming kind changed")

# ---- formatter ------------------------------------------------------------------------------
register(
    "format/comment-position",
    E,
    "a comment inside {what} cannot be formatted - move it above or after the line",
    "a comment written inside a construct the formatter prints on one line",
)
register(
    "format/unstable",
    E,
    "kit fmt would change this file's meaning or comments ({reason}); the file was left as written",
    "the formatter's output does not re-parse to the same design (a formatter bug)",
)
