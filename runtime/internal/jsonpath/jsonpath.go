// Package jsonpath names where in a JSON document a decoding error sits,
// for client-facing messages ("price: amount: expected integer, got
// string"). It is shared by the server's DecodeJSON and any other decoder
// of the runtime; it runs only when an error is reported.
package jsonpath

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"time"
)

// The JSON path of a decoding error.
//
// encoding/json reports where a value of the wrong type sits in the Field
// of *json.UnmarshalTypeError as dotted segments, and every embedded struct
// it went through adds its Go name ("price.Money.amount" for a Money
// mixin). Path walks the decoding target's type along Field to
// drop the embedded names (telling them from JSON keys, even keys holding
// dots). Like Field, the path has no array index nor map key.
//
// An error returned by an UnmarshalJSON method (a datetime's, for one)
// carries no path at all: UnmarshalerMessage finds the failing value by
// walking the decoded bytes alongside the Go type. Both run only when an
// error is reported.

// level is one step of the JSON path: an object key of a struct field
// ('k'), an array element ('e') or a map value ('m').
type level struct {
	kind byte
	name string // the JSON key, for 'k'
}

// Path returns the ": "-joined JSON path of a *json.UnmarshalTypeError with
// Field field met while decoding into a value of type t; leaf is the
// error's Type and root names the whole document ("body", "payload").
func Path(field string, t, leaf reflect.Type, root string) string {
	if t != nil {
		levels, ok := walkJSONPath(t, leaf, field, nil, 0)
		if !ok && leaf != nil {
			levels, ok = walkJSONPath(t, nil, field, nil, 0)
		}
		if ok {
			return renderJSONPath(levels, root)
		}
	}
	if field == "" {
		return root
	}
	return strings.ReplaceAll(field, ".", ": ")
}

// walkJSONPath consumes rest, a dotted encoding/json error path below a
// value of type t, and appends the levels it crosses to out. With a
// non-nil leaf the path must end on a value of that type, possibly inside
// arrays or maps (a walk that does wins over one that does not: a JSON key
// may be spelled like an embedded Go name).
func walkJSONPath(t, leaf reflect.Type, rest string, out []level, depth int) ([]level, bool) {
	if depth > 256 {
		return nil, false
	}
	if rest == "" {
		if leaf == nil {
			return out, true
		}
		for i := 0; i < 64; i++ {
			if t == leaf {
				return out, true
			}
			switch t.Kind() {
			case reflect.Pointer:
			case reflect.Slice, reflect.Array:
				out = append(out, level{kind: 'e'})
			case reflect.Map:
				out = append(out, level{kind: 'm'})
			default:
				return nil, false
			}
			t = t.Elem()
		}
		return nil, false
	}
	// Pointers add no level, arrays and maps one each.
	for i := 0; i < 64; i++ {
		switch t.Kind() {
		case reflect.Pointer:
			t = t.Elem()
			continue
		case reflect.Slice, reflect.Array:
			out = append(out, level{kind: 'e'})
			t = t.Elem()
			continue
		case reflect.Map:
			out = append(out, level{kind: 'm'})
			t = t.Elem()
			continue
		}
		break
	}
	if t.Kind() != reflect.Struct {
		return nil, false
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, embedded, skip := jsonField(f)
		if skip {
			continue
		}
		if embedded != nil {
			// An embedded struct: encoding/json flattens its fields and
			// names it by its Go field name in error paths.
			if r, ok := cutSegment(rest, f.Name); ok {
				if res, ok := walkJSONPath(f.Type, leaf, r, out, depth+1); ok {
					return res, true
				}
			}
			continue
		}
		if r, ok := cutSegment(rest, name); ok {
			if res, ok := walkJSONPath(f.Type, leaf, r, append(out, level{kind: 'k', name: name}), depth+1); ok {
				return res, true
			}
		}
	}
	return nil, false
}

// cutSegment removes the path segment seg from the front of the dotted
// path.
func cutSegment(path, seg string) (string, bool) {
	if path == seg {
		return "", true
	}
	if len(path) > len(seg) && path[len(seg)] == '.' && path[:len(seg)] == seg {
		return path[len(seg)+1:], true
	}
	return "", false
}

// renderJSONPath joins the keys of levels with ": " (arrays and maps add
// nothing, as in Field).
func renderJSONPath(levels []level, root string) string {
	var b strings.Builder
	for _, l := range levels {
		if l.kind == 'k' {
			if b.Len() > 0 {
				b.WriteString(": ")
			}
			b.WriteString(l.name)
		}
	}
	if b.Len() == 0 {
		return root
	}
	return b.String()
}

