package server_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kitdev/kit/runtime/server"
)

// BenchmarkDecodeJSON decodes a small valid body with the default codec.
func BenchmarkDecodeJSON(b *testing.B) {
	body := `{"name":"ann","age":3,"score":1.5,"active":true,"tags":["a","b"],"address":{"zip":"1000"}}`
	b.ReportAllocs()
	for b.Loop() {
		var v createReq
		r := httptest.NewRequest("POST", "/x", strings.NewReader(body))
		if err := server.DecodeJSON(r, &v); err != nil {
			b.Fatal(err)
		}
	}
}
