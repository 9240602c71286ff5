// Package httpdate keeps the Date header value of the current second, so that
// a response sets it from a shared value instead of net/http formatting the
// time again for every response.
package httpdate

import (
	"net/http"
	"sync/atomic"
	"time"
)

type stamp struct {
	sec   int64
	value []string
}

var current atomic.Pointer[stamp]

// Value returns the Date header value of now (http.TimeFormat, as net/http
// writes it), as a header value slice shared by every response of the same
// second. Its capacity is its length, so an Add appends to a new array; a
// caller must not change its element.
func Value() []string {
	now := time.Now()
	sec := now.Unix()
	if s := current.Load(); s != nil && s.sec == sec {
		return s.value
	}
	s := &stamp{sec: sec, value: []string{now.UTC().Format(http.TimeFormat)}[:1:1]}
	current.Store(s)
	return s.value
}
