package rpc_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/rpc"
)

func TestHealthServingAtBootThenNotServingWhileStopDrains(t *testing.T) {
	h := newHarness(t)
	health := healthpb.NewHealthClient(h.conn)
	for _, svc := range []string{"", echoService} {
		resp, err := health.Check(context.Background(), &healthpb.HealthCheckRequest{Service: svc})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Fatalf("Check(%q) = %v, %v; want SERVING", svc, resp, err)
		}
	}
	watchCtx, cancelWatch := context.WithCancel(context.Background())
	defer cancelWatch()
	watch, err := health.Watch(watchCtx, &healthpb.HealthCheckRequest{Service: echoService})
	if err != nil {
		t.Fatal(err)
	}
	if first, err := watch.Recv(); err != nil || first.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("first watch status %v, %v", first, err)
	}

	inflight := make(chan error, 1)
	go func() {
		out, err := h.call(context.Background(), "sleep:300ms")
		if err == nil && out != "late" {
			err = errors.New("got " + out)
		}
		inflight <- err
	}()
	time.Sleep(50 * time.Millisecond) // the call is in flight
	stopped := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		stopped <- h.srv.Stop(ctx)
	}()
	next, err := watch.Recv()
	if err != nil || next.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("watch after Stop began: %v, %v; want NOT_SERVING", next, err)
	}
	cancelWatch() // the watch is an in-flight call too: end it so the drain can finish
	if err := <-inflight; err != nil {
		t.Fatalf("in-flight call was not drained: %v", err)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := <-h.done; err != nil {
		t.Fatalf("Serve returned %v after Stop", err)
	}
}

