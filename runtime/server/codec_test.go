package server_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kitdev/kit/runtime/server"
)

type address struct {
	Zip string `json:"zip"`
}

type createReq struct {
	Name    string   `json:"name"`
	Age     int      `json:"age"`
	Score   float64  `json:"score"`
	Active  bool     `json:"active"`
	Tags    []string `json:"tags"`
	Address *address `json:"address"`
}

func TestDecodeJSON(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		chunked bool
		wantErr string
		want    createReq
	}{
		{name: "valid", body: `{"name":"ann","age":3,"address":{"zip":"1000"}}`,
			want: createReq{Name: "ann", Age: 3, Address: &address{Zip: "1000"}}},
		{name: "empty body", body: ""},
		{name: "empty chunked body", body: "", chunked: true},
		{name: "whitespace body", body: "  \n"},
		{name: "unknown field", body: `{"name":"a","nick":"b"}`, wantErr: "nick: unknown field"},
		{name: "trailing data", body: `{"name":"a"} {"name":"b"}`, wantErr: "body: unexpected data after the JSON value"},
		{name: "trailing garbage", body: `{"name":"a"}x`, wantErr: "body: unexpected data after the JSON value"},
		{name: "trailing whitespace ok", body: "{\"name\":\"a\"}\n\n", want: createReq{Name: "a"}},
		{name: "nested type", body: `{"address":{"zip":12345}}`, wantErr: "address: zip: expected string, got number"},
		{name: "string for int", body: `{"age":"x"}`, wantErr: "age: expected integer, got string"},
		{name: "float for int", body: `{"age":1.5}`, wantErr: "age: expected integer, got number"},
		{name: "bool for number", body: `{"score":true}`, wantErr: "score: expected number, got boolean"},
		{name: "object for bool", body: `{"active":{}}`, wantErr: "active: expected boolean, got object"},
		{name: "string for array", body: `{"tags":"a"}`, wantErr: "tags: expected array, got string"},
		{name: "array for body", body: `[1]`, wantErr: "body: expected object, got array"},
		{name: "truncated", body: `{"name":`, wantErr: "body: unexpected end of JSON input"},
		{name: "syntax", body: `{"name" "a"}`, wantErr: "body: invalid character '\"' after object key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r io.Reader = strings.NewReader(tt.body)
			if tt.chunked {
				r = io.MultiReader(r) // hides the length
			}
			req := httptest.NewRequest("POST", "/x", r)
			if tt.chunked {
				req.ContentLength = -1
			}
			var got createReq
			err := server.DecodeJSON(req, &got)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got.Name != tt.want.Name || got.Age != tt.want.Age ||
				(tt.want.Address != nil && (got.Address == nil || *got.Address != *tt.want.Address)) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDecodeJSONNilBodyIsEmptyObject(t *testing.T) {
	req := httptest.NewRequest("GET", "/x", nil)
	req.Body = nil
	m := map[string]any(nil)
	if err := server.DecodeJSON(req, &m); err != nil || m == nil || len(m) != 0 {
		t.Fatalf("err %v, m %v", err, m)
	}
}

func TestDecodeJSONPastCap(t *testing.T) {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/x", strings.NewReader(`{"name":"`+strings.Repeat("a", 100)+`"}`))
	req.Body = http.MaxBytesReader(rec, req.Body, 16)
	var v createReq
	err := server.DecodeJSON(req, &v)
	var mbe *http.MaxBytesError
	if !errors.As(err, &mbe) {
		t.Fatalf("err = %v, want a *http.MaxBytesError", err)
	}
	server.WriteValidationError(rec, req, err)
	assertFramework(t, rec, 413, "request entity too large")
}

func TestLenientCodec(t *testing.T) {
	server.SetGlobalJSONCodec(server.JSONCodec{Lenient: true})
	defer server.SetGlobalJSONCodec(nil)
	var v createReq
	req := httptest.NewRequest("POST", "/x", strings.NewReader(`{"name":"a","nick":"b"} trailing`))
	if err := server.DecodeJSON(req, &v); err != nil || v.Name != "a" {
		t.Fatalf("err %v, v %+v", err, v)
	}
}
