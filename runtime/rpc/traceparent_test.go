package rpc_test

import (
	"context"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/kitdev/kit/runtime/rpc"
	"github.com/kitdev/kit/runtime/telemetry"
)

const (
	callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerSpan  = "00f067aa0ba902b7"
)

// offTelemetry is the stack of config otel.enabled: false, metrics.enabled: false.
func offTelemetry(t *testing.T) *telemetry.Telemetry {
	t.Helper()
	tel, err := telemetry.Init(context.Background(), telemetry.Config{ServiceName: "rpc-test"}, telemetry.WithoutGlobals())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tel.Shutdown(context.Background()) })
	return tel
}

// counting is a stats handler that counts the calls it sees.
type counting struct{ rpcs chan string }

func (c counting) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	c.rpcs <- info.FullMethodName
	return ctx
}
func (counting) HandleRPC(context.Context, stats.RPCStats)                         {}
func (counting) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }
func (counting) HandleConn(context.Context, stats.ConnStats)                       {}

// With telemetry off the generated main's rpc.WithStatsHandler(tel.GRPCServerHandler())
// installs nothing: the handler is nil, and a nil handler costs a call no allocation over a
// server built without the option (a stats handler makes grpc-go copy each call's
// metadata for it, which the same measure sees).
func TestTelemetryOffInstallsNoStatsHandler(t *testing.T) {
	if h := offTelemetry(t).GRPCServerHandler(); h != nil {
		t.Fatalf("telemetry off: stats handler %T", h)
	}
	allocs := func(opts ...rpc.Option) float64 {
		h := newHarness(t, opts...)
		md := metadata.Pairs("x-a", "1", "x-b", "2", "x-c", "3")
		ctx := metadata.NewOutgoingContext(context.Background(), md)
		for range 50 { // warm the connection's buffers
			if _, err := h.call(ctx, "ok:x"); err != nil {
				t.Fatal(err)
			}
		}
		return testing.AllocsPerRun(300, func() { _, _ = h.call(ctx, "ok:x") })
	}
	none := allocs()
	off := allocs(rpc.WithStatsHandler(offTelemetry(t).GRPCServerHandler()))
	seen := counting{rpcs: make(chan string, 1000)}
	with := allocs(rpc.WithStatsHandler(seen))
	if len(seen.rpcs) == 0 {
		t.Fatal("the counting handler saw no call: WithStatsHandler installed nothing")
	}
	t.Logf("allocs none %.1f off %.1f with %.1f", none, off, with)
	if off > none+0.5 || with < off+3 {
		t.Fatalf("allocations per call: no option %.1f, telemetry off %.1f, a stats handler %.1f", none, off, with)
	}
}

// With telemetry off, a caller's traceparent still reaches the access log line and the
// lines logged during the call (here the unknown-error line of rpc.Error), unary and
// streaming; a call without one, or with a malformed one, logs no trace ids.
func TestTraceparentReachesLogsWithTelemetryOff(t *testing.T) {
	logs := captureLogs(t)
	h := newHarness(t, rpc.WithStatsHandler(offTelemetry(t).GRPCServerHandler()))
	traced := metadata.AppendToOutgoingContext(context.Background(),
		"traceparent", "00-"+callerTrace+"-"+callerSpan+"-01", "tracestate", "k=v")
	if _, err := h.call(traced, "unknown"); status.Code(err) != codes.Internal {
		t.Fatalf("err %v", err)
	}
	stream, err := h.conn.NewStream(traced, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, "/"+echoService+"/Chat")
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.SendMsg(wrapperspb.String("unknown")); err != nil {
		t.Fatal(err)
	}
	_ = stream.CloseSend()
	if err := stream.RecvMsg(new(wrapperspb.StringValue)); status.Code(err) != codes.Internal {
		t.Fatalf("stream err %v", err)
	}
	for _, msg := range []string{"grpc request", "unhandled service error"} {
		lines := logs.withMsg(t, msg)
		if len(lines) != 2 {
			t.Fatalf("%q lines %v", msg, lines)
		}
		for _, l := range lines {
			if l["trace_id"] != callerTrace || l["span_id"] != callerSpan {
				t.Fatalf("%q line without the caller's ids: %v", msg, l)
			}
		}
	}

	logs = captureLogs(t)
	malformed := metadata.AppendToOutgoingContext(context.Background(),
		"traceparent", "00-"+callerTrace+"-0000000000000000-01")
	for _, ctx := range []context.Context{context.Background(), malformed} {
		if _, err := h.call(ctx, "ok:x"); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range logs.withMsg(t, "grpc request") {
		if _, has := l["trace_id"]; has {
			t.Fatalf("trace ids without a valid traceparent: %v", l)
		}
	}
}
