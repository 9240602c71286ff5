package server

import (
	"bytes"
	"html/template"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/kitdev/kit/runtime/server/docsassets"
	"gopkg.in/yaml.v3"
)

// DocsUI names a docs page renderer.
//
// Deprecated: DocsOptions.UI is a plain string; the constants remain.
type DocsUI = string

// Docs page renderers.
const (
	DocsRedoc   DocsUI = "redoc"
	DocsSwagger DocsUI = "swagger"
	DocsScalar  DocsUI = "scalar"
)

// Where a docs page loads its scripts and styles from (DocsOptions.Assets).
const (
	// DocsAssetsEmbedded serves the copies built into the binary: the page works
	// offline, behind a firewall, and with a Content-Security-Policy that allows no
	// other origin.
	DocsAssetsEmbedded = "embedded"
	// DocsAssetsCDN loads the same pinned files from jsDelivr.
	DocsAssetsCDN = "cdn"
)

// DocsOptions configures ServeDocs.
type DocsOptions struct {
	// Spec is the OpenAPI document; empty makes ServeDocs a no-op.
	Spec []byte
	// UI is "redoc" (default), "swagger" or "scalar".
	UI string
	// Assets is "embedded" (default: served by this server under Path+"/assets/") or
	// "cdn" (jsDelivr). Either way the versions are pinned and the page checks every
	// file against its Subresource Integrity hash. A binary built with the tag
	// kit_nodocsassets carries no copies and always uses the CDN.
	Assets string
	// Path of the docs page, default "/docs".
	Path string
	// SpecPath of the raw document, default "/openapi.yaml".
	SpecPath string
	// Title of the docs page, default the document's info.title, else
	// "API documentation".
	Title string
}

// ServeDocs registers GET routes for the docs page, the raw spec and, with embedded
// assets, the files the page loads. They bypass every middleware but Recovery. It does
// nothing when o.Spec is empty; an unknown UI falls back to redoc, an unknown Assets to
// embedded.
func (s *Server) ServeDocs(o DocsOptions) {
	if len(o.Spec) == 0 {
		return
	}
	if o.Path == "" {
		o.Path = "/docs"
	}
	if o.SpecPath == "" {
		o.SpecPath = "/openapi.yaml"
	}
	if o.Title == "" {
		o.Title = specTitle(o.Spec)
	}
	ui := strings.ToLower(o.UI)
	page, ok := docsPages[ui]
	if !ok {
		page = docsPages[DocsRedoc]
	}
	embedded := !strings.EqualFold(o.Assets, DocsAssetsCDN)
	if embedded && !docsassets.Embedded() {
		s.Logger().Warn("docs: this binary carries no docs assets (built with kit_nodocsassets); the docs page loads them from the CDN")
		embedded = false
	}
	data := docsPageData{Title: o.Title, SpecURL: o.SpecPath, Assets: map[string]docsAssetRef{}}
	for name, a := range page.assets {
		ref := docsAssetRef{URL: a.CDN, Integrity: a.Integrity}
		if embedded {
			ref.URL = path.Join(o.Path, "assets", a.Path)
			s.addSystemRoute(ref.URL, docsAssetHandler(a, a.Gzip()))
		}
		data.Assets[name] = ref
	}
	var buf bytes.Buffer
	if err := page.tpl.Execute(&buf, data); err != nil {
		panic("server: docs template: " + err.Error())
	}
	spec := append([]byte(nil), o.Spec...)
	specType := "application/yaml; charset=utf-8"
	if ext := strings.ToLower(path.Ext(o.SpecPath)); ext == ".json" {
		specType = "application/json; charset=utf-8"
	}
	html := buf.Bytes()
	s.addSystemRoute(o.SpecPath, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", specType)
		_, _ = w.Write(spec)
	}))
	s.addSystemRoute(o.Path, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if embedded {
			// The UIs fetch a few images of their own (Redoc's sidebar logo from
			// cdn.redoc.ly): with embedded assets the page stays on this host.
			w.Header().Set("Content-Security-Policy", docsEmbeddedCSP)
		}
		_, _ = w.Write(html)
	}))
}

