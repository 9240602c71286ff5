package gzipcheck_test

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/kitdev/kit/runtime/rpc"
)

// A gzip-compressed call (request and response) over a real loopback socket.
func TestGzipCallWithRPCAlone(t *testing.T) {
	srv := rpc.NewServer()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Stop(ctx)
	})
	conn, err := rpc.Dial(lis.Addr().String(), rpc.WithClientTransportCredentials(insecure.NewCredentials()),
		rpc.WithDialOptions(grpc.WithDefaultCallOptions(grpc.UseCompressor("gzip"))))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatalf("gzip call: %v", err)
	}
	if resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("status %v", resp.GetStatus())
	}
}

// The proof above holds only while this test links no package that registers
// gzip on its own: OpenTelemetry's exporters (otlp*) do.
func TestNoExporterLinked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	out, err := exec.Command("go", "list", "-test", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "go.opentelemetry.io/otel/exporters") || strings.HasSuffix(dep, "/runtime/telemetry") {
			t.Fatalf("%s is linked: it registers gzip itself", dep)
		}
	}
}
