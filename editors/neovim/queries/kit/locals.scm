; Scopes, definitions and references: a type's parameters are local to its declaration;
; every other name of a design is declared at the top of a file.

(source_file) @local.scope

(type_declaration) @local.scope

(type_parameter name: (_) @local.definition.type)

(type_declaration name: (_) @local.definition.type)
(enum_declaration name: (_) @local.definition.enum)
(scalar_declaration name: (_) @local.definition.type)
(error_declaration name: (_) @local.definition.type)
(event_declaration name: (_) @local.definition.type)
(middleware_declaration name: (_) @local.definition.function)
(service_declaration name: (_) @local.definition.type)
(method name: (_) @local.definition.method)
(field name: (_) @local.definition.field)
(enum_value name: (_) @local.definition.constant)

(named_type name: (_) @local.reference)
