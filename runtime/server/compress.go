package server

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// CompressOptions configures Compress (config server.compression).
type CompressOptions struct {
	// Level is the compression level, 1 (fastest) to 9 (best); 0 uses the
	// library default.
	Level int
	// MinSize is the smallest body, in bytes, that is compressed; 0 means
	// 1024. Smaller bodies are sent as they are.
	MinSize int
	// ContentTypes lists the media types to compress ("text/*" matches a
	// whole family). Empty means text/*, JSON, XML, YAML, JavaScript and
	// SVG, with +json and +xml suffixes.
	ContentTypes []string
}

// Compress compresses responses with gzip or deflate, as the request's
// Accept-Encoding prefers (gzip on a tie). It adds Vary: Accept-Encoding,
// drops Content-Length of compressed responses, and leaves alone HEAD
// requests, bodiless statuses, partial content, responses that already
// have a Content-Encoding, non-compressible content types and bodies below
// MinSize.
func Compress(o CompressOptions) Middleware {
	c := newCompressor(o)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add("Vary", "Accept-Encoding")
			enc := negotiateEncoding(r.Header.Get("Accept-Encoding"))
			if enc == "" || r.Method == http.MethodHead {
				next.ServeHTTP(w, r)
				return
			}
			cw := &compressWriter{ResponseWriter: w, c: c, enc: enc}
			defer cw.finish()
			next.ServeHTTP(cw, r)
		})
	}
}

type compressor struct {
	level   int
	minSize int
	types   []string
	gzPool  sync.Pool
	flPool  sync.Pool
}

func newCompressor(o CompressOptions) *compressor {
	c := &compressor{level: o.Level, minSize: o.MinSize, types: o.ContentTypes}
	if c.level < gzip.HuffmanOnly || c.level > gzip.BestCompression || c.level == 0 {
		c.level = gzip.DefaultCompression
	}
	if c.minSize <= 0 {
		c.minSize = 1024
	}
	if len(c.types) == 0 {
		c.types = []string{
			"text/*", "application/json", "application/javascript", "application/xml",
			"application/yaml", "application/x-yaml", "image/svg+xml", "+json", "+xml",
		}
	}
	level := c.level
	c.gzPool.New = func() any {
		zw, _ := gzip.NewWriterLevel(io.Discard, level)
		return zw
	}
	c.flPool.New = func() any {
		zw, _ := flate.NewWriter(io.Discard, level)
		return zw
	}
	return c
}

func (c *compressor) compressible(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	for _, t := range c.types {
		switch {
		case strings.HasPrefix(t, "+"):
			if strings.HasSuffix(mt, t) {
				return true
			}
		case strings.HasSuffix(t, "/*"):
			if strings.HasPrefix(mt, t[:len(t)-1]) {
				return true
			}
		case mt == t:
			return true
		}
	}
	return false
}

// negotiateEncoding picks gzip or deflate from an Accept-Encoding value,
// or "" for none.
func negotiateEncoding(accept string) string {
	if accept == "" {
		return ""
	}
	var gz, fl, star float64 = -1, -1, -1
	for part := range strings.SplitSeq(accept, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "gzip", "x-gzip":
			gz = q
		case "deflate":
			fl = q
		case "*":
			star = q
		}
	}
	if gz < 0 {
		gz = star
	}
	if fl < 0 {
		fl = star
	}
	switch {
	case gz > 0 && gz >= fl:
		return "gzip"
	case fl > 0:
		return "deflate"
	}
	return ""
}

type encoder interface {
	io.Writer
	Flush() error
	Close() error
	Reset(io.Writer)
}

const (
	modeUndecided = iota
	modePlain
	modeCompress
)

type compressWriter struct {
	http.ResponseWriter
	c      *compressor
	enc    string
	status int
	mode   int
	buf    []byte
	zw     encoder
}

