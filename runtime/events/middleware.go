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

type transportKey struct{}

// transportOf is the name of the transport the message of ctx came through (Tracing
// reports it); the runner puts it in each subscription's context once.
func transportOf(ctx context.Context) string {
	name, _ := ctx.Value(transportKey{}).(string)
	return name
}

// Recovery turns a panic in the chain inside it or the handler into a *PanicError
// (retried like any error, so the delivery cap ends a panic that repeats). The bus
// installs it outermost unless built WithoutRecovery.
func Recovery() Middleware { return recovery }

func recovery(sub Subscription, next Handler) Handler {
	return func(ctx context.Context, m *Message) (err error) {
		defer func() {
			if v := recover(); v != nil {
				err = &PanicError{Event: sub.Event, Consumer: sub.Consumer, Group: sub.Group, Value: v, Stack: debug.Stack()}
			}
		}()
		return next(ctx, m)
	}
}

func isRecovery(m Middleware) bool {
	return reflect.ValueOf(m).Pointer() == reflect.ValueOf(Middleware(recovery)).Pointer()
}

// AccessLog writes one line per handled message: event, group, consumer, dedup id,
// key, attempt, disposition, duration, error, and trace_id and span_id when the handler
// runs in a span (put AccessLog inside Tracing to log the consumer span, which continues
// the publisher's trace). Info level; warn for a retry, error for a dead-letter. A nil
// logger logs nowhere.
func AccessLog(l *slog.Logger) Middleware {
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	return func(sub Subscription, next Handler) Handler {
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
			attrs := []slog.Attr{
				slog.String("event", m.Event), slog.String("group", string(sub.Group)),
				slog.String("consumer", sub.Consumer), slog.String("dedup_id", m.DedupID), slog.Int("attempt", m.Attempt),
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
	return func(sub Subscription, next Handler) Handler {
		return func(ctx context.Context, m *Message) error {
			ctx = telemetry.ExtractHeaders(ctx, m.Metadata)
			ctx, span := tracer.Start(ctx, "process "+m.Event, trace.WithSpanKind(trace.SpanKindConsumer),
				trace.WithAttributes(
					attribute.String("messaging.system", transportOf(ctx)),
					attribute.String("messaging.operation.type", "process"),
					attribute.String("messaging.destination.name", m.Event),
					attribute.String("messaging.consumer.group.name", string(sub.Group)),
					attribute.String("messaging.message.id", m.DedupID),
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
