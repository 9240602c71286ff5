// Package logslot is the logger slot the HTTP and gRPC servers share: the logger given to
// SetLogger, else the process default.
package logslot

import (
	"sync/atomic"

	"github.com/kitdev/kit/runtime/log"
)

// Slot holds a server's logger. The zero value is ready (it answers the process default);
// its methods are safe for concurrent use.
type Slot struct{ p atomic.Pointer[box] }

type box struct{ l log.Logger }

// Set stores l and installs it as the process default logger (log.SetDefault). Nil is
// ignored.
func (s *Slot) Set(l log.Logger) {
	if l == nil {
		return
	}
	s.p.Store(&box{l: l})
	log.SetDefault(l)
}

// Get returns the logger given to Set, else the process default.
func (s *Slot) Get() log.Logger {
	if b := s.p.Load(); b != nil {
		return b.l
	}
	return log.Default()
}