// renderDocPath renders a located path the same way: struct field names
// joined by ": ", array indices and map keys left out.
func renderDocPath(p []pathElem, root string) string {
	var b strings.Builder
	for _, e := range p {
		if e.isIndex || e.mapKey {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		b.WriteString(e.key)
	}
	if b.Len() == 0 {
		return root
	}
	return b.String()
}

// pathElem is one step into a JSON document: an object key (a struct
// field's JSON name, or a map key when mapKey) or an array index.
type pathElem struct {
	key     string
	index   int
	isIndex bool
	mapKey  bool
}

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	timeType        = reflect.TypeFor[time.Time]()
)

// UnmarshalerMessage rewrites err, returned by an UnmarshalJSON method while
// decoding data into a value of type t, to name the JSON path of the value
// that failed: the first value in document order whose type's UnmarshalJSON
// fails with the same message (the innermost one when they nest). A
// time.Time (a datetime) answers "<path>: expected string, got <type>" or
// "<path>: not a valid RFC 3339 datetime"; any other type keeps its message
// after the path; root names the whole document. ok is false when no such
// value is found, or when it is the document itself and not a time.Time.
func UnmarshalerMessage(err error, data []byte, t reflect.Type, root string) (msg string, ok bool) {
	text := err.Error()
	var (
		at     []pathElem
		atType reflect.Type
		atRaw  []byte
	)
	w := docWalker{data: data}
	w.walk(w.ws(0), t, nil, func(path []pathElem, vt reflect.Type, raw []byte) walkAction {
		if at != nil && len(path) <= len(at) {
			return stop // left the subtree of the failing value
		}
		base := vt
		for base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		if reflect.PointerTo(base).Implements(unmarshalerType) && !bytes.Equal(raw, []byte("null")) {
			u := reflect.New(base).Interface().(json.Unmarshaler)
			if e := u.UnmarshalJSON(raw); e != nil && e.Error() == text {
				at, atType, atRaw = append([]pathElem{}, path...), base, raw
			}
		}
		return descend
	})
	if at == nil {
		return "", false
	}
	path := renderDocPath(at, root)
	if atType == timeType {
		if kind := jsonKind(atRaw); kind != "string" {
			return path + ": expected string, got " + kind, true
		}
		return path + ": not a valid RFC 3339 datetime", true
	}
	if path == root {
		return "", false
	}
	return path + ": " + text, true
}

// jsonKind names the JSON type of the value raw starts with.
func jsonKind(raw []byte) string {
	if len(raw) == 0 {
		return "value"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

type walkAction int

const (
	descend walkAction = iota
	skip
	stop
)

// docWalker walks a JSON document alongside the Go type it decodes into,
// matching object keys to struct fields as encoding/json does (exact name
// first, then case-insensitively; embedded structs flattened). It only
// runs after a decoding error.
type docWalker struct {
	data   []byte
	fields map[reflect.Type]map[string]reflect.StructField
}

// walk visits the value at i, of Go type t, in document order: fn sees its
// path, type and text and decides whether to look inside it. It returns the
// index after the value (-1 on malformed input) and whether fn stopped.
func (w *docWalker) walk(i int, t reflect.Type, path []pathElem, fn func([]pathElem, reflect.Type, []byte) walkAction) (int, bool) {
	end := w.skipValue(i, 0)
	if end < 0 || len(path) > 10000 {
		return -1, false
	}
	switch fn(path, t, w.data[i:end]) {
	case stop:
		return end, true
	case skip:
		return end, false
	}
	base := t
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	switch w.data[i] {
	case '{':
		if base.Kind() != reflect.Struct && base.Kind() != reflect.Map {
			return end, false
		}
		j := w.ws(i + 1)
		for j < end && w.data[j] != '}' {
			key, k, ok := w.str(j)
			if !ok {
				return -1, false
			}
			k = w.ws(k)
			if k >= len(w.data) || w.data[k] != ':' {
				return -1, false
			}
			v := w.ws(k + 1)
			var e int
			if ct, name, ok := w.child(base, key); ok {
				var stopped bool
				e, stopped = w.walk(v, ct, append(path, pathElem{key: name, mapKey: base.Kind() == reflect.Map}), fn)
				if stopped {
					return e, true
				}
			} else {
				e = w.skipValue(v, 0)
			}
			if e < 0 {
				return -1, false
			}
			j = w.ws(e)
			if j < len(w.data) && w.data[j] == ',' {
				j = w.ws(j + 1)
			}
		}
	case '[':
		if base.Kind() != reflect.Slice && base.Kind() != reflect.Array {
			return end, false
		}
		j := w.ws(i + 1)
		for n := 0; j < end && w.data[j] != ']'; n++ {
			e, stopped := w.walk(j, base.Elem(), append(path, pathElem{index: n, isIndex: true}), fn)
			if stopped {
				return e, true
			}
			if e < 0 {
				return -1, false
			}
			j = w.ws(e)
			if j < len(w.data) && w.data[j] == ',' {
				j = w.ws(j + 1)
			}
		}
	}
	return end, false
}

// child returns the Go type and path name of key inside a struct or map.
func (w *docWalker) child(t reflect.Type, key string) (reflect.Type, string, bool) {
	if t.Kind() == reflect.Map {
		return t.Elem(), key, true
	}
	fields := w.structFields(t)
	if f, ok := fields[key]; ok {
		return f.Type, key, true
	}
	for name, f := range fields {
		if strings.EqualFold(name, key) {
			return f.Type, name, true
		}
	}
	return nil, "", false
}

// jsonField is how encoding/json sees the struct field f: its JSON name (the Go name when
// the tag gives none), or the struct it embeds and flattens; skip when it takes no part
// (`json:"-"`, unexported).
func jsonField(f reflect.StructField) (name string, embedded reflect.Type, skip bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", nil, true
	}
	name, _, _ = strings.Cut(tag, ",")
	ft := f.Type
	if ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
		return "", ft, false
	}
	if !f.IsExported() {
		return "", nil, true
	}
	if name == "" {
		name = f.Name
	}
	return name, nil, false
}

