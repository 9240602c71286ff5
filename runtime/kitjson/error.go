package kitjson

import (
	"strconv"
	"strings"
)

// Error is a body that could not be decoded. Its message is the client-facing
// text: "<path>: <reason>", or "body: <reason>" for a syntax error or a value
// at the top level.
type Error struct {
	Path   string // "lines[0]: qty"; empty at the top level and for syntax errors
	Reason string // "expected integer, got string"
}

// Error returns the client-facing message.
func (e *Error) Error() string {
	if e.Path == "" {
		return "body: " + e.Reason
	}
	return e.Path + ": " + e.Reason
}

// frame is one open object or array of the value being decoded.
type frame struct {
	kind       frameKind
	hasKey     bool // a member of an object was read
	keyEscaped bool
	keyStart   int // raw key of the current member (between its quotes)
	keyEnd     int
	index      int // current element of an array (-1 before the first)
}

type frameKind uint8

const (
	structFrame frameKind = iota // members are fields: "a: b"
	mapFrame                     // members are map entries: "a[k]"
	arrayFrame                   // "a[0]"
)

// path renders the open frames as a message path.
func (d *Decoder) path() string {
	var b strings.Builder
	for i := range d.frames {
		f := &d.frames[i]
		switch f.kind {
		case arrayFrame:
			if f.index < 0 {
				continue
			}
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(f.index))
			b.WriteByte(']')
		case mapFrame, structFrame:
			if !f.hasKey {
				continue
			}
			key := d.rawKey(f)
			if f.kind == mapFrame {
				b.WriteByte('[')
				b.WriteString(key)
				b.WriteByte(']')
				continue
			}
			if b.Len() > 0 {
				b.WriteString(": ")
			}
			b.WriteString(key)
		}
	}
	return b.String()
}

// rawKey is the current key of f, unescaped.
func (d *Decoder) rawKey(f *frame) string {
	raw := d.data[f.keyStart:f.keyEnd]
	if !f.keyEscaped {
		return string(raw)
	}
	out, _ := unescape(nil, raw)
	return string(out)
}

// fail records the first error: reason at the current path.
func (d *Decoder) fail(reason string) {
	if d.err == nil {
		d.err = &Error{Path: d.path(), Reason: reason}
	}
}

// failAt records reason at the current path plus a member name.
func (d *Decoder) failAt(member, reason string) {
	if d.err == nil {
		p := d.path()
		if p != "" {
			p += ": "
		}
		d.err = &Error{Path: p + member, Reason: reason}
	}
}

// syntax records a syntax error, reported against "body".
func (d *Decoder) syntax(reason string) {
	if d.err == nil {
		d.err = &Error{Reason: reason}
	}
}

// quoteChar formats c as encoding/json's syntax errors do.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}
