package api

import (
	"context"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/limits/internal/types/api"
	"example.com/limits/svccontext"
)

// SpillService holds the logic of POST /spill.
type SpillService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewSpillService builds the logic for one request; its logger is bound to ctx.
func NewSpillService(ctx context.Context, svcCtx *svccontext.ServiceContext) *SpillService {
	return &SpillService{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

// Spill answers the size of the uploaded file and where the parser kept it.
func (l *SpillService) Spill(req *types.BigReq) (*types.Received, error) {
	return received(req.File)
}
