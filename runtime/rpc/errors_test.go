package rpc_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kitdev/kit/runtime/rpc"
	"github.com/kitdev/kit/runtime/telemetry"
)

// Every row of the spec's HTTP status -> gRPC code table, over the wire.
var httpRows = []struct {
	statuses []int
	code     codes.Code
}{
	{[]int{400, 406, 411, 415, 422}, codes.InvalidArgument},
	{[]int{401}, codes.Unauthenticated},
	{[]int{402, 412, 423}, codes.FailedPrecondition},
	{[]int{403}, codes.PermissionDenied},
	{[]int{404, 410}, codes.NotFound},
	{[]int{405, 501}, codes.Unimplemented},
	{[]int{408, 504}, codes.DeadlineExceeded},
	{[]int{409}, codes.AlreadyExists},
	{[]int{413, 429}, codes.ResourceExhausted},
	{[]int{500}, codes.Internal},
	{[]int{502, 503}, codes.Unavailable},
	{[]int{418, 451, 505, 599, 200}, codes.Unknown}, // any other
}

func TestTypedErrorsMapEveryRowWithErrorInfo(t *testing.T) {
	logs := captureLogs(t)
	h := newHarness(t)
	for _, row := range httpRows {
		for _, st := range row.statuses {
			t.Run(strconv.Itoa(st), func(t *testing.T) {
				_, err := h.call(context.Background(), "http:"+strconv.Itoa(st))
				s := status.Convert(err)
				if s.Code() != row.code {
					t.Fatalf("HTTP %d: code %v, want %v", st, s.Code(), row.code)
				}
				// the logic wrapped the typed error ("context: %w"): the caller gets the
				// typed error's own message, never the wrapper's internal context
				if want := "typed " + strconv.Itoa(st); s.Message() != want {
					t.Fatalf("message %q, want %q", s.Message(), want)
				}
				info := errorInfo(t, s)
				if info.GetReason() != "CODE_"+strconv.Itoa(st) || info.GetDomain() != "kit.test.Echo" {
					t.Fatalf("ErrorInfo reason %q domain %q", info.GetReason(), info.GetDomain())
				}
			})
		}
	}
	if got := logs.withMsg(t, "unhandled service error"); len(got) != 0 {
		t.Fatalf("typed errors were logged: %v", got)
	}
}

func errorInfo(t *testing.T, s *status.Status) *errdetails.ErrorInfo {
	t.Helper()
	for _, d := range s.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info
		}
	}
	t.Fatalf("no ErrorInfo detail in %v", s.Details())
	return nil
}

func TestCodeForHTTPStatusCoversTheTable(t *testing.T) {
	for _, row := range httpRows {
		for _, st := range row.statuses {
			if got := rpc.CodeForHTTPStatus(st); got != row.code {
				t.Errorf("CodeForHTTPStatus(%d) = %v, want %v", st, got, row.code)
			}
		}
	}
}

func TestErrorRulesOverTheWire(t *testing.T) {
	logs := captureLogs(t)
	tel, err := telemetry.Init(context.Background(), telemetry.Config{
		ServiceName: "rpc-test",
		Otel:        telemetry.OtelConfig{Enabled: true, Exporter: "none"},
	}, telemetry.WithoutGlobals())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tel.Shutdown(context.Background()) }()
	h := newHarness(t, rpc.WithStatsHandler(tel.GRPCServerHandler()))
	cases := []struct {
		text, msg string
		code      codes.Code
	}{
		{"status:5", "status 5", codes.NotFound},                                        // a status error passes unchanged
		{"status:9", "status 9", codes.FailedPrecondition},                              // any code
		{"wrapped", "wrapped: rpc error: code = NotFound desc = inner", codes.NotFound}, // a wrapping error keeps the code
		{"canceled", "op: context canceled", codes.Canceled},                            // context errors
		{"deadline", "op: context deadline exceeded", codes.DeadlineExceeded},
		{"unknown", rpc.MsgInternal, codes.Internal},                     // opaque
		{"panic", rpc.MsgInternal, codes.Internal},                       // recovered, opaque
		{"invalid", "value: must not be invalid", codes.InvalidArgument}, // Validate() failure
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			_, err := h.call(context.Background(), c.text)
			s := status.Convert(err)
			if s.Code() != c.code || s.Message() != c.msg {
				t.Fatalf("%s: got %v %q, want %v %q", c.text, s.Code(), s.Message(), c.code, c.msg)
			}
		})
	}
	unhandled := logs.withMsg(t, "unhandled service error")
	if len(unhandled) != 1 || unhandled[0]["error"] != "boom secret detail" || unhandled[0]["trace_id"] == nil {
		t.Fatalf("unknown error log lines: %v", unhandled)
	}
	panics := logs.withMsg(t, "panic recovered")
	if len(panics) != 1 || panics[0]["panic"] != "handler exploded" || panics[0]["trace_id"] == nil ||
		!strings.Contains(panics[0]["stack"].(string), "behave") {
		t.Fatalf("panic log lines: %v", panics)
	}
}

func TestStatusDetailsPassUnchanged(t *testing.T) {
	st, _ := status.New(codes.Aborted, "conflict").WithDetails(&errdetails.ErrorInfo{Reason: "MINE"})
	err := rpc.Error(context.Background(), st.Err())
	if !errors.Is(err, st.Err()) && status.Convert(err).Proto().String() != st.Proto().String() {
		t.Fatalf("status changed: %v", err)
	}
	if got := errorInfo(t, status.Convert(err)).GetReason(); got != "MINE" {
		t.Fatalf("detail reason %q", got)
	}
	if rpc.Error(context.Background(), nil) != nil {
		t.Fatal("Error(nil) is not nil")
	}
}

func TestSetHandleUnknownErrorIsProcessWide(t *testing.T) {
	logs := captureLogs(t)
	rpc.SetHandleUnknownError(func(_ context.Context, err error) error {
		return status.Error(codes.Unavailable, "custom: "+err.Error())
	})
	defer rpc.SetHandleUnknownError(nil)
	h := newHarness(t)
	_, err := h.call(context.Background(), "unknown")
	if s := status.Convert(err); s.Code() != codes.Unavailable || s.Message() != "custom: boom secret detail" {
		t.Fatalf("got %v", s)
	}
	if len(logs.withMsg(t, "unhandled service error")) != 0 {
		t.Fatal("the default handler ran")
	}
	rpc.SetHandleUnknownError(nil)
	_, err = h.call(context.Background(), "unknown")
	if status.Code(err) != codes.Internal {
		t.Fatalf("default not restored: %v", err)
	}
}
