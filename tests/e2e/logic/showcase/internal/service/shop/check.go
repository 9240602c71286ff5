package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type CheckService struct{ ctx context.Context }

func NewCheckService(ctx context.Context, _ *svccontext.ServiceContext) *CheckService { return &CheckService{ctx} }

func (l *CheckService) Check(req *types.Checks) (*types.Checks, error) {
	return req, nil
}
