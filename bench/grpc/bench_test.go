// Package benchgrpc compares a unary RPC through the kit rpc server (its default
// interceptors: recovery, access log, unary timeout check) with the same handler on a bare
// grpc.NewServer, both over loopback TCP, in one run. Run it with run.sh, which alternates
// the two and prints the ratio (target: kit >= 0.9x bare).
package benchgrpc

import (
	"context"
	"io"
	"net"
	"runtime"
	"syscall"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/rpc"
)

const method = "/bench.Echo/Call"

// call is the handler both servers run: echo the request (what generated code does
// around it - Validate, logic, rpc.Error - is in both).
func call(ctx context.Context, req *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
	if err := rpc.Validate(req); err != nil {
		return nil, err
	}
	return wrapperspb.String(req.GetValue()), rpc.Error(ctx, nil)
}

var desc = grpc.ServiceDesc{
	ServiceName: "bench.Echo",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Call",
		Handler: func(srv any, ctx context.Context, dec func(any) error, ic grpc.UnaryServerInterceptor) (any, error) {
			in := new(wrapperspb.StringValue)
			if err := dec(in); err != nil {
				return nil, err
			}
			if ic == nil {
				return call(ctx, in)
			}
			info := &grpc.UnaryServerInfo{Server: srv, FullMethod: method}
			return ic(ctx, in, info, func(ctx context.Context, req any) (any, error) {
				return call(ctx, req.(*wrapperspb.StringValue))
			})
		},
	}},
}

// serve starts a server on a loopback port; stop ends it.
func serve(b *testing.B, variant string) (addr string, stop func()) {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	if variant != "kit" {
		var opts []grpc.ServerOption
		if variant == "workers" { // the stream workers kit's server uses, without its interceptors
			opts = append(opts, grpc.NumStreamWorkers(uint32(runtime.GOMAXPROCS(0))))
		}
		gs := grpc.NewServer(opts...)
		gs.RegisterService(&desc, struct{}{})
		go func() { _ = gs.Serve(ln) }()
		return ln.Addr().String(), gs.Stop
	}
	srv := rpc.NewServer()
	srv.SetLogger(log.New(io.Discard)) // the access log is written, to a sink
	srv.RegisterService(&desc, struct{}{})
	go func() { _ = srv.Serve(ln) }()
	return ln.Addr().String(), func() { _ = srv.Stop(context.Background()) }
}

func bench(b *testing.B, variant string) {
	addr, stop := serve(b, variant)
	defer stop()
	conn, err := rpc.Dial(addr)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	req := wrapperspb.String("hello, bench")
	out := new(wrapperspb.StringValue)
	if err := conn.Invoke(context.Background(), method, req, out); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	defer func() {
		// Process CPU (client and server both): what other work on the machine barely moves.
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	}()
	b.RunParallel(func(pb *testing.PB) {
		out := new(wrapperspb.StringValue)
		for pb.Next() {
			if err := conn.Invoke(context.Background(), method, req, out); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func cpuTime() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func BenchmarkBareUnary(b *testing.B)        { bench(b, "bare") }
func BenchmarkBareWorkersUnary(b *testing.B) { bench(b, "workers") }
func BenchmarkKitUnary(b *testing.B)         { bench(b, "kit") }