func (cw *compressWriter) WriteHeader(code int) {
	if cw.mode != modeUndecided || cw.status != 0 {
		if cw.mode == modePlain {
			cw.ResponseWriter.WriteHeader(code)
		}
		return
	}
	if code >= 100 && code < 200 && code != http.StatusSwitchingProtocols {
		cw.ResponseWriter.WriteHeader(code)
		return
	}
	cw.status = code
	if !cw.eligibleHeader() {
		cw.startPlain()
	}
}

// eligibleHeader checks what is known before the body.
func (cw *compressWriter) eligibleHeader() bool {
	switch cw.status {
	case http.StatusNoContent, http.StatusNotModified, http.StatusPartialContent, http.StatusSwitchingProtocols:
		return false
	}
	h := cw.Header()
	if h.Get("Content-Encoding") != "" || h.Get("Content-Range") != "" {
		return false
	}
	if ct := h.Get("Content-Type"); ct != "" && !cw.c.compressible(ct) {
		return false
	}
	return true
}

func (cw *compressWriter) Write(b []byte) (int, error) {
	switch cw.mode {
	case modePlain:
		return cw.ResponseWriter.Write(b)
	case modeCompress:
		return cw.zw.Write(b)
	}
	if cw.status == 0 {
		cw.status = http.StatusOK
	}
	if !cw.eligibleHeader() {
		cw.startPlain()
		return cw.ResponseWriter.Write(b)
	}
	cw.buf = append(cw.buf, b...)
	if len(cw.buf) >= cw.c.minSize {
		if err := cw.start(); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// start decides with a body in hand: compress when the (possibly sniffed)
// content type allows.
func (cw *compressWriter) start() error {
	h := cw.Header()
	if h.Get("Content-Type") == "" && len(cw.buf) > 0 {
		h.Set("Content-Type", http.DetectContentType(cw.buf))
	}
	if !cw.eligibleHeader() || len(cw.buf) == 0 {
		return cw.startPlain()
	}
	h.Set("Content-Encoding", cw.enc)
	h.Del("Content-Length")
	if cw.enc == "gzip" {
		cw.zw = cw.c.gzPool.Get().(*gzip.Writer)
	} else {
		cw.zw = cw.c.flPool.Get().(*flate.Writer)
	}
	cw.zw.Reset(cw.ResponseWriter)
	cw.mode = modeCompress
	cw.ResponseWriter.WriteHeader(cw.status)
	buf := cw.buf
	cw.buf = nil
	_, err := cw.zw.Write(buf)
	return err
}

func (cw *compressWriter) startPlain() error {
	cw.mode = modePlain
	if cw.status != 0 {
		cw.ResponseWriter.WriteHeader(cw.status)
	}
	if len(cw.buf) > 0 {
		buf := cw.buf
		cw.buf = nil
		_, err := cw.ResponseWriter.Write(buf)
		return err
	}
	return nil
}

// finish sends what is buffered and closes the encoder.
func (cw *compressWriter) finish() {
	switch cw.mode {
	case modeUndecided:
		_ = cw.startPlain()
	case modeCompress:
		_ = cw.zw.Close()
		cw.zw.Reset(io.Discard)
		if cw.enc == "gzip" {
			cw.c.gzPool.Put(cw.zw)
		} else {
			cw.c.flPool.Put(cw.zw)
		}
		cw.zw = nil
	}
}

// Flush sends what is buffered (compressed when eligible, whatever its
// size) and flushes the connection.
func (cw *compressWriter) Flush() {
	if cw.mode == modeUndecided {
		if cw.status == 0 {
			cw.status = http.StatusOK
		}
		if len(cw.buf) > 0 && cw.eligibleHeader() {
			_ = cw.start()
		} else {
			_ = cw.startPlain()
		}
	}
	if cw.mode == modeCompress {
		_ = cw.zw.Flush()
	}
	_ = http.NewResponseController(cw.ResponseWriter).Flush()
}

func (cw *compressWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(cw.ResponseWriter).Hijack()
}

// Unwrap returns the wrapped writer (for http.ResponseController).
func (cw *compressWriter) Unwrap() http.ResponseWriter { return cw.ResponseWriter }
