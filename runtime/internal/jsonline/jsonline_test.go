package jsonline

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"testing"
	"time"
	"unicode/utf8"
)

// The hand-made line must be byte for byte what slog's JSONHandler writes.
func TestSameBytesAsSlog(t *testing.T) {
	strs := []string{
		"", "plain", `quote " and \ backslash`, "tab\tnl\ncr\r", "ctrl \x00\x01\x1f\x7f",
		"<html> & 'x'", "é ü 日本", "bad \xff\xfe utf8", "sep \u2028 \u2029", "emoji 🙂",
		"/users/{id}", "[::1]:8080",
	}
	floats := []float64{0, 0.001, 0.012, 1, 1.5, 12.345, 1234.567, 1e6, 123456789.123,
		1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 1.5e22, -0.5, -1e-9, math.MaxFloat64, math.SmallestNonzeroFloat64}
	ints := []int64{0, 1, -1, 200, 499, 1 << 40, math.MinInt64, math.MaxInt64}
	times := []time.Time{
		time.Date(2026, 11, 22, 7, 11, 10, 0, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 120000000, time.FixedZone("x", 5*3600+1800)),
		time.Date(1999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("y", -8*3600)),
		time.Date(2026, 1, 2, 3, 4, 5, 100, time.FixedZone("z", 0)),
		time.Date(2026, 1, 2, 3, 4, 5, 999000000, time.UTC), // same second, other zone
		time.Date(2026, 1, 2, 3, 4, 5, 1, time.FixedZone("w", -(9*3600+30*60))),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Now(), // monotonic reading and local zone
		time.Now().Add(time.Second),
	}
	levels := []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError, slog.LevelInfo + 2}
	for i, tm := range times {
		for j, lv := range levels {
			for k, s := range strs {
				f := floats[(i+j+k)%len(floats)]
				n := ints[(i+j+k)%len(ints)]
				var want bytes.Buffer
				h := slog.NewJSONHandler(&want, &slog.HandlerOptions{Level: slog.LevelDebug})
				r := slog.NewRecord(tm, lv, s, 0)
				r.AddAttrs(slog.String("s", s), slog.Int64("n", n), slog.Float64("f", f),
					slog.String("id", "0123456789abcdef0123456789abcdef"))
				if err := h.Handle(context.Background(), r); err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				sink := &Sink{W: &got, Level: slog.LevelDebug}
				ln := sink.Begin(tm, lv, s)
				ln.String("s", s)
				ln.Int("n", n)
				ln.Float("f", f)
				ln.Hex("id", []byte{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef})
				if err := sink.Write(ln); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Fatalf("\ngot  %s\nwant %s", got.String(), want.String())
				}
			}
		}
	}
}

func TestSinkAttrsAndLevel(t *testing.T) {
	var lv slog.LevelVar
	lv.Set(slog.LevelWarn)
	var out bytes.Buffer
	sink := &Sink{W: &LockedWriter{W: &out}, Level: &lv, Attrs: []byte(`,"svc":"a"`)}
	if sink.Enabled(slog.LevelInfo) || !sink.Enabled(slog.LevelWarn) {
		t.Fatal("level not applied")
	}
	tm := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ln := sink.Begin(tm, slog.LevelWarn, "m")
	ln.Int("k", 1)
	_ = sink.Write(ln)
	if want := `{"time":"2026-01-01T00:00:00Z","level":"WARN","msg":"m","svc":"a","k":1}` + "\n"; out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
	if (&Sink{}).Enabled(slog.LevelDebug) {
		t.Fatal("a sink without level is at info")
	}
}

func TestPlain8(t *testing.T) {
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			want := c < utf8.RuneSelf && safe[c]
			if got := plain8(string(b)); got != want {
				t.Fatalf("plain8(%q) = %v", b, got)
			}
		}
	}
}

// slogString is how slog's JSONHandler writes the string attribute s.
func slogString(s string) string {
	var buf bytes.Buffer
	r := slog.NewRecord(time.Time{}, slog.LevelInfo, "", 0)
	r.AddAttrs(slog.String("k", s))
	_ = slog.NewJSONHandler(&buf, nil).Handle(context.Background(), r)
	out := buf.String()
	return out[len(`{"level":"INFO","msg":"","k":"`) : len(out)-len("\"}\n")]
}

func FuzzAppendEscaped(f *testing.F) {
	for _, s := range []string{"", "plain ascii text!", "a\"b\\c\x00\x1f\x7f", "é\u2028\u2029\xff🙂", "12345678\n12345678"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendEscaped(nil, s)), slogString(s); got != want {
			t.Fatalf("AppendEscaped(%q) = %q, slog writes %q", s, got, want)
		}
	})
}

func TestMillisSameAsFloat(t *testing.T) {
	us := []int64{0, 1, 9, 10, 12, 100, 999, 1000, 1001, 1010, 1100, 1500, 12345, 999999, 1000000,
		86400000000, 1<<50 - 1, 1 << 50, 1<<62 + 7, -1, -1500}
	for i := int64(0); i < 100000; i += 7 {
		us = append(us, i, i*1009, i*i*31)
	}
	for _, u := range us {
		var a, b Line
		a.Millis("d", u)
		b.Float("d", float64(u)/1000)
		if string(a.b) != string(b.b) {
			t.Fatalf("%d us: %s, want %s", u, a.b, b.b)
		}
	}
}
