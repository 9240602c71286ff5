// Package listener is the listen, serve and stop bookkeeping the HTTP server (runtime/server)
// and the gRPC server (runtime/rpc) share: the listener Addr reports, a server serves once,
// a Serve after Stop returns at once, and a Stop before any Serve closes the bound listener.
package listener

import (
	"errors"
	"net"
	"sync"
)

// Server is what Start drives: a Listen that binds an address and a Serve that blocks.
type Server interface {
	Listen(addr string) (net.Listener, error)
	Serve(l net.Listener) error
}

// Start listens on addr through s and serves the listener until s stops.
func Start(s Server, addr string) error {
	ln, err := s.Listen(addr)
	if err != nil {
		return err
	}
	return s.Serve(ln)
}

// State is one server's bookkeeping. The zero value is ready; its methods are safe for
// concurrent use.
type State struct {
	mu      sync.Mutex
	ln      net.Listener
	serving bool
	stopped bool
}

// Listen binds addr (fallback when empty; ":0" picks a free port) over TCP and records the
// listener for Addr unless one is recorded already.
func (s *State) Listen(addr, fallback string) (net.Listener, error) {
	if addr == "" {
		addr = fallback
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.ln == nil {
		s.ln = ln
	}
	s.mu.Unlock()
	return ln, nil
}

// Serve records l as the served listener and runs begin, under the state's lock so that
// whatever begin sets up is seen by the Stop that follows. After Stop it closes l and
// reports false; a second Serve is an error whose text begins with pkg.
func (s *State) Serve(l net.Listener, pkg string, begin func()) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		_ = l.Close()
		return false, nil
	}
	if s.serving {
		return false, errors.New(pkg + ": already serving")
	}
	s.serving = true
	s.ln = l
	begin()
	return true, nil
}

// Addr returns the bound address once Listen or Serve recorded a listener, else "".
func (s *State) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return ""
	}
	return s.ln.Addr().String()
}

// Stop marks the server stopped and reports whether it is serving, so that the caller shuts
// it down. A server that never served has its bound listener closed; a second Stop reports
// false.
func (s *State) Stop() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return false
	}
	s.stopped = true
	if !s.serving && s.ln != nil {
		_ = s.ln.Close()
	}
	return s.serving
}
