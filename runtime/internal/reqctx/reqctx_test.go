package reqctx

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRoute(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"/users/{id}", "/users/{id}"},
		{"GET /users/{id}", "/users/{id}"},
		{"GET example.com/users/{id}", "/users/{id}"},
		{"example.com/", "/"},
		{"POST  /a/{rest...}", "/a/{rest...}"},
	}
	for _, tt := range tests {
		if got := Route(tt.in); got != tt.want {
			t.Errorf("Route(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStateAndWriter(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r2, st := Ensure(r)
	if r3, st2 := Ensure(r2); r3 != r2 || st2 != st {
		t.Fatal("Ensure did not reuse the state")
	}
	var nilState *State
	if nilState.Pattern() != "" || nilState.ClientGone() {
		t.Fatal("nil state not empty")
	}
	st.SetPattern("GET /x/{id}")
	st.MarkClientGone()
	if st.Route() != "/x/{id}" || !st.ClientGone() {
		t.Fatal("state not recorded")
	}
	rec := httptest.NewRecorder()
	w := NewResponseWriter(rec)
	st.W = w
	if w.Started() {
		t.Fatal("started before any write")
	}
	_, _ = w.Write([]byte("abc"))
	w.WriteHeader(500) // ignored by the recorder of the status
	if w.Status() != 200 || w.Bytes() != 3 || !w.Started() {
		t.Fatalf("status %d bytes %d", w.Status(), w.Bytes())
	}
	wrapped := struct{ http.ResponseWriter }{w}
	if Find(wrapped, r2.Context()) != w || Find(w, r.Context()) != w {
		t.Fatal("Find failed")
	}
}
