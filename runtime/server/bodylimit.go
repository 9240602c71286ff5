package server

import "net/http"

// BodyLimit caps request bodies at maxBytes: a Content-Length above it
// answers 413 {"message":"request entity too large"} without reading (and
// closes the connection), and a read past it fails with
// *http.MaxBytesError (answered 413 by WriteValidationError). It stacks
// with per-handler limits: the smaller cap wins. maxBytes <= 0 disables it.
func BodyLimit(maxBytes int64) Middleware {
	return func(next http.Handler) http.Handler {
		if maxBytes <= 0 {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Body != nil && r.Body != http.NoBody {
				if r.ContentLength > maxBytes {
					refuseContentLength(w)
					return
				}
				r2 := *r
				r2.Body = http.MaxBytesReader(innermost(w), r.Body, maxBytes)
				r = &r2
			}
			next.ServeHTTP(w, r)
		})
	}
}
