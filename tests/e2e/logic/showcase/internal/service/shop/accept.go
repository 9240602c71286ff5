package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type AcceptService struct{ ctx context.Context }

func NewAcceptService(ctx context.Context, _ *svccontext.ServiceContext) *AcceptService { return &AcceptService{ctx} }

func (l *AcceptService) Accept(req *types.Empty) (*types.Opt, error) {
	return &types.Opt{Secret: "s"}, nil
}
