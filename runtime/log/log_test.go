package log_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/log"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) records(t *testing.T) []map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, ln := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		if ln == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(ln), &m); err != nil {
			t.Fatalf("not JSON: %q", ln)
		}
		out = append(out, m)
	}
	return out
}

func swapDefault(t *testing.T, l log.Logger) {
	t.Helper()
	prev := log.Default()
	log.SetDefault(l)
	t.Cleanup(func() { log.SetDefault(prev) })
}

func TestLevels(t *testing.T) {
	defer log.SetLevel(log.LevelInfo)
	if log.GetLevel() != log.LevelInfo {
		t.Fatalf("default level %v", log.GetLevel())
	}
	tests := []struct {
		level log.Level
		want  string
	}{
		{log.LevelDebug, "[debug info warn error]"},
		{log.LevelInfo, "[info warn error]"},
		{log.LevelWarn, "[warn error]"},
		{log.LevelError, "[error]"},
	}
	for _, tt := range tests {
		buf := &syncBuffer{}
		l := log.New(buf)
		log.SetLevel(tt.level)
		l.Debug("debug")
		l.Info("info")
		l.Warn("warn")
		l.Error("error")
		var got []string
		for _, r := range buf.records(t) {
			got = append(got, r["msg"].(string))
		}
		if fmt.Sprint(got) != tt.want {
			t.Errorf("level %v: %v, want %s", tt.level, got, tt.want)
		}
	}
}

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in   string
		want log.Level
		ok   bool
	}{
		{"debug", log.LevelDebug, true}, {"INFO", log.LevelInfo, true}, {"warn", log.LevelWarn, true},
		{"error", log.LevelError, true}, {"verbose", log.LevelInfo, false},
	}
	for _, tt := range tests {
		if got, ok := log.ParseLevel(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("%q: %v %v", tt.in, got, ok)
		}
	}
}

func TestWithAndKeyValues(t *testing.T) {
	buf := &syncBuffer{}
	log.New(buf).With("component", "db").Info("query", "rows", 3)
	r := buf.records(t)
	if len(r) != 1 || r[0]["component"] != "db" || r[0]["rows"] != float64(3) || r[0]["level"] != "INFO" {
		t.Fatalf("%v", r)
	}
}

func TestFromContext(t *testing.T) {
	buf := &syncBuffer{}
	swapDefault(t, log.New(buf))
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	withSpan := trace.ContextWithSpanContext(context.Background(),
		trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid}))
	tests := []struct {
		name string
		ctx  context.Context
		want map[string]any
	}{
		{"plain", context.Background(), map[string]any{"trace_id": nil, "span_id": nil, "request_id": nil}},
		{"span", withSpan, map[string]any{"trace_id": tid.String(), "span_id": sid.String(), "request_id": nil}},
		{"span and request id", log.ContextWithRequestID(withSpan, "r-1"),
			map[string]any{"trace_id": tid.String(), "span_id": sid.String(), "request_id": "r-1"}},
	}
	for _, tt := range tests {
		buf.b.Reset()
		log.FromContext(tt.ctx).Info("x")
		r := buf.records(t)[0]
		for k, v := range tt.want {
			if r[k] != v {
				t.Errorf("%s: %s = %v, want %v", tt.name, k, r[k], v)
			}
		}
	}
}

func TestFollow(t *testing.T) {
	first, second := &syncBuffer{}, &syncBuffer{}
	swapDefault(t, log.New(first))
	f := log.Follow().With("k", "v")
	f.Info("one")
	log.SetDefault(log.New(second))
	f.Info("two")
	log.SetDefault(log.Follow()) // ignored: a follower cannot be the default
	f.Info("three")
	if a, b := first.records(t), second.records(t); len(a) != 1 || len(b) != 2 || b[0]["k"] != "v" {
		t.Fatalf("first %v second %v", a, b)
	}
}

func TestSlog(t *testing.T) {
	buf := &syncBuffer{}
	swapDefault(t, log.New(buf))
	sl := log.Slog().With("svc", "users").WithGroup("req")
	sl.Info("hello", "id", 7)
	sl.Debug("hidden")
	r := buf.records(t)
	if len(r) != 1 || r[0]["svc"] != "users" || r[0]["req"].(map[string]any)["id"] != float64(7) {
		t.Fatalf("%v", r)
	}
	// It follows a later swap.
	next := &syncBuffer{}
	log.SetDefault(log.New(next))
	sl.Warn("after")
	if len(next.records(t)) != 1 {
		t.Fatal("Slog did not follow SetDefault")
	}
}

// kvLogger is a Logger that is not backed by slog.
type kvLogger struct {
	mu    *sync.Mutex
	lines *[]string
}

func (k kvLogger) add(level, msg string, args []any) {
	k.mu.Lock()
	defer k.mu.Unlock()
	*k.lines = append(*k.lines, fmt.Sprint(level, " ", msg, " ", args))
}
func (k kvLogger) Debug(msg string, args ...any) { k.add("debug", msg, args) }
func (k kvLogger) Info(msg string, args ...any)  { k.add("info", msg, args) }
func (k kvLogger) Warn(msg string, args ...any)  { k.add("warn", msg, args) }
func (k kvLogger) Error(msg string, args ...any) { k.add("error", msg, args) }
func (k kvLogger) With(args ...any) log.Logger   { return k }

func TestSlogOverCustomLogger(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	swapDefault(t, kvLogger{&mu, &lines})
	log.Slog().With("a", 1).WithGroup("g").Error("bad", "b", 2)
	if len(lines) != 1 || lines[0] != "error bad [a 1 g.b 2]" {
		t.Fatalf("%q", lines)
	}
}

// A logger taken from a request context binds the context's ids only when it
// writes: taking it costs at most one allocation, writing nothing costs
// nothing more, and a line below the level binds nothing.
func TestFromContextIsLazy(t *testing.T) {
	buf := &syncBuffer{}
	swapDefault(t, log.New(buf))
	ctx := log.ContextWithRequestID(context.Background(), "r-9")
	if n := testing.AllocsPerRun(100, func() { _ = log.FromContext(ctx) }); n > 1 {
		t.Fatalf("FromContext: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = log.FromContext(context.Background()) }); n != 0 {
		t.Fatalf("FromContext of a plain context: %v allocations", n)
	}
	l := log.FromContext(ctx)
	if n := testing.AllocsPerRun(100, func() { l.Debug("hidden") }); n != 0 {
		t.Fatalf("a line below the level: %v allocations", n)
	}
	l.With("k", 1).Warn("w")
	l.Info("i")
	r := buf.records(t)
	if len(r) != 2 || r[0]["request_id"] != "r-9" || r[0]["k"] != float64(1) || r[1]["request_id"] != "r-9" {
		t.Fatalf("%v", r)
	}
}
