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
	}{
		{"defaults", func(*Server) {}, 30 * time.Second, 0, 32 << 10, 10 * time.Second},
		{"overridden", func(s *Server) {
			s.SetDefaultReadTimeout(5 * time.Second)
			s.SetDefaultWriteTimeout(7 * time.Second)
			s.SetDefaultMaxHeaderSize(8)
		}, 5 * time.Second, 7 * time.Second, 8 << 10, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(nil)
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
				h.ReadHeaderTimeout != tt.rHeader || h.IdleTimeout != 120*time.Second {
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
