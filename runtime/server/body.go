package server

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/kitdev/kit/runtime/kitjson"
)

// decodeGenerated reads the whole body (within its cap) and decodes it with
// the generated decoder of v.
func decodeGenerated(r *http.Request, v kitjson.Unmarshaler, lenient bool) error {
	buf := bodyBuffers.Get().(*[]byte)
	defer putBodyBuffer(buf)
	data, err := readBody(r, (*buf)[:0])
	*buf = data
	if err != nil {
		return err
	}
	if err := kitjson.Unmarshal(data, v, lenient); err != nil {
		return &DecodeError{Msg: err.Error(), Err: err}
	}
	return nil
}

var bodyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func putBodyBuffer(b *[]byte) {
	if cap(*b) <= 1<<20 {
		bodyBuffers.Put(b)
	}
}

// readBody appends the request body to buf. A read past the body's cap
// keeps its *http.MaxBytesError (413), a read that timed out becomes
// ErrRequestTimeout (408); another failure is a DecodeError.
func readBody(r *http.Request, buf []byte) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return buf, nil
	}
	if n := r.ContentLength; n > 0 && n <= 1<<20 && int64(cap(buf)) < n {
		buf = make([]byte, 0, n+1) // +1: the read that sees the end
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, bodyReadError(err)
		}
	}
}

func bodyReadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return err
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return ErrRequestTimeout
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &DecodeError{Msg: "body: unexpected end of JSON input", Err: err}
	}
	return &DecodeError{Msg: "body: " + err.Error(), Err: err}
}

// ErrUnsupportedMediaType is the error of a body that is not JSON (415).
var ErrUnsupportedMediaType = errors.New(MsgUnsupportedMediaType)

// ErrRequestTimeout is the error of a body not received within the read
// timeout (408).
var ErrRequestTimeout = errors.New(MsgRequestTimeout)

// DecodeJSONBody is DecodeJSON for a request whose body must be JSON: a
// request with a body (or a Content-Type) that is not application/json or
// a +json type (parameters ignored, case-insensitive) is refused with
// ErrUnsupportedMediaType, which WriteValidationError answers 415. A
// request without a body and without a Content-Type decodes as {}.
// Generated handlers call it for every method whose request has a field
// in the JSON body, so a browser's simple request (text/plain, a form)
// never reaches the logic.
func DecodeJSONBody(r *http.Request, v any) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		if hasBody(r) {
			return ErrUnsupportedMediaType
		}
	} else if !IsJSONMediaType(ct) {
		return ErrUnsupportedMediaType
	}
	return DecodeJSON(r, v)
}

func hasBody(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
}

// IsJSONMediaType reports whether a Content-Type value names JSON:
// application/json or any type with the +json suffix, parameters ignored,
// case-insensitive.
func IsJSONMediaType(ct string) bool {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	ct = strings.TrimSpace(ct)
	slash := strings.IndexByte(ct, '/')
	if slash <= 0 || slash == len(ct)-1 || strings.ContainsAny(ct, " \t") {
		return false
	}
	if strings.EqualFold(ct, "application/json") {
		return true
	}
	const suffix = "+json"
	sub := ct[slash+1:]
	return len(sub) > len(suffix) && strings.EqualFold(sub[len(sub)-len(suffix):], suffix)
}
