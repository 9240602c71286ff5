package server

import (
	"bytes"
	"html/template"
	"net/http"
	"path"
	"strings"
)

// DocsUI names a docs page renderer.
//
// Deprecated: DocsOptions.UI is a plain string; the constants remain.
type DocsUI = string

// Docs page renderers; their assets load from a CDN.
const (
	DocsRedoc   DocsUI = "redoc"
	DocsSwagger DocsUI = "swagger"
	DocsScalar  DocsUI = "scalar"
)

// DocsOptions configures ServeDocs.
type DocsOptions struct {
	// Spec is the OpenAPI document; empty makes ServeDocs a no-op.
	Spec []byte
	// UI is "redoc" (default), "swagger" or "scalar".
	UI string
	// Path of the docs page, default "/docs".
	Path string
	// SpecPath of the raw document, default "/openapi.yaml".
	SpecPath string
	// Title of the docs page, default "API documentation".
	Title string
}

// ServeDocs registers GET routes for the docs page and the raw spec. They
// bypass every middleware but Recovery. It does nothing when o.Spec is
// empty; an unknown UI falls back to redoc.
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
		o.Title = "API documentation"
	}
	tpl, ok := docsTemplates[strings.ToLower(o.UI)]
	if !ok {
		tpl = docsTemplates[DocsRedoc]
	}
	var page bytes.Buffer
	if err := tpl.Execute(&page, struct{ Title, SpecURL string }{o.Title, o.SpecPath}); err != nil {
		panic("server: docs template: " + err.Error())
	}
	spec := append([]byte(nil), o.Spec...)
	specType := "application/yaml; charset=utf-8"
	if ext := strings.ToLower(path.Ext(o.SpecPath)); ext == ".json" {
		specType = "application/json; charset=utf-8"
	}
	html := page.Bytes()
	s.addSystemRoute(o.SpecPath, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", specType)
		_, _ = w.Write(spec)
	}))
	s.addSystemRoute(o.Path, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(html)
	}))
}

var docsTemplates = map[string]*template.Template{
	DocsRedoc: template.Must(template.New("redoc").Parse(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
</head>
<body>
<redoc spec-url="{{.SpecURL}}"></redoc>
<script src="https://cdn.redoc.ly/redoc/latest/bundles/redoc.standalone.js"></script>
</body>
</html>
`)),
	DocsSwagger: template.Must(template.New("swagger").Parse(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js" crossorigin></script>
<script>
window.onload = function () {
  window.ui = SwaggerUIBundle({ url: {{.SpecURL}}, dom_id: "#swagger-ui" });
};
</script>
</body>
</html>
`)),
	DocsScalar: template.Must(template.New("scalar").Parse(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
</head>
<body>
<script id="api-reference" data-url="{{.SpecURL}}"></script>
<script src="https://cdn.jsdelivr.net/npm/@scalar/api-reference"></script>
</body>
</html>
`)),
}
