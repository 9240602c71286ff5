package kitjson

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// Marshaler is implemented by generated types: WriteKitJSON appends the
// receiver's JSON to e (a required nil list, map or bytes as [], {} or "",
// an optional one left out, a @nullable one as null).
type Marshaler interface {
	WriteKitJSON(e *Encoder)
}

// Encoder appends JSON to a buffer. The first error (a non-finite float, a
// time outside years 0-9999, an unencodable any) is kept; the output is then
// not to be used.
type Encoder struct {
	buf []byte
	err error
}

var encoders = sync.Pool{New: func() any { return &Encoder{buf: make([]byte, 0, 1024)} }}

// NewEncoder returns an empty encoder from a pool; Release returns it.
func NewEncoder() *Encoder {
	e := encoders.Get().(*Encoder)
	e.buf, e.err = e.buf[:0], nil
	return e
}

// Release returns e to the pool (e and its bytes must not be used after).
func (e *Encoder) Release() {
	if cap(e.buf) <= 64<<10 {
		encoders.Put(e)
	}
}

// Marshal returns v's JSON followed by a newline, as encoding/json's
// Encoder writes it.
func Marshal(v Marshaler) ([]byte, error) {
	e := NewEncoder()
	defer e.Release()
	v.WriteKitJSON(e)
	if e.err != nil {
		return nil, e.err
	}
	out := make([]byte, len(e.buf)+1)
	copy(out, e.buf)
	out[len(e.buf)] = '\n'
	return out, nil
}

// Bytes returns the JSON written so far.
func (e *Encoder) Bytes() []byte { return e.buf }

// Err returns the first error, or nil.
func (e *Encoder) Err() error { return e.err }

func (e *Encoder) setErr(err error) {
	if e.err == nil {
		e.err = err
	}
}

// Raw appends s as it is (generated code passes punctuation and keys it
// escaped itself).
func (e *Encoder) Raw(s string) { e.buf = append(e.buf, s...) }

// Key appends a comma unless the object was just opened, then the escaped
// key with its colon (`"name":`).
func (e *Encoder) Key(key string) {
	if n := len(e.buf); n > 0 && e.buf[n-1] != '{' {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, key...)
}

// Null appends null.
func (e *Encoder) Null() { e.buf = append(e.buf, "null"...) }

// Bool appends true or false.
func (e *Encoder) Bool(b bool) { e.buf = strconv.AppendBool(e.buf, b) }

// Int appends an integer.
func (e *Encoder) Int(n int64) { e.buf = strconv.AppendInt(e.buf, n, 10) }

// Uint appends an unsigned integer.
func (e *Encoder) Uint(n uint64) { e.buf = strconv.AppendUint(e.buf, n, 10) }

// Float appends a float of the given bit size as encoding/json formats it;
// NaN and infinities are an error.
func (e *Encoder) Float(f float64, bitSize int) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		e.setErr(errors.New("json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, bitSize)))
		e.buf = append(e.buf, '0')
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bitSize == 64 && (abs < 1e-6 || abs >= 1e21) || bitSize == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b := strconv.AppendFloat(e.buf, f, format, -1, bitSize)
	if format == 'e' { // e-09 to e-9, as encoding/json
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	e.buf = b
}

// Str appends a string, escaped as encoding/json escapes it (HTML-safe,
// invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped).
func (e *Encoder) Str(s string) { e.buf = AppendString(e.buf, s) }

// Base64 appends bytes as a standard base64 string.
func (e *Encoder) Base64(b []byte) {
	e.buf = append(e.buf, '"')
	e.buf = base64.StdEncoding.AppendEncode(e.buf, b)
	e.buf = append(e.buf, '"')
}

// Time appends a time as RFC 3339 with nanoseconds, as time.Time marshals.
func (e *Encoder) Time(t time.Time) {
	if y := t.Year(); y >= 0 && y <= 9999 {
		if _, off := t.Zone(); off > -24*3600 && off < 24*3600 {
			e.buf = append(e.buf, '"')
			e.buf = t.AppendFormat(e.buf, time.RFC3339Nano)
			e.buf = append(e.buf, '"')
			return
		}
	}
	b, err := t.MarshalJSON() // the error of a time JSON cannot hold
	if err != nil {
		e.setErr(err)
		e.buf = append(e.buf, "null"...)
		return
	}
	e.buf = append(e.buf, b...)
}

// Any appends any value with encoding/json.
func (e *Encoder) Any(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		e.setErr(err)
		e.buf = append(e.buf, "null"...)
		return
	}
	e.buf = append(e.buf, b...)
}

// ErrNullAny is the encoding error of an `any` member without @nullable
// whose value is nil (or marshals to null): the contract refuses null there
// and there is no empty value to write instead.
var ErrNullAny = errors.New("json: null for an any member that is not @nullable")

// AnyNotNull is Any for a member that may not be null: a value that
// marshals to null sets ErrNullAny.
func (e *Encoder) AnyNotNull(v any) {
	start := len(e.buf)
	e.Any(v)
	if string(e.buf[start:]) == "null" {
		e.setErr(ErrNullAny)
	}
}

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string, as encoding/json writes it.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if htmlSafe(b) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // other control characters, <, > and &
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func htmlSafe(b byte) bool {
	return b >= ' ' && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
}

// WriteMap appends a map with string keys, its keys sorted (as
// encoding/json); a nil map is written {}.
func WriteMap[K ~string, V any](e *Encoder, m map[K]V, value func(*Encoder, V)) {
	var arr [16]K
	keys := arr[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = AppendString(e.buf, string(k))
		e.buf = append(e.buf, ':')
		value(e, m[k])
	}
	e.buf = append(e.buf, '}')
}

type intKey[K any] struct {
	text string
	key  K
}

// WriteIntMap appends a map with integer keys, ordered as encoding/json
// orders them (by their decimal text); a nil map is written {}.
func WriteIntMap[K ~int | ~int8 | ~int16 | ~int32 | ~int64, V any](e *Encoder, m map[K]V, value func(*Encoder, V)) {
	writeNumberKeys(e, m, func(k K) string { return strconv.FormatInt(int64(k), 10) }, value)
}

// WriteUintMap appends a map with unsigned integer keys (as WriteIntMap).
func WriteUintMap[K ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64, V any](e *Encoder, m map[K]V, value func(*Encoder, V)) {
	writeNumberKeys(e, m, func(k K) string { return strconv.FormatUint(uint64(k), 10) }, value)
}

func writeNumberKeys[K comparable, V any](e *Encoder, m map[K]V, text func(K) string, value func(*Encoder, V)) {
	keys := make([]intKey[K], 0, len(m))
	for k := range m {
		keys = append(keys, intKey[K]{text(k), k})
	}
	slices.SortFunc(keys, func(a, b intKey[K]) int { return cmp.Compare(a.text, b.text) })
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = append(e.buf, '"')
		e.buf = append(e.buf, k.text...)
		e.buf = append(e.buf, '"', ':')
		value(e, m[k.key])
	}
	e.buf = append(e.buf, '}')
}
