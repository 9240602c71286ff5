package rpc_test

import (
	"context"
	"fmt"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/rpc"
)

// A server on a free loopback port, a lazy client, a health check, and a
// graceful stop. Generated code registers services with
// pb.Register<Service>Server(srv, impl) before Serve.
func Example() {
	srv := rpc.NewServer(rpc.WithReflection(true))
	srv.SetLogger(log.Discard())
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() { _ = srv.Serve(ln) }()

	conn, err := rpc.Dial(srv.Addr())
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	resp, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.GetStatus())
	fmt.Println(srv.Stop(context.Background()))
	// Output:
	// SERVING
	// <nil>
}
