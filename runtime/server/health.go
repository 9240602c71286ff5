package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

type healthCheck struct {
	name    string
	timeout time.Duration
	fn      func(ctx context.Context) error
}

// RegisterHealthCheck adds a readiness probe. Every check runs concurrently
// on each readiness request under its own timeout; a check that returns an
// error, panics or exceeds its timeout fails the probe. A second check with
// the same name replaces the first. It panics when timeout <= 0 or fn is
// nil.
func (s *Server) RegisterHealthCheck(name string, timeout time.Duration, fn func(ctx context.Context) error) {
	if timeout <= 0 {
		panic(fmt.Sprintf("server: RegisterHealthCheck %q: timeout must be positive", name))
	}
	if fn == nil {
		panic(fmt.Sprintf("server: RegisterHealthCheck %q: nil check", name))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range s.checks {
		if c.name == name {
			s.checks[i] = healthCheck{name, timeout, fn}
			return
		}
	}
	s.checks = append(s.checks, healthCheck{name, timeout, fn})
}

var bodyLive = []byte(`{"status":"ok"}` + "\n")

func writeHealth(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// serveLiveness answers 200 {"status":"ok"}.
func (s *Server) serveLiveness(w http.ResponseWriter, _ *http.Request) {
	writeHealth(w, http.StatusOK, bodyLive)
}

// serveReadiness answers 200 {"status":"ready","checks":{"<name>":"ok"}}
// or 503 {"status":"not_ready","checks":{"<name>":"<error text>"}}.
func (s *Server) serveReadiness(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	checks := append([]healthCheck(nil), s.checks...)
	s.mu.Unlock()

	results := make([]error, len(checks))
	var wg sync.WaitGroup
	for i, c := range checks {
		wg.Go(func() { results[i] = runCheck(r.Context(), c) })
	}
	wg.Wait()

	out := struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}{Status: "ready", Checks: make(map[string]string, len(checks))}
	status := http.StatusOK
	for i, c := range checks {
		if err := results[i]; err != nil {
			status = http.StatusServiceUnavailable
			out.Status = "not_ready"
			msg := err.Error()
			if msg == "" {
				msg = "failed"
			}
			out.Checks[c.name] = msg
			continue
		}
		out.Checks[c.name] = "ok"
	}
	body, _ := json.Marshal(out)
	writeHealth(w, status, append(body, '\n'))
}

// runCheck runs one check under its timeout; a check that ignores its
// context is abandoned when the timeout passes.
func runCheck(parent context.Context, c healthCheck) error {
	ctx, cancel := context.WithTimeout(parent, c.timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("panic: %v", p)
			}
		}()
		done <- c.fn(ctx)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
