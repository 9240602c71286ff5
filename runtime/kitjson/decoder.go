package kitjson

import (
	"math/bits"
	"strconv"
	"sync"
)

// Unmarshaler is implemented by generated types: ReadKitJSON decodes the next
// value of d into the receiver, pre-filling its @default values first.
type Unmarshaler interface {
	ReadKitJSON(d *Decoder)
}

// Mode says what a null means for one member (see Decoder.Field).
type Mode uint8

const (
	// Required: a null is refused as "<member>: required".
	Required Mode = iota
	// Optional: a null is left to the value's reader, which refuses it as a
	// type mismatch ("expected string, got null").
	Optional
	// Nullable: Field consumes the null and returns false (the member is Go
	// nil, or keeps its zero value).
	Nullable
	// NotNull: a null is refused as "<member>: must not be null" (an
	// optional member of type any, which would take null as a value).
	NotNull
)

// IntSize is the size in bits of int and uint (for Int and Uint).
const IntSize = strconv.IntSize

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

// Decoder reads one JSON document held in memory. Generated ReadKitJSON
// methods drive it member by member; the first error is kept and every later
// call is a no-op returning zero values, so generated code checks Failed
// only where it must stop.
type Decoder struct {
	data    []byte
	pos     int
	frames  []frame
	key     []byte // the current member's key, unescaped
	keyBuf  []byte
	scratch []byte
	lenient bool
	err     *Error
}

var decoders = sync.Pool{New: func() any { return new(Decoder) }}

// Unmarshal decodes data into v. An input holding only whitespace decodes
// as {}. Unless lenient, an unknown member is refused ("<path>: unknown
// field") and so is anything but whitespace after the value. The error is
// an *Error.
func Unmarshal(data []byte, v Unmarshaler, lenient bool) error {
	d := decoders.Get().(*Decoder)
	d.reset(data, lenient)
	if d.ws() == 0 && d.pos >= len(d.data) {
		d.data, d.pos = emptyObject, 0
	}
	v.ReadKitJSON(d)
	if d.err == nil && !lenient {
		if d.ws(); d.pos < len(d.data) {
			d.syntax("unexpected data after the JSON value")
		}
	}
	var err error
	if d.err != nil {
		err = d.err
	}
	d.reset(nil, false)
	if cap(d.scratch) <= 64<<10 && cap(d.keyBuf) <= 64<<10 && cap(d.frames) <= 256 {
		decoders.Put(d)
	}
	return err
}

var emptyObject = []byte("{}")

func (d *Decoder) reset(data []byte, lenient bool) {
	d.data, d.pos, d.lenient, d.err = data, 0, lenient, nil
	d.frames, d.key = d.frames[:0], nil
}

// Err returns the first error, or nil.
func (d *Decoder) Err() error {
	if d.err == nil {
		return nil
	}
	return d.err
}

// Failed reports whether an error was recorded.
func (d *Decoder) Failed() bool { return d.err != nil }

// Object starts an object whose members are fields of a type. It reports
// false, recording "expected object, got <type>", for any other value.
func (d *Decoder) Object() bool { return d.open('{', structFrame, "object") }

// Map starts an object whose members are entries of a map.
func (d *Decoder) Map() bool { return d.open('{', mapFrame, "object") }

// Array starts an array; Elem advances through its elements.
func (d *Decoder) Array() bool { return d.open('[', arrayFrame, "array") }

func (d *Decoder) open(c byte, kind frameKind, name string) bool {
	if d.err != nil {
		return false
	}
	if d.ws() != c || d.pos >= len(d.data) {
		d.mismatch(name)
		return false
	}
	if len(d.frames) >= maxDepth {
		d.syntax("exceeded max depth")
		return false
	}
	d.pos++
	d.frames = append(d.frames, frame{kind: kind, index: -1})
	return true
}

// More advances to the next member of the innermost object: true with its
// key read (Key), false at the end of the object (which it closes) or after
// an error.
func (d *Decoder) More() bool {
	f, c, ok := d.step()
	if !ok {
		return false
	}
	if c == '}' {
		d.pos++
		d.frames = d.frames[:len(d.frames)-1]
		return false
	}
	if f.hasKey {
		if c != ',' {
			d.syntax("invalid character " + quoteChar(c) + " after object key:value pair")
			return false
		}
		d.pos++
		if c, ok = d.next(); !ok {
			return false
		}
	}
	if c != '"' {
		d.syntax("invalid character " + quoteChar(c) + " looking for beginning of object key string")
		return false
	}
	start := d.pos + 1
	end, escaped, wide := d.scanString(start)
	if end < 0 {
		return false
	}
	f.hasKey, f.keyStart, f.keyEnd, f.keyEscaped = true, start, end, escaped
	d.pos = end + 1
	raw := d.data[start:end]
	if wide && !validUTF8(raw) {
		d.fail("invalid UTF-8 in string")
		return false
	}
	d.key = raw
	if escaped {
		out, ok := unescape(d.keyBuf[:0], raw)
		d.keyBuf = out
		if !ok {
			d.fail("invalid UTF-8 in string")
			return false
		}
		d.key = out
	}
	return d.colon()
}

