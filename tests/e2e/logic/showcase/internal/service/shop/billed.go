package shop

import (
	"context"

	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

type BilledService struct{ svcCtx *svccontext.ServiceContext }

func NewBilledService(_ context.Context, svcCtx *svccontext.ServiceContext) *BilledService {
	return &BilledService{svcCtx}
}

// Billed lists the orders the billing group has consumed.
func (l *BilledService) Billed() (*types.BilledOrders, error) {
	return &types.BilledOrders{Ids: l.svcCtx.Billed.IDs()}, nil
}
