package server

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestServerDefaults(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(s *Server)
		read    time.Duration
		write   time.Duration
		header  int
		rHeader time.Duration
		idle    time.Duration
	}{
		{"defaults", func(*Server) {}, 30 * time.Second, 30 * time.Second, 32 << 10, 10 * time.Second, 120 * time.Second},
		{"overridden", func(s *Server) {
			s.SetDefaultReadTimeout(5 * time.Second)
			s.SetDefaultWriteTimeout(7 * time.Second)
			s.SetDefaultMaxHeaderSize(8)
			s.SetDefaultIdleTimeout(9 * time.Second)
		}, 5 * time.Second, 7 * time.Second, 8 << 10, 5 * time.Second, 9 * time.Second},
		{"read header below read", func(s *Server) {
			s.SetDefaultReadHeaderTimeout(2 * time.Second)
		}, 30 * time.Second, 30 * time.Second, 32 << 10, 2 * time.Second, 120 * time.Second},
		{"zero restores the defaults", func(s *Server) {
			s.SetDefaultWriteTimeout(7 * time.Second)
			s.SetDefaultWriteTimeout(0)
			s.SetDefaultReadTimeout(0)
			s.SetDefaultMaxHeaderSize(0)
		}, 30 * time.Second, 30 * time.Second, 32 << 10, 10 * time.Second, 120 * time.Second},
		{"negative removes the bound", func(s *Server) {
			s.SetDefaultWriteTimeout(-1)
			s.SetDefaultReadTimeout(-1)
			s.SetDefaultReadHeaderTimeout(-1)
			s.SetDefaultIdleTimeout(-1)
		}, 0, 0, 32 << 10, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(nil)
			if got := s.maxBody.Load(); got != DefaultMaxBodySize {
				t.Fatalf("body cap %d, want %d", got, DefaultMaxBodySize)
			}
			tt.setup(s)
			ln, err := s.Listen("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- s.Serve(ln) }()
			var h *http.Server
			for i := 0; i < 500 && h == nil; i++ {
				s.mu.Lock()
				h = s.httpServer
				s.mu.Unlock()
				time.Sleep(2 * time.Millisecond)
			}
			if h == nil {
				t.Fatal("server never started")
			}
			if h.ReadTimeout != tt.read || h.WriteTimeout != tt.write || h.MaxHeaderBytes != tt.header ||
				h.ReadHeaderTimeout != tt.rHeader || h.IdleTimeout != tt.idle {
				t.Fatalf("read %v write %v header %d readHeader %v idle %v",
					h.ReadTimeout, h.WriteTimeout, h.MaxHeaderBytes, h.ReadHeaderTimeout, h.IdleTimeout)
			}
			if err := s.Stop(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}
