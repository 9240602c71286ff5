package kitjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

// ws skips whitespace and returns the next byte (0 at the end of the input;
// callers tell a NUL byte from the end by d.pos).
func (d *Decoder) ws() byte {
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c > ' ' || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			return c
		}
		d.pos++
	}
	return 0
}

// mismatch records that the next value is not the expected JSON type (or a
// syntax error when the next bytes are not a value at all).
func (d *Decoder) mismatch(expected string) {
	if d.err != nil {
		return
	}
	c := d.ws()
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of JSON input")
		return
	}
	var got string
	switch {
	case c == '"':
		got = "string"
	case c == '{':
		got = "object"
	case c == '[':
		got = "array"
	case c == 't' || c == 'f':
		got = "boolean"
	case c == 'n':
		got = "null"
	case c == '-' || c >= '0' && c <= '9':
		got = "number"
	default:
		d.syntax("invalid character " + quoteChar(c) + " looking for beginning of value")
		return
	}
	// A value that is not even valid JSON is a syntax error first.
	start := d.pos
	if !d.skip(len(d.frames)) {
		return
	}
	d.pos = start
	d.fail("expected " + expected + ", got " + got)
}

// literal checks that the bytes at the position spell word (true, false,
// null) and are not followed by more letters; it does not consume them.
func (d *Decoder) literal(word string) bool {
	for i := 0; i < len(word); i++ {
		j := d.pos + i
		if j >= len(d.data) {
			d.syntax("unexpected end of JSON input")
			return false
		}
		if d.data[j] != word[i] {
			d.syntax("invalid character " + quoteChar(d.data[j]) + " in literal " + word + " (expecting " + quoteChar(word[i]) + ")")
			return false
		}
	}
	return true
}

// scanString scans a string whose content starts at start (after the
// opening quote). It returns the index of the closing quote (-1 after a
// syntax error), whether the content holds escapes and whether it holds
// bytes beyond ASCII (to be checked as UTF-8).
func (d *Decoder) scanString(start int) (end int, escaped, wide bool) {
	data := d.data
	for i := start; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			return i, escaped, wide
		case c == '\\':
			escaped = true
			i++
			if i >= len(data) {
				break
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 1; k <= 4; k++ {
					if i+k >= len(data) {
						d.syntax("unexpected end of JSON input")
						return -1, false, false
					}
					if !isHex(data[i+k]) {
						d.syntax("invalid character " + quoteChar(data[i+k]) + " in \\u hexadecimal character escape")
						return -1, false, false
					}
				}
				i += 4
			default:
				d.syntax("invalid character " + quoteChar(data[i]) + " in string escape code")
				return -1, false, false
			}
		case c < ' ':
			d.syntax("invalid character " + quoteChar(c) + " in string literal")
			return -1, false, false
		case c >= utf8.RuneSelf:
			wide = true
		}
	}
	d.syntax("unexpected end of JSON input")
	return -1, false, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	}
	return rune(c - 'A' + 10)
}

func validUTF8(b []byte) bool { return utf8.Valid(b) }

// unescape appends the content of a scanned string (escapes already
// checked) to dst. It reports false for a \u escape that leaves a lone
// surrogate, which is not a character.
func unescape(dst, raw []byte) ([]byte, bool) {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(raw[i+1:])
			i += 4
			if utf16.IsSurrogate(r) {
				// a high surrogate and a low one, as two escapes
				if i+6 >= len(raw) || raw[i+1] != '\\' || raw[i+2] != 'u' {
					return dst, false
				}
				r2 := hex4(raw[i+3:])
				dec := utf16.DecodeRune(r, r2)
				if dec == utf8.RuneError {
					return dst, false
				}
				r = dec
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, raw[i])
		}
	}
	return dst, true
}

func hex4(b []byte) rune {
	return hexVal(b[0])<<12 | hexVal(b[1])<<8 | hexVal(b[2])<<4 | hexVal(b[3])
}

// scanNumber scans a number starting at the position (which holds '-' or a
// digit). It returns the index after it (-1 after a syntax error) and
// whether it is a plain integer (no fraction, no exponent).
func (d *Decoder) scanNumber() (end int, plain bool) {
	data, i := d.data, d.pos
	if data[i] == '-' {
		i++
	}
	digits := func() bool {
		if i >= len(data) {
			d.syntax("unexpected end of JSON input")
			return false
		}
		if c := data[i]; c < '0' || c > '9' {
			d.syntax("invalid character " + quoteChar(c) + " in numeric literal")
			return false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		return true
	}
	if i < len(data) && data[i] == '0' {
		i++
	} else if !digits() {
		return -1, false
	}
	plain = true
	if i < len(data) && data[i] == '.' {
		i++
		plain = false
		if !digits() {
			return -1, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		plain = false
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if !digits() {
			return -1, false
		}
	}
	return i, plain
}

// skip checks and skips one value; depth is the nesting it starts at.
func (d *Decoder) skip(depth int) bool {
	c, ok := d.next()
	if !ok {
		return false
	}
	switch {
	case c == '"':
		end, _, _ := d.scanString(d.pos + 1)
		if end < 0 {
			return false
		}
		d.pos = end + 1
		return true
	case c == '-' || c >= '0' && c <= '9':
		end, _ := d.scanNumber()
		if end < 0 {
			return false
		}
		d.pos = end
		return true
	case c == 't' || c == 'f' || c == 'n':
		word := "null"
		if c == 't' {
			word = "true"
		} else if c == 'f' {
			word = "false"
		}
		if !d.literal(word) {
			return false
		}
		d.pos += len(word)
		return true
	case c == '{' || c == '[':
		if depth >= maxDepth {
			d.syntax("exceeded max depth")
			return false
		}
		return d.skipComposite(c, depth+1)
	}
	d.syntax("invalid character " + quoteChar(c) + " looking for beginning of value")
	return false
}

func (d *Decoder) skipComposite(open byte, depth int) bool {
	d.pos++
	closer := byte('}')
	if open == '[' {
		closer = ']'
	}
	for n := 0; ; n++ {
		c, ok := d.next()
		if !ok {
			return false
		}
		if c == closer && n == 0 {
			d.pos++
			return true
		}
		if n > 0 {
			if c == closer {
				d.pos++
				return true
			}
			if c != ',' {
				after := " after array element"
				if open == '{' {
					after = " after object key:value pair"
				}
				d.syntax("invalid character " + quoteChar(c) + after)
				return false
			}
			d.pos++
			if c, ok = d.next(); !ok {
				return false
			}
		}
		if open == '{' {
			if c != '"' {
				d.syntax("invalid character " + quoteChar(c) + " looking for beginning of object key string")
				return false
			}
			end, _, _ := d.scanString(d.pos + 1)
			if end < 0 {
				return false
			}
			d.pos = end + 1
			if !d.colon() {
				return false
			}
		}
		if !d.skip(depth) {
			return false
		}
	}
}
