package server_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"html"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kitdev/kit/runtime/server"
	"github.com/kitdev/kit/runtime/server/docsassets"
)

var docsSpec = []byte("openapi: 3.1.0\ninfo: {title: t, version: '1'}\n")

func TestDocs(t *testing.T) {
	tests := []struct {
		ui, marker string
	}{
		{"redoc", "redoc.standalone.js"},
		{"swagger", "swagger-ui-bundle.js"},
		{"scalar", "scalar-api-reference@"},
		{"", "redoc.standalone.js"},
		{"unknown", "redoc.standalone.js"},
		{server.DocsSwagger, "swagger-ui-bundle.js"}, // the deprecated constants still name the UIs
	}
	for _, tt := range tests {
		t.Run("ui="+tt.ui, func(t *testing.T) {
			s, _ := newServer(t)
			var mu sync.Mutex
			var seen []string
			s.Use(mark(&mu, &seen, "global"))
			s.ServeDocs(server.DocsOptions{Spec: docsSpec, UI: tt.ui})
			rec := do(t, s.Handler(), "GET", "/docs", "")
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), tt.marker) ||
				!strings.Contains(rec.Body.String(), "/openapi.yaml") {
				t.Fatalf("docs page: %d %q", rec.Code, rec.Body.String())
			}
			if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("docs content type %q", ct)
			}
			for _, ref := range pageAssets(t, rec.Body.String()) {
				do(t, s.Handler(), "GET", ref.url, "")
			}
			rec = do(t, s.Handler(), "GET", "/openapi.yaml", "")
			if rec.Code != 200 || rec.Body.String() != string(docsSpec) {
				t.Fatalf("spec: %d %q", rec.Code, rec.Body.String())
			}
			if len(seen) != 0 {
				t.Fatalf("docs routes passed user middleware: %v", seen)
			}
		})
	}
	t.Run("custom paths", func(t *testing.T) {
		s, _ := newServer(t)
		s.ServeDocs(server.DocsOptions{Spec: []byte(`{"openapi":"3.1.0"}`), UI: "swagger", Path: "/api/docs", SpecPath: "/api/openapi.json"})
		rec := do(t, s.Handler(), "GET", "/api/openapi.json", "")
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("spec: %d %v", rec.Code, rec.Header())
		}
		rec = do(t, s.Handler(), "GET", "/api/docs", "")
		if !strings.Contains(rec.Body.String(), `url: "/api/openapi.json"`) {
			t.Fatalf("swagger page does not point at the spec: %s", rec.Body.String())
		}
		for _, ref := range pageAssets(t, rec.Body.String()) {
			if !strings.HasPrefix(ref.url, "/api/docs/assets/swagger-ui-dist@"+docsassets.SwaggerVersion+"/") {
				t.Errorf("asset %s is not under the docs path", ref.url)
			}
		}
	})
	t.Run("empty spec is a no-op", func(t *testing.T) {
		s, _ := newServer(t)
		s.ServeDocs(server.DocsOptions{UI: "redoc"})
		if rec := do(t, s.Handler(), "GET", "/docs", ""); rec.Code != 404 {
			t.Fatalf("docs without spec: %d", rec.Code)
		}
	})
}

// assetRef is one script or stylesheet a docs page loads.
type assetRef struct{ url, integrity, crossorigin string }

var assetTag = regexp.MustCompile(`<(?:script|link)[^>]*?(?:src|href)="([^"]+)" integrity="([^"]+)" crossorigin="([^"]*)"`)

// pageAssets lists the scripts and stylesheets of a docs page; a tag without an
// integrity attribute fails the test.
func pageAssets(t *testing.T, page string) []assetRef {
	t.Helper()
	var refs []assetRef
	for _, m := range assetTag.FindAllStringSubmatch(page, -1) {
		refs = append(refs, assetRef{html.UnescapeString(m[1]), html.UnescapeString(m[2]), m[3]})
	}
	tags := strings.Count(page, "<script src=") + strings.Count(page, "<script type=\"module\" src=") + strings.Count(page, "<link rel=\"stylesheet\"")
	if len(refs) == 0 || len(refs) != tags {
		t.Fatalf("%d assets with integrity among %d tags in:\n%s", len(refs), tags, page)
	}
	return refs
}

func sri(b []byte) string {
	sum := sha512.Sum384(b)
	return "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
}

