// Package e2eclient calls the notes service from Go over loopback through the generated
// client; KIT_E2E_GRPC is the address of a running notes service.
package e2eclient

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/kitdev/kit/runtime/rpc"

	notesv1 "example.com/notes/internal/pb/notes/v1"
)

func TestEveryRPC(t *testing.T) {
	addr := os.Getenv("KIT_E2E_GRPC")
	if addr == "" {
		t.Skip("KIT_E2E_GRPC names no running notes service")
	}
	conn, err := rpc.Dial(addr, rpc.WithClientTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := notesv1.NewNotesClient(conn)
	ctx := context.Background()

	first, err := c.CreateNote(ctx, &notesv1.CreateNoteRequest{Title: "first", Body: "b"})
	if err != nil || first.GetId() == "" || first.GetTitle() != "first" {
		t.Fatalf("create: %v %v", first, err)
	}
	if _, err := c.CreateNote(ctx, &notesv1.CreateNoteRequest{}); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("create without a title: %v", err)
	}
	got, err := c.GetNote(ctx, &notesv1.GetNoteRequest{Id: first.GetId()})
	if err != nil || got.GetTitle() != "first" {
		t.Fatalf("get: %v %v", got, err)
	}
	if _, err := c.GetNote(ctx, &notesv1.GetNoteRequest{Id: "nope"}); status.Code(err) != codes.NotFound {
		t.Fatalf("get unknown: %v", err)
	}

	imp, err := c.ImportNotes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"a", "b"} {
		if err := imp.Send(&notesv1.CreateNoteRequest{Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	if sum, err := imp.CloseAndRecv(); err != nil || sum.GetImported() != 2 {
		t.Fatalf("import: %v %v", sum, err)
	}

	sync, err := c.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := sync.Send(&notesv1.CreateNoteRequest{Title: "synced"}); err != nil {
		t.Fatal(err)
	}
	if n, err := sync.Recv(); err != nil || n.GetTitle() != "synced" || n.GetId() == "" {
		t.Fatalf("sync: %v %v", n, err)
	}
	_ = sync.CloseSend()
	if _, err := sync.Recv(); !errors.Is(err, io.EOF) {
		t.Fatalf("sync end: %v", err)
	}

	list, err := c.ListNotes(ctx, &notesv1.ListNotesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for {
		n, err := list.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		titles = append(titles, n.GetTitle())
	}
	if len(titles) < 4 || titles[0] != "first" {
		t.Fatalf("list: %v", titles)
	}

	h, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: "notes.v1.Notes"})
	if err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health: %v %v", h, err)
	}
}
