package httpdate

import (
	"net/http"
	"testing"
	"time"
)

func TestValueIsTheCurrentSecond(t *testing.T) {
	before := time.Now().Truncate(time.Second)
	v := Value()
	after := time.Now()
	if len(v) != 1 || cap(v) != 1 {
		t.Fatalf("Value() = %q (cap %d), want one element of capacity one", v, cap(v))
	}
	got, err := http.ParseTime(v[0])
	if err != nil {
		t.Fatal(err)
	}
	if got.Before(before) || got.After(after) {
		t.Fatalf("Value() = %s, want between %s and %s", v[0], before.UTC(), after.UTC())
	}
	if v[0] != got.UTC().Format(http.TimeFormat) {
		t.Fatalf("Value() = %q, not in http.TimeFormat", v[0])
	}
}

func TestValueIsSharedWithinASecond(t *testing.T) {
	for range 3 {
		a, b := Value(), Value()
		if a[0] == b[0] && &a[0] != &b[0] {
			t.Fatal("two calls in the same second built two values")
		}
	}
}