// A health watch is never ended by its client (grpc-go's client-side health
// checking and Envoy keep one open per connection): Stop must end it once it
// has sent NOT_SERVING instead of waiting for it until the budget runs out.
func TestStopEndsOpenHealthWatchesWellWithinTheBudget(t *testing.T) {
	h := newHarness(t)
	health := healthpb.NewHealthClient(h.conn)
	type watchEnd struct {
		statuses []healthpb.HealthCheckResponse_ServingStatus
		err      error
	}
	ends := make(map[string]chan watchEnd)
	for _, svc := range []string{"", echoService, "not.Registered"} {
		watch, err := health.Watch(context.Background(), &healthpb.HealthCheckRequest{Service: svc})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := watch.Recv(); err != nil {
			t.Fatalf("Watch(%q): first status: %v", svc, err)
		}
		end := make(chan watchEnd, 1)
		ends[svc] = end
		go func() {
			var got watchEnd
			for {
				resp, err := watch.Recv()
				if err != nil {
					got.err = err
					end <- got
					return
				}
				got.statuses = append(got.statuses, resp.GetStatus())
			}
		}()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if err := h.srv.Stop(ctx); err != nil {
		t.Fatalf("Stop = %v, want nil: the open watches held the drain", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Stop took %v with open health watches", d)
	}
	for svc, end := range ends {
		got := <-end
		if svc != "not.Registered" && (len(got.statuses) != 1 || got.statuses[0] != healthpb.HealthCheckResponse_NOT_SERVING) {
			t.Errorf("Watch(%q) saw %v after Stop began, want [NOT_SERVING]", svc, got.statuses)
		}
		if code := status.Code(got.err); code != codes.Unavailable {
			t.Errorf("Watch(%q) ended with %v, want Unavailable", svc, got.err)
		}
	}
	if err := <-h.done; err != nil {
		t.Fatalf("Serve returned %v after Stop", err)
	}
}

func TestStopCutsOffCallsPastTheBudget(t *testing.T) {
	h := newHarness(t)
	inflight := make(chan error, 1)
	go func() {
		_, err := h.call(context.Background(), "block")
		inflight <- err
	}()
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := h.srv.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Stop = %v, want the budget's deadline error", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("Stop took %v", d)
	}
	select {
	case err := <-inflight:
		if code := status.Code(err); code != codes.Unavailable && code != codes.Canceled {
			t.Fatalf("cut-off call ended with %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the blocked call was not cut off")
	}
}

func TestStopWithoutServeIsANoOp(t *testing.T) {
	srv := rpc.NewServer()
	if err := srv.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if srv.Addr() != "" {
		t.Fatal("address without Listen")
	}
}

func TestHandlerTimeoutDropsLateResponses(t *testing.T) {
	h := newHarness(t, rpc.WithHandlerTimeout(100*time.Millisecond))
	start := time.Now()
	_, err := h.call(context.Background(), "sleep:300ms")
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("late response: %v, want DeadlineExceeded", err)
	}
	if time.Since(start) < 250*time.Millisecond {
		t.Fatal("the server answered before the handler returned")
	}
	// The handler's context carries the deadline; a shorter client deadline wins.
	left, err := h.call(context.Background(), "deadline?")
	if err != nil || mustDuration(t, left) > 100*time.Millisecond {
		t.Fatalf("handler deadline %s, %v", left, err)
	}
	h2 := newHarness(t, rpc.WithHandlerTimeout(10*time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	left, err = h2.call(ctx, "deadline?")
	if err != nil || mustDuration(t, left) > time.Second {
		t.Fatalf("client deadline did not win: %s, %v", left, err)
	}
	// Without a timeout a call has no deadline of its own.
	h3 := newHarness(t)
	if left, _ := h3.call(context.Background(), "deadline?"); left != "none" {
		t.Fatalf("deadline without a timeout: %s", left)
	}
}

func mustDuration(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatalf("not a duration: %q", s)
	}
	return d
}

func TestStreamsAreNotBoundedAndValidateEachMessage(t *testing.T) {
	h := newHarness(t, rpc.WithHandlerTimeout(50*time.Millisecond))
	stream, err := h.conn.NewStream(context.Background(), &echoDesc.Streams[0], "/"+echoService+"/Chat")
	if err != nil {
		t.Fatal(err)
	}
	send := func(text string) (string, error) {
		if err := stream.SendMsg(wrapperspb.String(text)); err != nil {
			return "", err
		}
		out := new(wrapperspb.StringValue)
		err := stream.RecvMsg(out)
		return out.GetValue(), err
	}
	if out, err := send("sleep:120ms"); err != nil || out != "late" {
		t.Fatalf("a stream was bounded by the unary timeout: %q %v", out, err)
	}
	if out, err := send("deadline?"); err != nil || out != "none" {
		t.Fatalf("stream deadline %q %v", out, err)
	}
	if _, err := send("invalid"); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("invalid stream message: %v", err)
	}
}

func TestStreamPanicIsRecovered(t *testing.T) {
	logs := captureLogs(t)
	h := newHarness(t)
	stream, err := h.conn.NewStream(context.Background(), &echoDesc.Streams[0], "/"+echoService+"/Chat")
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.SendMsg(wrapperspb.String("panic"))
	err = stream.RecvMsg(new(wrapperspb.StringValue))
	if s := status.Convert(err); s.Code() != codes.Internal || s.Message() != rpc.MsgInternal {
		t.Fatalf("stream panic: %v", err)
	}
	if len(logs.withMsg(t, "panic recovered")) != 1 {
		t.Fatal("stream panic not logged")
	}
	access := logs.withMsg(t, "grpc request")
	if len(access) != 1 || access[0]["code"] != "Internal" || access[0]["level"] != "ERROR" {
		t.Fatalf("access log of a panicking stream: %v", access)
	}
}

// countingStats counts the calls a stats handler sees.
type countingStats struct{ rpcs atomic.Int64 }

func (c *countingStats) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context {
	c.rpcs.Add(1)
	return ctx
}
func (c *countingStats) HandleRPC(context.Context, stats.RPCStats) {}
func (c *countingStats) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context {
	return ctx
}
func (c *countingStats) HandleConn(context.Context, stats.ConnStats) {}

func TestHealthAndReflectionBypassInterceptorsAndStats(t *testing.T) {
	logs := captureLogs(t)
	st := &countingStats{}
	h := newHarness(t, rpc.WithStatsHandler(st), rpc.WithReflection(true))
	var seen []string
	h.srv.Use(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		seen = append(seen, info.FullMethod)
		return next(ctx, req)
	})
	var streams atomic.Int64
	h.srv.UseStream(func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		streams.Add(1)
		return next(srv, ss)
	})
	if _, err := healthpb.NewHealthClient(h.conn).Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	services := listServices(t, h.conn)
	for _, want := range []string{echoService, "grpc.health.v1.Health"} {
		if !strings.Contains(strings.Join(services, " "), want) {
			t.Fatalf("reflection lists %v, missing %s", services, want)
		}
	}
	if len(seen) != 0 || streams.Load() != 0 || st.rpcs.Load() != 0 {
		t.Fatalf("system calls went through interceptors %v / %d streams / %d stats", seen, streams.Load(), st.rpcs.Load())
	}
	if len(logs.withMsg(t, "grpc request")) != 0 {
		t.Fatal("system calls were access-logged")
	}
	if _, err := h.call(context.Background(), "ok:x"); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || st.rpcs.Load() != 1 || len(logs.withMsg(t, "grpc request")) != 1 {
		t.Fatalf("a user call: interceptors %v, stats %d", seen, st.rpcs.Load())
	}
}

