package server

import "net/http"

// Chain is an immutable list of middlewares.
type Chain struct{ mws []Middleware }

// NewChain returns a chain of mws; nil entries are skipped.
// NewChain(A, B, C).Then(h) runs A, B, C, then h.
func NewChain(mws ...Middleware) Chain {
	return Chain{}.Append(mws...)
}

// Append returns a new chain with mws added after the existing ones; nil
// entries are skipped. The receiver is not modified.
func (c Chain) Append(mws ...Middleware) Chain {
	n := make([]Middleware, 0, len(c.mws)+len(mws))
	n = append(n, c.mws...)
	for _, mw := range mws {
		if mw != nil {
			n = append(n, mw)
		}
	}
	return Chain{mws: n}
}

// Then wraps h with the chain, first middleware outermost. A nil h is
// http.DefaultServeMux.
func (c Chain) Then(h http.Handler) http.Handler {
	if h == nil {
		h = http.DefaultServeMux
	}
	for i := len(c.mws) - 1; i >= 0; i-- {
		h = c.mws[i](h)
	}
	return h
}

// ThenFunc is Then for a handler function; nil is http.DefaultServeMux.
func (c Chain) ThenFunc(fn http.HandlerFunc) http.Handler {
	if fn == nil {
		return c.Then(nil)
	}
	return c.Then(fn)
}
