package kitjson

import (
	"encoding/base64"
	"math"
	"strconv"
	"time"
	"unsafe"
)

// Str reads a string.
func (d *Decoder) Str() string {
	raw, ok := d.rawString()
	if !ok {
		return ""
	}
	return string(raw)
}

// rawString reads a string and returns its content, unescaped (valid until
// the next read).
func (d *Decoder) rawString() ([]byte, bool) {
	if d.err != nil {
		return nil, false
	}
	if d.ws() != '"' || d.pos >= len(d.data) {
		d.mismatch("string")
		return nil, false
	}
	start := d.pos + 1
	end, escaped, wide := d.scanString(start)
	if end < 0 {
		return nil, false
	}
	raw := d.data[start:end]
	if wide && !validUTF8(raw) {
		d.fail("invalid UTF-8 in string")
		return nil, false
	}
	d.pos = end + 1
	if escaped {
		out, ok := unescape(d.scratch[:0], raw)
		d.scratch = out
		if !ok {
			d.fail("invalid UTF-8 in string")
			return nil, false
		}
		raw = out
	}
	return raw, true
}

// Bool reads true or false.
func (d *Decoder) Bool() bool {
	if d.err != nil {
		return false
	}
	switch d.ws() {
	case 't':
		if d.pos < len(d.data) && d.literal("true") {
			d.pos += 4
			return true
		}
		return false
	case 'f':
		if d.literal("false") {
			d.pos += 5
		}
		return false
	}
	d.mismatch("boolean")
	return false
}

// number reads a number literal; plain is false when it has a fraction or
// an exponent.
func (d *Decoder) number(expected string) (lit []byte, plain, ok bool) {
	if d.err != nil {
		return nil, false, false
	}
	c := d.ws()
	if d.pos >= len(d.data) || c != '-' && (c < '0' || c > '9') {
		d.mismatch(expected)
		return nil, false, false
	}
	start := d.pos
	end, plain := d.scanNumber()
	if end < 0 {
		return nil, false, false
	}
	d.pos = end
	return d.data[start:end], plain, true
}

// Int reads an integer that fits a signed integer of the given bit size.
// A number with a zero fraction or an exponent is taken when its value is
// an integer (6.0, 1e2); another fraction is "expected integer, got number";
// a value outside the range is "number out of range for int<bits>".
func (d *Decoder) Int(bitSize int) int64 {
	mag, neg, inRange, ok := d.integer()
	if !ok {
		return 0
	}
	limit := uint64(1) << (bitSize - 1) // -limit .. limit-1
	if !inRange || mag > limit || !neg && mag == limit {
		d.fail("number out of range for int" + strconv.Itoa(bitSize))
		return 0
	}
	if neg {
		return -int64(mag-1) - 1 // -limit does not overflow
	}
	return int64(mag)
}

// Uint reads a non-negative integer that fits an unsigned integer of the
// given bit size (as Int; a negative value is out of range).
func (d *Decoder) Uint(bitSize int) uint64 {
	mag, neg, inRange, ok := d.integer()
	if !ok {
		return 0
	}
	if !inRange || neg && mag != 0 || bitSize < 64 && mag >= uint64(1)<<bitSize {
		d.fail("number out of range for uint" + strconv.Itoa(bitSize))
		return 0
	}
	return mag
}

// integer reads a number whose value is an integer: its magnitude and sign,
// and whether the magnitude fits 64 bits.
func (d *Decoder) integer() (mag uint64, neg, inRange, ok bool) {
	lit, plain, ok := d.number("integer")
	if !ok {
		return 0, false, false, false
	}
	neg = lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	mag, integral, inRange := magnitude(lit, plain)
	if !integral {
		d.fail("expected integer, got number")
		return 0, false, false, false
	}
	return mag, neg, inRange, true
}

