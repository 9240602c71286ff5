package server

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kitdev/kit/runtime/internal/jsonpath"
	"github.com/kitdev/kit/runtime/kitjson"
)

// Codec encodes and decodes JSON bodies.
type Codec interface {
	Encode(w io.Writer, v any) error
	Decode(r io.Reader, v any) error
}

// JSONCodec is the default codec over encoding/json. The zero value is
// strict: an unknown field or data after the JSON value is an error.
// Lenient accepts both (config server.strictJSON: false).
type JSONCodec struct {
	Lenient bool
}

// Encode writes v as one JSON value followed by a newline.
func (c JSONCodec) Encode(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}

// Decode reads one JSON value into v. An empty input returns io.EOF.
// Errors are rewritten to the messages of DecodeJSON.
func (c JSONCodec) Decode(r io.Reader, v any) error {
	// The recorder keeps the bytes read so that an error of an
	// UnmarshalJSON method can be traced to the value that failed.
	rc := getRecorder(r)
	defer putRecorder(rc)
	dec := json.NewDecoder(rc)
	if !c.Lenient {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		if err == io.EOF {
			return io.EOF
		}
		return decodeError(err, v, rc.data())
	}
	if c.Lenient {
		return nil
	}
	if _, err := dec.Token(); err != io.EOF {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return errTrailingData
	}
	return nil
}

var errTrailingData = &DecodeError{Msg: "body: unexpected data after the JSON value"}

// codecBox is the process-wide codec; builtin marks a JSONCodec, for which
// generated types use their own decoders and encoders (kitjson).
type codecBox struct {
	c                Codec
	builtin, lenient bool
}

var codec atomic.Pointer[codecBox]

func init() { codec.Store(&codecBox{c: JSONCodec{}, builtin: true}) }

// SetGlobalJSONCodec replaces the process-wide codec used by DecodeJSON and
// WriteResponse. It is safe for concurrent use; nil restores JSONCodec{}.
//
// With a JSONCodec (the default, strict or Lenient), generated types are
// decoded and encoded by their generated ReadKitJSON and WriteKitJSON
// methods (package kitjson: exact keys, duplicate keys refused, presence and
// defaults in one pass, no reflection); other values go through
// encoding/json. With any other codec, every value goes through that codec:
// the codec the user chose decides, and generated types then get what
// encoding/json gives them through their UnmarshalJSON (defaults) and
// Validate (enum and any presence).
func SetGlobalJSONCodec(c Codec) {
	box := &codecBox{c: c}
	switch x := c.(type) {
	case nil:
		box.c, box.builtin = JSONCodec{}, true
	case JSONCodec:
		box.builtin, box.lenient = true, x.Lenient
	case *JSONCodec:
		if x != nil {
			box.builtin, box.lenient = true, x.Lenient
		}
	}
	codec.Store(box)
}

// JSON returns the process-wide codec.
func JSON() Codec { return codec.Load().c }

// DecodeError is a request body that could not be decoded; Msg is the
// client-facing message.
type DecodeError struct {
	Msg string
	Err error
}

// Error returns the client-facing message.
func (e *DecodeError) Error() string { return e.Msg }

// Unwrap returns the underlying decoder error, if any.
func (e *DecodeError) Unwrap() error { return e.Err }

// DecodeJSON decodes the request body into v with the process-wide codec.
// An empty body decodes as {}. A body read past its cap returns an error
// wrapping *http.MaxBytesError. Other failures become *DecodeError with the
// messages "<field>: unknown field", "body: unexpected data after the JSON
// value" and "<json path>: expected <type>, got <type>" (path elements
// joined by ": ").
func DecodeJSON(r *http.Request, v any) error {
	box := codec.Load()
	if u, ok := v.(kitjson.Unmarshaler); ok && box.builtin {
		return decodeGenerated(r, u, box.lenient)
	}
	c := box.c
	if r.Body == nil || r.Body == http.NoBody {
		return decodeError(c.Decode(strings.NewReader("{}"), v), v, nil)
	}
	err := c.Decode(r.Body, v)
	if err == nil {
		return nil
	}
	if err == io.EOF {
		return decodeError(c.Decode(strings.NewReader("{}"), v), v, nil)
	}
	return decodeError(err, v, nil)
}

// decodeError rewrites encoding/json errors to client-facing messages; v
// is the decoding target and data the bytes decoded (nil when unknown). It
// leaves *DecodeError and *http.MaxBytesError untouched.
func decodeError(err error, v any, data []byte) error {
	if err == nil {
		return nil
	}
	var de *DecodeError
	var mbe *http.MaxBytesError
	if errors.As(err, &de) || errors.As(err, &mbe) || err == ErrRequestTimeout {
		return err
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return ErrRequestTimeout
	}
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		return &DecodeError{Msg: jsonpath.TypeMismatch(ute, reflect.TypeOf(v), "body"), Err: err}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &DecodeError{Msg: "body: " + se.Error(), Err: err}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &DecodeError{Msg: "body: unexpected end of JSON input", Err: err}
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return &DecodeError{Msg: strings.Trim(rest, `"`) + ": unknown field", Err: err}
	}
	// An error of some UnmarshalJSON (a datetime's, for one) carries no
	// path: find the value that failed.
	if t := reflect.TypeOf(v); data != nil && t != nil {
		if m, ok := jsonpath.UnmarshalerMessage(err, data, t, "body"); ok {
			return &DecodeError{Msg: m, Err: err}
		}
	}
	return err
}

// recorder keeps a copy of what a JSON decoder read (up to max bytes), so
// that a type error can be located in it.
type recorder struct {
	r    io.Reader
	buf  []byte
	over bool
}

const maxRecorded = 1 << 20

func (rc *recorder) Read(p []byte) (int, error) {
	n, err := rc.r.Read(p)
	if n > 0 && !rc.over {
		if len(rc.buf)+n > maxRecorded {
			rc.over = true
		} else {
			rc.buf = append(rc.buf, p[:n]...)
		}
	}
	return n, err
}

// data returns what was read, or nil when it exceeded maxRecorded.
func (rc *recorder) data() []byte {
	if rc.over || len(rc.buf) == 0 {
		return nil
	}
	return rc.buf
}

var recorderPool = sync.Pool{New: func() any { return new(recorder) }}

func getRecorder(r io.Reader) *recorder {
	rc := recorderPool.Get().(*recorder)
	rc.r, rc.buf, rc.over = r, rc.buf[:0], false
	return rc
}

func putRecorder(rc *recorder) {
	rc.r = nil
	if cap(rc.buf) <= 64<<10 {
		recorderPool.Put(rc)
	}
}
