package log

import (
	"context"
	"log/slog"
)

// Slog returns a standard *slog.Logger writing through the default logger
// current at each call (it follows SetDefault like Follow does). Context
// attributes are not added automatically; use FromContext for those.
func Slog() *slog.Logger { return slog.New(&followHandler{}) }

type handlerer interface{ Handler() slog.Handler }

// op is one WithAttrs or WithGroup call, replayed on the current default.
type op struct {
	group string
	attrs []slog.Attr
}

// followHandler is a slog.Handler that resolves the default logger per
// record.
type followHandler struct{ ops []op }

func (f *followHandler) Enabled(ctx context.Context, lv slog.Level) bool {
	if h, ok := Default().(handlerer); ok {
		return h.Handler().Enabled(ctx, lv)
	}
	return lv >= GetLevel()
}

func (f *followHandler) Handle(ctx context.Context, rec slog.Record) error {
	l := Default()
	if hh, ok := l.(handlerer); ok {
		h := hh.Handler()
		for _, o := range f.ops {
			if o.group != "" {
				h = h.WithGroup(o.group)
			} else {
				h = h.WithAttrs(o.attrs)
			}
		}
		return h.Handle(ctx, rec)
	}
	// A Logger that is not slog-backed: flatten groups into dotted keys.
	var args []any
	prefix := ""
	for _, o := range f.ops {
		if o.group != "" {
			prefix += o.group + "."
			continue
		}
		for _, a := range o.attrs {
			args = append(args, prefix+a.Key, a.Value.Any())
		}
	}
	rec.Attrs(func(a slog.Attr) bool {
		args = append(args, prefix+a.Key, a.Value.Any())
		return true
	})
	switch {
	case rec.Level >= slog.LevelError:
		l.Error(rec.Message, args...)
	case rec.Level >= slog.LevelWarn:
		l.Warn(rec.Message, args...)
	case rec.Level >= slog.LevelInfo:
		l.Info(rec.Message, args...)
	default:
		l.Debug(rec.Message, args...)
	}
	return nil
}

func (f *followHandler) with(o op) *followHandler {
	n := make([]op, 0, len(f.ops)+1)
	n = append(n, f.ops...)
	return &followHandler{ops: append(n, o)}
}

func (f *followHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return f
	}
	return f.with(op{attrs: attrs})
}

func (f *followHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return f
	}
	return f.with(op{group: name})
}
