// Package kitjson is the JSON codec of generated kit services: a scanner over a
// body held in memory that generated ReadKitJSON methods drive field by field,
// and an appending encoder that generated WriteKitJSON methods write into.
//
// It differs from encoding/json on purpose where a gateway and the service
// could otherwise read different data from one body:
//
//   - object keys match exactly (no case folding);
//   - a key repeated in one object is refused ("<path>: duplicate key");
//   - strings must be valid UTF-8, and \u escapes must not leave lone
//     surrogates (encoding/json replaces both with U+FFFD);
//   - an integer field accepts a number with a zero fraction or an exponent
//     when its value is an integer (6.0, 1e2), as JSON Schema's "integer"
//     does, and a number outside the field's range is refused as out of
//     range;
//   - presence is part of decoding: generated code names the required
//     members and says, per member, what null means (required, refused, or
//     the Go nil of a @nullable field).
//
// Error messages carry the JSON path of the value, members joined by ": ",
// array indices and map keys in brackets ("lines[0]: qty: expected integer,
// got string"); a syntax error is reported against "body". Output of the
// encoder is byte for byte that of encoding/json (HTML-safe escaping, sorted
// map keys, the same float format), with a newline after the value.
//
// Nothing here uses reflection except the values of type parameters that are
// neither generated types nor primitives (Decode, Encode), which generated
// code reaches only through generic types.
package kitjson
