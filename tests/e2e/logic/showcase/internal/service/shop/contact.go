package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type ContactService struct{ ctx context.Context }

func NewContactService(ctx context.Context, _ *svccontext.ServiceContext) *ContactService { return &ContactService{ctx} }

func (l *ContactService) Contact(req *types.Contact) (*types.Contact, error) {
	return req, nil
}
