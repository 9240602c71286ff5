package server

import (
	"net/http"

	"github.com/rs/cors"
)

// CORSOptions configures SetCORS. Empty AllowedMethods means GET, HEAD and
// POST; empty AllowedHeaders means Accept, Content-Type, X-Requested-With
// (the defaults of github.com/rs/cors, which implements it).
type CORSOptions struct {
	// AllowedOrigins lists origins; "*" allows any, "https://*.example.com"
	// a wildcard subdomain.
	AllowedOrigins []string
	AllowedMethods []string
	// AllowedHeaders lists request headers; "*" allows any.
	AllowedHeaders []string
	ExposedHeaders []string
	// AllowCredentials lets browsers send cookies and auth headers.
	AllowCredentials bool
	// MaxAge is how long, in seconds, a preflight answer may be cached.
	MaxAge int
}

var corsMethods = []string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
	http.MethodPatch, http.MethodDelete, http.MethodOptions,
}

// CORSPermissive allows any origin, the usual methods and any request
// header, without credentials; it exposes X-Request-Id.
func CORSPermissive() CORSOptions {
	return CORSOptions{
		AllowedOrigins: []string{"*"},
		AllowedMethods: corsMethods,
		AllowedHeaders: []string{"*"},
		ExposedHeaders: []string{RequestIDHeader},
		MaxAge:         600,
	}
}

// CORSStrict allows the single origin with credentials, the usual methods
// and the headers Accept, Authorization, Content-Type and X-Request-Id; it
// exposes X-Request-Id.
func CORSStrict(origin string) CORSOptions {
	return CORSOptions{
		AllowedOrigins:   []string{origin},
		AllowedMethods:   corsMethods,
		AllowedHeaders:   []string{"Accept", "Authorization", "Content-Type", RequestIDHeader},
		ExposedHeaders:   []string{RequestIDHeader},
		AllowCredentials: true,
		MaxAge:           600,
	}
}

// newCORS builds the CORS middleware; preflight requests are answered 204
// and do not reach the next handler.
func newCORS(o CORSOptions) Middleware {
	c := cors.New(cors.Options{
		AllowedOrigins:   o.AllowedOrigins,
		AllowedMethods:   o.AllowedMethods,
		AllowedHeaders:   o.AllowedHeaders,
		ExposedHeaders:   o.ExposedHeaders,
		AllowCredentials: o.AllowCredentials,
		MaxAge:           o.MaxAge,
	})
	return c.Handler
}
