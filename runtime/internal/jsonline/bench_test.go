package jsonline

import (
	"io"
	"log/slog"
	"testing"
	"time"
)

// BenchmarkLine builds and writes an access-log line.
func BenchmarkLine(b *testing.B) {
	sink := &Sink{W: io.Discard, Level: slog.LevelInfo}
	id := []byte("0123456789abcdef")
	b.ReportAllocs()
	for b.Loop() {
		now := time.Now()
		ln := sink.Begin(now, slog.LevelInfo, "http request")
		ln.String("method", "GET")
		ln.String("path", "/users/42")
		ln.String("route", "/users/{id}")
		ln.Int("status", 200)
		ln.Int("bytes", 73)
		ln.Float("duration_ms", 0.012)
		ln.String("remote", "192.0.2.1:1234")
		ln.Hex("trace_id", id)
		ln.String("request_id", "0123456789abcdef0123456789abcdef")
		_ = sink.Write(ln)
	}
}

// BenchmarkEscape escapes a plain 32-byte string.
func BenchmarkEscape(b *testing.B) {
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = AppendEscaped(buf[:0], "0123456789abcdef0123456789abcdef")
	}
}

// BenchmarkAppendTime and BenchmarkAppendFormat compare the cached time
// text with time.RFC3339Nano formatting.
func BenchmarkAppendTime(b *testing.B) {
	buf := make([]byte, 0, 64)
	t := time.Now()
	for b.Loop() {
		buf = AppendTime(buf[:0], t)
	}
}

func BenchmarkAppendFormat(b *testing.B) {
	buf := make([]byte, 0, 64)
	t := time.Now()
	for b.Loop() {
		buf = t.AppendFormat(buf[:0], time.RFC3339Nano)
	}
}