// colon consumes the colon after an object key.
func (d *Decoder) colon() bool {
	c, ok := d.next()
	if !ok {
		return false
	}
	if c != ':' {
		d.syntax("invalid character " + quoteChar(c) + " after object key")
		return false
	}
	d.pos++
	return true
}

// next skips whitespace and returns the next byte; at the end of the input
// it records "unexpected end of JSON input" and reports false.
func (d *Decoder) next() (byte, bool) {
	c := d.ws()
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of JSON input")
		return 0, false
	}
	return c, true
}

// step begins More and Elem: the innermost frame and the next byte past white
// space; false after an error or at the end of the input.
func (d *Decoder) step() (*frame, byte, bool) {
	if d.err != nil {
		return nil, 0, false
	}
	f := &d.frames[len(d.frames)-1]
	c, ok := d.next()
	return f, c, ok
}

// Key returns the current member's key, unescaped. It is valid until the
// next call of More.
func (d *Decoder) Key() []byte { return d.key }

// Elem advances to the next element of the innermost array: true when one
// follows, false at the end of the array (which it closes) or after an
// error.
func (d *Decoder) Elem() bool {
	f, c, ok := d.step()
	if !ok {
		return false
	}
	if f.index < 0 {
		if c == ']' {
			d.pos++
			d.frames = d.frames[:len(d.frames)-1]
			return false
		}
		f.index = 0
		return true
	}
	switch c {
	case ']':
		d.pos++
		d.frames = d.frames[:len(d.frames)-1]
		return false
	case ',':
		d.pos++
		f.index++
		_, ok = d.next()
		return ok
	}
	d.syntax("invalid character " + quoteChar(c) + " after array element")
	return false
}

// Field records the current member as seen (bit of *seen; a second member
// with its key is refused as "<path>: duplicate key") and applies mode to a
// null value. It reports whether a value is to be read. A nil seen skips the
// duplicate check.
func (d *Decoder) Field(seen *uint64, bit uint64, mode Mode) bool {
	if d.err != nil {
		return false
	}
	if seen != nil {
		if *seen&bit != 0 {
			d.fail("duplicate key")
			return false
		}
		*seen |= bit
	}
	if mode == Optional {
		return true
	}
	if d.ws() != 'n' || d.pos >= len(d.data) {
		return true
	}
	if !d.literal("null") {
		return false
	}
	switch mode {
	case Required:
		d.fail("required")
		return false
	case NotNull:
		d.fail("must not be null")
		return false
	}
	d.pos += 4
	return false
}

// Null consumes a null and reports true when the next value is one.
func (d *Decoder) Null() bool {
	if d.err != nil || d.ws() != 'n' || d.pos >= len(d.data) {
		return false
	}
	if !d.literal("null") {
		return false
	}
	d.pos += 4
	return true
}

// Unknown handles a member no field takes: refused ("<path>: unknown field")
// unless lenient, where its value is skipped.
func (d *Decoder) Unknown() {
	if d.err != nil {
		return
	}
	if !d.lenient {
		d.fail("unknown field")
		return
	}
	d.skip(len(d.frames))
}

// Duplicate refuses the current member as a repeated key (maps).
func (d *Decoder) Duplicate() { d.fail("duplicate key") }

// Missing refuses the first member of keys whose bit is in mask but not in
// seen: "<path>: <key>: required". Call it after the object ended.
func (d *Decoder) Missing(seen, mask uint64, keys []string) {
	if d.err != nil {
		return
	}
	if m := mask &^ seen; m != 0 {
		d.failAt(keys[bits.TrailingZeros64(m)], "required")
	}
}

// Put stores v under k in m, refusing a key already present.
func Put[K comparable, V any](d *Decoder, m map[K]V, k K, v V) {
	n := len(m)
	m[k] = v
	if len(m) == n {
		d.Duplicate()
	}
}
