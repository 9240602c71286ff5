package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/internal/reqctx"
	"github.com/kitdev/kit/runtime/kitjson"
	"github.com/kitdev/kit/runtime/log"
)

// Framework error messages.
const (
	MsgNotFound            = "not found"
	MsgMethodNotAllowed    = "method not allowed"
	MsgEntityTooLarge      = "request entity too large"
	MsgInternalServerError = "internal server error"
	MsgGatewayTimeout      = "gateway timeout"
	// MsgUnsupportedMediaType answers a body that is not JSON (415).
	MsgUnsupportedMediaType = "unsupported media type"
	// MsgRequestTimeout answers a request not received in time (408).
	MsgRequestTimeout = "request timeout"
)

// StatusClientClosedRequest is the status the access log records when the
// client went away before a response was written.
const StatusClientClosedRequest = 499

// HTTPError is implemented by typed errors generated from the DSL. They
// also implement json.Marshaler and, when they carry @header/@cookie
// fields, ResponseHeaderWriter.
type HTTPError interface {
	error
	HTTPStatus() int
	ErrCode() string
}

// ResponseHeaderWriter is implemented by typed errors that write response
// headers or cookies.
type ResponseHeaderWriter interface {
	WriteResponseHeaders(w http.ResponseWriter)
}

type httpStatuser interface{ HTTPStatus() int }

// WriteFrameworkError writes {"message": message} with status, the JSON
// content type and X-Content-Type-Options: nosniff. Every error the
// framework itself answers goes through it.
func WriteFrameworkError(w http.ResponseWriter, status int, message string) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(messageBody(message))
}

func messageBody(message string) []byte {
	switch message {
	case MsgNotFound:
		return bodyNotFound
	case MsgInternalServerError:
		return bodyInternal
	}
	b := make([]byte, 0, len(`{"message":""}`)+len(message)+8)
	b = append(b, `{"message":`...)
	b = kitjson.AppendString(b, message) // as encoding/json escapes it
	return append(b, '}', '\n')
}

var (
	bodyNotFound = []byte(`{"message":"not found"}` + "\n")
	bodyInternal = []byte(`{"message":"internal server error"}` + "\n")
)

// responseStarted reports whether a status was already committed on w.
func responseStarted(w http.ResponseWriter, r *http.Request) bool {
	var ctx context.Context = context.Background()
	if r != nil {
		ctx = r.Context()
	}
	rw := reqctx.Find(w, ctx)
	return rw != nil && rw.Started()
}

func reqLogger(r *http.Request) log.Logger {
	if r == nil {
		return log.Default()
	}
	l := log.FromContext(r.Context())
	args := []any{"method", r.Method, "path", r.URL.Path}
	if p := reqctx.From(r.Context()).Route(); p != "" {
		args = append(args, "route", p)
	} else if r.Pattern != "" {
		args = append(args, "route", reqctx.Route(r.Pattern))
	}
	return l.With(args...)
}

type errHook struct {
	fn func(w http.ResponseWriter, r *http.Request, err error)
}

var (
	validationHook atomic.Pointer[errHook]
	unknownHook    atomic.Pointer[errHook]
)

// SetDefaultValidationFailed replaces the process-wide answer to a decode
// or validation failure (default: 400 {"message": err.Error()}). Nil
// restores the default. The hook is not called for an over-cap body (413)
// nor after the response started.
func SetDefaultValidationFailed(hook func(w http.ResponseWriter, r *http.Request, err error)) {
	if hook == nil {
		validationHook.Store(nil)
		return
	}
	validationHook.Store(&errHook{fn: hook})
}

// SetHandleUnknownError replaces the process-wide answer to an error that
// is neither typed, nor a deadline, nor a client-gone error (default: log
// "unhandled service error" with trace ids, then 500 {"message":"internal
// server error"}). Nil restores the default.
func SetHandleUnknownError(fn func(w http.ResponseWriter, r *http.Request, err error)) {
	if fn == nil {
		unknownHook.Store(nil)
		return
	}
	unknownHook.Store(&errHook{fn: fn})
}

// WriteValidationError answers a decode or validation failure: 413
// {"message":"request entity too large"} when err wraps
// *http.MaxBytesError, 415 for ErrUnsupportedMediaType, 408 for
// ErrRequestTimeout (framework refusals, not the hook's), else the
// validation hook (default 400 {"message": err.Error()}). When the response
// already started it only logs.
func WriteValidationError(w http.ResponseWriter, r *http.Request, err error) {
	if err == nil {
		return
	}
	if responseStarted(w, r) {
		reqLogger(r).Warn("validation error after response started", "error", err.Error())
		return
	}
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		WriteFrameworkError(w, http.StatusRequestEntityTooLarge, MsgEntityTooLarge)
		return
	case err == ErrUnsupportedMediaType:
		WriteFrameworkError(w, http.StatusUnsupportedMediaType, MsgUnsupportedMediaType)
		return
	case err == ErrRequestTimeout:
		w.Header().Set("Connection", "close")
		WriteFrameworkError(w, http.StatusRequestTimeout, MsgRequestTimeout)
		return
	}
	if h := validationHook.Load(); h != nil {
		h.fn(w, r, err)
		return
	}
	WriteFrameworkError(w, http.StatusBadRequest, err.Error())
}

