package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kitdev/kit/runtime/kitjson"
	"github.com/kitdev/kit/runtime/server"
)

// gen is shaped like a generated type: ReadKitJSON and WriteKitJSON (exact
// keys, presence), FillEmpty and the encoding/json tags a custom codec uses.
type gen struct {
	Name string   `json:"name"`
	Tags []string `json:"tags"`
}

func (v *gen) ReadKitJSON(d *kitjson.Decoder) {
	var seen uint64
	if !d.Object() {
		return
	}
	for d.More() {
		switch string(d.Key()) {
		case "name":
			if d.Field(&seen, 1, kitjson.Required) {
				v.Name = d.Str()
			}
		case "tags":
			if d.Field(&seen, 2, kitjson.Optional) && d.Array() {
				v.Tags = []string{}
				for d.Elem() {
					v.Tags = append(v.Tags, d.Str())
				}
			}
		default:
			d.Unknown()
		}
	}
	d.Missing(seen, 1, []string{"name", "tags"})
}

func (v *gen) WriteKitJSON(e *kitjson.Encoder) {
	e.Raw(`{"name":`)
	e.Str(v.Name)
	e.Raw(`,"tags":[`)
	for i, x := range v.Tags {
		if i > 0 {
			e.Raw(",")
		}
		e.Str(x)
	}
	e.Raw("]}")
}

func (v *gen) FillEmpty() {
	if v.Tags == nil {
		v.Tags = []string{}
	}
}

func genHandler(w http.ResponseWriter, r *http.Request) {
	var v gen
	if err := server.DecodeJSONBody(r, &v); err != nil {
		server.WriteValidationError(w, r, err)
		return
	}
	server.WriteResponse(w, r, 200, &v)
}

func post(h http.Handler, body, ctype string) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest("POST", "/g", rd)
	if body == "" {
		r.Body, r.ContentLength = http.NoBody, 0
	}
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

func TestGeneratedDecodeIsExact(t *testing.T) {
	h := http.HandlerFunc(genHandler)
	const ct = "application/json"
	cases := []struct{ body, want string }{
		{`{"name":"ab","NaMe":"zzzzzzzzzzz"}`, "NaMe: unknown field"},
		{`{"name":"ab","name":"zz"}`, "name: duplicate key"},
		{`{"name":null}`, "name: required"},
		{`{}`, "name: required"},
		{`{"name":"a","tags":null}`, "tags: expected array, got null"},
		{`{"name":"a","tags":["x",1]}`, "tags[1]: expected string, got number"},
		{`{"name":"a"} {}`, "body: unexpected data after the JSON value"},
	}
	for _, c := range cases {
		assertFramework(t, post(h, c.body, ct), 400, c.want)
	}
	rec := post(h, `{"name":"a"}`, ct)
	if rec.Code != 200 || rec.Body.String() != "{\"name\":\"a\",\"tags\":[]}\n" {
		t.Fatalf("%d %q", rec.Code, rec.Body.String())
	}
}

func TestJSONContentTypeRequired(t *testing.T) {
	h := http.HandlerFunc(genHandler)
	for _, ct := range []string{"application/json", "Application/JSON; charset=utf-8", "application/problem+json", "application/vnd.kit+JSON ; x=y"} {
		if rec := post(h, `{"name":"a"}`, ct); rec.Code != 200 {
			t.Errorf("%q: %d %s", ct, rec.Code, rec.Body.String())
		}
	}
	for _, ct := range []string{"", "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
		"multipart/form-data; boundary=x", "application/jsonx", "application/+json", "json", "application/json+x"} {
		assertFramework(t, post(h, `{"name":"a"}`, ct), 415, "unsupported media type")
	}
	// no body: no content type needed (and a wrong one is still refused)
	assertFramework(t, post(h, "", ""), 400, "name: required")
	assertFramework(t, post(h, "", "text/plain"), 415, "unsupported media type")
}

// shoutCodec is a custom codec: it decodes with encoding/json and writes
// names upper-cased, so a test sees which codec ran.
type shoutCodec struct{}

func (shoutCodec) Decode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
func (shoutCodec) Encode(w io.Writer, v any) error {
	if g, ok := v.(*gen); ok {
		g.Name = strings.ToUpper(g.Name)
	}
	return json.NewEncoder(w).Encode(v)
}

func TestCustomCodecReplacesGeneratedCodec(t *testing.T) {
	h := http.HandlerFunc(genHandler)
	server.SetGlobalJSONCodec(shoutCodec{})
	defer server.SetGlobalJSONCodec(nil)
	// encoding/json's semantics, as the user chose: case-insensitive keys, the last of duplicates
	rec := post(h, `{"name":"ab","NaMe":"zz"}`, "application/json")
	if rec.Code != 200 || rec.Body.String() != "{\"name\":\"ZZ\",\"tags\":[]}\n" { // FillEmpty ran
		t.Fatalf("%d %q", rec.Code, rec.Body.String())
	}
	server.SetGlobalJSONCodec(server.JSONCodec{Lenient: true})
	rec = post(h, `{"name":"ab","NaMe":"zz"} trailing`, "application/json")
	if rec.Code != 200 || rec.Body.String() != "{\"name\":\"ab\",\"tags\":[]}\n" {
		t.Fatalf("lenient: %d %q", rec.Code, rec.Body.String())
	}
	assertFramework(t, post(h, `{"name":"a","name":"b"}`, "application/json"), 400, "name: duplicate key")
}

type nanResp struct{ F float64 }

func (v *nanResp) WriteKitJSON(e *kitjson.Encoder) {
	e.Raw(`{"f":`)
	e.Float(v.F, 64)
	e.Raw("}")
}

func TestGeneratedEncodeFailureIs500(t *testing.T) {
	buf := captureLogs(t)
	var zero float64
	rec := httptest.NewRecorder()
	server.WriteResponse(rec, httptest.NewRequest("GET", "/", nil), 200, &nanResp{F: zero / zero})
	assertFramework(t, rec, 500, "internal server error")
	lines := buf.lines(t, "unhandled service error")
	if len(lines) != 1 || lines[0]["error"] != "json: unsupported value: NaN" {
		t.Fatalf("%v", lines)
	}
}

// The framework's {message} body is what encoding/json writes for it.
func TestFrameworkMessageBodyIsEncodingJSONs(t *testing.T) {
	for _, msg := range []string{"name: required", `a "b" <c> & d`, "é\u2028\x01", "bad\xffutf8", ""} {
		rec := httptest.NewRecorder()
		server.WriteFrameworkError(rec, 400, msg)
		want, _ := json.Marshal(struct {
			Message string `json:"message"`
		}{msg})
		if rec.Body.String() != string(want)+"\n" {
			t.Errorf("%q: %s, want %s", msg, rec.Body.String(), want)
		}
	}
}