// docsEmbeddedCSP keeps the images of a page with embedded assets on this host. It
// restricts images only: the UIs' inline styles and scripts, and their "try it" calls to
// the API's servers, stay allowed.
const docsEmbeddedCSP = "img-src 'self' data: blob:"

// specTitle is the OpenAPI document's info.title (YAML or JSON), or a generic title.
func specTitle(spec []byte) string {
	var doc struct {
		Info struct {
			Title string `yaml:"title"`
		} `yaml:"info"`
	}
	if err := yaml.Unmarshal(spec, &doc); err == nil && strings.TrimSpace(doc.Info.Title) != "" {
		return strings.TrimSpace(doc.Info.Title)
	}
	return "API documentation"
}

// docsAssetHandler serves one embedded asset: the stored gzip bytes to a client that
// accepts gzip, decompressed otherwise. The URL names the package version, so the
// answer never changes and may be cached for good.
func docsAssetHandler(a docsassets.Asset, gz []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", a.ContentType)
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Vary", "Accept-Encoding")
		if negotiateEncoding(r.Header.Get("Accept-Encoding")) == "gzip" {
			h.Set("Content-Encoding", "gzip")
			h.Set("Content-Length", strconv.Itoa(len(gz)))
			_, _ = w.Write(gz)
			return
		}
		body, err := a.Open()
		if err != nil {
			WriteFrameworkError(w, http.StatusInternalServerError, "docs asset unreadable")
			return
		}
		h.Set("Content-Length", strconv.FormatInt(a.Size, 10))
		_, _ = io.Copy(w, body)
	})
}

// docsAssetRef is what a page template needs of one asset.
type docsAssetRef struct{ URL, Integrity string }

type docsPageData struct {
	Title, SpecURL string
	Assets         map[string]docsAssetRef
}

// docsPage is one UI: its template and the assets it names, by template key.
type docsPage struct {
	tpl    *template.Template
	assets map[string]docsassets.Asset
}

// The pages load each asset with integrity and crossorigin="anonymous" (SRI needs a
// CORS fetch from a CDN; same-origin it is harmless) and turn off what would call out
// on its own: Redoc's telemetry, Swagger UI's online validator badge, Scalar's web
// fonts and its AI agent (which sends the document to Scalar's service).
var docsPages = map[string]docsPage{
	DocsRedoc: {
		assets: map[string]docsassets.Asset{"Redoc": docsassets.Redoc},
		tpl: template.Must(template.New("redoc").Parse(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
</head>
<body>
<redoc spec-url="{{.SpecURL}}" disable-telemetry="true"></redoc>
<script type="module" src="{{.Assets.Redoc.URL}}" integrity="{{.Assets.Redoc.Integrity}}" crossorigin="anonymous"></script>
</body>
</html>
`)),
	},
	DocsSwagger: {
		assets: map[string]docsassets.Asset{"CSS": docsassets.SwaggerCSS, "Bundle": docsassets.SwaggerBundle},
		tpl: template.Must(template.New("swagger").Parse(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="stylesheet" href="{{.Assets.CSS.URL}}" integrity="{{.Assets.CSS.Integrity}}" crossorigin="anonymous">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{{.Assets.Bundle.URL}}" integrity="{{.Assets.Bundle.Integrity}}" crossorigin="anonymous"></script>
<script>
window.onload = function () {
  window.ui = SwaggerUIBundle({ url: {{.SpecURL}}, dom_id: "#swagger-ui", validatorUrl: null });
};
</script>
</body>
</html>
`)),
	},
	DocsScalar: {
		assets: map[string]docsassets.Asset{"Scalar": docsassets.Scalar},
		tpl: template.Must(template.New("scalar").Parse(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
</head>
<body>
<div id="app"></div>
<script src="{{.Assets.Scalar.URL}}" integrity="{{.Assets.Scalar.Integrity}}" crossorigin="anonymous"></script>
<script>
Scalar.createApiReference("#app", { url: {{.SpecURL}}, withDefaultFonts: false, agent: { disabled: true } });
</script>
</body>
</html>
`)),
	},
}
