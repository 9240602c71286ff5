package rpc

import (
	"context"
	"math/rand/v2"
	"testing"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// parseTraceparent reads what OpenTelemetry's TraceContext propagator reads (the one the
// stats handler uses when telemetry is on): the same span context or none, over valid,
// malformed and randomly mutated values.
func TestParseTraceparentAgreesWithThePropagator(t *testing.T) {
	cases := []string{
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-ff",
		"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later",
		"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",
		"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		"00-00000000000000000000000000000000-00f067aa0ba902b7-01",
		"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
		"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
		"00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		"0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		"",
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "0123456789abcdefABx-_ "
	for range 3000 {
		b := []byte(cases[r.IntN(5)])
		for range 1 + r.IntN(3) {
			switch i := r.IntN(len(b) + 1); r.IntN(3) {
			case 0:
				if i < len(b) {
					b[i] = alphabet[r.IntN(len(alphabet))]
				}
			case 1:
				b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
			default:
				if i < len(b) {
					b = append(b[:i], b[i+1:]...)
				}
			}
		}
		cases = append(cases, string(b))
	}
	for _, h := range cases {
		want := trace.SpanContextFromContext(propagation.TraceContext{}.Extract(context.Background(),
			propagation.MapCarrier{"traceparent": h}))
		cfg, ok := parseTraceparent(h)
		cfg.Remote = true
		got := trace.NewSpanContext(cfg)
		if ok != want.IsValid() || ok && !got.Equal(want) {
			t.Fatalf("%q: parsed %v (%v), the propagator %v", h, got, ok, want)
		}
	}
}

// A call without traceparent allocates nothing to look for it.
func TestAdoptTraceparentWithoutOneAllocatesNothing(t *testing.T) {
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() { _, _ = adoptTraceparent(ctx) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
