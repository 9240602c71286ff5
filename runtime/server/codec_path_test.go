package server_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/server"
)

// Shapes of generated types: a mixin is an embedded struct without a json
// tag, so encoding/json flattens it (and names it by its Go name in the
// Field of its type errors).
type money struct {
	Amount int `json:"amount"`
}

type Money = money // exported name, as a generated mixin has

type Audit struct {
	Rev int `json:"rev"`
}

type price struct {
	Money
	Currency string `json:"currency"`
}

type pricePtr struct {
	*Money
}

type deepPrice struct {
	price // unexported embedded struct: still flattened
	*Audit
}

type taggedEmbed struct {
	Money `json:"money"`
}

type line struct {
	Price price `json:"price"`
}

type Page[T any] struct {
	Items []T `json:"items"`
	Total int `json:"total"`
}

type dotted struct {
	Money `json:"a.b"`
}

// Money named as a JSON key, next to an embedded Money.
type keyLikeGoName struct {
	Money
	Other struct {
		Amount string `json:"amount"`
	} `json:"Money"`
}

type order struct {
	Price     price              `json:"price"`
	PricePtr  *pricePtr          `json:"pricePtr"`
	Deep      deepPrice          `json:"deep"`
	Tagged    taggedEmbed        `json:"tagged"`
	Lines     []line             `json:"lines"`
	ByName    map[string]price   `json:"byName"`
	ByID      map[int64][]*price `json:"byId"`
	Fixed     [2]price           `json:"fixed"`
	Page      Page[price]        `json:"page"`
	Dotted    dotted             `json:"dotted"`
	KeyGoName keyLikeGoName      `json:"keyGoName"`
	Audit
}

type pagedOrders struct {
	Page[order]
}

func TestDecodeJSONPathSkipsEmbeddedStructs(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"mixin", `{"price": {"amount": "1"}}`, "price: amount: expected integer, got string"},
		{"pointer mixin", `{"pricePtr": {"amount": "1"}}`, "pricePtr: amount: expected integer, got string"},
		{"mixin of a mixin", `{"deep": {"amount": true}}`, "deep: amount: expected integer, got boolean"},
		{"second mixin", `{"deep": {"rev": "x"}}`, "deep: rev: expected integer, got string"},
		{"own field next to a mixin", `{"price": {"currency": 1}}`, "price: currency: expected string, got number"},
		{"tagged embedded struct keeps its key", `{"tagged": {"money": {"amount": "1"}}}`, "tagged: money: amount: expected integer, got string"},
		{"slice element", `{"lines": [{"price": {"amount": 1}}, {"price": {"amount": "1"}}]}`, "lines: price: amount: expected integer, got string"},
		{"map value", `{"byName": {"k": {"amount": 1.5}}}`, "byName: amount: expected integer, got number"},
		{"escaped map key", `{"byName": {"a\"b\u00e9": {"amount": "1"}}}`, "byName: amount: expected integer, got string"},
		{"map of slices of pointers", `{"byId": {"1": [{"amount": 1}, null, {"amount": "1"}]}}`, "byId: amount: expected integer, got string"},
		{"array element", `{"fixed": [{}, {"amount": "1"}]}`, "fixed: amount: expected integer, got string"},
		{"generic instance", `{"page": {"items": [{"amount": "1"}]}}`, "page: items: amount: expected integer, got string"},
		{"whole element", `{"lines": [{}, "x"]}`, "lines: expected object, got string"},
		{"keys in another case", ` {"LINES" : [ {"Price":{"amount":[]}} ] } `, "lines: price: amount: expected integer, got array"},
		{"generic field", `{"page": {"total": "1"}}`, "page: total: expected integer, got string"},
		{"key with a dot", `{"dotted": {"a.b": {"amount": "1"}}}`, "dotted: a.b: amount: expected integer, got string"},
		{"key spelled like the Go name", `{"keyGoName": {"Money": {"amount": 1}}}`, "keyGoName: Money: amount: expected string, got number"},
		{"flattened next to that key", `{"keyGoName": {"amount": "1"}}`, "keyGoName: amount: expected integer, got string"},
		{"top-level mixin", `{"rev": "1"}`, "rev: expected integer, got string"},
		{"whole mixin value", `{"price": "x"}`, "price: expected object, got string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v order
			err := server.DecodeJSON(httptest.NewRequest("POST", "/x", strings.NewReader(tt.body)), &v)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			var de *server.DecodeError
			var ute *json.UnmarshalTypeError
			if !errors.As(err, &de) || !errors.As(err, &ute) {
				t.Fatalf("err %T does not carry the decoder error", err)
			}
		})
	}

	// The target itself embeds a generic mixin.
	var p pagedOrders
	err := server.DecodeJSON(httptest.NewRequest("POST", "/x", strings.NewReader(`{"items": [{"price": {"amount": "1"}}]}`)), &p)
	if want := "items: price: amount: expected integer, got string"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// Unknown fields name the key only; an embedded struct never shows up.