func listServices(t *testing.T, conn *grpc.ClientConn) []string {
	t.Helper()
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	req := &reflectionpb.ServerReflectionRequest{
		MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{ListServices: ""},
	}
	if err := stream.Send(req); err != nil {
		t.Fatal(err)
	}
	resp, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.CloseSend()
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	return names
}

func TestReflectionIsOffByDefault(t *testing.T) {
	h := newHarness(t)
	stream, err := reflectionpb.NewServerReflectionClient(h.conn).ServerReflectionInfo(context.Background())
	if err == nil {
		_, err = stream.Recv()
	}
	if status.Code(err) != codes.Unimplemented {
		t.Fatalf("reflection without WithReflection: %v", err)
	}
}

func TestInterceptorOrder(t *testing.T) {
	logs := captureLogs(t)
	h := newHarness(t, rpc.WithHandlerTimeout(time.Second))
	var order []string
	mk := func(name string) grpc.UnaryServerInterceptor {
		return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
			if _, ok := ctx.Deadline(); !ok {
				t.Errorf("%s runs outside the unary timeout", name)
			}
			order = append(order, name)
			return next(ctx, req)
		}
	}
	h.srv.Use(mk("first"), nil, mk("second"))
	h.srv.Use(mk("third"))
	h.srv.Use(func(context.Context, any, *grpc.UnaryServerInfo, grpc.UnaryHandler) (any, error) {
		panic("interceptor exploded") // recovery is outermost: it catches interceptors too
	})
	_, err := h.call(context.Background(), "ok:x")
	if status.Code(err) != codes.Internal || strings.Join(order, ",") != "first,second,third" {
		t.Fatalf("order %v, err %v", order, err)
	}
	access := logs.withMsg(t, "grpc request")
	if len(access) != 1 || access[0]["code"] != "Internal" || access[0]["method"] != "/kit.test.Echo/Call" {
		t.Fatalf("access log %v", access)
	}
}

func TestAccessLogLine(t *testing.T) {
	logs := captureLogs(t)
	h := newHarness(t)
	if _, err := h.call(context.Background(), "ok:x"); err != nil {
		t.Fatal(err)
	}
	_, _ = h.call(context.Background(), "http:404")
	lines := logs.withMsg(t, "grpc request")
	if len(lines) != 2 {
		t.Fatalf("access lines %v", lines)
	}
	ok, nf := lines[0], lines[1]
	if ok["code"] != "OK" || ok["level"] != "INFO" || ok["peer"] == nil || ok["duration_ms"] == nil {
		t.Fatalf("ok line %v", ok)
	}
	if nf["code"] != "NotFound" || nf["level"] != "INFO" {
		t.Fatalf("not-found line %v", nf)
	}
}

func TestSetLoggerInstallsTheDefault(t *testing.T) {
	prev := log.Default()
	defer log.SetDefault(prev)
	buf := &logBuffer{}
	l := log.New(buf)
	srv := rpc.NewServer()
	srv.SetLogger(l)
	if srv.Logger() != l || log.Default() != l {
		t.Fatal("SetLogger did not install the logger")
	}
	srv.SetLogger(nil)
	if srv.Logger() != l {
		t.Fatal("nil replaced the logger")
	}
}

