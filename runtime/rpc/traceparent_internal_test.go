package rpc

import (
	"context"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/internal/jsonline"
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

// The access line's peer is what the address's String gives, for every shape of TCP
// address (and any other net.Addr).
func TestAppendPeerWritesAddrString(t *testing.T) {
	sink := &jsonline.Sink{W: io.Discard}
	addrs := []net.Addr{
		&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 52114},
		&net.TCPAddr{IP: net.IP{10, 1, 2, 3}, Port: 0},
		&net.TCPAddr{IP: net.ParseIP("::1"), Port: 9000},
		&net.TCPAddr{IP: net.ParseIP("2001:db8::ff00:42:8329"), Port: 65535},
		&net.TCPAddr{IP: net.ParseIP("::ffff:192.0.2.1"), Port: 1},
		&net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 80, Zone: "eth0"},
		&net.TCPAddr{Port: 80},
		&net.TCPAddr{IP: net.IP{1, 2, 3}, Port: 80},
		&net.UnixAddr{Name: "/tmp/s", Net: "unix"},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		ip := make(net.IP, []int{4, 16}[r.IntN(2)])
		for i := range ip {
			ip[i] = byte(r.IntN(256))
		}
		addrs = append(addrs, &net.TCPAddr{IP: ip, Port: r.IntN(65536)})
	}
	for _, a := range addrs {
		ln := sink.Begin(time.Time{}, 0, "m")
		appendPeer(ln, a)
		var got strings.Builder
		sink.W = &got
		_ = sink.Write(ln)
		sink.W = io.Discard
		if want := `,"peer":"` + a.String() + `"}`; !strings.HasSuffix(got.String(), want+"\n") {
			t.Fatalf("%#v: line %q, want the suffix %q", a, got.String(), want)
		}
	}
}
