package nats

import "testing"

// The delivery count is read from both ack subject shapes nats.go knows; anything else
// is left to jetstream's Metadata.
func TestNumDelivered(t *testing.T) {
	for _, tc := range []struct {
		reply string
		want  int
		ok    bool
	}{
		{"$JS.ACK.ORDERS.billing.3.17.12.1732420000000000000.5", 3, true},
		{"$JS.ACK._.ABCHASH.ORDERS.billing.7.17.12.1732420000000000000.5.r4nd", 7, true},
		{"$JS.ACK.hub.ABCHASH.ORDERS.billing.12.17.12.1732420000000000000.5", 12, true},
		{"$JS.ACK.ORDERS.billing.x.17.12.1732420000000000000.5", 0, false},
		{"$JS.ACK.ORDERS.billing.3.17.12.1732420000000000000", 0, false},
		{"$JS.ACK.S.C.3.1.1.1.1.x", 0, false}, // 10 tokens: neither shape
		{"_INBOX.abc.def", 0, false},
		{"", 0, false},
	} {
		got, ok := numDelivered(tc.reply)
		if got != tc.want || ok != tc.ok {
			t.Errorf("numDelivered(%q) = %d, %v; want %d, %v", tc.reply, got, ok, tc.want, tc.ok)
		}
	}
}