// structFields maps the JSON names of t's fields, embedded structs
// flattened (a shallower field wins), to the fields.
func (w *docWalker) structFields(t reflect.Type) map[string]reflect.StructField {
	if f, ok := w.fields[t]; ok {
		return f
	}
	out := map[string]reflect.StructField{}
	level := []reflect.Type{t}
	for depth := 0; len(level) > 0 && depth < 16; depth++ {
		var next []reflect.Type
		found := map[string]bool{}
		for _, st := range level {
			for i := 0; i < st.NumField(); i++ {
				f := st.Field(i)
				name, embedded, skip := jsonField(f)
				if skip {
					continue
				}
				if embedded != nil {
					next = append(next, embedded)
					continue
				}
				if _, taken := out[name]; !taken && !found[name] {
					out[name] = f
					found[name] = true
				}
			}
		}
		level = next
	}
	if w.fields == nil {
		w.fields = map[reflect.Type]map[string]reflect.StructField{}
	}
	w.fields[t] = out
	return out
}

func (w *docWalker) ws(i int) int {
	for i < len(w.data) {
		switch w.data[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	return i
}

// skipValue returns the index after the value starting at i, or -1.
func (w *docWalker) skipValue(i, depth int) int {
	if i >= len(w.data) || depth > 10000 {
		return -1
	}
	switch w.data[i] {
	case '{', '[':
		closing := byte('}')
		if w.data[i] == '[' {
			closing = ']'
		}
		j := w.ws(i + 1)
		if j < len(w.data) && w.data[j] == closing {
			return j + 1
		}
		for {
			if closing == '}' {
				_, k, ok := w.str(j)
				if !ok {
					return -1
				}
				if k = w.ws(k); k >= len(w.data) || w.data[k] != ':' {
					return -1
				}
				j = w.ws(k + 1)
			}
			e := w.skipValue(j, depth+1)
			if e < 0 {
				return -1
			}
			if e = w.ws(e); e >= len(w.data) {
				return -1
			}
			if w.data[e] == closing {
				return e + 1
			}
			if w.data[e] != ',' {
				return -1
			}
			j = w.ws(e + 1)
		}
	case '"':
		_, e, ok := w.str(i)
		if !ok {
			return -1
		}
		return e
	}
	j := i
	for j < len(w.data) {
		switch w.data[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
		default:
			j++
			continue
		}
		break
	}
	if j == i {
		return -1
	}
	return j
}

// str reads the string starting at i and returns its value and the index
// after it.
func (w *docWalker) str(i int) (string, int, bool) {
	if i >= len(w.data) || w.data[i] != '"' {
		return "", -1, false
	}
	escaped := false
	for j := i + 1; j < len(w.data); j++ {
		switch w.data[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			raw := w.data[i : j+1]
			if !escaped {
				return string(raw[1 : len(raw)-1]), j + 1, true
			}
			var v string
			if json.Unmarshal(raw, &v) != nil {
				return "", -1, false
			}
			return v, j + 1, true
		}
	}
	return "", -1, false
}
