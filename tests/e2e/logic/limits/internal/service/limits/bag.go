package api

import (
	"context"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/limits/internal/types/api"
	"example.com/limits/svccontext"
)

// BagService holds the logic of POST /bag.
type BagService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewBagService builds the logic for one request; its logger is bound to ctx.
func NewBagService(ctx context.Context, svcCtx *svccontext.ServiceContext) *BagService {
	return &BagService{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

// Bag echoes the bag with one entry added. The map value is the bytes scalar itself
// (spec Resources rule 8): a nil Blob is how the logic writes an absent value, and this
// file only compiles while the generated map value is not a pointer.
func (l *BagService) Bag(req *types.Bag) (*types.Bag, error) {
	var added types.Blob = []byte("added")
	req.Items["added"] = added
	req.Items["none"] = nil
	return req, nil
}
