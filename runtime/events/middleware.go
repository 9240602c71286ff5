package events

import (
	"context"
	"log/slog"
	"reflect"
	"runtime/debug"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/telemetry"
)

// Info describes the consumer a message is handled by; middleware reads it with
// InfoFromContext.
type Info struct {
	Group     Group
	Consumer  string
	Transport string
}

type infoKey struct{}

// InfoFromContext returns the consumer handling the message of ctx.
func InfoFromContext(ctx context.Context) (Info, bool) {
	info, ok := ctx.Value(infoKey{}).(Info)
	return info, ok
}

func withInfo(ctx context.Context, info Info) context.Context {
	return context.WithValue(ctx, infoKey{}, info)
}

// Recovery turns a handler panic into a *PanicError (retried like any error, so the
// delivery cap ends a panic that repeats). The bus installs it first unless built
// WithoutRecovery.
func Recovery() Middleware { return recovery }

func recovery(next Handler) Handler {
	return func(ctx context.Context, m *Message) (err error) {
		defer func() {
			if v := recover(); v != nil {
				err = &PanicError{Value: v, Stack: debug.Stack()}
			}
		}()
		return next(ctx, m)
	}
}

func isRecovery(m Middleware) bool {
	return reflect.ValueOf(m).Pointer() == reflect.ValueOf(Middleware(recovery)).Pointer()
}

// AccessLog writes one line per handled message: contract, group, consumer, message id,
// key, attempt, disposition, duration, error, and trace_id and span_id when the handler
// runs in a span (put AccessLog inside Tracing to log the consumer span, which continues
// the publisher's trace). Info level; warn for a retry, error for a dead-letter. A nil
// logger logs nowhere.
func AccessLog(l *slog.Logger) Middleware {
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	return func(next Handler) Handler {
		return func(ctx context.Context, m *Message) error {
			start := time.Now()
			err := next(ctx, m)
			disposition, _ := DispositionOf(err)
			level := slog.LevelInfo
			switch disposition {
			case Retry:
				level = slog.LevelWarn
			case DeadLettered:
				level = slog.LevelError
			}
			if !l.Enabled(ctx, level) {
				return err
			}
			info, _ := InfoFromContext(ctx)
			attrs := []slog.Attr{
				slog.String("contract", m.Contract), slog.String("group", string(info.Group)),
				slog.String("consumer", info.Consumer), slog.String("id", m.ID), slog.Int("attempt", m.Attempt),
				slog.String("disposition", disposition.String()), slog.Duration("duration", time.Since(start)),
			}
			if m.Key != "" {
				attrs = append(attrs, slog.String("key", m.Key))
			}
			if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
				attrs = append(attrs, slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
			}
			if err != nil {
				attrs = append(attrs, slog.String("error", err.Error()))
			}
			l.LogAttrs(ctx, level, "event", attrs...)
			return err
		}
	}
}

const tracerName = "github.com/kitdev/kit/runtime/events"

// Tracing starts a consumer span per handled message, child of the W3C trace context the
// publisher's bus put in the message header (through the telemetry package's
// propagator), so a trace follows an event from the HTTP request that published it to
// every group that handled it. It uses the global tracer provider (telemetry.Init
// installs it).
func Tracing() Middleware {
	tracer := otel.Tracer(tracerName)
	return func(next Handler) Handler {
		return func(ctx context.Context, m *Message) error {
			info, _ := InfoFromContext(ctx)
			ctx = telemetry.ExtractHeaders(ctx, m.Header)
			ctx, span := tracer.Start(ctx, "process "+m.Contract, trace.WithSpanKind(trace.SpanKindConsumer),
				trace.WithAttributes(
					attribute.String("messaging.system", info.Transport),
					attribute.String("messaging.operation.type", "process"),
					attribute.String("messaging.destination.name", m.Contract),
					attribute.String("messaging.consumer.group.name", string(info.Group)),
					attribute.String("messaging.message.id", m.ID),
					attribute.Int("messaging.message.delivery_count", m.Attempt),
				))
			defer span.End()
			err := next(ctx, m)
			if err != nil {
				span.RecordError(err)
				span.SetStatus(codes.Error, err.Error())
			}
			return err
		}
	}
}
