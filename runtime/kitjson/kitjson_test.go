package kitjson_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/kitjson"
)

// line and order are written the way kit generates ReadKitJSON and
// WriteKitJSON.
type line struct {
	Sku   string   `json:"sku"`
	Qty   int      `json:"qty"`
	Tags  []string `json:"tags"`
	Color *string  `json:"color,omitempty"`
}

var lineKeys = [...]string{"sku", "qty", "tags", "color"}

func (v *line) ReadKitJSON(d *kitjson.Decoder) {
	green := "green"
	v.Color = &green
	var seen uint64
	if !d.Object() {
		return
	}
	for d.More() {
		switch string(d.Key()) {
		case "sku":
			if d.Field(&seen, 1<<0, kitjson.Required) {
				v.Sku = d.Str()
			}
		case "qty":
			if d.Field(&seen, 1<<1, kitjson.Required) {
				v.Qty = int(d.Int(64))
			}
		case "tags":
			if d.Field(&seen, 1<<2, kitjson.Required) && d.Array() {
				v.Tags = []string{}
				for d.Elem() {
					v.Tags = append(v.Tags, d.Str())
				}
			}
		case "color":
			if d.Field(&seen, 1<<3, kitjson.Optional) {
				x := d.Str()
				v.Color = &x
			}
		default:
			d.Unknown()
		}
	}
	d.Missing(seen, 0b111, lineKeys[:])
}

func (v *line) WriteKitJSON(e *kitjson.Encoder) {
	e.Raw(`{"sku":`)
	e.Str(v.Sku)
	e.Raw(`,"qty":`)
	e.Int(int64(v.Qty))
	e.Raw(`,"tags":[`)
	for i, x := range v.Tags {
		if i > 0 {
			e.Raw(",")
		}
		e.Str(x)
	}
	e.Raw("]")
	if v.Color != nil {
		e.Raw(`,"color":`)
		e.Str(*v.Color)
	}
	e.Raw("}")
}

type order struct {
	ID     string          `json:"id"`
	Lines  []line          `json:"lines"`
	ByCode map[string]line `json:"byCode,omitempty"`
	Note   *string         `json:"note"`
	Ratio  float32         `json:"ratio"`
	When   time.Time       `json:"when"`
	Extra  any             `json:"extra,omitempty"`
	Counts map[int8]uint16 `json:"counts,omitempty"`
}

var orderKeys = [...]string{"id", "lines", "byCode", "note", "ratio", "when", "extra", "counts"}

func (v *order) ReadKitJSON(d *kitjson.Decoder) {
	var seen uint64
	if !d.Object() {
		return
	}
	for d.More() {
		switch string(d.Key()) {
		case "id":
			if d.Field(&seen, 1<<0, kitjson.Required) {
				v.ID = d.Str()
			}
		case "lines":
			if d.Field(&seen, 1<<1, kitjson.Required) && d.Array() {
				v.Lines = []line{}
				for d.Elem() {
					v.Lines = append(v.Lines, line{})
					v.Lines[len(v.Lines)-1].ReadKitJSON(d)
				}
			}
		case "byCode":
			if d.Field(&seen, 1<<2, kitjson.Optional) && d.Map() {
				v.ByCode = map[string]line{}
				for d.More() {
					k := string(d.Key())
					var x line
					x.ReadKitJSON(d)
					kitjson.Put(d, v.ByCode, k, x)
				}
			}
		case "note":
			if d.Field(&seen, 1<<3, kitjson.Nullable) {
				x := d.Str()
				v.Note = &x
			}
		case "ratio":
			if d.Field(&seen, 1<<4, kitjson.Required) {
				v.Ratio = float32(d.Float(32))
			}
		case "when":
			if d.Field(&seen, 1<<5, kitjson.Required) {
				v.When = d.Time()
			}
		case "extra":
			if d.Field(&seen, 1<<6, kitjson.NotNull) {
				v.Extra = d.Any()
			}
		case "counts":
			if d.Field(&seen, 1<<7, kitjson.Optional) && d.Map() {
				v.Counts = map[int8]uint16{}
				for d.More() {
					k := int8(d.IntKey(8))
					kitjson.Put(d, v.Counts, k, uint16(d.Uint(16)))
				}
			}
		default:
			d.Unknown()
		}
	}
	d.Missing(seen, 0b111011, orderKeys[:])
}

func (v *order) WriteKitJSON(e *kitjson.Encoder) {
	e.Raw(`{"id":`)
	e.Str(v.ID)
	e.Raw(`,"lines":[`)
	for i := range v.Lines {
		if i > 0 {
			e.Raw(",")
		}
		v.Lines[i].WriteKitJSON(e)
	}
	e.Raw("]")
	if v.ByCode != nil {
		e.Raw(`,"byCode":`)
		kitjson.WriteMap(e, v.ByCode, func(e *kitjson.Encoder, x line) { x.WriteKitJSON(e) })
	}
	e.Raw(`,"note":`)
	if v.Note == nil {
		e.Null()
	} else {
		e.Str(*v.Note)
	}
	e.Raw(`,"ratio":`)
	e.Float(float64(v.Ratio), 32)
	e.Raw(`,"when":`)
	e.Time(v.When)
	if v.Extra != nil {
		e.Raw(`,"extra":`)
		e.Any(v.Extra)
	}
	if v.Counts != nil {
		e.Raw(`,"counts":`)
		kitjson.WriteIntMap(e, v.Counts, func(e *kitjson.Encoder, x uint16) { e.Uint(uint64(x)) })
	}
	e.Raw("}")
}