func TestLoopbackStartServesAndStops(t *testing.T) {
	srv := rpc.NewServer()
	srv.RegisterService(&echoDesc, struct{}{})
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	conn, err := rpc.Dial(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	out := new(wrapperspb.StringValue)
	if err := conn.Invoke(context.Background(), "/kit.test.Echo/Call", wrapperspb.String("ok:tcp"), out); err != nil || out.GetValue() != "tcp" {
		t.Fatalf("loopback call: %q %v", out.GetValue(), err)
	}
	_, err = healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{Service: "nope"})
	if status.Code(err) != codes.NotFound {
		t.Fatalf("unknown service health: %v", err)
	}
	if err := srv.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(ln); err != nil {
		t.Fatalf("Serve after Stop: %v", err)
	}
}

func TestUnknownMethodIsUnimplemented(t *testing.T) {
	h := newHarness(t)
	err := h.conn.Invoke(context.Background(), "/kit.test.Echo/Missing", wrapperspb.String(""), new(wrapperspb.StringValue))
	if status.Code(err) != codes.Unimplemented {
		t.Fatalf("unknown method: %v", err)
	}
	s, err := h.conn.NewStream(context.Background(), &grpc.StreamDesc{ServerStreams: true}, "/kit.test.Nope/X")
	if err == nil {
		_ = s.SendMsg(wrapperspb.String(""))
		_ = s.CloseSend()
		err = s.RecvMsg(new(wrapperspb.StringValue))
	}
	if errors.Is(err, io.EOF) || status.Code(err) != codes.Unimplemented {
		t.Fatalf("unknown service: %v", err)
	}
}

// The hand-appended access line (loggers built by log.New) and the slog one (any other
// logger) carry the same keys in the same order.
func TestAccessLineFastPathMatchesSlog(t *testing.T) {
	keys := func(l log.Logger, buf *logBuffer) []string {
		srv := rpc.NewServer()
		srv.SetLogger(l)
		srv.RegisterService(&echoDesc, struct{}{})
		lis := newHarnessOn(t, srv)
		if _, err := lis.call(context.Background(), "http:404"); status.Code(err) != codes.NotFound {
			t.Fatal(err)
		}
		line := buf.withMsg(t, "grpc request")[0]
		var out []string
		for _, k := range []string{"time", "level", "msg", "method", "code", "duration_ms", "peer"} {
			if _, ok := line[k]; ok {
				out = append(out, k+"="+fmt.Sprint(line[k] != nil))
			}
		}
		return append(out, fmt.Sprint(line["code"], line["level"], line["method"]))
	}
	prev := log.Default()
	defer log.SetDefault(prev)
	fast, slow := &logBuffer{}, &logBuffer{}
	a := keys(log.New(fast), fast)
	b := keys(log.FromSlogHandler(slog.NewJSONHandler(slow, nil)), slow)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("fast path %v, slog path %v", a, b)
	}
	rawFast := strings.SplitN(fast.buf.String(), `"method"`, 2)[1]
	rawSlow := strings.SplitN(slow.buf.String(), `"method"`, 2)[1]
	cut := func(s string) string { return strings.SplitN(s, `"duration_ms"`, 2)[0] }
	if cut(rawFast) != cut(rawSlow) {
		t.Fatalf("bytes differ:\n%s\n%s", rawFast, rawSlow)
	}
}

// accessLogPanics is a logger whose "grpc request" line panics: a panic
// inside the access-log interceptor. Other lines go to the wrapped logger.
type accessLogPanics struct{ log.Logger }

func (l accessLogPanics) Info(msg string, args ...any) {
	if msg == "grpc request" {
		panic("access log exploded")
	}
	l.Logger.Info(msg, args...)
}

func (l accessLogPanics) With(args ...any) log.Logger { return accessLogPanics{l.Logger.With(args...)} }

// Recovery is outermost (spec, gRPC endpoints: "recovery outermost; access
// log; unary timeout"): a panic inside the access log itself, on a unary call
// and on a stream, answers Internal and the server goes on serving.
func TestAPanicInsideTheAccessLogIsRecovered(t *testing.T) {
	logs := captureLogs(t)
	h := newHarness(t, rpc.WithHandlerTimeout(time.Second))
	plain := log.Default()
	h.srv.SetLogger(accessLogPanics{plain})
	if _, err := h.call(context.Background(), "ok:x"); status.Code(err) != codes.Internal {
		t.Fatalf("unary call whose access line panicked: %v", err)
	}
	stream, err := h.conn.NewStream(context.Background(), &echoDesc.Streams[0], "/"+echoService+"/Chat")
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.CloseSend()
	if err := stream.RecvMsg(new(wrapperspb.StringValue)); status.Code(err) != codes.Internal {
		t.Fatalf("stream whose access line panicked: %v", err)
	}
	if n := len(logs.withMsg(t, "panic recovered")); n != 2 {
		t.Fatalf("%d panic lines, want 2", n)
	}
	h.srv.SetLogger(plain)
	if out, err := h.call(context.Background(), "ok:alive"); err != nil || out != "alive" {
		t.Fatalf("the server stopped serving: %q %v", out, err)
	}
}

