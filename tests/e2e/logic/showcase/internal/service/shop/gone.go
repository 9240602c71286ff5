package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type GoneService struct{ ctx context.Context }

func NewGoneService(ctx context.Context, _ *svccontext.ServiceContext) *GoneService { return &GoneService{ctx} }

func (l *GoneService) Gone() error {
	return nil
}
