package rpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/rpc"
	"github.com/kitdev/kit/runtime/server"
)

// The test service "kit.test.Echo" is written by hand (no generated code):
// its messages are well-known wrapper types and its handlers behave as the
// request text says, returning rpc.Error(ctx, err) like generated code.
const echoService = "kit.test.Echo"

// checked is a request message with its own Validate method (as a
// protoc-gen-validate message has): the text "invalid" fails.
type checked struct{ *wrapperspb.StringValue }

func (c checked) Validate() error {
	if c.GetValue() == "invalid" {
		return errors.New("value: must not be invalid")
	}
	return nil
}

// typedErr stands for a DSL-declared error.
type typedErr struct{ status int }

func (e typedErr) Error() string   { return "typed " + strconv.Itoa(e.status) }
func (e typedErr) HTTPStatus() int { return e.status }
func (e typedErr) ErrCode() string { return "CODE_" + strconv.Itoa(e.status) }

// TestMain keeps the access log of tests that do not capture it quiet.
func TestMain(m *testing.M) {
	log.SetDefault(log.Discard())
	os.Exit(m.Run())
}

// release unblocks "block" calls.
var release = make(chan struct{})

// behave answers a request text: "ok:x", "panic", "status:<code>",
// "http:<status>", "notimpl" (a fresh stub's error), "canceled", "deadline", "unknown", "sleep:<dur>" (ignores
// the context), "block" (until release or the context ends), "deadline?"
// (the time left before the call's deadline, or "none").
func behave(ctx context.Context, text string) (string, error) {
	verb, arg, _ := strings.Cut(text, ":")
	switch verb {
	case "ok":
		return arg, nil
	case "panic":
		panic("handler exploded")
	case "status":
		n, _ := strconv.Atoi(arg)
		return "", status.Error(codes.Code(n), "status "+arg)
	case "wrapped":
		return "", fmt.Errorf("wrapped: %w", status.Error(codes.NotFound, "inner"))
	case "http":
		n, _ := strconv.Atoi(arg)
		return "", fmt.Errorf("context: %w", typedErr{n})
	case "notimpl":
		return "", server.NotImplemented("Call")
	case "canceled":
		return "", fmt.Errorf("op: %w", context.Canceled)
	case "deadline":
		return "", fmt.Errorf("op: %w", context.DeadlineExceeded)
	case "unknown":
		return "", errors.New("boom secret detail")
	case "sleep":
		d, _ := time.ParseDuration(arg)
		time.Sleep(d)
		return "late", nil
	case "block":
		select {
		case <-release:
			return "released", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	case "deadline?":
		dl, ok := ctx.Deadline()
		if !ok {
			return "none", nil
		}
		return time.Until(dl).String(), nil
	}
	return "", errors.New("unknown verb " + verb)
}

func unaryHandler(method string) grpc.MethodHandler {
	call := func(ctx context.Context, req *checked) (*wrapperspb.StringValue, error) {
		if err := rpc.Validate(req); err != nil {
			return nil, err
		}
		out, err := behave(ctx, req.GetValue())
		if err != nil {
			return nil, rpc.Error(ctx, err)
		}
		return wrapperspb.String(out), nil
	}
	return func(srv any, ctx context.Context, dec func(any) error, ic grpc.UnaryServerInterceptor) (any, error) {
		in := checked{new(wrapperspb.StringValue)}
		if err := dec(in); err != nil {
			return nil, err
		}
		if ic == nil {
			return call(ctx, &in)
		}
		info := &grpc.UnaryServerInfo{Server: srv, FullMethod: "/" + echoService + "/" + method}
		return ic(ctx, &in, info, func(ctx context.Context, req any) (any, error) { return call(ctx, req.(*checked)) })
	}
}

// chatHandler is a bidirectional stream echoing each message through behave;
// received messages are validated with rpc.ValidateBidiStream.
func chatHandler(_ any, ss grpc.ServerStream) error {
	stream := rpc.ValidateBidiStream[checked, wrapperspb.StringValue](&bidi{ss})
	ctx := stream.Context()
	for {
		in, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		out, err := behave(ctx, in.GetValue())
		if err != nil {
			return rpc.Error(ctx, err)
		}
		if err := stream.Send(wrapperspb.String(out)); err != nil {
			return err
		}
	}
}

// bidi adapts a raw stream to grpc.BidiStreamingServer[checked, StringValue].
type bidi struct{ grpc.ServerStream }

func (b *bidi) Recv() (*checked, error) {
	in := &checked{new(wrapperspb.StringValue)}
	if err := b.RecvMsg(in); err != nil {
		return nil, err
	}
	return in, nil
}

func (b *bidi) Send(m *wrapperspb.StringValue) error { return b.SendMsg(m) }

var echoDesc = grpc.ServiceDesc{
	ServiceName: echoService,
	HandlerType: (*any)(nil),
	Methods:     []grpc.MethodDesc{{MethodName: "Call", Handler: unaryHandler("Call")}},
	Streams: []grpc.StreamDesc{
		{StreamName: "Chat", Handler: chatHandler, ServerStreams: true, ClientStreams: true},
	},
}

// harness is a server on an in-memory listener (bufconn) with a client.
type harness struct {
	srv  *rpc.Server
	conn *grpc.ClientConn
	done chan error
}

func newHarness(t *testing.T, opts ...rpc.Option) *harness {
	t.Helper()
	srv := rpc.NewServer(opts...)
	srv.RegisterService(&echoDesc, struct{}{})
	return newHarnessOn(t, srv)
}

// newHarnessOn serves srv (its services registered) over bufconn.
func newHarnessOn(t *testing.T, srv *rpc.Server) *harness {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	h := &harness{srv: srv, done: make(chan error, 1)}
	go func() { h.done <- srv.Serve(lis) }()
	conn, err := rpc.Dial("passthrough:///bufnet", rpc.WithDialOptions(
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
	))
	if err != nil {
		t.Fatal(err)
	}
	h.conn = conn
	t.Cleanup(func() {
		_ = conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Stop(ctx)
	})
	return h
}

func (h *harness) call(ctx context.Context, text string) (string, error) {
	out := new(wrapperspb.StringValue)
	err := h.conn.Invoke(ctx, "/"+echoService+"/Call", wrapperspb.String(text), out)
	return out.GetValue(), err
}

// logBuffer captures JSON log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// withMsg returns the lines whose msg is msg.
func (b *logBuffer) withMsg(t *testing.T, msg string) []map[string]any {
	var out []map[string]any
	for _, l := range b.lines(t) {
		if l["msg"] == msg {
			out = append(out, l)
		}
	}
	return out
}

// captureLogs installs a capturing process default logger for the test.
func captureLogs(t *testing.T) *logBuffer {
	t.Helper()
	buf := &logBuffer{}
	prev := log.Default()
	log.SetDefault(log.New(buf))
	t.Cleanup(func() { log.SetDefault(prev) })
	return buf
}