// A stream interceptor added with UseStream runs inside recovery too.
func TestAPanicInsideAStreamInterceptorIsRecovered(t *testing.T) {
	logs := captureLogs(t)
	h := newHarness(t)
	h.srv.UseStream(func(any, grpc.ServerStream, *grpc.StreamServerInfo, grpc.StreamHandler) error {
		panic("stream interceptor exploded")
	})
	stream, err := h.conn.NewStream(context.Background(), &echoDesc.Streams[0], "/"+echoService+"/Chat")
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.CloseSend()
	if err := stream.RecvMsg(new(wrapperspb.StringValue)); status.Code(err) != codes.Internal {
		t.Fatalf("stream whose interceptor panicked: %v", err)
	}
	if n := len(logs.withMsg(t, "panic recovered")); n != 1 {
		t.Fatalf("%d panic lines, want 1", n)
	}
	if out, err := h.call(context.Background(), "ok:alive"); err != nil || out != "alive" {
		t.Fatalf("the server stopped serving: %q %v", out, err)
	}
}

// The access-log level follows the cause of the code: server faults are
// ERROR, outcomes worth a look WARN, client-caused and designed ones INFO.
func TestAccessLogLevelByCause(t *testing.T) {
	logs := captureLogs(t)
	h := newHarness(t)
	want := map[codes.Code]string{
		codes.Canceled: "INFO", codes.Unknown: "WARN", codes.InvalidArgument: "INFO",
		codes.DeadlineExceeded: "WARN", codes.NotFound: "INFO", codes.AlreadyExists: "INFO",
		codes.PermissionDenied: "INFO", codes.ResourceExhausted: "INFO", codes.FailedPrecondition: "INFO",
		codes.Aborted: "INFO", codes.OutOfRange: "INFO", codes.Unimplemented: "INFO",
		codes.Internal: "ERROR", codes.Unavailable: "WARN", codes.DataLoss: "ERROR",
		codes.Unauthenticated: "INFO",
	}
	for c := codes.Canceled; c <= codes.Unauthenticated; c++ {
		if _, err := h.call(context.Background(), "status:"+strconv.Itoa(int(c))); status.Code(err) != c {
			t.Fatalf("status:%d answered %v", c, err)
		}
	}
	_, _ = h.call(context.Background(), "panic")
	_, _ = h.call(context.Background(), "unknown")
	lines := logs.withMsg(t, "grpc request")
	if len(lines) != len(want)+2 {
		t.Fatalf("%d access lines, want %d", len(lines), len(want)+2)
	}
	for i, c := 0, codes.Canceled; c <= codes.Unauthenticated; i, c = i+1, c+1 {
		if l := lines[i]; l["code"] != c.String() || l["level"] != want[c] {
			t.Errorf("%v: logged %v at %v, want %v", c, l["code"], l["level"], want[c])
		}
	}
	for _, l := range lines[len(want):] { // a panic, an unhandled error: both Internal
		if l["code"] != "Internal" || l["level"] != "ERROR" {
			t.Errorf("server fault logged %v at %v", l["code"], l["level"])
		}
	}
}

// A fresh HTTP stub's error reaching a gRPC call answers Unimplemented with
// the words a fresh gRPC stub uses.
func TestNotImplementedIsUnimplemented(t *testing.T) {
	captureLogs(t)
	h := newHarness(t)
	_, err := h.call(context.Background(), "notimpl")
	if s := status.Convert(err); s.Code() != codes.Unimplemented || s.Message() != "Call is not implemented yet" {
		t.Fatalf("got %v %q", s.Code(), s.Message())
	}
}
