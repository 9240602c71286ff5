package server

import (
	"errors"
	"net/http"
)

// NotImplementedError is what a fresh logic stub returns: the method has no
// logic yet. WriteError answers it 501 {"message":"<Method> is not implemented
// yet"}; over gRPC (rpc.Error) it becomes Unimplemented with the same words,
// the words a fresh gRPC stub uses.
type NotImplementedError struct {
	Method string // the design's method name, e.g. "CreateTodo"
}

// NotImplemented returns the error of a method without logic yet.
func NotImplemented(method string) error { return &NotImplementedError{Method: method} }

func (e *NotImplementedError) Error() string { return e.Method + " is not implemented yet" }

// HTTPStatus is 501, so rpc.Error maps the error to Unimplemented.
func (e *NotImplementedError) HTTPStatus() int { return http.StatusNotImplemented }

// writeNotImplemented answers err with the framework body when it is (or
// wraps) a NotImplementedError.
func writeNotImplemented(w http.ResponseWriter, err error) bool {
	var ni *NotImplementedError
	if !errors.As(err, &ni) {
		return false
	}
	WriteFrameworkError(w, http.StatusNotImplemented, ni.Error())
	return true
}
