package log

import (
	"context"
	"log/slog"
	"time"
)

// AttrLogger is implemented by loggers that take typed slog attributes
// without boxing them; the loggers of this package do.
type AttrLogger interface {
	LogAttrs(ctx context.Context, level Level, msg string, attrs ...slog.Attr)
}

// LogAttrs logs through l with typed attributes, using l's LogAttrs when it
// has one and its level methods otherwise.
func LogAttrs(l Logger, ctx context.Context, level Level, msg string, attrs ...slog.Attr) {
	if al, ok := l.(AttrLogger); ok {
		al.LogAttrs(ctx, level, msg, attrs...)
		return
	}
	args := make([]any, len(attrs))
	for i, a := range attrs {
		args[i] = a
	}
	switch {
	case level >= LevelError:
		l.Error(msg, args...)
	case level >= LevelWarn:
		l.Warn(msg, args...)
	case level >= LevelInfo:
		l.Info(msg, args...)
	default:
		l.Debug(msg, args...)
	}
}

// LogAttrs logs with typed attributes.
func (s *slogLogger) LogAttrs(ctx context.Context, level Level, msg string, attrs ...slog.Attr) {
	if ctx == nil {
		ctx = context.Background()
	}
	h := s.l.Handler()
	if !h.Enabled(ctx, level) {
		return
	}
	r := slog.NewRecord(time.Now(), level, msg, 0)
	r.AddAttrs(attrs...)
	_ = h.Handle(ctx, r)
}

// LogAttrs logs through the current default logger.
func (f follow) LogAttrs(ctx context.Context, level Level, msg string, attrs ...slog.Attr) {
	LogAttrs(f.target(), ctx, level, msg, attrs...)
}

// ContextSlogAttrs is ContextAttrs as typed attributes appended to dst.
func ContextSlogAttrs(ctx context.Context, dst []slog.Attr) []slog.Attr {
	if sc := traceSpanContext(ctx); sc.IsValid() {
		dst = append(dst, slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	if id := RequestIDFromContext(ctx); id != "" {
		dst = append(dst, slog.String("request_id", id))
	}
	return dst
}
