package listener

import (
	"errors"
	"net"
	"strings"
	"testing"
)

func TestServeOnceAddrAndStop(t *testing.T) {
	var s State
	if s.Addr() != "" {
		t.Fatal("Addr before Listen is not empty")
	}
	ln, err := s.Listen("127.0.0.1:0", "")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if s.Addr() != ln.Addr().String() {
		t.Fatalf("Addr %q, want %q", s.Addr(), ln.Addr())
	}
	began := 0
	if ok, err := s.Serve(ln, "pkg", func() { began++ }); !ok || err != nil || began != 1 {
		t.Fatalf("first Serve: ok %v err %v began %d", ok, err, began)
	}
	if ok, err := s.Serve(ln, "pkg", func() { began++ }); ok || err == nil || !strings.HasPrefix(err.Error(), "pkg: ") || began != 1 {
		t.Fatalf("second Serve: ok %v err %v began %d", ok, err, began)
	}
	if !s.Stop() {
		t.Fatal("Stop of a serving state reports false")
	}
	if s.Stop() {
		t.Fatal("second Stop reports true")
	}
}

func TestStopBeforeServeClosesTheListener(t *testing.T) {
	var s State
	ln, err := s.Listen("127.0.0.1:0", "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Stop() {
		t.Fatal("Stop of a state that never served reports true")
	}
	if _, err := ln.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Accept after Stop: %v, want net.ErrClosed", err)
	}
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Serve(other, "pkg", func() { t.Fatal("begin ran after Stop") }); ok || err != nil {
		t.Fatalf("Serve after Stop: ok %v err %v", ok, err)
	}
	if _, err := other.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Serve after Stop left its listener open: %v", err)
	}
}

type fake struct{ served net.Listener }

func (f *fake) Listen(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }
func (f *fake) Serve(l net.Listener) error               { f.served = l; return l.Close() }

func TestStartListensThenServes(t *testing.T) {
	f := &fake{}
	if err := Start(f, "127.0.0.1:0"); err != nil || f.served == nil {
		t.Fatalf("Start: err %v served %v", err, f.served)
	}
	if err := Start(f, "256.0.0.1:0"); err == nil {
		t.Fatal("Start on a bad address: no error")
	}
}
