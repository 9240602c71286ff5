// Command peer serves one of the service benchmark's baselines, the hand-written one
// (-impl hand) or a generated peer (-impl ogen, -impl oapi), on the address given with
// -addr, prints its URL and serves until stdin closes.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"example.com/benchsvc/internal/handwritten"
	"example.com/benchsvc/internal/peers/oapi"
	"example.com/benchsvc/internal/peers/ogen"
)

var impls = map[string]func() http.Handler{
	"hand": handwritten.Handler,
	"ogen": ogen.Handler,
	"oapi": oapi.Handler,
}

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	impl := flag.String("impl", "hand", "implementation: hand, ogen or oapi")
	flag.Parse()
	handler, ok := impls[*impl]
	if !ok {
		fmt.Fprintln(os.Stderr, "unknown -impl", *impl)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Printf("listening on http://%s\n", ln.Addr())
	_, _ = io.Copy(io.Discard, os.Stdin)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
}
