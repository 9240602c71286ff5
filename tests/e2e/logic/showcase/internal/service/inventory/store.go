package inventory

import (
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	inventoryv1 "example.com/showcase/internal/pb/inventory/v1"
	"example.com/showcase/internal/types/faults"
)

// stock is the in-memory inventory shared by the RPCs.
var stock = struct {
	sync.Mutex
	items map[string]int64
}{items: map[string]int64{"sku-1": 5}}

func item(sku string) (*inventoryv1.Item, error) {
	stock.Lock()
	defer stock.Unlock()
	n, ok := stock.items[sku]
	if !ok {
		return nil, faults.NewMissingErr()
	}
	return snapshot(sku, n), nil
}

func snapshot(sku string, n int64) *inventoryv1.Item {
	return &inventoryv1.Item{
		Sku:       sku,
		Name:      "item " + sku,
		Stock:     n,
		UpdatedAt: timestamppb.New(time.Unix(1700000000, 0)),
		Location:  &inventoryv1.Item_Location{Aisle: "A", Shelf: 3},
	}
}

func add(sku string, quantity int64) int64 {
	stock.Lock()
	defer stock.Unlock()
	stock.items[sku] += quantity
	return stock.items[sku]
}
