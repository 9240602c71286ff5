package rpc

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/otel/trace"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kitdev/kit/runtime/log"
)

// MsgInternal is the opaque message of an Internal status answered for an
// unknown error or a panic; the real cause is only logged.
const MsgInternal = "internal error"

// httpStatuser is implemented by every error declared in the DSL.
type httpStatuser interface{ HTTPStatus() int }

// errCoder is implemented by every error declared in the DSL.
type errCoder interface{ ErrCode() string }

// CodeForHTTPStatus maps an HTTP status to the gRPC code the spec's table
// gives it; a status outside the table is codes.Unknown.
func CodeForHTTPStatus(httpStatus int) codes.Code {
	switch httpStatus {
	case http.StatusBadRequest, http.StatusNotAcceptable, http.StatusLengthRequired,
		http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity:
		return codes.InvalidArgument
	case http.StatusUnauthorized:
		return codes.Unauthenticated
	case http.StatusPaymentRequired, http.StatusPreconditionFailed, http.StatusLocked:
		return codes.FailedPrecondition
	case http.StatusForbidden:
		return codes.PermissionDenied
	case http.StatusNotFound, http.StatusGone:
		return codes.NotFound
	case http.StatusMethodNotAllowed, http.StatusNotImplemented:
		return codes.Unimplemented
	case http.StatusRequestTimeout, http.StatusGatewayTimeout:
		return codes.DeadlineExceeded
	case http.StatusConflict:
		return codes.AlreadyExists
	case http.StatusRequestEntityTooLarge, http.StatusTooManyRequests:
		return codes.ResourceExhausted
	case http.StatusInternalServerError:
		return codes.Internal
	case http.StatusBadGateway, http.StatusServiceUnavailable:
		return codes.Unavailable
	}
	return codes.Unknown
}

// Error maps an error returned by logic to the status the caller receives:
//
//  1. nil stays nil;
//  2. a status error, or an error wrapping one, passes unchanged;
//  3. an error with an HTTPStatus() int method (every DSL-declared error,
//     found with errors.As) becomes the code of CodeForHTTPStatus with that
//     error's own message (not the text of an error wrapping it, which may
//     carry internal context) and, when it
//     has ErrCode() string, an ErrorInfo detail whose reason is that code
//     and whose domain is the gRPC service of the call; it is not logged;
//  4. context.Canceled and context.DeadlineExceeded (or errors wrapping
//     them) become Canceled and DeadlineExceeded;
//  5. anything else goes to the unknown-error handler (SetHandleUnknownError);
//     the default logs "unhandled service error" with the trace ids of ctx
//     and answers Internal with the opaque MsgInternal.
func Error(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	var hs httpStatuser
	if errors.As(err, &hs) {
		return typedStatus(ctx, hs)
	}
	switch {
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	}
	if h := unknownHook.Load(); h != nil {
		return h.fn(ctx, err)
	}
	return defaultUnknownError(ctx, err)
}

// typedStatus answers the typed error hs found in err with its own message,
// as the HTTP side writes the found error's own body: the text of a wrapper
// (fmt.Errorf("loading order 42: %w", ErrConflict)) is context for the
// logs, not for the caller.
func typedStatus(ctx context.Context, hs httpStatuser) error {
	st := status.New(CodeForHTTPStatus(hs.HTTPStatus()), typedMessage(hs))
	ec, ok := hs.(errCoder)
	if !ok {
		return st.Err()
	}
	info := &errdetails.ErrorInfo{Reason: ec.ErrCode(), Domain: ServiceOf(ctx)}
	if withInfo, derr := st.WithDetails(info); derr == nil {
		st = withInfo
	}
	return st.Err()
}

// typedMessage is the typed error's own text; errors.As only finds error
// values, so hs is always one.
func typedMessage(hs httpStatuser) string {
	if e, ok := hs.(error); ok {
		return e.Error()
	}
	return ""
}

// ServiceOf returns the full name of the gRPC service of the call carried
// by ctx ("shop.v1.Orders" for "/shop.v1.Orders/Get"), or "".
func ServiceOf(ctx context.Context) string {
	method, ok := grpc.Method(ctx)
	if !ok {
		return ""
	}
	method = strings.TrimPrefix(method, "/")
	if i := strings.LastIndexByte(method, '/'); i >= 0 {
		return method[:i]
	}
	return method
}

type unknownErrHook struct {
	fn func(ctx context.Context, err error) error
}

var unknownHook atomic.Pointer[unknownErrHook]

// SetHandleUnknownError replaces, for the whole process, the answer to an
// error Error cannot map (neither a status, nor typed, nor a context error).
// fn returns the error the caller receives (a status error). Nil restores
// the default: log "unhandled service error" with trace ids, answer
// Internal with MsgInternal.
func SetHandleUnknownError(fn func(ctx context.Context, err error) error) {
	if fn == nil {
		unknownHook.Store(nil)
		return
	}
	unknownHook.Store(&unknownErrHook{fn: fn})
}

func defaultUnknownError(ctx context.Context, err error) error {
	trace.SpanFromContext(ctx).RecordError(err)
	args := []any{"error", err.Error()}
	if m, ok := grpc.Method(ctx); ok {
		args = append(args, "method", m)
	}
	log.FromContext(ctx).Error("unhandled service error", args...)
	return status.Error(codes.Internal, MsgInternal)
}

// validator is the method protoc plugins such as protoc-gen-validate (or a
// hand-written method in the pb package) give a message.
type validator interface{ Validate() error }

// Validate runs req's own Validate() error method when it has one and turns
// a failure into InvalidArgument with the validation message; a message
// without the method passes.
func Validate(req any) error {
	v, ok := req.(validator)
	if !ok {
		return nil
	}
	if err := v.Validate(); err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return nil
}
