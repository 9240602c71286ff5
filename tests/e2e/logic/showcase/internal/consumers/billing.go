// Package consumers holds the showcase's event consumers: which group consumes which
// event is the application's choice, made here, not in the design.
package consumers

import (
	"context"

	shopevents "example.com/showcase/internal/events/shop"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
	"github.com/kitdev/kit/runtime/events"
)

// Billing is the group that bills placed orders; every instance of the service shares
// its work.
const Billing events.Group = "billing"

// Register subscribes the service's groups on bus.
func Register(bus *events.Bus, svcCtx *svccontext.ServiceContext) error {
	sub := shopevents.OrderPlaced.Subscription(bus, Billing, func(_ context.Context, o *types.Order) error {
		svcCtx.Billed.Add(o.ID)
		return nil
	})
	sub.Consumer = "billing.OrderPlaced"
	return bus.Register(sub)
}
