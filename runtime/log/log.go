// Package log is the structured logger of kit services.
//
// A Logger takes a message and slog-style key/value pairs. The package keeps
// one process-wide default logger (Default, SetDefault) and one process-wide,
// atomic level (SetLevel, GetLevel; LevelInfo by default) shared by every
// logger built with New. FromContext binds the default logger to a request
// context, adding trace_id and span_id when the context carries a valid span
// and request_id when the server's RequestID middleware stored one. Follow
// returns a logger that always writes through the current default, so a later
// SetDefault is picked up by middleware built earlier. Slog exposes the same
// output as a standard *slog.Logger.
package log

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/internal/jsonline"
	"github.com/kitdev/kit/runtime/internal/reqctx"
)

// Level is a logging level; it is the slog level type.
type Level = slog.Level

// Levels understood by SetLevel.
const (
	LevelDebug Level = slog.LevelDebug
	LevelInfo  Level = slog.LevelInfo
	LevelWarn  Level = slog.LevelWarn
	LevelError Level = slog.LevelError
)

// Logger is the logging interface used across the runtime and by generated
// logic. Arguments after the message are slog-style alternating keys and
// values (or slog.Attr values).
type Logger interface {
	Debug(msg string, args ...any)
	Info(msg string, args ...any)
	Warn(msg string, args ...any)
	Error(msg string, args ...any)
	// With returns a logger that adds args to every line.
	With(args ...any) Logger
}

// level is the process-wide level shared by every logger built with New.
var level = new(slog.LevelVar)

// SetLevel sets the process-wide level. It is safe for concurrent use.
func SetLevel(l Level) { level.Set(l) }

// GetLevel returns the process-wide level.
func GetLevel() Level { return level.Level() }

// ParseLevel maps "debug", "info", "warn" and "error" (any case) to a level;
// any other text gives LevelInfo and false.
func ParseLevel(s string) (Level, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "debug":
		return LevelDebug, true
	case "info":
		return LevelInfo, true
	case "warn", "warning":
		return LevelWarn, true
	case "error":
		return LevelError, true
	}
	return LevelInfo, false
}

// slogLogger is the Logger built by New: a thin shell over *slog.Logger.
type slogLogger struct {
	l *slog.Logger
	// out is the writer of a logger built by New (nil otherwise): such a
	// logger can also take raw lines (LineSink).
	out *jsonline.LockedWriter
	// withs are the With arguments applied since New, oldest first.
	withs [][]any
	// sink is built on first use by LineSink.
	sink atomic.Pointer[jsonline.Sink]
}

// New returns a Logger that writes JSON lines to w, filtered by the
// process-wide level. When w is a file (stderr, as the generated service
// logs) the servers' access lines are written in batches while calls keep the
// process busy (see Flush); other lines are written at once, after the
// access lines before them.
func New(w io.Writer) Logger {
	_, file := w.(*os.File)
	out := &jsonline.LockedWriter{W: w, Batch: file}
	return &slogLogger{l: slog.New(slog.NewJSONHandler(out, &slog.HandlerOptions{Level: level})), out: out}
}

// FromSlogHandler returns a Logger writing through h. Level filtering is
// left to h.
func FromSlogHandler(h slog.Handler) Logger { return &slogLogger{l: slog.New(h)} }

func (s *slogLogger) Debug(msg string, args ...any) {
	s.log(LevelDebug, msg, args)
}
func (s *slogLogger) Info(msg string, args ...any) { s.log(LevelInfo, msg, args) }
func (s *slogLogger) Warn(msg string, args ...any) { s.log(LevelWarn, msg, args) }
func (s *slogLogger) Error(msg string, args ...any) {
	s.log(LevelError, msg, args)
}
func (s *slogLogger) With(args ...any) Logger {
	if len(args) == 0 {
		return s
	}
	n := &slogLogger{l: s.l.With(args...), out: s.out}
	if s.out != nil {
		n.withs = make([][]any, 0, len(s.withs)+1)
		n.withs = append(append(n.withs, s.withs...), args)
	}
	return n
}

