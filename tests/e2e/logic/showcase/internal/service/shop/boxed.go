package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type BoxedService struct{ ctx context.Context }

func NewBoxedService(ctx context.Context, _ *svccontext.ServiceContext) *BoxedService { return &BoxedService{ctx} }

func (l *BoxedService) Boxed(req *shared.Box[types.Money]) (*types.Mirror, error) {
	return &types.Mirror{Echo: *req}, nil
}
