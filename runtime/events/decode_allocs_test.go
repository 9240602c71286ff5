package events_test

import (
	"encoding/json"
	"testing"
)

// Decoding a valid payload allocates no more than encoding/json does for it alone: nothing
// of the bus's own (a leftover errors.As target cost one per message).
func TestDecodeAllocatesNoMoreThanJSON(t *testing.T) {
	payload := []byte(`{"orderId":"o-1","total":42}`)
	decode := testing.AllocsPerRun(200, func() {
		if _, err := OrderPlaced.Decode(payload); err != nil {
			t.Fatal(err)
		}
	})
	plain := testing.AllocsPerRun(200, func() {
		if err := json.Unmarshal(payload, new(Placed)); err != nil {
			t.Fatal(err)
		}
	})
	if decode > plain {
		t.Errorf("%.0f allocations per decode, encoding/json alone %.0f", decode, plain)
	}
}