// WriteError answers an error returned by logic:
//   - a context error while the client has gone (the request context is
//     cancelled): nothing is written and the access log records 499;
//   - an error wrapping context.DeadlineExceeded: 504 {"message":"gateway
//     timeout"};
//   - a NotImplementedError (a fresh logic stub): 501 {"message":"<Method>
//     is not implemented yet"};
//   - an error with HTTPStatus() int (typed DSL errors, found with
//     errors.As): its WriteResponseHeaders if any, then its status and its
//     JSON body;
//   - anything else: the unknown-error handler (SetHandleUnknownError).
//
// When the response already started it only logs.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	if err == nil {
		return
	}
	isCanceled := errors.Is(err, context.Canceled)
	isDeadline := errors.Is(err, context.DeadlineExceeded)
	if (isCanceled || isDeadline) && r != nil && clientGone(r) {
		reqctx.From(r.Context()).MarkClientGone()
		return
	}
	if responseStarted(w, r) {
		reqLogger(r).Warn("error after response started", "error", err.Error())
		return
	}
	if isDeadline {
		WriteFrameworkError(w, http.StatusGatewayTimeout, MsgGatewayTimeout)
		return
	}
	if writeNotImplemented(w, err) {
		return
	}
	var hs httpStatuser
	if errors.As(err, &hs) {
		if writeTyped(w, hs) {
			return
		}
		err = typedEncodeError{err}
	}
	if h := unknownHook.Load(); h != nil {
		h.fn(w, r, err)
		return
	}
	defaultUnknownError(w, r, err)
}

type typedEncodeError struct{ error }

func (e typedEncodeError) Unwrap() error { return e.error }

// clientGone reports whether the request context was cancelled because the
// client went away (not because a handler deadline passed).
func clientGone(r *http.Request) bool {
	return errors.Is(r.Context().Err(), context.Canceled)
}

func writeTyped(w http.ResponseWriter, hs httpStatuser) bool {
	body, err := json.Marshal(hs)
	if err != nil {
		return false
	}
	if hw, ok := hs.(ResponseHeaderWriter); ok {
		hw.WriteResponseHeaders(w)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(hs.HTTPStatus())
	_, _ = w.Write(append(body, '\n'))
	return true
}

func defaultUnknownError(w http.ResponseWriter, r *http.Request, err error) {
	logUnhandled(r, err)
	WriteFrameworkError(w, http.StatusInternalServerError, MsgInternalServerError)
}

func logUnhandled(r *http.Request, err error) {
	if r != nil {
		trace.SpanFromContext(r.Context()).RecordError(err)
	}
	reqLogger(r).Error("unhandled service error", "error", err.Error())
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// WriteResponse encodes v with the process-wide codec into a buffer, then
// writes Content-Type: application/json; charset=utf-8, status and the
// body. An encoding failure (for example a NaN float) answers 500
// {"message":"internal server error"} and logs "unhandled service error".
// Status 204 and 304 write no body.
//
// A generated type is written by its WriteKitJSON method while the codec is
// a JSONCodec; with another codec its FillEmpty method (required nil lists,
// maps and bytes as [], {} and "") runs before the codec encodes it.
func WriteResponse(w http.ResponseWriter, r *http.Request, status int, v any) {
	if status == 0 {
		status = http.StatusOK
	}
	if status == http.StatusNoContent || status == http.StatusNotModified {
		w.WriteHeader(status)
		return
	}
	box := codec.Load()
	if m, ok := v.(kitjson.Marshaler); ok && box.builtin {
		writeGenerated(w, r, status, m)
		return
	}
	if f, ok := v.(interface{ FillEmpty() }); ok {
		f.FillEmpty()
	}
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 64<<10 {
			bufPool.Put(buf)
		}
	}()
	if err := box.c.Encode(buf, v); err != nil {
		logUnhandled(r, err)
		if !responseStarted(w, r) {
			WriteFrameworkError(w, http.StatusInternalServerError, MsgInternalServerError)
		}
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

func writeGenerated(w http.ResponseWriter, r *http.Request, status int, m kitjson.Marshaler) {
	e := kitjson.NewEncoder()
	defer e.Release()
	m.WriteKitJSON(e)
	if err := e.Err(); err != nil {
		logUnhandled(r, err)
		if !responseStarted(w, r) {
			WriteFrameworkError(w, http.StatusInternalServerError, MsgInternalServerError)
		}
		return
	}
	e.Raw("\n")
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	_, _ = w.Write(e.Bytes())
}

// jsonContentType is the Content-Type header value of every JSON answer, shared so
// that setting it does not allocate. Its capacity is its length: an Add appends to
// a new array, never into this one.
var jsonContentType = []string{"application/json; charset=utf-8"}[:1:1]