// magnitude is the value of an unsigned number literal, whether that value
// is an integer, and whether it fits 64 bits. It is exact: 1.50e1 is 15,
// 1.05e1 is not an integer, whatever the number of digits.
func magnitude(lit []byte, plain bool) (v uint64, integral, inRange bool) {
	if plain && len(lit) <= 19 { // 19 digits always fit
		for _, c := range lit {
			v = v*10 + uint64(c-'0')
		}
		return v, true, true
	}
	mant, exp := lit, 0
	for i, c := range lit {
		if c == 'e' || c == 'E' {
			mant, exp = lit[:i], parseExp(lit[i+1:])
			break
		}
	}
	intPart, frac := mant, mant[:0]
	for i, c := range mant {
		if c == '.' {
			intPart, frac = mant[:i], mant[i+1:]
			break
		}
	}
	digit := func(i int) byte {
		if i < len(intPart) {
			return intPart[i]
		}
		return frac[i-len(intPart)]
	}
	total := len(intPart) + len(frac)
	first, last := -1, -1
	for i := 0; i < total; i++ {
		if digit(i) != '0' {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0, true, true // zero, however written
	}
	// the value is digits[first..last] * 10^scale
	scale := exp - len(frac) + (total - 1 - last)
	if scale < 0 {
		return 0, false, false
	}
	if last-first+1+scale > 20 {
		return 0, true, false
	}
	for i := first; i <= last; i++ {
		d := uint64(digit(i) - '0')
		if v > (math.MaxUint64-d)/10 {
			return 0, true, false
		}
		v = v*10 + d
	}
	for ; scale > 0; scale-- {
		if v > math.MaxUint64/10 {
			return 0, true, false
		}
		v *= 10
	}
	return v, true, true
}

// parseExp reads an exponent, saturated far beyond any meaningful scale.
func parseExp(b []byte) int {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	e := 0
	for _, c := range b {
		if e < 1<<20 {
			e = e*10 + int(c-'0')
		}
	}
	if neg {
		return -e
	}
	return e
}

// Float reads a number into a float of the given bit size; a value beyond
// its range is "number out of range for float<bits>".
func (d *Decoder) Float(bitSize int) float64 {
	lit, _, ok := d.number("number")
	if !ok {
		return 0
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(lit), len(lit)), bitSize)
	if err != nil {
		d.fail("number out of range for float" + strconv.Itoa(bitSize))
		return 0
	}
	return f
}

// Bytes reads a base64 string (standard alphabet, padded; line breaks
// ignored, as encoding/json reads []byte).
func (d *Decoder) Bytes() []byte {
	raw, ok := d.rawString()
	if !ok {
		return nil
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(raw)))
	n, err := base64.StdEncoding.Decode(out, raw)
	if err != nil {
		d.fail("invalid base64 data")
		return nil
	}
	return out[:n]
}

// Time reads an RFC 3339 datetime string.
func (d *Decoder) Time() time.Time {
	if d.err != nil {
		return time.Time{}
	}
	if d.ws() != '"' || d.pos >= len(d.data) {
		d.mismatch("string")
		return time.Time{}
	}
	raw, ok := d.rawString()
	if !ok {
		return time.Time{}
	}
	var t time.Time
	if err := t.UnmarshalText(raw); err != nil {
		d.fail("not a valid RFC 3339 datetime")
		return time.Time{}
	}
	return t
}

// Any reads any value as encoding/json does into an interface: objects as
// map[string]any (a repeated key refused), arrays as []any, numbers as
// float64.
func (d *Decoder) Any() any {
	if d.err != nil {
		return nil
	}
	c := d.ws()
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of JSON input")
		return nil
	}
	switch {
	case c == '{':
		if !d.Map() {
			return nil
		}
		m := map[string]any{}
		for d.More() {
			k := string(d.key)
			Put(d, m, k, d.Any())
		}
		return m
	case c == '[':
		if !d.Array() {
			return nil
		}
		s := []any{}
		for d.Elem() {
			s = append(s, d.Any())
		}
		return s
	case c == '"':
		return d.Str()
	case c == 't' || c == 'f':
		return d.Bool()
	case c == 'n':
		d.Null()
		return nil
	}
	return d.Float(64)
}
