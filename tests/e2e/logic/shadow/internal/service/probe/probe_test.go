package probe

// A user's test beside the gen-once logic: it needs the standard `testing` package and the
// pb package of grpc/testing/testing.proto (also a Go package named `testing`) in one file,
// which compiles only because kit imports that pb package under an alias.

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	grpctestingpb "example.com/shadow/internal/pb/grpc/testing"
)

func TestEchoStubAnswersUnimplemented(t *testing.T) {
	_, err := NewEchoLogic(context.Background(), nil).Echo(&grpctestingpb.Ping{Note: "hi"})
	if status.Code(err) != codes.Unimplemented {
		t.Fatalf("Echo stub: got %v, want Unimplemented", err)
	}
}
