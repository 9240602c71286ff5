package shop_test

import (
	"encoding/json"
	"testing"

	types "example.com/showcase/internal/types/shop"
)

// A body embedding a type with UnmarshalJSON decodes all its members (the embedded
// method is not promoted).
func TestErrorBodyEmbeddingADefaultedMixinDecodesEveryMember(t *testing.T) {
	var b types.StaleBody
	if err := json.Unmarshal([]byte(`{"source":"app","version":3}`), &b); err != nil {
		t.Fatal(err)
	}
	if b.Version != 3 || b.Source == nil || *b.Source != "app" {
		t.Fatalf("decoded %+v", b)
	}
}

func TestNestedTypeDefaults(t *testing.T) {
	var o types.Order
	if err := json.Unmarshal([]byte(`{"id":"x","lines":[{"sku":"a","qty":1,"price":{"amount":1,"currency":"EUR"},"tags":[]}]}`), &o); err != nil {
		t.Fatal(err)
	}
	if o.Lines[0].Color == nil || *o.Lines[0].Color != types.ColorGreen || *o.Source != "web" {
		t.Fatalf("defaults missing: %+v", o)
	}
}
