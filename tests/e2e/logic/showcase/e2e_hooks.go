package main

import (
	"encoding/json"
	"net/http"
	"os"
	"time"

	"github.com/kitdev/kit/runtime/server"
)

// e2eConfigure is the tests' edit of the scaffolded main.go (one call after
// configureServer). With KIT_E2E_HOOKS set it installs a validation-failure hook
// that answers 422 and marks its body, and, with KIT_E2E_BLANKET_TIMEOUT set, the
// deprecated blanket Timeout middleware.
func e2eConfigure(srv *server.Server) {
	if os.Getenv("KIT_E2E_HOOKS") == "" {
		return
	}
	server.SetDefaultValidationFailed(func(w http.ResponseWriter, _ *http.Request, err error) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusUnprocessableEntity)
		_ = json.NewEncoder(w).Encode(map[string]string{"hook": "e2e", "message": err.Error()})
	})
	if d, err := time.ParseDuration(os.Getenv("KIT_E2E_BLANKET_TIMEOUT")); err == nil {
		srv.Use(server.Timeout(d))
	}
}
