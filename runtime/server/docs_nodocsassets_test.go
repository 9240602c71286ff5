//go:build kit_nodocsassets

package server_test

import (
	"strings"
	"testing"

	"github.com/kitdev/kit/runtime/server"
	"github.com/kitdev/kit/runtime/server/docsassets"
)

// Built without the copies (go test -tags kit_nodocsassets): embedded falls back to the
// CDN, says so, and serves no asset route.
func TestDocsWithoutEmbeddedCopies(t *testing.T) {
	if docsassets.Embedded() {
		t.Fatal("built with kit_nodocsassets, yet the copies are embedded")
	}
	s, logs := newServer(t)
	s.ServeDocs(server.DocsOptions{Spec: docsSpec, UI: "swagger", Assets: server.DocsAssetsEmbedded})
	if !strings.Contains(logs.String(), "kit_nodocsassets") {
		t.Errorf("no warning logged: %q", logs.String())
	}
	for _, ref := range pageAssets(t, do(t, s.Handler(), "GET", "/docs", "").Body.String()) {
		if !strings.HasPrefix(ref.url, "https://cdn.jsdelivr.net/npm/swagger-ui-dist@"+docsassets.SwaggerVersion+"/") {
			t.Fatalf("asset %+v not from the CDN", ref)
		}
	}
	if rec := do(t, s.Handler(), "GET", "/docs/assets/"+docsassets.SwaggerBundle.Path, ""); rec.Code != 404 {
		t.Fatalf("asset route without copies: %d", rec.Code)
	}
}
