package probe

// A user's test beside the gen-once logic: it needs the standard `testing` package and the
// pb package of grpc/testing/testing.proto (also a Go package named `testing`) in one file,
// which compiles only because kit imports that pb package under an alias.

import (
	"context"
	"testing"

	"github.com/kitdev/kit/runtime/rpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	grpctestingpb "example.com/shadow/internal/pb/grpc/testing"
)

func TestEchoStubAnswersUnimplemented(t *testing.T) {
	_, err := NewEchoLogic(context.Background(), nil).Echo(&grpctestingpb.Ping{Note: "hi"})
	if status.Code(rpc.Error(context.Background(), err)) != codes.Unimplemented { // as the server layer answers it
		t.Fatalf("Echo stub: got %v, want Unimplemented", err)
	}
}