// LineSink returns the raw-line side of a logger built by New (nil for
// other loggers): lines appended to it come out exactly as the slog
// handler of this logger writes them (see internal/jsonline). The With
// arguments are formatted once, at the first call.
func (s *slogLogger) LineSink() *jsonline.Sink {
	if s.out == nil {
		return nil
	}
	if sk := s.sink.Load(); sk != nil {
		return sk
	}
	sk := &jsonline.Sink{W: s.out, Level: level}
	if len(s.withs) > 0 {
		// Let slog format the With attributes, once.
		var buf bytes.Buffer
		l := slog.New(slog.NewJSONHandler(&buf, nil))
		for _, args := range s.withs {
			l = l.With(args...)
		}
		_ = l.Handler().Handle(context.Background(), slog.NewRecord(time.Time{}, LevelInfo, "", 0))
		const head, tail = `{"level":"INFO","msg":""`, "}\n"
		out := buf.Bytes()
		if !bytes.HasPrefix(out, []byte(head)) || !bytes.HasSuffix(out, []byte(tail)) {
			return nil
		}
		sk.Attrs = bytes.Clone(out[len(head) : len(out)-len(tail)])
	}
	s.sink.Store(sk)
	return sk
}

// Handler returns the slog handler behind the logger.
func (s *slogLogger) Handler() slog.Handler { return s.l.Handler() }

// log skips slog.Logger's caller capture (runtime.Callers): no handler
// built here records the source.
func (s *slogLogger) log(lv Level, msg string, args []any) {
	ctx := context.Background()
	h := s.l.Handler()
	if !h.Enabled(ctx, lv) {
		return
	}
	r := slog.NewRecord(time.Now(), lv, msg, 0)
	r.Add(args...)
	_ = h.Handle(ctx, r)
}

type holder struct{ l Logger }

var def atomic.Pointer[holder]

func init() { def.Store(&holder{l: New(os.Stderr)}) }

// Default returns the process-wide default logger (JSON lines on stderr
// unless replaced).
func Default() Logger { return def.Load().l }

// SetDefault replaces the process-wide default logger. A nil logger is
// ignored. Loggers returned by Follow, Slog and FromContext after the call
// write through l.
func SetDefault(l Logger) {
	if l == nil {
		return
	}
	if _, ok := l.(follow); ok {
		// A follower as default would follow itself forever.
		return
	}
	def.Store(&holder{l: l})
}

// follow writes through the default logger current at each call.
type follow struct{ args []any }

// Follow returns a logger that writes through whatever logger is the default
// at the time of each call, so middleware built before a SetDefault (or a
// server's SetLogger) uses the new logger.
func Follow() Logger { return follow{} }

func (f follow) target() Logger {
	l := Default()
	if len(f.args) > 0 {
		l = l.With(f.args...)
	}
	return l
}
func (f follow) Debug(msg string, args ...any) { f.target().Debug(msg, args...) }
func (f follow) Info(msg string, args ...any)  { f.target().Info(msg, args...) }
func (f follow) Warn(msg string, args ...any)  { f.target().Warn(msg, args...) }
func (f follow) Error(msg string, args ...any) { f.target().Error(msg, args...) }

// LineSink returns the raw-line side of the current default logger when
// this follower adds no attributes, else nil.
func (f follow) LineSink() *jsonline.Sink {
	if len(f.args) > 0 {
		return nil
	}
	if src, ok := Default().(jsonline.Source); ok {
		return src.LineSink()
	}
	return nil
}

func (f follow) With(args ...any) Logger {
	if len(args) == 0 {
		return f
	}
	n := make([]any, 0, len(f.args)+len(args))
	n = append(n, f.args...)
	n = append(n, args...)
	return follow{args: n}
}

// Flush writes the access lines the default logger holds for its next batch
// (see New); the HTTP and gRPC servers' Stop call it once their calls have
// ended, so no line is lost on a normal exit.
func Flush() error { return FlushLogger(Default()) }

// FlushLogger writes the access lines l holds for its next batch, if any.
func FlushLogger(l Logger) error {
	if src, ok := l.(jsonline.Source); ok {
		if sink := src.LineSink(); sink != nil {
			return sink.Flush()
		}
	}
	return nil
}

// Discard returns a logger that writes nothing.
func Discard() Logger { return FromSlogHandler(slog.DiscardHandler) }

type requestIDKey struct{}

