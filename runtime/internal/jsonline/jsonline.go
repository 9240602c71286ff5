// Package jsonline writes log lines byte for byte as log/slog's JSONHandler
// (without ReplaceAttr or AddSource) would, but appended by hand into a
// pooled buffer: no slog.Record, no boxing, no reflection. The server's
// access log uses it on its hot path when the logger is one built by
// log.New; every other logger takes the slog path.
package jsonline

import (
	"io"
	"log/slog"
	"math"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Sink is the raw-line side of a JSON logger.
type Sink struct {
	// W receives one Write per line.
	W io.Writer
	// Level is the minimum level of the logger.
	Level slog.Leveler
	// Attrs holds the logger's With attributes as formatted by slog:
	// empty, or "," followed by the attributes.
	Attrs []byte
}

// Source is implemented by loggers that can take raw lines. LineSink
// returns nil when this logger cannot (the caller then logs through slog).
type Source interface {
	LineSink() *Sink
}

// Enabled reports whether a line at level l is written.
func (s *Sink) Enabled(l slog.Level) bool {
	min := slog.LevelInfo
	if s.Level != nil {
		min = s.Level.Level()
	}
	return l >= min
}

// Line is a line being built. Get one with Begin, append attributes,
// then call Write.
type Line struct{ b []byte }

var linePool = sync.Pool{New: func() any { return &Line{b: make([]byte, 0, 512)} }}

// Begin starts a line with the time, level and message keys and the
// logger's With attributes.
func (s *Sink) Begin(t time.Time, l slog.Level, msg string) *Line {
	ln := linePool.Get().(*Line)
	b := append(ln.b[:0], `{"time":"`...)
	b = AppendTime(b, t)
	b = append(b, `","level":"`...)
	b = AppendEscaped(b, l.String())
	b = append(b, `","msg":"`...)
	b = AppendEscaped(b, msg)
	b = append(b, '"')
	b = append(b, s.Attrs...)
	ln.b = b
	return ln
}

// String appends "key":"value". key must not need escaping.
func (ln *Line) String(key, v string) {
	b := append(ln.b, ',', '"')
	b = append(b, key...)
	b = append(b, `":"`...)
	b = AppendEscaped(b, v)
	ln.b = append(b, '"')
}

// Int appends "key":v.
func (ln *Line) Int(key string, v int64) {
	b := append(ln.b, ',', '"')
	b = append(b, key...)
	b = append(b, `":`...)
	ln.b = strconv.AppendInt(b, v, 10)
}

// Float appends "key":v formatted as encoding/json formats a float64.
func (ln *Line) Float(key string, v float64) {
	b := append(ln.b, ',', '"')
	b = append(b, key...)
	b = append(b, `":`...)
	ln.b = AppendFloat(b, v)
}

// Millis appends "key":<us/1000> for a number of microseconds, written as
// Float(key, float64(us)/1000) writes it, without float formatting.
func (ln *Line) Millis(key string, us int64) {
	if us < 0 || us >= 1<<50 {
		ln.Float(key, float64(us)/1000)
		return
	}
	b := append(ln.b, ',', '"')
	b = append(b, key...)
	b = append(b, `":`...)
	b = strconv.AppendInt(b, us/1000, 10)
	if frac := us % 1000; frac != 0 {
		d := [4]byte{'.', byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
		n := 4
		for d[n-1] == '0' {
			n--
		}
		b = append(b, d[:n]...)
	}
	ln.b = b
}

// Hex appends "key":"<lower-case hex of v>".
func (ln *Line) Hex(key string, v []byte) {
	const digits = "0123456789abcdef"
	b := append(ln.b, ',', '"')
	b = append(b, key...)
	b = append(b, `":"`...)
	for _, c := range v {
		b = append(b, digits[c>>4], digits[c&0xf])
	}
	ln.b = append(b, '"')
}

// AddrPort appends "key":"<ap>" as ap.String() writes it, without building the string.
// ap's text needs no escaping: digits, hex, '.', ':', brackets and a zone, which the caller
// leaves out (a zone is free text).
func (ln *Line) AddrPort(key string, ap netip.AddrPort) {
	b := append(ln.b, ',', '"')
	b = append(b, key...)
	b = append(b, `":"`...)
	b = ap.AppendTo(b)
	ln.b = append(b, '"')
}

// Write ends the line, writes it to s.W in one Write and recycles the
// line.
func (s *Sink) Write(ln *Line) error {
	ln.b = append(ln.b, '}', '\n')
	_, err := s.W.Write(ln.b)
	ln.recycle()
	return err
}

// Hold ends the line and hands it to s.W's Hold when W is a LockedWriter
// (which may hold it for a batch: see LockedWriter.Hold), else writes it as
// Write does; it recycles the line.
func (s *Sink) Hold(ln *Line) error {
	lw, ok := s.W.(*LockedWriter)
	if !ok {
		return s.Write(ln)
	}
	ln.b = append(ln.b, '}', '\n')
	err := lw.Hold(ln.b)
	ln.recycle()
	return err
}

// Flush writes the lines s.W holds (see LockedWriter.Flush); nil when W
// holds none.
func (s *Sink) Flush() error {
	if lw, ok := s.W.(*LockedWriter); ok {
		return lw.Flush()
	}
	return nil
}

func (ln *Line) recycle() {
	if cap(ln.b) <= 16<<10 {
		linePool.Put(ln)
	}
}

// clock caches the text of one second of one location: formatting the
// date, the clock and the zone is most of the cost of a line, and lines
// come many per second.
type clock struct {
	sec  int64
	loc  *time.Location
	head [19]byte // 2006-01-02T15:04:05
	zone string   // Z or +07:00
}

var lastClock atomic.Pointer[clock]

// AppendTime appends t as time.RFC3339Nano formats it (slog's JSONHandler
// time), reusing the text of the date, clock and zone within a second.
func AppendTime(b []byte, t time.Time) []byte {
	sec, loc := t.Unix(), t.Location()
	c := lastClock.Load()
	if c == nil || c.sec != sec || c.loc != loc {
		if y := t.Year(); y < 0 || y > 9999 {
			return t.Round(0).AppendFormat(b, time.RFC3339Nano)
		}
		txt := t.Truncate(time.Second).AppendFormat(make([]byte, 0, 32), time.RFC3339)
		c = &clock{sec: sec, loc: loc, zone: string(txt[19:])}
		copy(c.head[:], txt[:19])
		lastClock.Store(c)
	}
	b = append(b, c.head[:]...)
	if ns := t.Nanosecond(); ns != 0 {
		var frac [10]byte
		frac[0] = '.'
		for i := 9; i > 0; i-- {
			frac[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for frac[n-1] == '0' {
			n--
		}
		b = append(b, frac[:n]...)
	}
	return append(b, c.zone...)
}

// AppendFloat appends a finite f as encoding/json (and so slog's
// JSONHandler) writes a float64.
func AppendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// safe marks the ASCII bytes written as they are in a JSON string.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plain8 reports whether the 8 bytes of s are ASCII written as they are
// in a JSON string: none is below 0x20, '"', '\\' or non-ASCII.
func plain8(s string) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	q := x ^ ('"' * lo)
	bs := x ^ ('\\' * lo)
	t := (x - 0x20*lo) & ^x // a byte below 0x20
	t |= (q - lo) & ^q      // a quote
	t |= (bs - lo) & ^bs    // a backslash
	t |= x                  // a byte with the high bit set
	return t&hi == 0
}

// AppendEscaped appends s escaped for a JSON string, without quotes, the
// way slog's JSONHandler escapes (encoding/json without HTML escaping).
func AppendEscaped(b []byte, s string) []byte {
	const digits = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		// Skip eight plain bytes at a time.
		for i+8 <= len(s) && plain8(s[i:i+8]) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', digits[c>>4], digits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', digits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}
