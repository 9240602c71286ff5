package kitjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kitdev/kit/runtime/kitjson"
)

// fuzzOrder is decoded by kitjson through generated-style code, and as
// fuzzPlain by encoding/json.
type fuzzOrder struct {
	ID    string             `json:"id"`
	Lines []fuzzLine         `json:"lines"`
	By    map[string]float64 `json:"by"`
	Any   any                `json:"any"`
	N     *int8              `json:"n"`
	Blob  []byte             `json:"blob"`
}

type fuzzLine struct {
	Sku string `json:"sku"`
	Qty uint16 `json:"qty"`
	Ok  bool   `json:"ok"`
}

type fuzzPlain struct {
	ID    string             `json:"id"`
	Lines []plainFuzzLine    `json:"lines"`
	By    map[string]float64 `json:"by"`
	Any   any                `json:"any"`
	N     *int8              `json:"n"`
	Blob  []byte             `json:"blob"`
}

type plainFuzzLine struct {
	Sku string `json:"sku"`
	Qty uint16 `json:"qty"`
	Ok  bool   `json:"ok"`
}

var fuzzLineKeys = [...]string{"sku", "qty", "ok"}

func (v *fuzzLine) ReadKitJSON(d *kitjson.Decoder) {
	var seen uint64
	if !d.Object() {
		return
	}
	for d.More() {
		switch string(d.Key()) {
		case "sku":
			if d.Field(&seen, 1, kitjson.Optional) {
				v.Sku = d.Str()
			}
		case "qty":
			if d.Field(&seen, 2, kitjson.Optional) {
				v.Qty = uint16(d.Uint(16))
			}
		case "ok":
			if d.Field(&seen, 4, kitjson.Optional) {
				v.Ok = d.Bool()
			}
		default:
			d.Unknown()
		}
	}
}

func (v *fuzzOrder) ReadKitJSON(d *kitjson.Decoder) {
	var seen uint64
	if !d.Object() {
		return
	}
	for d.More() {
		switch string(d.Key()) {
		case "id":
			if d.Field(&seen, 1, kitjson.Optional) {
				v.ID = d.Str()
			}
		case "lines":
			if d.Field(&seen, 2, kitjson.Optional) && d.Array() {
				v.Lines = []fuzzLine{}
				for d.Elem() {
					v.Lines = append(v.Lines, fuzzLine{})
					v.Lines[len(v.Lines)-1].ReadKitJSON(d)
				}
			}
		case "by":
			if d.Field(&seen, 4, kitjson.Optional) && d.Map() {
				v.By = map[string]float64{}
				for d.More() {
					k := string(d.Key())
					kitjson.Put(d, v.By, k, d.Float(64))
				}
			}
		case "any":
			if d.Field(&seen, 8, kitjson.NotNull) {
				v.Any = d.Any()
			}
		case "n":
			if d.Field(&seen, 16, kitjson.Nullable) {
				x := int8(d.Int(8))
				v.N = &x
			}
		case "blob":
			if d.Field(&seen, 32, kitjson.Optional) {
				v.Blob = d.Bytes()
			}
		default:
			d.Unknown()
		}
	}
}

// knownDifferences are the refusals of kitjson that encoding/json accepts
// on purpose (see the package documentation).
var knownDifferences = []string{
	"duplicate key", "unknown field", "must not be null", "got null", "invalid UTF-8 in string", "required",
}

func FuzzDecodeAgreesWithEncodingJSON(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"id":"a","lines":[{"sku":"x","qty":3,"ok":true}],"by":{"k":1.5},"any":[1,{"a":null}],"n":-5,"blob":"AQI="}`,
		`{"id":"a","id":"b"}`, `{"ID":"a"}`, `{"n":null}`, `{"n":1.0}`, `{"n":128}`, `{"lines":[{"qty":-1}]}`,
		`{"by":{"a":1e400}}`, `{"any":{"x":1,"x":2}}`, "{\"id\":\"\xff\"}", `{"id":"\ud800"}`, `{"id":"\u00e9"}`,
		`{"lines":null}`, `{"blob":"@@"}`, `[]`, `{"id":"a"} x`, `{"id":`, ` {"any": [[[[]]]]} `,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var ours fuzzOrder
		errOurs := kitjson.Unmarshal(data, &ours, false)
		var theirs fuzzPlain
		errTheirs := decodeStrict(data, &theirs)
		switch {
		case errOurs == nil && errTheirs == nil:
			a, _ := json.Marshal(ours)
			b, _ := json.Marshal(theirs)
			if !bytes.Equal(a, b) {
				t.Fatalf("decoded differently:\n%s\n%s", a, b)
			}
		case errOurs == nil:
			// kitjson takes integral numbers such as 1.0 for integers
			var ute *json.UnmarshalTypeError
			if !errors.As(errTheirs, &ute) || !strings.Contains(ute.Value, "number") {
				t.Fatalf("kitjson accepted what encoding/json refuses (%v): %q", errTheirs, data)
			}
		case errTheirs == nil:
			if !known(errOurs.Error()) {
				t.Fatalf("kitjson refused what encoding/json accepts: %v: %q", errOurs, data)
			}
		}
		if errOurs != nil && !utf8.ValidString(errOurs.Error()) && utf8.Valid(data) {
			t.Fatalf("message is not UTF-8: %q", errOurs.Error())
		}
	})
}

func known(msg string) bool {
	for _, k := range knownDifferences {
		if strings.Contains(msg, k) {
			return true
		}
	}
	return false
}

// decodeStrict is encoding/json as kit's default codec used it: unknown
// fields refused, nothing after the value, an empty input as {}.
func decodeStrict(data []byte, v any) error {
	if len(bytes.Trim(data, " \t\r\n")) == 0 {
		data = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data")
	}
	if reflect.ValueOf(v).Elem().Kind() != reflect.Struct {
		return errors.New("not a struct")
	}
	return nil
}

func FuzzEncodeStringAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{"", "a", "<a href='x'>&amp;</a>", "\u2028\u2029", "\xff\xfe", "\x00\x1f\x7f", `"\`, "é😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := kitjson.AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}

func FuzzEncodeFloatAgreesWithEncodingJSON(f *testing.F) {
	for _, x := range []float64{0, 1e21, 1e-7, 123456789.125, -0.000001} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		for _, bits := range []int{32, 64} {
			v := x
			if bits == 32 {
				v = float64(float32(x))
			}
			var want []byte
			var err error
			if bits == 32 {
				want, err = json.Marshal(float32(v))
			} else {
				want, err = json.Marshal(v)
			}
			e := kitjson.NewEncoder()
			e.Float(v, bits)
			if (err != nil) != (e.Err() != nil) || err == nil && !bytes.Equal(e.Bytes(), want) {
				t.Fatalf("%v/%d: got %s (%v), want %s (%v)", v, bits, e.Bytes(), e.Err(), want, err)
			}
			e.Release()
		}
	})
}
