package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type SecureService struct{ ctx context.Context }

func NewSecureService(ctx context.Context, _ *svccontext.ServiceContext) *SecureService { return &SecureService{ctx} }

func (l *SecureService) Secure() (*types.Empty, error) {
	return &types.Empty{}, nil
}
