package events

import (
	"errors"
	"testing"
)

type money struct {
	Amount int `json:"amount"`
}

type priced struct {
	money
	Label string `json:"label"`
}

type line struct {
	Price priced `json:"price"`
}

func TestDecodeTypeErrorPathsDropEmbeddedNames(t *testing.T) {
	ev := NewEvent[line]("shop.Line", nil)
	_, err := ev.Decode([]byte(`{"price": {"amount": "1", "label": "x"}}`))
	var pe *PayloadError
	if !errors.As(err, &pe) {
		t.Fatalf("want *PayloadError, got %v", err)
	}
	if got, want := pe.Err.Error(), "price: amount: expected integer, got string"; got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
}

func TestDecodeTypeErrorOnTheWholePayload(t *testing.T) {
	_, err := NewEvent[line]("shop.Line", nil).Decode([]byte(`[1]`))
	var pe *PayloadError
	if !errors.As(err, &pe) || pe.Err.Error() != "payload: expected object, got array" {
		t.Fatalf("got %v", err)
	}
}
