package events_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/kitdev/kit/runtime/events"
)

type order struct {
	ID    string   `json:"id"`
	Items []string `json:"items"`
	Qty   int      `json:"qty"`
}

func (o *order) Validate() error {
	if o.Qty < 1 {
		return errors.New("qty: below minimum 1")
	}
	return nil
}

func (o *order) FillEmpty() {
	if o.Items == nil {
		o.Items = []string{}
	}
}

type note struct {
	Text string `json:"text"`
}

var (
	placed = events.NewEvent[order]("shop.Placed", (*order).Validate)
	batch  = events.NewEventSlice[order]("shop.Batch", (*order).Validate)
	noted  = events.NewEvent[note]("shop.Noted", nil)
	notes  = events.NewEventSlice[note]("shop.Notes", nil)
)

func TestContract(t *testing.T) {
	if got := placed.Contract(); got != "shop.Placed" {
		t.Fatalf("Contract() = %q", got)
	}
	if got := batch.Contract(); got != "shop.Batch" {
		t.Fatalf("Contract() = %q", got)
	}
}

func TestDecodeValidates(t *testing.T) {
	o, err := placed.Decode([]byte(`{"id":"a","items":["x"],"qty":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if o.ID != "a" || o.Qty != 2 || len(o.Items) != 1 {
		t.Fatalf("decoded %+v", o)
	}
	_, err = placed.Decode([]byte(`{"id":"a","qty":0}`))
	assertPayloadError(t, err, "shop.Placed", "events: shop.Placed: qty: below minimum 1")
}

func TestDecodeRefusesBadJSON(t *testing.T) {
	cases := map[string]string{
		``:                     "payload: required",
		` null `:               "payload: required",
		`{"id":`:               "unexpected end of JSON input",
		`{"qty":"x"}`:          "qty: expected integer, got string",
		`{"items":[1]}`:        "items: expected string, got number",
		`{"qty":1} {"qty":2}`:  "unexpected data after the JSON value",
		`[{"qty":1}]`:          "payload: expected object, got array",
		`{"id":"a","qty":1} x`: "unexpected data after the JSON value",
	}
	for in, want := range cases {
		_, err := placed.Decode([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%q) error = %v, want it to mention %q", in, err, want)
		}
		var pe *events.PayloadError
		if !errors.As(err, &pe) || pe.Event != "shop.Placed" {
			t.Errorf("Decode(%q) error %v is not a *PayloadError of shop.Placed", in, err)
		}
	}
}

func TestDecodeIsTolerantByDefaultAndStrictOnRequest(t *testing.T) {
	data := []byte(`{"id":"a","qty":1,"later":{"added":"by a newer producer"}}`)
	o, err := placed.Decode(data)
	if err != nil || o.ID != "a" || o.Qty != 1 {
		t.Fatalf("tolerant Decode = %+v, %v", o, err)
	}
	_, err = placed.Strict().Decode(data)
	assertPayloadError(t, err, "shop.Placed", `events: shop.Placed: json: unknown field "later"`)
	if _, err := placed.Strict().Decode([]byte(`{"id":"a","qty":1}`)); err != nil {
		t.Fatalf("strict Decode of a known shape: %v", err)
	}
	if placed.Strict().Contract() != "shop.Placed" {
		t.Fatal("Strict changed the contract")
	}
}

func TestSliceValidatesEveryElement(t *testing.T) {
	items, err := batch.Decode([]byte(`[{"id":"a","qty":1},{"id":"b","qty":3}]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(*items) != 2 || (*items)[1].ID != "b" {
		t.Fatalf("decoded %+v", *items)
	}
	_, err = batch.Decode([]byte(`[{"id":"a","qty":1},{"id":"b","qty":0}]`))
	assertPayloadError(t, err, "shop.Batch", "events: shop.Batch: [1]: qty: below minimum 1")
	if _, err := batch.Decode([]byte(`[]`)); err != nil {
		t.Fatalf("empty array: %v", err)
	}
}

func TestEncodeValidatesAndFillsEmpty(t *testing.T) {
	data, err := placed.Encode(&order{ID: "a", Qty: 1})
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"id":"a","items":[],"qty":1}` {
		t.Fatalf("Encode = %s", data)
	}
	_, err = placed.Encode(&order{ID: "a"})
	assertPayloadError(t, err, "shop.Placed", "events: shop.Placed: qty: below minimum 1")
	_, err = placed.Encode(nil)
	assertPayloadError(t, err, "shop.Placed", "events: shop.Placed: payload: required")
}

func TestEncodeSlice(t *testing.T) {
	var none []order
	data, err := batch.Encode(&none)
	if err != nil || string(data) != `[]` {
		t.Fatalf("Encode(nil slice) = %s, %v", data, err)
	}
	data, err = batch.Encode(&[]order{{ID: "a", Qty: 1}})
	if err != nil || string(data) != `[{"id":"a","items":[],"qty":1}]` {
		t.Fatalf("Encode = %s, %v", data, err)
	}
	_, err = batch.Encode(&[]order{{ID: "a", Qty: 1}, {ID: "b"}})
	assertPayloadError(t, err, "shop.Batch", "events: shop.Batch: [1]: qty: below minimum 1")
}

func TestNilValidatorRoundTrips(t *testing.T) {
	data, err := noted.Encode(&note{Text: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	n, err := noted.Decode(data)
	if err != nil || n.Text != "hi" {
		t.Fatalf("round trip = %+v, %v", n, err)
	}
	list, err := notes.Decode([]byte(`[{"text":"a"},{"text":"b"}]`))
	if err != nil || len(*list) != 2 {
		t.Fatalf("slice = %+v, %v", list, err)
	}
	if err := noted.Validate(nil); err == nil {
		t.Fatal("Validate(nil) passed")
	}
}

func TestZeroDescriptor(t *testing.T) {
	var e events.Event[note]
	data, err := e.Encode(&note{Text: "x"})
	if err != nil || string(data) != `{"text":"x"}` {
		t.Fatalf("zero descriptor Encode = %s, %v", data, err)
	}
}

func assertPayloadError(t *testing.T, err error, contract, text string) {
	t.Helper()
	var pe *events.PayloadError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v is not a *PayloadError", err)
	}
	if pe.Event != contract || err.Error() != text {
		t.Fatalf("error = %q (contract %q), want %q", err.Error(), pe.Event, text)
	}
}
