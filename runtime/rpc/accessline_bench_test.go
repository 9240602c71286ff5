package rpc

import (
	"context"
	"io"
	"net"
	"os"
	"testing"
	"time"

	grpccodes "google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"

	"github.com/kitdev/kit/runtime/log"
)

// BenchmarkAccessLine splits what a unary call's access line costs (bench/README.md, gRPC
// round 4): the level check alone (logging at warn), the line built and handed to a writer
// that drops it, the line written at once to /dev/null (one write(2) per line, as before
// round 4) and the line held for a batch (as now; the batch is written by the logger's
// goroutine, one write(2) for the lines of calls that end together).
func BenchmarkAccessLine(b *testing.B) {
	ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 50123}})
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	run := func(name string, out io.Writer, level log.Level, hold bool) {
		b.Run(name, func(b *testing.B) {
			prev := log.GetLevel()
			defer log.SetLevel(prev)
			log.SetLevel(level)
			s := NewServer()
			l := log.New(out)
			s.SetLogger(l)
			if !hold {
				// A writer of a logger over a file holds access lines; this one writes each at once.
				l = log.New(struct{ io.Writer }{out})
				s.SetLogger(l)
			}
			start := time.Now()
			b.ReportAllocs()
			for b.Loop() {
				s.logCall(ctx, "/bench.catalog.v1.Catalog/GetItem", grpccodes.OK, start)
			}
			_ = log.FlushLogger(l)
		})
	}
	run("warn-level-check", io.Discard, log.LevelWarn, false)
	run("built-discarded", io.Discard, log.LevelInfo, false)
	run("written-devnull", devNull, log.LevelInfo, false)
	run("held-devnull", devNull, log.LevelInfo, true)
}
