package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type SmallService struct{ ctx context.Context }

func NewSmallService(ctx context.Context, _ *svccontext.ServiceContext) *SmallService { return &SmallService{ctx} }

func (l *SmallService) Small(req *types.Note) error {
	return nil
}
