/**
 * @file Tree-sitter grammar of the kit design DSL (`.kit` files).
 * @license MIT
 *
 * Authority: shared/spec/dsl-facts.md §1 (lexical syntax) and §2 (declarations).
 *
 * The grammar is deliberately permissive where `kit_core/lower.py` can give a better,
 * located diagnostic than an ERROR node:
 *   - decorators are free items of the file and of type/error/enum bodies; lowering
 *     attaches them by the line rules of §2.11 (a decorator written after a
 *     declaration on its line, or before a mixin, is reported there);
 *   - `type T` parses without a body; `error` takes any identifier as category;
 *   - any `\` escape and any `\u{...}` spelling lexes; lowering checks them;
 *   - a number followed by any letters lexes as `invalid_number`;
 *   - a decorator, `k: v` and `{...}` parse as decorator arguments (all refused);
 *   - route paths accept `//`, a trailing `/` and `-` anywhere;
 *   - an `event` inside a service body parses (reported: move it to file level).
 *
 * Member disambiguation (§2.4) is done by the parser itself: upper-case names are a
 * separate token (`type_identifier`), built-in type names are keywords and the
 * external scanner tells whether one follows on the same line, so
 *   `shared.Audit` / `Page<T>`   -> mixin (a name followed by `.` or `<`)
 *   `Count int`, `Meta map<..>`  -> field (upper-case name followed by a built-in/map)
 *   `id string`, `event Foo`     -> field (lower-case name or keyword)
 *   `Audit`, `CreatedAt MyType`  -> mixin(s)
 *
 * Keywords (§1.3) are extracted from `identifier` (`word`), and tree-sitter only lexes
 * a keyword where that keyword is valid: everywhere else `event`, `payload`, `type`...
 * are plain identifiers, as §1.3 wants for field names, enum values, path segments,
 * decorator names and arguments. Lowering refuses a keyword as a declaration name.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const PREC = {
  trailing_decorators: 1, // a decorator after a field/value/scalar belongs to it (§2.11)
};

const VERBS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

const BUILTIN_TYPES = [
  'string', 'bytes', 'bool',
  'int', 'int8', 'int16', 'int32', 'int64',
  'uint', 'uint8', 'uint16', 'uint32', 'uint64',
  'float32', 'float64',
  'datetime', 'file', 'any', 'object',
];

const DURATION_UNITS = ['ns', 'us', 'µs', 'ms', 's', 'm', 'h'];
const SIZE_UNITS = ['B', 'KB', 'MB', 'GB'];
const NUMBER = /\d+(\.\d+)?/.source;

module.exports = grammar({
  name: 'kit',

  extras: $ => [/\s/, $.comment],

  word: $ => $.identifier,

  // src/scanner.c: `_builtin_follows` is a zero-width token found only when a built-in
  // type name or `map` follows on the same line (§2.4 rule 2).
  externals: $ => [$._builtin_follows, $._error_sentinel],

  supertypes: $ => [$._declaration, $._literal],

  rules: {
    source_file: $ => repeat($._item),

    _item: $ => choice(
      $.decorator, // attached to the next item by lowering
      $.package_clause,
      $.import_declaration,
      $._declaration,
    ),

    // ------------------------------------------------------------ file header

    package_clause: $ => seq('package', field('name', $._name)),

    import_declaration: $ => seq(
      'import',
      optional(field('alias', $._name)),
      field('path', $.string),
    ),

    // ------------------------------------------------------------ declarations

    _declaration: $ => choice(
      $.type_declaration,
      $.enum_declaration,
      $.scalar_declaration,
      $.error_declaration,
      $.middleware_declaration,
      $.service_declaration,
      $.event_declaration,
    ),

    type_declaration: $ => seq(
      'type',
      field('name', $._name),
      optional(field('parameters', $.type_parameters)),
      optional(field('body', $.member_body)), // missing body: lowering reports it
    ),

    type_parameters: $ => seq('<', commaSep1(field('parameter', $.type_parameter)), '>'),

    type_parameter: $ => field('name', $._name),

    enum_declaration: $ => seq(
      'enum',
      field('name', $._name),
      field('body', $.enum_body),
    ),

    enum_body: $ => seq('{', repeat(choice($.enum_value, $.decorator)), '}'),

    enum_value: $ => prec.right(PREC.trailing_decorators, seq(
      field('name', $._name),
      optional(seq('=', field('value', $._literal))),
      optional($._trailing_decorators),
    )),

    scalar_declaration: $ => prec.right(PREC.trailing_decorators, seq(
      'scalar',
      field('name', $._name),
      field('primitive', $.type_ref),
      optional($._trailing_decorators), // validators; same-line rule in lowering
    )),

    error_declaration: $ => prec.right(seq(
      'error',
      field('category', $._name),
      field('name', $._name),
      optional(field('body', $.member_body)),
    )),

    middleware_declaration: $ => seq('middleware', field('name', $._name)),

    service_declaration: $ => seq(
      optional(field('extend', 'extend')),
      'service',
      field('name', $._name),
      field('body', $.service_body),
    ),

    service_body: $ => seq('{', repeat(choice($.method, $.event_declaration)), '}'),

    event_declaration: $ => seq(
      'event',
      field('name', $._name),
      field('body', $.event_body),
    ),

    event_body: $ => seq('{', optional(field('payload', $.payload_clause)), '}'),

    payload_clause: $ => seq('payload', field('type', $.type_ref)),

    // ------------------------------------------------------------ type / error bodies

    member_body: $ => seq('{', repeat(choice($.field, $.mixin, $.decorator)), '}'),

    field: $ => prec.right(PREC.trailing_decorators, seq(
      choice(
        seq(field('name', $.identifier), field('type', $.type_ref)),
        seq(
          field('name', $.type_identifier),
          $._builtin_follows, // `Count int` on one line; `Audit` + newline + `int x` is a mixin
          field('type', alias($._builtin_type_ref, $.type_ref)),
        ),
      ),
      optional($._trailing_decorators),
    )),

    // Greedy: every decorator after a field, enum value or scalar is its own, up to the
    // next member or declaration keyword (§2.11).
    _trailing_decorators: $ => prec.right(PREC.trailing_decorators, seq(
      field('decorator', $.decorator),
      optional($._trailing_decorators),
    )),

    mixin: $ => field('type', $.named_type),

    // ------------------------------------------------------------ services

    method: $ => seq(
      repeat(field('decorator', $.decorator)),
      field('verb', $.verb),
      field('name', $._name),
      optional(field('path', $.path)),
      field('body', $.method_body),
    ),

    verb: _ => choice(...VERBS),

    path: $ => repeat1(seq(
      choice('/', $._empty_segment),
      optional(field('segment', $.path_segment)),
    )),

    // `//` glued to a segment is an empty segment (lowering reports it), not a comment.
    _empty_segment: _ => alias(token.immediate(prec(2, '//')), '//'),

    path_segment: $ => seq(
      $._segment_part,
      repeat(seq('-', optional($._segment_part))),
    ),

    _segment_part: $ => choice(field('word', $._name), field('parameter', $.path_parameter)),

    // `{` glued to `/` or `-` opens a variable; after a space it opens the body.
    path_parameter: $ => seq(
      token.immediate('{'),
      field('name', $._name),
      optional(field('wildcard', '...')),
      '}',
    ),

    // Clauses in any order; each at most once (lowering reports a repeat).
    method_body: $ => seq('{', repeat(choice(
      field('request', $.request_clause),
      field('response', $.response_clause),
    )), '}'),

    request_clause: $ => seq('request', field('type', $.type_ref)),

    response_clause: $ => seq('response', field('type', $.type_ref)),

    // ------------------------------------------------------------ type references

    type_ref: $ => seq(
      choice(field('base', choice($.named_type, $.map_type)), $._builtin_base),
      repeat(field('array', $.array_suffix)),
      optional(field('optional', '?')),
    ),

    _builtin_type_ref: $ => seq(
      choice(field('base', $.map_type), $._builtin_base),
      repeat(field('array', $.array_suffix)),
      optional(field('optional', '?')),
    ),

    // Type arguments parse after a built-in too (`string<int>`): the analyzer refuses them
    // as generic/non-generic, at their place, instead of a bare syntax error.
    _builtin_base: $ => seq(
      field('base', $.builtin_type),
      optional(field('arguments', $.type_arguments)),
    ),

    named_type: $ => seq(
      optional(seq(field('package', $._name), '.')),
      field('name', $._name),
      optional(field('arguments', $.type_arguments)),
    ),

    builtin_type: _ => choice(...BUILTIN_TYPES),

    map_type: $ => seq(
      field('name', 'map'),
      '<',
      field('key', $.type_ref),
      ',',
      field('value', $.type_ref),
      '>',
    ),

    type_arguments: $ => seq('<', commaSep1(field('argument', $.type_ref)), '>'),

    array_suffix: _ => seq('[', ']'),

    // ------------------------------------------------------------ decorators

    decorator: $ => seq(
      '@',
      field('name', $._name),
      optional(field('arguments', $.argument_list)),
    ),

    argument_list: $ => seq('(', commaSep(field('argument', $._argument)), ')'),

    // Refused forms still parse so that lowering can name them: a nested decorator,
    // a named argument `k: v` and an object literal `{...}`.
    _argument: $ => choice($._literal, $.decorator, $.named_argument, $.object_literal),

    named_argument: $ => seq(field('name', $._name), ':', field('value', $._argument)),

    object_literal: $ => seq('{', commaSep(field('entry', $._argument)), '}'),

    // ------------------------------------------------------------ literals

    _literal: $ => choice(
      $.string,
      $.raw_string,
      $.integer,
      $.float,
      $.negative_number,
      $.duration,
      $.size,
      $.invalid_number,
      $.true,
      $.false,
      $.null,
      $.qualified_identifier,
      $.array,
    ),

    array: $ => seq('[', commaSep(field('item', $._argument)), ']'),

    qualified_identifier: $ => seq(
      optional(seq(field('package', $._name), '.')),
      field('name', $._name),
    ),

    negative_number: $ => seq('-', field('number', choice($.integer, $.float))),

    integer: _ => /\d+/,
    float: _ => /\d+\.\d+/,
    // Same precedence on purpose: the longest match wins (`5ms` is a duration, `5msx`
    // an invalid number); on a tie the earlier rule (duration, size) wins.
    duration: _ => token(new RegExp(NUMBER + '(' + DURATION_UNITS.join('|') + ')')),
    size: _ => token(new RegExp(NUMBER + '(' + SIZE_UNITS.join('|') + ')')),
    invalid_number: _ => token(new RegExp(NUMBER + '[A-Za-z_µ][A-Za-z0-9_µ]*')),

    true: _ => 'true',
    false: _ => 'false',
    null: _ => 'null',

    string: $ => seq(
      '"',
      repeat(choice($._string_content, $.escape_sequence)),
      token.immediate('"'),
    ),
    _string_content: _ => token.immediate(prec(1, /[^"\\\n]+/)),
    // every escape lexes; lowering checks `\n \t \r \" \\ \u{H...}`
    escape_sequence: _ => token.immediate(seq('\\', choice(/u\{[^}"\n]*\}/, /[^\n]/))),

    raw_string: _ => /`[^`]*`/,

    comment: _ => token(seq('//', /[^\r\n]*/)), // the CR of a CRLF is not part of it

    // ------------------------------------------------------------ names

    // Upper-case-first names are their own token so that `Audit` (mixin) and
    // `id string` (field) are told apart by the parser.
    identifier: _ => /[a-z_][A-Za-z0-9_]*/,
    type_identifier: _ => /[A-Z][A-Za-z0-9_]*/,

    _name: $ => choice($.identifier, $.type_identifier),
  },
});

/**
 * One or more `rule`s separated by commas.
 * @param {RuleOrLiteral} rule
 * @returns {SeqRule}
 */
function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)));
}

/**
 * Zero or more `rule`s separated by commas.
 * @param {RuleOrLiteral} rule
 * @returns {ChoiceRule}
 */
function commaSep(rule) {
  return optional(commaSep1(rule));
}
