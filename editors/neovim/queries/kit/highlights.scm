; Highlights of the kit design DSL.

(comment) @comment

[
  "package"
  "import"
  "type"
  "enum"
  "scalar"
  "error"
  "middleware"
  "service"
  "extend"
  "event"
] @keyword

[
  "request"
  "response"
  "payload"
] @keyword

"map" @type.builtin

(verb) @keyword.function

(builtin_type) @type.builtin

; declarations
(package_clause name: (_) @module)
(import_declaration alias: (_) @module)
(type_declaration name: (_) @type.definition)
(enum_declaration name: (_) @type.definition)
(scalar_declaration name: (_) @type.definition)
(error_declaration name: (_) @type.definition)
(error_declaration category: (_) @constant.builtin)
(event_declaration name: (_) @type.definition)
(middleware_declaration name: (_) @function)
(service_declaration name: (_) @type.definition)
(method name: (_) @function.method)
(type_parameter name: (_) @type.parameter)

; members
(field name: (_) @property)
(enum_value name: (_) @constant)
(mixin type: (named_type name: (_) @type))

; type references
(named_type package: (_) @module)
(named_type name: (_) @type)

; routes
(path_parameter name: (_) @variable.parameter)
(path_parameter wildcard: _ @operator)
(path_segment word: (_) @string.special.path)
(path "/" @punctuation.delimiter)

; decorators
(decorator "@" @attribute)
(decorator name: (_) @attribute)
(qualified_identifier package: (_) @module)
(qualified_identifier name: (_) @constant)

; literals
(string) @string
(escape_sequence) @string.escape
(raw_string) @string
(integer) @number
(float) @number.float
(negative_number) @number
(duration) @number
(size) @number
(invalid_number) @error
[(true) (false)] @boolean
(null) @constant.builtin

[
  "{"
  "}"
  "("
  ")"
  "["
  "]"
  "<"
  ">"
] @punctuation.bracket

[
  ","
  "."
] @punctuation.delimiter

[
  "="
  "?"
] @operator

(path_segment "-" @punctuation.delimiter)
