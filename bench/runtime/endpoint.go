// Package benchruntime compares the kit server runtime with a bare
// http.ServeMux serving the same small JSON endpoint.
package benchruntime

import (
	"io"
	"net/http"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/server"
)

// Pattern is the benchmarked route.
const Pattern = "GET /users/{id}"

// User is the response body.
type User struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
	Admin bool   `json:"admin"`
}

// Handler is the endpoint, identical on both servers.
func Handler(w http.ResponseWriter, r *http.Request) {
	server.WriteResponse(w, r, http.StatusOK, User{
		ID: r.PathValue("id"), Name: "Ada Lovelace", Email: "ada@example.com",
	})
}

// Bare returns the endpoint on a bare http.ServeMux.
func Bare() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(Pattern, Handler)
	return mux
}

// Kit returns the endpoint on server.New(nil).Handler() with the default
// middleware (Recovery, RequestID, AccessLog). The access log is formatted
// as JSON as usual and written to io.Discard, so the cost of logging is
// measured but not the terminal's.
func Kit() (*server.Server, http.Handler) {
	s := server.New(nil)
	s.SetLogger(log.New(io.Discard))
	s.HandleFunc(Pattern, Handler)
	return s, s.Handler()
}

// KitMinimal returns the endpoint on server.New(nil,
// server.WithoutDefaultMiddleware()): Recovery only, no request id, no
// access log.
func KitMinimal() http.Handler {
	s := server.New(nil, server.WithoutDefaultMiddleware())
	s.HandleFunc(Pattern, Handler)
	return s.Handler()
}
