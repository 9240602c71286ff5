package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type FormsService struct{ ctx context.Context }

func NewFormsService(ctx context.Context, _ *svccontext.ServiceContext) *FormsService { return &FormsService{ctx} }

func (l *FormsService) Forms(req *types.Forms) (*types.Forms, error) {
	req.Secret = "hidden"
	return req, nil
}
