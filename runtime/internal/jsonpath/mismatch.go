package jsonpath

import (
	"encoding/json"
	"reflect"
	"strings"
)

// TypeMismatch renders a JSON type mismatch met while decoding into a value
// of type target as `<json path>: expected <type>, got <type>`, the shape of
// every decode message of the runtime (HTTP bodies and event payloads).
func TypeMismatch(ute *json.UnmarshalTypeError, target reflect.Type, root string) string {
	path := Path(ute.Field, target, ute.Type, root)
	got, _, _ := strings.Cut(ute.Value, " ")
	if got == "bool" {
		got = "boolean"
	}
	return path + ": expected " + TypeName(ute.Type) + ", got " + got
}

// TypeName is the JSON name of the values a Go type decodes from.
func TypeName(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string"
		}
		return "array"
	case reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return "value"
}
