package api

import (
	"context"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/limits/internal/types/api"
	"example.com/limits/svccontext"
)

// ClaimService holds the logic of POST /claim.
type ClaimService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewClaimService builds the logic for one request; its logger is bound to ctx.
func NewClaimService(ctx context.Context, svcCtx *svccontext.ServiceContext) *ClaimService {
	return &ClaimService{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

// Claim answers Taken carrying the requested name, whatever its length: the error body's
// @maxLength(3) documents it and is not checked at run time (decorator rule 7).
func (l *ClaimService) Claim(req *types.ClaimReq) error {
	return types.NewTakenErr(types.TakenBody{Name: req.Name})
}