func TestDecodeJSONUnknownFieldUnderMixin(t *testing.T) {
	for _, body := range []string{
		`{"price": {"nope": 1}}`,
		`{"deep": {"nope": 1}}`,
		`{"lines": [{"price": {"nope": 1}}]}`,
		`{"nope": 1}`,
	} {
		var v order
		err := server.DecodeJSON(httptest.NewRequest("POST", "/x", strings.NewReader(body)), &v)
		if err == nil || err.Error() != "nope: unknown field" {
			t.Fatalf("%s: err = %v, want %q", body, err, "nope: unknown field")
		}
	}
}

// Arrays and maps add no segment (encoding/json's Field has no index nor
// key), plain or at the top level.
func TestDecodeJSONPathArraysAndMaps(t *testing.T) {
	tests := []struct {
		name, body, want string
		v                func() any
	}{
		{"string array", `{"tags": ["a", 1]}`, "tags: expected string, got number", func() any { return new(createReq) }},
		{"nested arrays", `{"m": [[1], [2, "x"]]}`, "m: expected integer, got string", func() any {
			return new(struct {
				M [][]int `json:"m"`
			})
		}},
		{"map of ints", `{"m": {"a": 1, "b": "2"}}`, "m: expected integer, got string", func() any {
			return new(struct {
				M map[string]int `json:"m"`
			})
		}},
		{"top-level array", `[1, "x"]`, "body: expected integer, got string", func() any { return new([]int) }},
		{"top-level array of structs", `[{"zip": "1"}, {"zip": 2}]`, "zip: expected string, got number", func() any { return new([]address) }},
		{"whole body", `"x"`, "body: expected object, got string", func() any { return new(createReq) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := server.DecodeJSON(httptest.NewRequest("POST", "/x", strings.NewReader(tt.body)), tt.v())
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// rawCodec returns encoding/json's errors untouched: DecodeJSON rewrites
// them with the same rules.
type rawCodec struct{}

func (rawCodec) Encode(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }
func (rawCodec) Decode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }

func TestDecodeJSONPathWithCustomCodec(t *testing.T) {
	server.SetGlobalJSONCodec(rawCodec{})
	defer server.SetGlobalJSONCodec(nil)
	var v order
	err := server.DecodeJSON(httptest.NewRequest("POST", "/x", strings.NewReader(`{"lines": [{"price": {"amount": "1"}}]}`)), &v)
	if want := "lines: price: amount: expected integer, got string"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// stamp decodes itself and reports a type error whose Field does not
// follow the Go type: the path falls back to the dotted Field.
type stamp struct{}

func (*stamp) UnmarshalJSON([]byte) error {
	return &json.UnmarshalTypeError{Value: "string", Type: reflect.TypeOf(0), Field: "x.Y.z"}
}

type withStamp struct {
	Stamp stamp `json:"stamp"`
}

func TestDecodeJSONPathFallback(t *testing.T) {
	var v withStamp
	err := server.DecodeJSON(httptest.NewRequest("POST", "/x", strings.NewReader(`{"stamp": 1}`)), &v)
	if want := "stamp: x: Y: z: expected integer, got string"; err == nil || err.Error() != want {
		t.Fatalf("err = %v", err)
	}
}

// Shapes of generated types with @default: UnmarshalJSON pre-fills the
// defaults and decodes into a method-less copy with a nested decoder
// (kitDecode in generated code), so errors inside come from that decoder.
type orderLine struct {
	Qty   int       `json:"qty"`
	Color string    `json:"color"`
	At    time.Time `json:"at"`
	Money
}

type plainOrderLine orderLine

func (v *orderLine) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	v.Color = "red"
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode((*plainOrderLine)(v))
}

type placeOrder struct {
	Note  string               `json:"note"`
	Lines []orderLine          `json:"lines"`
	First *orderLine           `json:"first"`
	ByKey map[string]orderLine `json:"byKey"`
	Due   time.Time            `json:"due"`
	Slots []*time.Time         `json:"slots"`
}

type plainPlaceOrder placeOrder

// The request type itself has @default values.
func (v *placeOrder) UnmarshalJSON(data []byte) error {
	v.Note = "none"
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode((*plainPlaceOrder)(v))
}

func TestDecodeJSONPathThroughUnmarshalers(t *testing.T) {
	line := `{"qty": 1, "color": "blue", "at": "2026-01-02T03:04:05Z"}`
	tests := []struct {
		name, body, want string
	}{
		{"type error in a later element", `{"lines": [` + line + `, {"qty": "x"}]}`, "lines: qty: expected integer, got string"},
		{"same type error twice: the first is reported", `{"lines": [{"qty": 1}, {"qty": true}, {"qty": false}]}`, "lines: qty: expected integer, got boolean"},
		{"mixin inside", `{"lines": [{}, {}, {"amount": "1"}]}`, "lines: amount: expected integer, got string"},
		{"pointer field", `{"first": {"qty": []}}`, "first: qty: expected integer, got array"},
		{"map value", `{"byKey": {"a": {}, "b c": {"qty": {}}}}`, "byKey: qty: expected integer, got object"},
		{"datetime as number", `{"due": 5}`, "due: expected string, got number"},
		{"datetime not RFC 3339", `{"due": "tomorrow"}`, "due: not a valid RFC 3339 datetime"},
		{"datetime in an element", `{"lines": [` + line + `, {"at": true}]}`, "lines: at: expected string, got boolean"},
		{"datetime pointer in an array", `{"slots": ["2026-01-02T03:04:05Z", null, "2026-13-01T00:00:00Z"]}`, "slots: not a valid RFC 3339 datetime"},
		{"unknown field inside", `{"lines": [{"bogus": 1}]}`, "bogus: unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v placeOrder
			err := server.DecodeJSON(httptest.NewRequest("POST", "/x", strings.NewReader(tt.body)), &v)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
	// A datetime at the top level.
	var at time.Time
	err := server.DecodeJSON(httptest.NewRequest("POST", "/x", strings.NewReader(`"x"`)), &at)
	if want := "body: not a valid RFC 3339 datetime"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// color fails to decode with its own message: the path is put in front.
type color string

func (c *color) UnmarshalJSON(b []byte) error {
	if string(b) != `"red"` {
		return errors.New("not a color")
	}
	*c = "red"
	return nil
}

func TestDecodeJSONPathCustomUnmarshalerMessage(t *testing.T) {
	var v struct {
		Colors []color `json:"colors"`
	}
	err := server.DecodeJSON(httptest.NewRequest("POST", "/x", strings.NewReader(`{"colors": ["red", "blue"]}`)), &v)
	if want := "colors: not a color"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	var c color
	err = server.DecodeJSON(httptest.NewRequest("POST", "/x", strings.NewReader(`"blue"`)), &c)
	if err == nil || err.Error() != "not a color" {
		t.Fatalf("top-level err = %v", err)
	}
}