// ContextWithRequestID returns ctx carrying the request id, read by
// FromContext and by the server's RequestIDFromContext.
func ContextWithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestIDFromContext returns the request id stored in ctx (by
// ContextWithRequestID or the server's RequestID middleware), or "".
func RequestIDFromContext(ctx context.Context) string {
	if id, ok := ctx.Value(requestIDKey{}).(string); ok {
		return id
	}
	return reqctx.From(ctx).RequestID()
}

func traceSpanContext(ctx context.Context) trace.SpanContext {
	return trace.SpanContextFromContext(ctx)
}

// FromContext returns the default logger bound to ctx: it adds trace_id and
// span_id when ctx carries a valid span context, and request_id when one is
// stored. The binding is made on the first line written at an enabled level
// (generated logic takes a bound logger on every request, and most requests
// write nothing): until then it costs one small allocation, and none when ctx
// has nothing to add.
func FromContext(ctx context.Context) Logger {
	l := Default()
	if ctx == nil || !traceSpanContext(ctx).IsValid() && RequestIDFromContext(ctx) == "" {
		return l
	}
	if st, ok := ctx.(*reqctx.State); ok && st.ClaimLog() {
		// The server's request state has room for the first logger taken
		// from it: no allocation (a request's logic takes one per request).
		st.LogBase = l
		return lazyLogger[stateBinding]{stateBinding{st}}
	}
	return lazyLogger[*ctxLogger]{&ctxLogger{base: l, ctx: ctx}}
}

// binding is where a lazily bound logger keeps its base logger, its context
// and the base once bound to the context.
type binding interface {
	parts() (base Logger, ctx context.Context, bound *atomic.Pointer[reqctx.LogHeld])
}

// ctxLogger is the binding of a logger taken from any context.
type ctxLogger struct {
	base  Logger
	ctx   context.Context
	bound atomic.Pointer[reqctx.LogHeld]
}

func (c *ctxLogger) parts() (Logger, context.Context, *atomic.Pointer[reqctx.LogHeld]) {
	return c.base, c.ctx, &c.bound
}

// stateBinding is the binding kept in the server's request state.
type stateBinding struct{ st *reqctx.State }

func (s stateBinding) parts() (Logger, context.Context, *atomic.Pointer[reqctx.LogHeld]) {
	return s.st.LogBase.(Logger), s.st, &s.st.LogBound
}

// lazyLogger is a logger bound to a context on first use (see FromContext).
type lazyLogger[B binding] struct{ b B }

// logger returns base bound to ctx, building it once.
func (c lazyLogger[B]) logger() Logger {
	base, ctx, bound := c.b.parts()
	if b := bound.Load(); b != nil {
		return b.L.(Logger)
	}
	bound.CompareAndSwap(nil, &reqctx.LogHeld{L: WithContext(base, ctx)})
	return bound.Load().L.(Logger)
}

// enabled reports whether base writes lines of level lv (true when it cannot tell).
func (c lazyLogger[B]) enabled(lv Level) bool {
	base, ctx, _ := c.b.parts()
	if e, ok := base.(interface{ Handler() slog.Handler }); ok {
		return e.Handler().Enabled(ctx, lv)
	}
	return true
}

func (c lazyLogger[B]) Debug(msg string, args ...any) {
	if c.enabled(LevelDebug) {
		c.logger().Debug(msg, args...)
	}
}

func (c lazyLogger[B]) Info(msg string, args ...any) {
	if c.enabled(LevelInfo) {
		c.logger().Info(msg, args...)
	}
}

func (c lazyLogger[B]) Warn(msg string, args ...any) {
	if c.enabled(LevelWarn) {
		c.logger().Warn(msg, args...)
	}
}

func (c lazyLogger[B]) Error(msg string, args ...any) {
	if c.enabled(LevelError) {
		c.logger().Error(msg, args...)
	}
}

func (c lazyLogger[B]) With(args ...any) Logger { return c.logger().With(args...) }

// LogAttrs logs typed attributes through the bound logger.
func (c lazyLogger[B]) LogAttrs(ctx context.Context, lv Level, msg string, attrs ...slog.Attr) {
	if c.enabled(lv) {
		LogAttrs(c.logger(), ctx, lv, msg, attrs...)
	}
}

// WithContext binds l to ctx the way FromContext binds the default logger.
func WithContext(l Logger, ctx context.Context) Logger {
	if ctx == nil {
		return l
	}
	args := ContextAttrs(ctx)
	if len(args) == 0 {
		return l
	}
	return l.With(args...)
}

// ContextAttrs returns the trace_id, span_id and request_id key/value pairs
// present in ctx, in that order.
func ContextAttrs(ctx context.Context) []any {
	var args []any
	if sc := traceSpanContext(ctx); sc.IsValid() {
		args = append(args, "trace_id", sc.TraceID().String(), "span_id", sc.SpanID().String())
	}
	if id := RequestIDFromContext(ctx); id != "" {
		args = append(args, "request_id", id)
	}
	return args
}