const good = `{"id":"o1","lines":[{"sku":"a","qty":1,"tags":[]}],"note":null,"ratio":0.5,"when":"2024-01-02T03:04:05Z"}`

func decode(t *testing.T, body string, lenient bool) (*order, string) {
	t.Helper()
	var v order
	err := kitjson.Unmarshal([]byte(body), &v, lenient)
	if err != nil {
		return &v, err.Error()
	}
	return &v, ""
}

func TestDecodeMessages(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"good", good, ""},
		{"duplicate key", `{"id":"a","id":"b"}`, "id: duplicate key"},
		{"duplicate key deep", `{"id":"a","lines":[{"sku":"a","sku":"b"}]}`, "lines[0]: sku: duplicate key"},
		{"case-mismatched key", `{"ID":"a"}`, "ID: unknown field"},
		{"unknown key deep", `{"id":"a","lines":[{},{"bogus":1}]}`, "lines[0]: sku: required"},
		{"unknown key in element", `{"id":"a","lines":[{"sku":"a","qty":1,"tags":[],"bogus":1}]}`, "lines[0]: bogus: unknown field"},
		{"missing", `{"id":"a"}`, "lines: required"},
		{"missing nested", `{"id":"a","lines":[{"sku":"a","tags":[]}]}`, "lines[0]: qty: required"},
		{"null on required", `{"id":null}`, "id: required"},
		{"null on optional", `{"id":"a","lines":[{"sku":"a","qty":1,"tags":[],"color":null}]}`, "lines[0]: color: expected string, got null"},
		{"null on optional any", `{"extra":null}`, "extra: must not be null"},
		{"type mismatch", `{"id":5}`, "id: expected string, got number"},
		{"map value path", `{"id":"a","lines":[],"byCode":{"x":{"sku":"a","qty":"1"}}}`, "byCode[x]: qty: expected integer, got string"},
		{"map duplicate", `{"byCode":{"x":{},"x":{}}}`, "byCode[x]: sku: required"},
		{"map bad key", `{"counts":{"abc":1}}`, `counts: key "abc": expected integer`},
		{"map key out of range", `{"counts":{"300":1}}`, `counts: key "300": integer out of range`},
		{"map key plus sign", `{"counts":{"+1":1}}`, `counts: key "+1": expected integer`},
		{"map key leading zero", `{"counts":{"01":1}}`, `counts: key "01": expected integer`},
		{"map key negative zero", `{"counts":{"-0":1}}`, `counts: key "-0": expected integer`},
		{"map keys zero and negative pass", `{"counts":{"0":1,"-1":2}}`, "id: required"},
		{"integer with fraction", `{"lines":[{"sku":"a","qty":1.5}]}`, "lines[0]: qty: expected integer, got number"},
		{"integer out of range", `{"lines":[{"sku":"a","qty":1e30}]}`, "lines[0]: qty: number out of range for int64"},
		{"float out of range", `{"ratio":1e400}`, "ratio: number out of range for float32"},
		{"float32 out of range", `{"ratio":1e39}`, "ratio: number out of range for float32"},
		{"uint negative", `{"counts":{"1":-1}}`, "counts[1]: number out of range for uint16"},
		{"trailing data", good + ` {}`, "body: unexpected data after the JSON value"},
		{"trailing garbage", good + ` x`, "body: unexpected data after the JSON value"},
		{"not an object", `[]`, "body: expected object, got array"},
		{"null body", `null`, "body: expected object, got null"},
		{"truncated", `{"id": `, "body: unexpected end of JSON input"},
		{"syntax", `{"id": "a",}`, "body: invalid character '}' looking for beginning of object key string"},
		{"syntax in mismatched value", `{"id": tru}`, "body: invalid character '}' in literal true (expecting 'e')"},
		{"invalid UTF-8", "{\"id\":\"\xff\"}", "id: invalid UTF-8 in string"},
		{"lone surrogate", `{"id":"\ud800"}`, "id: invalid UTF-8 in string"},
		{"datetime", `{"when":"yesterday"}`, "when: not a valid RFC 3339 datetime"},
		{"datetime type", `{"when":5}`, "when: expected string, got number"},
		{"any duplicate", `{"extra":{"a":1,"a":2}}`, "extra[a]: duplicate key"},
		{"empty body", `  `, "id: required"},
		{"control character", "{\"id\":\"a\nb\"}", `body: invalid character '\n' in string literal`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := decode(t, tt.body, false)
			if got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDecodeValues(t *testing.T) {
	body := `{"id":"o\u00e9\ud83d\ude00","lines":[{"sku":"a","qty":6.0,"tags":["x","y"]},{"sku":"b","qty":1.5e1,"tags":[],"color":"red"}],
		"byCode":{"k":{"sku":"c","qty":-2e0,"tags":[]}},"note":"n","ratio":2.5,"when":"2024-01-02T03:04:05.5+01:00",
		"extra":{"a":[1,"b",null,true]},"counts":{"-3":7}}`
	v, msg := decode(t, body, false)
	if msg != "" {
		t.Fatal(msg)
	}
	if v.ID != "oé😀" || v.Lines[0].Qty != 6 || v.Lines[1].Qty != 15 || v.ByCode["k"].Qty != -2 || *v.Note != "n" {
		t.Fatalf("%+v", v)
	}
	if *v.Lines[0].Color != "green" || *v.Lines[1].Color != "red" { // default kept, explicit wins
		t.Fatalf("colors %q %q", *v.Lines[0].Color, *v.Lines[1].Color)
	}
	if v.Counts[-3] != 7 || v.Ratio != 2.5 || v.When.Nanosecond() != 5e8 {
		t.Fatalf("%+v", v)
	}
}

func TestLenient(t *testing.T) {
	v, msg := decode(t, `{"id":"a","ID":"b","note":null,"lines":[],"bogus":{"x":[1,{"y":null}]},"ratio":0,"when":"2024-01-02T03:04:05Z"} trailing`, true)
	if msg != "" || v.ID != "a" {
		t.Fatalf("%q %+v", msg, v)
	}
	_, msg = decode(t, `{"id":"a","id":"b"}`, true)
	if msg != "id: duplicate key" {
		t.Fatal(msg)
	}
}

func TestIntegers(t *testing.T) {
	cases := map[string]string{
		"0": "", "-0": "", "9223372036854775807": "", "-9223372036854775808": "",
		"9223372036854775808":  "number out of range for int64",
		"-9223372036854775809": "number out of range for int64",
		"1e18":                 "", "1e19": "number out of range for int64", "10.0e-1": "", "100e-2": "", "0.1e1": "",
		"1.05e1": "expected integer, got number", "1e-1": "expected integer, got number",
		"0.0000000000000000000000000001e28": "", "12345678901234567890123e-22": "expected integer, got number",
		"1000000000000000000000000e-24": "", "1e999999999999": "number out of range for int64",
		"0e999999999999": "", "1e-999999999999": "expected integer, got number",
	}
	for lit, want := range cases {
		var v line
		err := kitjson.Unmarshal([]byte(`{"sku":"a","tags":[],"qty":`+lit+`}`), &v, false)
		got := ""
		if err != nil {
			got = strings.TrimPrefix(err.Error(), "qty: ")
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", lit, got, want)
		}
	}
}

func TestEncodeMatchesEncodingJSON(t *testing.T) {
	note := "a<b>&\u2028\"\\\x01\x7f"
	v := order{
		ID: "x\xffy", Lines: []line{{Sku: "s", Qty: -3, Tags: []string{"t"}}}, Note: &note, Ratio: 1e-7,
		When: time.Date(2024, 1, 2, 3, 4, 5, 6, time.FixedZone("", 3600)), Extra: map[string]any{"b": 1, "a": []int{1}},
		ByCode: map[string]line{"z": {Tags: []string{}}, "a": {Tags: []string{}}}, Counts: map[int8]uint16{10: 1, 9: 2, -1: 3},
	}
	got, err := kitjson.Marshal(&v)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(v)
	if string(got) != string(want)+"\n" {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	for _, f := range []float64{0, 1, -1, 1e20, 1e21, 1e-6, 1e-7, 123.456, 3.4e38, 5e-324} {
		e := kitjson.NewEncoder()
		e.Float(f, 64)
		w, _ := json.Marshal(f)
		if string(e.Bytes()) != string(w) {
			t.Errorf("%v: %s, want %s", f, e.Bytes(), w)
		}
		e.Release()
	}
}

func TestEncodeNonFinite(t *testing.T) {
	e := kitjson.NewEncoder()
	defer e.Release()
	e.Float(nan(), 64)
	if e.Err() == nil || e.Err().Error() != "json: unsupported value: NaN" {
		t.Fatal(e.Err())
	}
}

func nan() float64 {
	var z float64
	return z / z
}

// An any member without @nullable never writes null: a nil value (or one that
// marshals to null) fails the encoding, so the response answers 500.
func TestAnyNotNullRefusesNull(t *testing.T) {
	var nilPtr *struct{}
	for _, v := range []any{nil, nilPtr} {
		e := kitjson.NewEncoder()
		e.AnyNotNull(v)
		if !errors.Is(e.Err(), kitjson.ErrNullAny) {
			t.Fatalf("AnyNotNull(%#v): err %v, want ErrNullAny", v, e.Err())
		}
	}
	e := kitjson.NewEncoder()
	e.AnyNotNull(map[string]any{"a": false})
	if e.Err() != nil || string(e.Bytes()) != `{"a":false}` {
		t.Fatalf("AnyNotNull(map): %q, %v", e.Bytes(), e.Err())
	}
}
