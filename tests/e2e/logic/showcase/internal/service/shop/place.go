package shop

import (
	"context"

	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

type PlaceService struct{ ctx context.Context }

func NewPlaceService(ctx context.Context, _ *svccontext.ServiceContext) *PlaceService {
	return &PlaceService{ctx}
}

// Place echoes the decoded order: the test reads the defaults back.
func (l *PlaceService) Place(req *types.Order) (*types.Order, error) {
	return req, nil
}
