package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type GenericService struct{ ctx context.Context }

func NewGenericService(ctx context.Context, _ *svccontext.ServiceContext) *GenericService { return &GenericService{ctx} }

func (l *GenericService) Generic() (*shared.Page[shared.Money], error) {
	return &shared.Page[shared.Money]{Total: 0}, nil
}
