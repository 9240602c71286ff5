package rpc

import (
	"context"
	"io"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	"github.com/kitdev/kit/runtime/log"
)

// The interceptors' own cost per call, outside any transport: a unary call and a stream
// through interceptUnary / interceptStream with the access log written to a sink.
func BenchmarkInterceptors(b *testing.B) {
	s := NewServer()
	s.SetLogger(log.New(io.Discard))
	ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 52114}})
	// What grpc-go hands a call: the request's headers as incoming metadata.
	ctx = metadata.NewIncomingContext(ctx, metadata.Pairs(":authority", "127.0.0.1:9000",
		"content-type", "application/grpc", "user-agent", "grpc-go/1.85.0", "grpc-accept-encoding", "gzip", "te", "trailers"))
	info := &grpc.UnaryServerInfo{FullMethod: "/bench.catalog.v1.Catalog/GetItem"}
	handler := func(ctx context.Context, req any) (any, error) { return req, nil }
	b.Run("unary", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = s.interceptUnary(ctx, 1, info, handler)
		}
	})
	ss := &fakeStream{ctx: ctx}
	sinfo := &grpc.StreamServerInfo{FullMethod: "/bench.catalog.v1.Catalog/ListItems", IsServerStream: true}
	sh := func(any, grpc.ServerStream) error { return nil }
	b.Run("stream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = s.interceptStream(nil, ss, sinfo, sh)
		}
	})
}

type fakeStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (f fakeStream) Context() context.Context { return f.ctx }

// The look for a caller's traceparent on a call without one.
func BenchmarkAdoptTraceparent(b *testing.B) {
	ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs(":authority", "127.0.0.1:9000",
		"content-type", "application/grpc", "user-agent", "grpc-go/1.85.0", "grpc-accept-encoding", "gzip", "te", "trailers"))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = adoptTraceparent(ctx)
	}
}
