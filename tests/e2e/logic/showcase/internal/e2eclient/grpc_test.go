// Package e2eclient calls the showcase's gRPC listener from Go over loopback, through the
// generated client (pb) and the runtime's Dial. The end-to-end tests build this test
// binary once and run it against a running showcase: KIT_E2E_GRPC is the listener's
// address, KIT_E2E_GRPC_TIMEOUT the server's grpc.handlerTimeout.
package e2eclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/health" // client-side health checking (healthCheckConfig)
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/kitdev/kit/runtime/rpc"

	inventoryv1 "example.com/showcase/internal/pb/inventory/v1"
)

func dial(t *testing.T) (inventoryv1.InventoryClient, *grpc.ClientConn) {
	t.Helper()
	addr := os.Getenv("KIT_E2E_GRPC")
	if addr == "" {
		t.Skip("KIT_E2E_GRPC names no running showcase")
	}
	conn, err := rpc.Dial(addr, rpc.WithClientTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return inventoryv1.NewInventoryClient(conn), conn
}

func TestUnary(t *testing.T) {
	c, _ := dial(t)
	it, err := c.GetItem(context.Background(), &inventoryv1.GetItemRequest{Sku: "sku-1"})
	if err != nil {
		t.Fatal(err)
	}
	if it.GetSku() != "sku-1" || it.GetLocation().GetShelf() != 3 || it.GetUpdatedAt().GetSeconds() != 1700000000 {
		t.Fatalf("item %v", it)
	}
	_, err = c.GetItem(context.Background(), &inventoryv1.GetItemRequest{Sku: "nope"})
	if s := status.Convert(err); s.Code() != codes.NotFound || s.Message() != "Not found" {
		t.Fatalf("unknown sku: %v", err)
	}
	// The request's own Validate runs first: InvalidArgument with its message.
	_, err = c.GetItem(context.Background(), &inventoryv1.GetItemRequest{})
	if s := status.Convert(err); s.Code() != codes.InvalidArgument || s.Message() != "sku: required" {
		t.Fatalf("invalid request: %v", err)
	}
}

// Every row of the spec's HTTP status -> gRPC code table, with the design's typed errors
// (408 and 418 have no DSL category: a Go error with an HTTPStatus method stands in).
var rows = map[codes.Code][]int{
	codes.InvalidArgument:    {400, 406, 411, 415, 422},
	codes.Unauthenticated:    {401},
	codes.FailedPrecondition: {402, 412, 423},
	codes.PermissionDenied:   {403},
	codes.NotFound:           {404, 410},
	codes.Unimplemented:      {405, 501},
	codes.DeadlineExceeded:   {408, 504},
	codes.AlreadyExists:      {409},
	codes.ResourceExhausted:  {413, 429},
	codes.Internal:           {500},
	codes.Unavailable:        {502, 503},
	codes.Unknown:            {418, 299},
}

func TestEveryRowOfTheStatusTable(t *testing.T) {
	c, _ := dial(t)
	for code, statuses := range rows {
		for _, st := range statuses {
			_, err := c.Fail(context.Background(), &inventoryv1.FailRequest{Kind: "http", Status: int32(st)})
			s := status.Convert(err)
			if s.Code() != code {
				t.Errorf("HTTP %d answered %v, want %v", st, s.Code(), code)
				continue
			}
			var info *errdetails.ErrorInfo
			for _, d := range s.Details() {
				if i, ok := d.(*errdetails.ErrorInfo); ok {
					info = i
				}
			}
			if info == nil || info.GetDomain() != "showcase.inventory.v1.Inventory" || info.GetReason() == "" {
				t.Errorf("HTTP %d: ErrorInfo %v", st, info)
			}
			// the logic wrapped the design error ("fail: %w"): the message is the design error's own
			if st == 404 && (info.GetReason() != "MISSING" || s.Message() != "Not found") {
				t.Errorf("404: reason %q message %q", info.GetReason(), s.Message())
			}
			if st == 418 && info.GetReason() != "STATUS_"+strconv.Itoa(st) {
				t.Errorf("418: reason %q", info.GetReason())
			}
		}
	}
}

func TestErrorRules(t *testing.T) {
	c, _ := dial(t)
	cases := []struct {
		req  *inventoryv1.FailRequest
		code codes.Code
		msg  string
	}{
		{&inventoryv1.FailRequest{Kind: "status", Code: int32(codes.OutOfRange)}, codes.OutOfRange, "as asked"},
		{&inventoryv1.FailRequest{Kind: "wrapped"}, codes.Aborted, "lookup: rpc error: code = Aborted desc = inner"},
		{&inventoryv1.FailRequest{Kind: "canceled"}, codes.Canceled, "op: context canceled"},
		{&inventoryv1.FailRequest{Kind: "deadline"}, codes.DeadlineExceeded, "op: context deadline exceeded"},
		{&inventoryv1.FailRequest{Kind: "unknown"}, codes.Internal, rpc.MsgInternal},
		{&inventoryv1.FailRequest{Kind: "panic"}, codes.Internal, rpc.MsgInternal},
	}
	for _, tc := range cases {
		_, err := c.Fail(context.Background(), tc.req)
		if s := status.Convert(err); s.Code() != tc.code || s.Message() != tc.msg {
			t.Errorf("%s: %v %q, want %v %q", tc.req.GetKind(), s.Code(), s.Message(), tc.code, tc.msg)
		}
	}
}

func TestLateResponseIsDropped(t *testing.T) {
	c, _ := dial(t)
	timeout, err := time.ParseDuration(os.Getenv("KIT_E2E_GRPC_TIMEOUT"))
	if err != nil || timeout <= 0 {
		t.Skip("KIT_E2E_GRPC_TIMEOUT names no handler timeout")
	}
	start := time.Now()
	_, err = c.Sleep(context.Background(), &inventoryv1.SleepRequest{Duration: durationpb.New(2 * timeout)})
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("late response: %v", err)
	}
	if time.Since(start) < 2*timeout {
		t.Fatalf("answered before the handler returned (%v)", time.Since(start))
	}
	// A shorter client deadline wins over the server's.
	ctx, cancel := context.WithTimeout(context.Background(), timeout/4)
	defer cancel()
	start = time.Now()
	_, err = c.Sleep(ctx, &inventoryv1.SleepRequest{Duration: durationpb.New(timeout / 2)})
	if status.Code(err) != codes.DeadlineExceeded || time.Since(start) > timeout/2 {
		t.Fatalf("client deadline: %v after %v", err, time.Since(start))
	}
}

