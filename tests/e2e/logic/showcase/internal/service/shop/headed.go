package shop

import (
	"context"

	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

type HeadedService struct{ ctx context.Context }

func NewHeadedService(ctx context.Context, _ *svccontext.ServiceContext) *HeadedService {
	return &HeadedService{ctx}
}

// Headed succeeds once its required header and cookie fields are bound.
func (l *HeadedService) Headed(req *types.HeadedReq) error { return nil }
