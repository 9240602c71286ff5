package shop_test

import (
	"errors"
	"strings"
	"testing"

	"example.com/showcase/internal/events/shop"
	"example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"github.com/kitdev/kit/runtime/events"
)

const line = `{"sku":"a","qty":1,"price":{"amount":1,"currency":"EUR"},"tags":[]}`

func order(lines string) []byte {
	return []byte(`{"id":"0b6c5e0e-8f0a-4c3e-9a43-3f0f2b9a1c55","lines":[` + lines + `]}`)
}

func TestContracts(t *testing.T) {
	cases := map[string][2]string{
		"OrderPlaced":   {shop.OrderPlacedContract, shop.OrderPlaced.Contract()},
		"LinesRepriced": {shop.LinesRepricedContract, shop.LinesRepriced.Contract()},
		"Mirrored":      {shop.MirroredContract, shop.Mirrored.Contract()},
		"Audited":       {shop.AuditedContract, shop.Audited.Contract()},
	}
	want := map[string]string{
		"OrderPlaced":   "shop.orders.placed", // @contract
		"LinesRepriced": "shop.LinesRepriced",
		"Mirrored":      "shop.Mirrored",
		"Audited":       "shop.Audited",
	}
	for name, got := range cases {
		if got[0] != want[name] || got[1] != want[name] {
			t.Errorf("%s: constant %q, descriptor %q, want %q", name, got[0], got[1], want[name])
		}
	}
}

func TestDecodeAppliesDefaultsAtEveryDepth(t *testing.T) {
	o, err := shop.OrderPlaced.Decode(order(line + `,{"sku":"b","qty":2,"price":{"amount":2,"currency":"USD"},"tags":[],"color":"red"}`))
	if err != nil {
		t.Fatal(err)
	}
	if o.Note == nil || *o.Note != "none" || o.Rush == nil || *o.Rush {
		t.Errorf("own defaults: note %v rush %v", o.Note, o.Rush)
	}
	if o.Source == nil || *o.Source != "web" || o.Currency == nil || *o.Currency != shared.CurrencyEur {
		t.Errorf("mixin defaults: source %v currency %v", o.Source, o.Currency)
	}
	if c := o.Lines[0].Color; c == nil || *c != types.ColorGreen {
		t.Errorf("element default: %v", c)
	}
	if c := o.Lines[1].Color; c == nil || *c != types.ColorRed {
		t.Errorf("explicit element value lost: %v", c)
	}
}

func TestDecodeValidates(t *testing.T) {
	_, err := shop.OrderPlaced.Decode(order(strings.Replace(line, `"qty":1`, `"qty":0`, 1)))
	var pe *events.PayloadError
	if !errors.As(err, &pe) || pe.Event != "shop.orders.placed" {
		t.Fatalf("error %v is not a payload error of the contract", err)
	}
	if !strings.HasSuffix(err.Error(), "lines[0]: qty: below minimum 1") {
		t.Errorf("error = %v", err)
	}
}

func TestArrayPayloadValidatesEveryElement(t *testing.T) {
	lines, err := shop.LinesRepriced.Decode([]byte(`[` + line + `]`))
	if err != nil || len(*lines) != 1 || (*lines)[0].Color == nil {
		t.Fatalf("decode = %+v, %v", lines, err)
	}
	_, err = shop.LinesRepriced.Decode([]byte(`[` + line + `,` + strings.Replace(line, `"qty":1`, `"qty":0`, 1) + `]`))
	if err == nil || !strings.HasSuffix(err.Error(), "[1]: qty: below minimum 1") {
		t.Errorf("error = %v", err)
	}
}

func TestGenericAndUnvalidatedPayloads(t *testing.T) {
	if _, err := shop.Mirrored.Decode([]byte(`{"value":{"amount":-1,"currency":"EUR"}}`)); err == nil {
		t.Error("a negative amount inside a generic payload passed")
	}
	a, err := shop.Audited.Decode([]byte(`{"createdBy":"me","createdAt":"2026-01-02T03:04:05Z"}`))
	if err != nil || a.CreatedBy != "me" {
		t.Errorf("payload without Validate: %+v, %v", a, err)
	}
}

func TestEncodeFillsEmptyLists(t *testing.T) {
	data, err := shop.LinesRepriced.Encode(&[]types.Line{{Sku: "a", Qty: 1, Price: types.Money{Money: shared.Money{Currency: shared.CurrencyEur}}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"tags":[]`) {
		t.Errorf("Encode = %s", data)
	}
}