func TestServerStreaming(t *testing.T) {
	c, _ := dial(t)
	stream, err := c.Watch(context.Background(), &inventoryv1.WatchRequest{Sku: "sku-1", Changes: 3})
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for {
		it, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, it.GetStock())
	}
	if len(got) != 3 || got[1] != got[0]+1 || got[2] != got[0]+2 {
		t.Fatalf("watched %v", got)
	}
	stream, err = c.Watch(context.Background(), &inventoryv1.WatchRequest{Sku: "nope", Changes: 1})
	if err == nil {
		_, err = stream.Recv()
	}
	if status.Code(err) != codes.NotFound {
		t.Fatalf("watch of an unknown sku: %v", err)
	}
}

func TestClientStreaming(t *testing.T) {
	c, _ := dial(t)
	stream, err := c.Restock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []int64{1, 2, 3} {
		if err := stream.Send(&inventoryv1.RestockRequest{Sku: "sku-restock", Quantity: q}); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := stream.CloseAndRecv()
	if err != nil || sum.GetRequests() != 3 || sum.GetTotal() != 6 {
		t.Fatalf("summary %v %v", sum, err)
	}
}

func TestBidiStreaming(t *testing.T) {
	c, _ := dial(t)
	stream, err := c.Chat(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		text := fmt.Sprintf("line %d", i)
		if err := stream.Send(&inventoryv1.ChatLine{Text: text}); err != nil {
			t.Fatal(err)
		}
		got, err := stream.Recv()
		if err != nil || got.GetText() != "echo: "+text {
			t.Fatalf("chat %d: %v %v", i, got, err)
		}
	}
	// Each received message runs its own Validate.
	if err := stream.Send(&inventoryv1.ChatLine{Text: "invalid"}); err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("invalid line: %v", err)
	}
}

