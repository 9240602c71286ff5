package api

import (
	"context"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/trust/internal/types/api"
	"example.com/trust/internal/types/shared"
	"example.com/trust/svccontext"
)

// GetService holds the logic of GET /items/{id}.
type GetService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewGetService builds the logic for one request; its logger is bound to ctx.
func NewGetService(ctx context.Context, svcCtx *svccontext.ServiceContext) *GetService {
	return &GetService{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

// Get answers the item, or the qualified error of package shared for "missing".
func (l *GetService) Get(req *types.GetReq) (*types.Item, error) {
	if req.ID == "missing" {
		return nil, shared.NewItemNotFoundErr(shared.ItemNotFoundBody{ID: req.ID, Reason: "gone"})
	}
	return &types.Item{Name: req.ID}, nil
}
