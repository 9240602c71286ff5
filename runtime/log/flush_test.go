package log_test

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/internal/jsonline"
	"github.com/kitdev/kit/runtime/log"
)

// A logger over a file holds the servers' access lines for a batch: FlushLogger (and
// Flush, for the default logger) writes them out, and a line logged at once comes after
// them.
func TestFlushWritesTheHeldAccessLines(t *testing.T) {
	// One P: the logger's writer goroutine cannot write the held line on its own first.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f, err := os.CreateTemp(t.TempDir(), "log-*.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l := log.New(f)
	sink := l.(jsonline.Source).LineSink()
	ln := sink.Begin(time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC), log.LevelInfo, "grpc request")
	ln.String("method", "/a.B/C")
	if err := sink.Hold(ln); err != nil {
		t.Fatal(err)
	}
	read := func() string {
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := read(); got != "" {
		t.Fatalf("the access line was written at once: %q", got)
	}
	if err := log.FlushLogger(l); err != nil {
		t.Fatal(err)
	}
	want := `{"time":"2026-11-28T06:00:00Z","level":"INFO","msg":"grpc request","method":"/a.B/C"}` + "\n"
	if got := read(); got != want {
		t.Fatalf("after FlushLogger: %q, want %q", got, want)
	}

	ln = sink.Begin(time.Date(2026, 11, 28, 6, 0, 1, 0, time.UTC), log.LevelInfo, "grpc request")
	if err := sink.Hold(ln); err != nil {
		t.Fatal(err)
	}
	l.Error("after")
	lines := strings.Split(strings.TrimSuffix(read(), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `"time":"2026-11-28T06:00:01Z"`) || !strings.Contains(lines[2], `"msg":"after"`) {
		t.Fatalf("lines %q: the held line should come before the one logged after it", lines)
	}

	prev := log.Default()
	defer log.SetDefault(prev)
	log.SetDefault(l)
	_ = sink.Hold(sink.Begin(time.Now(), log.LevelInfo, "grpc request"))
	if err := log.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(read(), "\n"); n != 4 {
		t.Fatalf("%d lines after Flush, want 4", n)
	}
}
