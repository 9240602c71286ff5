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
// through the handlers RegisterService wraps, with the access log written to a sink.
func BenchmarkInterceptors(b *testing.B) {
	s := NewServer()
	s.SetLogger(log.New(io.Discard))
	ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 52114}})
	// What grpc-go hands a call: the request's headers as incoming metadata.
	ctx = metadata.NewIncomingContext(ctx, metadata.Pairs(":authority", "127.0.0.1:9000",
		"content-type", "application/grpc", "user-agent", "grpc-go/1.85.0", "grpc-accept-encoding", "gzip", "te", "trailers"))
	desc := s.intercepted(&grpc.ServiceDesc{
		ServiceName: "bench.catalog.v1.Catalog",
		Methods: []grpc.MethodDesc{{MethodName: "GetItem", Handler: func(_ any, _ context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			return nil, dec(nil)
		}}},
		Streams: []grpc.StreamDesc{{StreamName: "ListItems", ServerStreams: true, Handler: func(any, grpc.ServerStream) error { return nil }}},
	})
	unary, stream := desc.Methods[0].Handler, desc.Streams[0].Handler
	dec := func(any) error { return nil }
	b.Run("unary", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = unary(nil, ctx, dec, nil)
		}
	})
	ss := &fakeStream{ctx: ctx}
	b.Run("stream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = stream(nil, ss)
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
