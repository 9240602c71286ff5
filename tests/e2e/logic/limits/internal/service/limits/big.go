package api

import (
	"context"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/limits/internal/types/api"
	"example.com/limits/svccontext"
)

// BigService holds the logic of POST /big.
type BigService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewBigService builds the logic for one request; its logger is bound to ctx.
func NewBigService(ctx context.Context, svcCtx *svccontext.ServiceContext) *BigService {
	return &BigService{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

// Big answers the size of the uploaded file and where the parser kept it.
func (l *BigService) Big(req *types.BigReq) (*types.Received, error) {
	return received(req.File)
}
