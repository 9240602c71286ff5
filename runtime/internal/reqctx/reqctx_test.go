package reqctx

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
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

type ctxKey struct{}

// The state is the request context: it answers its own key, passes other
// keys, deadlines and cancellation through to the parent, and holds the
// request copy that carries it.
func TestStateIsTheContext(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "v"))
	r := httptest.NewRequest("GET", "/users/1", nil).WithContext(parent)
	rec := httptest.NewRecorder()
	r2, st := New(r, rec)
	if r2 == r || r2.URL != r.URL || r2.Context() != context.Context(st) || r.Context() != parent {
		t.Fatal("New must return a copy of r carrying the state, leaving r alone")
	}
	if From(r2.Context()) != st || r2.Context().Value(ctxKey{}) != "v" || st.W.ResponseWriter != rec {
		t.Fatal("state lookups")
	}
	inner := context.WithValue(r2.Context(), ctxKey{}, "w")
	if From(inner) != st {
		t.Fatal("state not found below another context")
	}
	child, stop := context.WithTimeout(r2.Context(), time.Hour)
	defer stop()
	cancel()
	select {
	case <-child.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling the parent did not reach a child of the state")
	}
	if !errors.Is(r2.Context().Err(), context.Canceled) {
		t.Fatalf("Err = %v", r2.Context().Err())
	}
	p := NewPattern("GET example.com/users/{id}")
	st.SetPatternRef(p)
	if st.Pattern() != "GET example.com/users/{id}" || st.Route() != "/users/{id}" {
		t.Fatalf("pattern %q route %q", st.Pattern(), st.Route())
	}
	st.SetRequestID("abc")
	if st.RequestID() != "abc" || st.RequestIDHeader()[0] != "abc" || len(st.RequestIDHeader()) != 1 {
		t.Fatal("request id")
	}
}