// The page served with embedded assets names files this server serves, and each file's
// SHA-384, recomputed from the bytes served (plain and gzip), is the page's integrity.
func TestDocsEmbeddedAssetsMatchTheirIntegrity(t *testing.T) {
	wantFiles := map[string]int{"redoc": 1, "swagger": 2, "scalar": 1}
	for ui, n := range wantFiles {
		t.Run(ui, func(t *testing.T) {
			s, _ := newServer(t)
			s.ServeDocs(server.DocsOptions{Spec: docsSpec, UI: ui, Assets: server.DocsAssetsEmbedded})
			page := do(t, s.Handler(), "GET", "/docs", "")
			if csp := page.Header().Get("Content-Security-Policy"); csp != "img-src 'self' data: blob:" {
				t.Errorf("embedded page CSP %q", csp)
			}
			refs := pageAssets(t, page.Body.String())
			if len(refs) != n {
				t.Fatalf("%d assets, want %d", len(refs), n)
			}
			for _, ref := range refs {
				if ref.crossorigin != "anonymous" || !strings.HasPrefix(ref.url, "/docs/assets/") {
					t.Fatalf("asset %+v", ref)
				}
				plain := do(t, s.Handler(), "GET", ref.url, "")
				if plain.Code != 200 || plain.Header().Get("Content-Encoding") != "" {
					t.Fatalf("GET %s: %d %v", ref.url, plain.Code, plain.Header())
				}
				if got := sri(plain.Body.Bytes()); got != ref.integrity {
					t.Fatalf("%s: served file hashes to %s, page says %s", ref.url, got, ref.integrity)
				}
				if cl := plain.Header().Get("Content-Length"); cl != strconv.Itoa(plain.Body.Len()) {
					t.Errorf("%s: Content-Length %s for %d bytes", ref.url, cl, plain.Body.Len())
				}
				zipped := do(t, s.Handler(), "GET", ref.url, "", "Accept-Encoding", "gzip, deflate, br")
				if zipped.Header().Get("Content-Encoding") != "gzip" || zipped.Body.Len() >= plain.Body.Len() {
					t.Fatalf("gzip GET %s: %v, %d bytes", ref.url, zipped.Header(), zipped.Body.Len())
				}
				zr, err := gzip.NewReader(bytes.NewReader(zipped.Body.Bytes()))
				if err != nil {
					t.Fatal(err)
				}
				unzipped, err := io.ReadAll(zr)
				if err != nil || !bytes.Equal(unzipped, plain.Body.Bytes()) {
					t.Fatalf("gzip body of %s differs from the plain one (%v)", ref.url, err)
				}
				for k, v := range map[string]string{
					"Cache-Control":          "public, max-age=31536000, immutable",
					"Vary":                   "Accept-Encoding",
					"X-Content-Type-Options": "nosniff",
				} {
					if got := zipped.Header().Get(k); got != v {
						t.Errorf("%s: %s %q, want %q", ref.url, k, got, v)
					}
				}
				ct := plain.Header().Get("Content-Type")
				if strings.HasSuffix(ref.url, ".css") != strings.HasPrefix(ct, "text/css") {
					t.Errorf("%s: Content-Type %q", ref.url, ct)
				}
			}
		})
	}
}