func TestHealthServing(t *testing.T) {
	_, conn := dial(t)
	h := healthpb.NewHealthClient(conn)
	for _, svc := range []string{"", "showcase.inventory.v1.Inventory"} {
		resp, err := h.Check(context.Background(), &healthpb.HealthCheckRequest{Service: svc})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Fatalf("health of %q: %v %v", svc, resp, err)
		}
	}
}

// TestHealthDuringStop runs alone against a showcase the test harness stops: it prints
// READY once a health watch and a slow call are in flight; the harness then sends
// SIGTERM. The watch must report NOT_SERVING and the slow call must still complete
// (drained within the entry point's shutdown budget).
func TestHealthDuringStop(t *testing.T) {
	if os.Getenv("KIT_E2E_STOP") == "" {
		t.Skip("run by the harness with KIT_E2E_STOP")
	}
	c, conn := dial(t)
	watchCtx, cancelWatch := context.WithCancel(context.Background())
	defer cancelWatch()
	watch, err := healthpb.NewHealthClient(conn).Watch(watchCtx, &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if first, err := watch.Recv(); err != nil || first.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("first status %v %v", first, err)
	}
	slow := make(chan error, 1)
	go func() {
		_, err := c.Sleep(context.Background(), &inventoryv1.SleepRequest{Duration: durationpb.New(1500 * time.Millisecond)})
		slow <- err
	}()
	time.Sleep(200 * time.Millisecond) // the slow call is in flight
	fmt.Println("READY")
	next, err := watch.Recv()
	if err != nil || next.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("status once Stop began: %v %v", next, err)
	}
	fmt.Println("NOT_SERVING")
	cancelWatch() // the watch is an in-flight call too
	if err := <-slow; err != nil {
		t.Fatalf("the in-flight call was not drained: %v", err)
	}
	if _, err := c.GetItem(context.Background(), &inventoryv1.GetItemRequest{Sku: "sku-1"}); status.Code(err) != codes.Unavailable {
		t.Fatalf("a call after Stop: %v", err)
	}
}

// TestHealthWatchEndsWithTheStop runs alone against a showcase the test harness stops: it
// holds health watches the way load balancers do and never ends them itself: grpc-go's
// client-side health checking on one connection, and a plain Watch on another. It prints
// READY once both are open; the harness then sends SIGTERM and times the exit. The plain
// watch must see NOT_SERVING, then the server must end it (Unavailable).
func TestHealthWatchEndsWithTheStop(t *testing.T) {
	if os.Getenv("KIT_E2E_STOP") == "" {
		t.Skip("run by the harness with KIT_E2E_STOP")
	}
	balanced, err := rpc.Dial(os.Getenv("KIT_E2E_GRPC"), rpc.WithDialOptions(grpc.WithDefaultServiceConfig(
		`{"loadBalancingConfig":[{"round_robin":{}}],"healthCheckConfig":{"serviceName":""}}`,
	)))
	if err != nil {
		t.Fatal(err)
	}
	defer balanced.Close()
	// a call goes out only once the client's own health watch reported SERVING
	if _, err := inventoryv1.NewInventoryClient(balanced).GetItem(context.Background(), &inventoryv1.GetItemRequest{Sku: "sku-1"}); err != nil {
		t.Fatalf("call through the health-checked connection: %v", err)
	}
	_, conn := dial(t)
	watch, err := healthpb.NewHealthClient(conn).Watch(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if first, err := watch.Recv(); err != nil || first.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("first status %v %v", first, err)
	}
	fmt.Println("READY")
	if next, err := watch.Recv(); err != nil || next.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("status once Stop began: %v %v", next, err)
	}
	fmt.Println("NOT_SERVING")
	if end, err := watch.Recv(); status.Code(err) != codes.Unavailable {
		t.Fatalf("the watch was not ended by the stopping server: %v %v", end, err)
	}
}
