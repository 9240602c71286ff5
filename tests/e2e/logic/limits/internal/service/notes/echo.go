package plain

import (
	"context"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/limits/internal/types/plain"
	"example.com/limits/svccontext"
)

// EchoService holds the logic of POST /notes.
type EchoService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewEchoService builds the logic for one request; its logger is bound to ctx.
func NewEchoService(ctx context.Context, svcCtx *svccontext.ServiceContext) *EchoService {
	return &EchoService{
		Logger: log.FromContext(ctx),
		ctx:    ctx,
		svcCtx: svcCtx,
	}
}

// Echo answers the note it was sent.
func (l *EchoService) Echo(req *types.Note) (*types.Note, error) {
	return req, nil
}
