package rpc_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/rpc"
	"github.com/kitdev/kit/runtime/telemetry"
)

func TestDialIsLazy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there any more
	conn, err := rpc.Dial(addr)
	if err != nil {
		t.Fatalf("Dial of an unreachable target failed at once: %v", err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err = conn.Invoke(ctx, "/kit.test.Echo/Call", wrapperspb.String("ok:x"), new(wrapperspb.StringValue))
	if code := status.Code(err); code != codes.Unavailable && code != codes.DeadlineExceeded {
		t.Fatalf("call to an unreachable target: %v", err)
	}
}

// startTCP serves the echo service on loopback and returns its address.
func startTCP(t *testing.T, opts ...rpc.Option) (*rpc.Server, string) {
	t.Helper()
	srv := rpc.NewServer(opts...)
	srv.RegisterService(&echoDesc, struct{}{})
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Stop(context.Background()) })
	return srv, ln.Addr().String()
}

func invoke(conn *grpc.ClientConn, ctx context.Context, text string) (string, error) {
	out := new(wrapperspb.StringValue)
	err := conn.Invoke(ctx, "/kit.test.Echo/Call", wrapperspb.String(text), out)
	return out.GetValue(), err
}

func TestClientTimeout(t *testing.T) {
	_, addr := startTCP(t)
	conn, err := rpc.Dial(addr, rpc.WithClientTimeout(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	left, err := invoke(conn, context.Background(), "deadline?")
	if err != nil || mustDuration(t, left) > 300*time.Millisecond {
		t.Fatalf("default deadline not applied: %s %v", left, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	left, err = invoke(conn, ctx, "deadline?")
	if d := mustDuration(t, left); err != nil || d <= 300*time.Millisecond {
		t.Fatalf("the caller's deadline did not win: %s %v", left, err)
	}
	if _, err := invoke(conn, context.Background(), "block"); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("blocked call: %v", err)
	}
	// Streams are not bounded.
	stream, err := conn.NewStream(context.Background(), &echoDesc.Streams[0], "/kit.test.Echo/Chat")
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.SendMsg(wrapperspb.String("deadline?"))
	out := new(wrapperspb.StringValue)
	if err := stream.RecvMsg(out); err != nil || out.GetValue() != "none" {
		t.Fatalf("stream deadline %q %v", out.GetValue(), err)
	}
}

func TestClientAccessLog(t *testing.T) {
	_, addr := startTCP(t)
	buf := &logBuffer{}
	conn, err := rpc.Dial(addr, rpc.WithClientAccessLog(log.New(buf)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tel := newTelemetry(t)
	ctx, span := tel.TracerProvider().Tracer("test").Start(context.Background(), "caller")
	defer span.End()
	if _, err := invoke(conn, ctx, "ok:x"); err != nil {
		t.Fatal(err)
	}
	_, _ = invoke(conn, ctx, "unknown")
	lines := buf.withMsg(t, "grpc client")
	if len(lines) != 2 {
		t.Fatalf("client lines %v", lines)
	}
	want := span.SpanContext().TraceID().String()
	if l := lines[0]; l["method"] != "/kit.test.Echo/Call" || l["code"] != "OK" || l["trace_id"] != want || l["duration_ms"] == nil {
		t.Fatalf("ok line %v", l)
	}
	if l := lines[1]; l["code"] != "Internal" || l["level"] != "ERROR" {
		t.Fatalf("failed line %v", l)
	}
}

func newTelemetry(t *testing.T) *telemetry.Telemetry {
	t.Helper()
	tel, err := telemetry.Init(context.Background(), telemetry.Config{
		ServiceName: "rpc-test",
		Otel:        telemetry.OtelConfig{Enabled: true, Exporter: "none"},
	}, telemetry.WithoutGlobals())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tel.Shutdown(context.Background()) })
	return tel
}

// traceEcho answers with the trace id the server's span carries.
func traceEcho(srv *rpc.Server) {
	srv.Use(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		return wrapperspb.String(trace.SpanContextFromContext(ctx).TraceID().String()), nil
	})
}

func TestClientStatsHandlerCarriesTraceContext(t *testing.T) {
	serverTel, clientTel := newTelemetry(t), newTelemetry(t)
	srv, addr := startTCP(t, rpc.WithStatsHandler(serverTel.GRPCServerHandler()))
	traceEcho(srv)
	ctx, span := clientTel.TracerProvider().Tracer("test").Start(context.Background(), "caller")
	defer span.End()
	want := span.SpanContext().TraceID().String()

	traced, err := rpc.Dial(addr, rpc.WithClientStatsHandler(clientTel.GRPCClientHandler()))
	if err != nil {
		t.Fatal(err)
	}
	defer traced.Close()
	if got, err := invoke(traced, ctx, ""); err != nil || got != want {
		t.Fatalf("server trace %s, caller trace %s (%v)", got, want, err)
	}
	plain, err := rpc.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	got, err := invoke(plain, ctx, "")
	if err != nil || got == want || got == (trace.TraceID{}).String() {
		t.Fatalf("without the handler the callee must start a new trace: got %s (caller %s)", got, want)
	}
}

func TestDialOptionsArePassed(t *testing.T) {
	srv, addr := startTCP(t)
	srv.Use(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		md, _ := metadata.FromIncomingContext(ctx)
		return wrapperspb.String(strings.Join(md.Get("user-agent"), ",")), nil
	})
	conn, err := rpc.Dial(addr, rpc.WithDialOptions(grpc.WithUserAgent("kit-test-agent")))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if got, err := invoke(conn, context.Background(), ""); err != nil || !strings.HasPrefix(got, "kit-test-agent") {
		t.Fatalf("user agent %q %v", got, err)
	}
}

func TestTransportCredentials(t *testing.T) {
	cert, pool := selfSigned(t)
	_, addr := startTCP(t, rpc.WithServerOptions(grpc.Creds(credentials.NewServerTLSFromCert(&cert))))
	secure, err := rpc.Dial(addr, rpc.WithClientTransportCredentials(credentials.NewClientTLSFromCert(pool, "localhost")))
	if err != nil {
		t.Fatal(err)
	}
	defer secure.Close()
	if got, err := invoke(secure, context.Background(), "ok:tls"); err != nil || got != "tls" {
		t.Fatalf("TLS call: %q %v", got, err)
	}
	insecureConn, err := rpc.Dial(addr) // default: plain text, refused by a TLS server
	if err != nil {
		t.Fatal(err)
	}
	defer insecureConn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := invoke(insecureConn, ctx, "ok:x"); err == nil {
		t.Fatal("a plain-text client reached a TLS server")
	}
}

func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

func TestRuleBasedValidatorInterceptors(t *testing.T) {
	h := newHarness(t)
	rule := func(m proto.Message) error {
		if sv, ok := m.(interface{ GetValue() string }); ok && strings.HasPrefix(sv.GetValue(), "ok:bad") {
			return errors.New("value: rule failed")
		}
		return nil
	}
	h.srv.Use(rpc.ValidateUnary(rule))
	h.srv.UseStream(rpc.ValidateStream(rule))
	if _, err := h.call(context.Background(), "ok:bad"); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("unary rule: %v", err)
	}
	if got, err := h.call(context.Background(), "ok:good"); err != nil || got != "good" {
		t.Fatalf("unary pass: %q %v", got, err)
	}
	stream, err := h.conn.NewStream(context.Background(), &echoDesc.Streams[0], "/kit.test.Echo/Chat")
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.SendMsg(wrapperspb.String("ok:fine"))
	out := new(wrapperspb.StringValue)
	if err := stream.RecvMsg(out); err != nil || out.GetValue() != "fine" {
		t.Fatalf("stream pass %q %v", out.GetValue(), err)
	}
	_ = stream.SendMsg(wrapperspb.String("ok:bad"))
	if err := stream.RecvMsg(out); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("stream rule: %v", err)
	}
}
