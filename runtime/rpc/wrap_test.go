package rpc_test

import (
	"context"
	"errors"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/rpc"
)

// bareConn serves echoDesc on a bare grpc.NewServer over bufconn.
func bareConn(t *testing.T) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	gs.RegisterService(&echoDesc, struct{}{})
	go func() { _ = gs.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///bufnet", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = conn.Close()
		gs.Stop()
	})
	return conn
}

// mallocsPerCall is the mean number of heap allocations of the whole process
// (client and server) per call of f, after a warm-up.
func mallocsPerCall(t *testing.T, f func() error) float64 {
	t.Helper()
	const n = 400
	for range 50 {
		if err := f(); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		if err := f(); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / n
}

func unaryCall(conn *grpc.ClientConn) func() error {
	return func() error {
		return conn.Invoke(context.Background(), "/"+echoService+"/Call", wrapperspb.String("ok:x"), new(wrapperspb.StringValue))
	}
}

func chatCall(conn *grpc.ClientConn) func() error {
	desc := &grpc.StreamDesc{StreamName: "Chat", ServerStreams: true, ClientStreams: true}
	return func() error {
		cs, err := conn.NewStream(context.Background(), desc, "/"+echoService+"/Chat")
		if err != nil {
			return err
		}
		if err := cs.SendMsg(wrapperspb.String("ok:x")); err != nil {
			return err
		}
		if err := cs.CloseSend(); err != nil {
			return err
		}
		for {
			if err := cs.RecvMsg(new(wrapperspb.StringValue)); errors.Is(err, io.EOF) {
				return nil
			} else if err != nil {
				return err
			}
		}
	}
}

// kit's interceptors (recovery, access log, timeout) allocate nothing per call, and kit
// installs no grpc-go interceptor, with which grpc-go and the generated handlers would
// allocate the call info and a handler closure: a call costs what it costs on a bare
// grpc-go server of the same service.
func TestACallAllocatesNoMoreThanOnBareGrpc(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts")
	}
	prev := log.Default()
	t.Cleanup(func() { log.SetDefault(prev) })
	h := newHarness(t)
	h.srv.SetLogger(log.New(io.Discard)) // the access line is written
	bare := bareConn(t)
	for _, c := range []struct {
		name      string
		kit, bare func() error
	}{{"unary", unaryCall(h.conn), unaryCall(bare)}, {"stream", chatCall(h.conn), chatCall(bare)}} {
		// The least of three measures: a stray allocation of the runtime is not the server's.
		k, b := mallocsPerCall(t, c.kit), mallocsPerCall(t, c.bare)
		for range 2 {
			k, b = min(k, mallocsPerCall(t, c.kit)), min(b, mallocsPerCall(t, c.bare))
		}
		if k-b >= 0.5 {
			t.Errorf("%s: %.2f allocations per call on kit's server, %.2f on bare grpc-go", c.name, k, b)
		}
	}
}

// A request that does not decode is answered as grpc-go answers it (Internal), before
// kit's interceptors would run when they were grpc-go interceptors: no access line.
func TestAnUndecodableRequestIsAnsweredWithoutAnAccessLine(t *testing.T) {
	logs := captureLogs(t)
	h := newHarness(t)
	// Bytes that are not UTF-8 do not decode as the method's StringValue.
	err := h.conn.Invoke(context.Background(), "/"+echoService+"/Call", wrapperspb.Bytes([]byte{0xff, 0xfe}), new(wrapperspb.StringValue))
	if status.Code(err) != codes.Internal || !strings.Contains(err.Error(), "unmarshal") {
		t.Fatalf("undecodable request: %v", err)
	}
	if _, err := h.call(context.Background(), "ok:x"); err != nil {
		t.Fatal(err)
	}
	if lines := logs.withMsg(t, "grpc request"); len(lines) != 1 || lines[0]["code"] != "OK" {
		t.Fatalf("access lines %v", lines)
	}
}

// Interceptors given to grpc-go through WithServerOptions run after the Use'd ones, inside
// kit's recovery and access log.
func TestServerOptionInterceptorsRunAfterUsedOnes(t *testing.T) {
	logs := captureLogs(t)
	var order []string
	srv := rpc.NewServer(rpc.WithServerOptions(grpc.ChainUnaryInterceptor(
		func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
			order = append(order, "option "+info.FullMethod)
			if strings.Contains(req.(interface{ GetValue() string }).GetValue(), "explode") {
				panic("option interceptor exploded")
			}
			return next(ctx, req)
		})))
	srv.RegisterService(&echoDesc, struct{}{})
	srv.Use(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		order = append(order, "used")
		return next(ctx, req)
	})
	h := newHarnessOn(t, srv)
	if out, err := h.call(context.Background(), "ok:x"); err != nil || out != "x" {
		t.Fatalf("call: %q, %v", out, err)
	}
	if _, err := h.call(context.Background(), "ok:explode"); status.Code(err) != codes.Internal {
		t.Fatalf("a panicking option interceptor: %v", err)
	}
	want := "used,option /kit.test.Echo/Call,used,option /kit.test.Echo/Call"
	if got := strings.Join(order, ","); got != want {
		t.Fatalf("order %s, want %s", got, want)
	}
	if lines := logs.withMsg(t, "grpc request"); len(lines) != 2 || lines[1]["code"] != "Internal" {
		t.Fatalf("access lines %v", lines)
	}
}
