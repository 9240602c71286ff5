package svccontext

import (
	"slices"
	"sync"

	"github.com/kitdev/kit/runtime/events"
)

// Events is the showcase's event side, embedded in ServiceContext by hand: the bus logic
// publishes on, and what the billing group recorded.
type Events struct {
	Bus    *events.Bus
	Billed *Ledger
}

// Ledger is the billing group's record of consumed orders, safe for concurrent use.
type Ledger struct {
	mu  sync.Mutex
	ids []string
}

// Add records an order id.
func (l *Ledger) Add(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids = append(l.ids, id)
}

// IDs returns the recorded ids, oldest first.
func (l *Ledger) IDs() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.ids)
}
