package shop

import (
	"context"

	shopevents "example.com/showcase/internal/events/shop"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
	"github.com/kitdev/kit/runtime/events"
)

type PlaceService struct {
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

func NewPlaceService(ctx context.Context, svcCtx *svccontext.ServiceContext) *PlaceService {
	return &PlaceService{ctx, svcCtx}
}

// Place publishes OrderPlaced (keyed by the order id) and echoes the decoded order: the
// tests read the defaults back and the billing group's record through Billed.
func (l *PlaceService) Place(req *types.Order) (*types.Order, error) {
	placed := *req
	if err := shopevents.OrderPlaced.Publish(l.ctx, l.svcCtx.Bus, &placed, events.WithKey(req.ID)); err != nil {
		return nil, err
	}
	return req, nil
}
