package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type OptionsService struct{ ctx context.Context }

func NewOptionsService(ctx context.Context, _ *svccontext.ServiceContext) *OptionsService { return &OptionsService{ctx} }

func (l *OptionsService) Options(req *types.Opt) (*types.Opt, error) {
	return req, nil
}
