package kitjson

import (
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Decode reads the next value into the value p points to: a generated type
// (through its ReadKitJSON), a primitive, or - by reflection - a slice, map
// or pointer of those. Generated code calls it for values typed by a type
// parameter, whose type it cannot name.
func Decode(d *Decoder, p any) {
	switch x := p.(type) {
	case Unmarshaler:
		x.ReadKitJSON(d)
	case *string:
		*x = d.Str()
	case *bool:
		*x = d.Bool()
	case *int:
		*x = int(d.Int(strconv.IntSize))
	case *int64:
		*x = d.Int(64)
	case *float64:
		*x = d.Float(64)
	case *[]byte:
		*x = d.Bytes()
	case *time.Time:
		*x = d.Time()
	case *any:
		*x = d.Any()
	default:
		d.reflect(reflect.ValueOf(p).Elem())
	}
}

func (d *Decoder) reflect(v reflect.Value) {
	if d.err != nil {
		return
	}
	if v.CanAddr() {
		if u, ok := v.Addr().Interface().(Unmarshaler); ok {
			u.ReadKitJSON(d)
			return
		}
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(d.Str())
	case reflect.Bool:
		v.SetBool(d.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(d.Int(v.Type().Bits()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(d.Uint(v.Type().Bits()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(d.Float(v.Type().Bits()))
	case reflect.Pointer:
		if d.Null() {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		d.reflect(p.Elem())
		v.Set(p)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes(d.Bytes())
			return
		}
		if !d.Array() {
			return
		}
		s := reflect.MakeSlice(v.Type(), 0, 0)
		for d.Elem() {
			s = reflect.Append(s, reflect.Zero(v.Type().Elem()))
			d.reflect(s.Index(s.Len() - 1))
		}
		v.Set(s)
	case reflect.Map:
		d.reflectMap(v)
	case reflect.Interface:
		if v.NumMethod() == 0 {
			v.Set(reflect.ValueOf(d.Any()))
			return
		}
		d.fail("unsupported type " + v.Type().String())
	default:
		d.fail("unsupported type " + v.Type().String())
	}
}

func (d *Decoder) reflectMap(v reflect.Value) {
	if !d.Map() {
		return
	}
	t := v.Type()
	m := reflect.MakeMap(t)
	for d.More() {
		k := reflect.New(t.Key()).Elem()
		key := string(d.key)
		switch t.Key().Kind() {
		case reflect.String:
			k.SetString(key)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n, ok := d.intKey(key, t.Key().Bits())
			if !ok {
				return
			}
			k.SetInt(n)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			n, ok := d.uintKey(key, t.Key().Bits())
			if !ok {
				return
			}
			k.SetUint(n)
		default:
			d.fail("unsupported type " + t.String())
			return
		}
		e := reflect.New(t.Elem()).Elem()
		d.reflect(e)
		n := m.Len()
		m.SetMapIndex(k, e)
		if m.Len() == n {
			d.Duplicate()
		}
	}
	v.Set(m)
}

// Encode appends the value p points to: a generated type (through its
// WriteKitJSON), or anything else as encoding/json writes it, slices and
// maps of generated types included (element by element).
func Encode(e *Encoder, p any) {
	if m, ok := p.(Marshaler); ok {
		m.WriteKitJSON(e)
		return
	}
	e.reflect(reflect.ValueOf(p).Elem())
}

func (e *Encoder) reflect(v reflect.Value) {
	if e.err != nil {
		return
	}
	if v.CanAddr() {
		if m, ok := v.Addr().Interface().(Marshaler); ok {
			m.WriteKitJSON(e)
			return
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			e.Null()
			return
		}
		e.reflect(v.Elem())
	case reflect.Slice:
		if v.IsNil() || v.Type().Elem().Kind() == reflect.Uint8 {
			e.Any(v.Interface())
			return
		}
		e.Raw("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				e.Raw(",")
			}
			e.reflect(v.Index(i))
		}
		e.Raw("]")
	case reflect.Map:
		if v.IsNil() || v.Type().Key().Kind() != reflect.String {
			e.Any(v.Interface())
			return
		}
		keys := v.MapKeys()
		sortStrings(keys)
		e.Raw("{")
		for i, k := range keys {
			if i > 0 {
				e.Raw(",")
			}
			e.Str(k.String())
			e.Raw(":")
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(v.MapIndex(k))
			e.reflect(val)
		}
		e.Raw("}")
	case reflect.Float32, reflect.Float64:
		e.Float(v.Float(), v.Type().Bits())
	default:
		e.Any(v.Interface())
	}
}

func sortStrings(keys []reflect.Value) {
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j].String() < keys[j-1].String(); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
}

// intKey parses a map key that must be a decimal integer of the given bit
// size; it refuses another key naming it.
func (d *Decoder) intKey(key string, bitSize int) (int64, bool) {
	n, err := strconv.ParseInt(key, 10, bitSize)
	if err == nil && !canonicalKey(key) {
		err = strconv.ErrSyntax
	}
	if err != nil {
		d.failKey(key, err, "integer")
		return 0, false
	}
	return n, true
}

func (d *Decoder) uintKey(key string, bitSize int) (uint64, bool) {
	n, err := strconv.ParseUint(key, 10, bitSize)
	if err == nil && !canonicalKey(key) {
		err = strconv.ErrSyntax
	}
	if err != nil {
		d.failKey(key, err, "unsigned integer")
		return 0, false
	}
	return n, true
}

// canonicalKey reports whether a key strconv parsed is spelled as JSON writes
// a number, the spelling the OpenAPI document states: strconv also takes a
// leading '+', leading zeros and "-0", which would give one Go key two names.
func canonicalKey(key string) bool {
	digits := strings.TrimPrefix(key, "-")
	return digits != "" && digits[0] != '+' && (digits[0] != '0' || key == "0")
}

// IntKey parses the current map key as a decimal integer of the given bit
// size: "<path>: key "x": expected integer" when it is not one.
func (d *Decoder) IntKey(bitSize int) int64 {
	n, _ := d.intKey(string(d.key), bitSize)
	return n
}

// UintKey parses the current map key as a decimal unsigned integer.
func (d *Decoder) UintKey(bitSize int) uint64 {
	n, _ := d.uintKey(string(d.key), bitSize)
	return n
}

// failKey refuses the current map key: the message is at the map's path
// and names the key.
func (d *Decoder) failKey(key string, err error, expected string) {
	if d.err != nil {
		return
	}
	reason := "expected " + expected
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		reason = expected + " out of range"
	}
	f := &d.frames[len(d.frames)-1]
	f.hasKey = false
	d.fail("key " + strconv.Quote(key) + ": " + reason)
	f.hasKey = true
}
