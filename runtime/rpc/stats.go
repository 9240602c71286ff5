package rpc

import (
	"context"

	"google.golang.org/grpc/stats"
)

// skipSystem passes connections and user calls to the wrapped stats handler
// and keeps health and reflection calls out of traces and metrics.
type skipSystem struct{ h stats.Handler }

type skipKey struct{}

func (s skipSystem) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	if isSystem(info.FullMethodName) {
		return context.WithValue(ctx, skipKey{}, true)
	}
	return s.h.TagRPC(ctx, info)
}

func (s skipSystem) HandleRPC(ctx context.Context, rs stats.RPCStats) {
	if skip, _ := ctx.Value(skipKey{}).(bool); skip {
		return
	}
	s.h.HandleRPC(ctx, rs)
}

func (s skipSystem) TagConn(ctx context.Context, info *stats.ConnTagInfo) context.Context {
	return s.h.TagConn(ctx, info)
}

func (s skipSystem) HandleConn(ctx context.Context, cs stats.ConnStats) { s.h.HandleConn(ctx, cs) }