// The CDN page names jsDelivr at the exact pinned version, with the integrity of the
// embedded copy (taken from the same npm file), and serves no asset itself.
func TestDocsCDNAssetsArePinnedWithIntegrity(t *testing.T) {
	embedded := map[string]string{} // CDN URL -> SRI of the embedded copy
	for _, a := range docsassets.All {
		r, err := a.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil || int64(len(b)) != a.Size {
			t.Fatalf("%s: %d bytes (%v), want %d", a.Path, len(b), err, a.Size)
		}
		embedded[a.CDN] = sri(b)
	}
	// What each page turns off so that it calls out on its own neither (telemetry,
	// validator badge, web fonts, AI agent); the offline browser test sees the effect.
	quiet := map[string]string{
		"redoc":   `disable-telemetry="true"`,
		"swagger": "validatorUrl: null",
		"scalar":  "withDefaultFonts: false, agent: { disabled: true }",
	}
	versions := map[string]string{
		"redoc":   "https://cdn.jsdelivr.net/npm/redoc@" + docsassets.RedocVersion + "/",
		"swagger": "https://cdn.jsdelivr.net/npm/swagger-ui-dist@" + docsassets.SwaggerVersion + "/",
		"scalar":  "https://cdn.jsdelivr.net/npm/@scalar/api-reference@" + docsassets.ScalarVersion + "/",
	}
	for ui, prefix := range versions {
		t.Run(ui, func(t *testing.T) {
			s, _ := newServer(t)
			s.ServeDocs(server.DocsOptions{Spec: docsSpec, UI: ui, Assets: "CDN"})
			page := do(t, s.Handler(), "GET", "/docs", "")
			if !strings.Contains(page.Body.String(), quiet[ui]) {
				t.Errorf("%s page lacks %s", ui, quiet[ui])
			}
			if csp := page.Header().Get("Content-Security-Policy"); csp != "" {
				t.Errorf("CDN page CSP %q blocks the CDN's images", csp)
			}
			for _, ref := range pageAssets(t, page.Body.String()) {
				if !strings.HasPrefix(ref.url, prefix) || ref.crossorigin != "anonymous" {
					t.Fatalf("asset %+v is not pinned under %s", ref, prefix)
				}
				if want, ok := embedded[ref.url]; !ok || ref.integrity != want {
					t.Fatalf("%s: integrity %s, embedded copy hashes to %q", ref.url, ref.integrity, want)
				}
			}
			for _, a := range docsassets.All {
				if rec := do(t, s.Handler(), "GET", "/docs/assets/"+a.Path, ""); rec.Code != 404 {
					t.Fatalf("CDN mode serves %s: %d", a.Path, rec.Code)
				}
			}
		})
	}
}

func TestDocsTitle(t *testing.T) {
	tests := []struct {
		name, spec, title, want string
	}{
		{"yaml info.title", "openapi: 3.1.0\ninfo:\n  title: Todo API\n  version: '1'\n", "", "<title>Todo API</title>"},
		{"json info.title", `{"openapi":"3.1.0","info":{"title":"Notes","version":"1"}}`, "", "<title>Notes</title>"},
		{"escaped", "openapi: 3.1.0\ninfo: {title: '</title><script>x()</script> & co', version: '1'}\n", "",
			"<title>&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt; &amp; co</title>"},
		{"explicit title wins", "openapi: 3.1.0\ninfo: {title: Spec, version: '1'}\n", "Mine", "<title>Mine</title>"},
		{"no title", "openapi: 3.1.0\npaths: {}\n", "", "<title>API documentation</title>"},
		{"unparsable", "{not yaml: [", "", "<title>API documentation</title>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, ui := range []string{"redoc", "swagger", "scalar"} {
				s, _ := newServer(t)
				s.ServeDocs(server.DocsOptions{Spec: []byte(tt.spec), UI: ui, Title: tt.title})
				if body := do(t, s.Handler(), "GET", "/docs", "").Body.String(); !strings.Contains(body, tt.want) {
					t.Fatalf("%s page lacks %s:\n%s", ui, tt.want, body)
				}
			}
		})
	}
}

func TestDocsAssetMethods(t *testing.T) {
	s, _ := newServer(t)
	s.ServeDocs(server.DocsOptions{Spec: docsSpec})
	url := "/docs/assets/" + docsassets.Redoc.Path
	if rec := do(t, s.Handler(), "HEAD", url, "", "Accept-Encoding", "gzip"); rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("HEAD: %d %v", rec.Code, rec.Header())
	}
	if rec := do(t, s.Handler(), "POST", url, ""); rec.Code != 405 {
		t.Fatalf("POST: %d", rec.Code)
	}
	// gzip refused (q=0): the plain file.
	if rec := do(t, s.Handler(), "GET", url, "", "Accept-Encoding", "gzip;q=0"); rec.Header().Get("Content-Encoding") != "" ||
		int64(rec.Body.Len()) != docsassets.Redoc.Size {
		t.Fatalf("gzip;q=0: %v, %d bytes", rec.Header(), rec.Body.Len())
	}
}

// An Assets value ServeDocs does not know falls back to the embedded copies, as an unknown
// UI falls back to redoc; "cdn" is matched in any case.
func TestDocsAssetsValues(t *testing.T) {
	for assets, local := range map[string]bool{"": true, "embedded": true, "bogus": true, "cdn": false, "CDN": false} {
		s, _ := newServer(t)
		s.ServeDocs(server.DocsOptions{Spec: docsSpec, Assets: assets})
		refs := pageAssets(t, do(t, s.Handler(), "GET", "/docs", "").Body.String())
		if got := strings.HasPrefix(refs[0].url, "/docs/assets/"); got != local {
			t.Errorf("Assets %q: page loads %s", assets, refs[0].url)
		}
	}
}
