package jsonpath

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

type fuzzItem struct {
	A  int            `json:"a"`
	At time.Time      `json:"at"`
	M  map[string]int `json:"m"`
}

type fuzzDoc struct {
	Items []fuzzItem `json:"items"`
	fuzzItem
	Any any `json:"any"`
}

// FuzzDocWalker checks that locating a failing value never panics nor
// loops, whatever the bytes (the decoder hands it valid JSON, but it stays
// safe on anything).
func FuzzDocWalker(f *testing.F) {
	for _, s := range []string{
		`{"items":[{"a":1},{"a":"x"}]}`, `{"a":"x","m":{"k":"v"}}`, `[`, `{"a"`, `"\`, `{"a":1,}`,
		`[[[[]]]]`, `{"\u00e9":"\""}`, `{"items":[{"at":5}]}`, `{"any":{"x":[1,{"y":2}]}}`,
	} {
		f.Add([]byte(s))
	}
	t := reflect.TypeFor[*fuzzDoc]()
	f.Fuzz(func(t2 *testing.T, data []byte) {
		_, _ = UnmarshalerMessage(errors.New("x"), data, t, "body")
		var v fuzzDoc
		if err := json.Unmarshal(data, &v); err != nil {
			var ute *json.UnmarshalTypeError
			if errors.As(err, &ute) {
				_ = Path(ute.Field, t, ute.Type, "body")
			}
			_, _ = UnmarshalerMessage(err, data, t, "body")
		}
	})
}

type money struct {
	Amount int `json:"amount"`
}

type payload struct {
	money
	Lines []struct {
		money
	} `json:"lines"`
	At time.Time `json:"at"`
}

func TestPathAndRoot(t *testing.T) {
	target := reflect.TypeFor[*payload]()
	tests := []struct{ body, want string }{
		{`{"amount": "1"}`, "amount: expected integer"},
		{`{"lines": [{"amount": true}]}`, "lines: amount: expected integer"},
		{`[]`, "payload: expected object"},
		{`{"at": 1}`, "at: expected string, got number"},
		{`"x"`, "payload: expected object"},
	}
	for _, tt := range tests {
		var v payload
		err := json.Unmarshal([]byte(tt.body), &v)
		var got string
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			got = Path(ute.Field, target, ute.Type, "payload") + ": expected " + map[reflect.Kind]string{reflect.Int: "integer", reflect.Struct: "object"}[ute.Type.Kind()]
		} else if m, ok := UnmarshalerMessage(err, []byte(tt.body), target, "payload"); ok {
			got = m
		}
		if got != tt.want {
			t.Errorf("%s: %q (%v), want %q", tt.body, got, err, tt.want)
		}
	}
}
