// Package e2ehttp calls every method of the showcase's HTTP API through the generated Go
// client (output.client) over loopback. The end-to-end tests build this test binary once
// and run it against a running showcase: KIT_E2E_HTTP is the listener's base URL.
package e2ehttp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"example.com/showcase/client"
	"example.com/showcase/internal/types/shared"
	"example.com/showcase/internal/types/shop"
)

func ptr[T any](v T) *T { return &v }

// counter counts the requests that reach the transport.
type counter struct {
	n    atomic.Int32
	next http.RoundTripper
}

func (c *counter) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

func newClient(t *testing.T, opts ...client.Option) *client.Client {
	t.Helper()
	base := os.Getenv("KIT_E2E_HTTP")
	if base == "" {
		t.Skip("KIT_E2E_HTTP names no running showcase")
	}
	c, err := client.New(base, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var auth = client.WithHeader("Authorization", "Bearer t")

// apiError is the *client.Error of err, failing the test when err is not one.
func apiError(t *testing.T, err error) *client.Error {
	t.Helper()
	var e *client.Error
	if !errors.As(err, &e) {
		t.Fatalf("want *client.Error, got %T: %v", err, err)
	}
	return e
}

func TestCheckEveryValidatorRoundTrips(t *testing.T) {
	c := newClient(t)
	in := &shop.Checks{
		Name: ptr("abc"), Short: ptr("ab"), Long: ptr("abc"), Code: ptr("ABC"), Email: ptr("a@b.co"),
		URL: ptr("https://x.io/p"), URI: ptr("urn:isbn:1"), UUID: ptr("123e4567-e89b-12d3-a456-426614174000"),
		When: ptr("2024-01-02T03:04:05Z"), Day: ptr("2024-01-02"), Clock: ptr("03:04:05"), Phone: ptr("+14155550100"),
		Ipv4: ptr("10.0.0.1"), Ipv6: ptr("::1"), Cidr: ptr("10.0.0.0/8"), MAC: ptr("00:1a:2b:3c:4d:5e"),
		Card: ptr("4111111111111111"), B64: ptr("aGk="), B64url: ptr("aGk="), Color: ptr("#aabbcc"), Doc: ptr(`{"a":1}`),
		Gt: ptr(6), Gte: ptr(5), Lt: ptr(4), Lte: ptr(5), Between: ptr(2.0), Pos: ptr(1), Neg: ptr(-1), Mult: ptr(9),
		Fmult: ptr(1.5), Few: []string{"x"}, Uniq: []int{1, 2}, Raw: []byte{1, 2}, Contact: ptr(shared.Email("c@d.io")),
		Share: ptr(shared.Percent(12.5)), Blob: shared.Blob("blob"), Level: ptr(shop.PriorityDeferred),
		Tint: ptr(shop.ColorBlue),
	}
	out, err := c.Check(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Fatalf("round trip changed the value:\n got %+v\nwant %+v", out, in)
	}
}

func TestValidationFailsOnTheServerOrBeforeSending(t *testing.T) {
	bad := &shop.Checks{Name: ptr("x")}
	_, err := newClient(t).Check(context.Background(), bad)
	server := apiError(t, err)
	if server.Status != http.StatusBadRequest || server.Message != "name: length out of range [2, 5]" {
		t.Fatalf("server answer: %+v", server)
	}
	// the same message locally, and nothing sent
	var calls counter
	c := newClient(t, client.WithValidation(), client.WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
		calls.next = next
		return &calls
	}))
	_, err = c.Check(context.Background(), bad)
	var v *client.ValidationError
	if !errors.As(err, &v) || v.Error() != server.Message {
		t.Fatalf("want a ValidationError %q, got %T %v", server.Message, err, err)
	}
	if calls.n.Load() != 0 {
		t.Fatalf("a refused request was sent")
	}
	contact := &shop.Contact{Email: ptr(shared.Email("a@b.co")), Phone: ptr("+14155550100"), Name: "n"}
	_, local := c.Contact(context.Background(), contact)
	_, remote := newClient(t).Contact(context.Background(), contact)
	if !errors.As(local, &v) || apiError(t, remote).Message != local.Error() {
		t.Fatalf("cross-field rule: local %v, server %v", local, remote)
	}
	if _, err := c.Check(context.Background(), &shop.Checks{Name: ptr("abc")}); err != nil || calls.n.Load() != 1 {
		t.Fatalf("a valid request: %v after %d calls", err, calls.n.Load())
	}
}

func TestFormsEveryTypeFormRoundTrips(t *testing.T) {
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	in := &shop.Forms{
		Audit: shared.Audit{CreatedBy: "me", CreatedAt: at},
		Title: "Hello", Count: -3, Ratio: ptr(float32(0.1)), Flag: ptr(false), Nick: nil,
		Tags: []string{"a", "b,c"}, Grid: [][]int{{1, 2}, {}}, Attrs: map[string]string{"k": "v"},
		Scores: map[string]*int{"x": ptr(1), "y": nil}, Nested: map[string][]shop.Money{"m": {{Money: shared.Money{Amount: 5, Currency: shared.CurrencyUsd}}}},
		ByID: map[int32]string{7: "seven"}, Price: shop.Money{Money: shared.Money{Amount: 1, Currency: shared.CurrencyEur}},
		Page:    shop.Page[shop.Money]{Items: []shop.Money{}, More: true},
		Payload: map[string]any{"k": []any{1.5, "s", nil}}, Data: []byte("data"), At: &at,
		Secret: "never sent", Priority: ptr(shop.PriorityHigh),
	}
	out, err := newClient(t).Forms(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	want := *in
	want.Secret = ""                                                 // @sensitive: not on the wire
	want.Color, want.Labels = ptr(shop.ColorRed), []string{"a", "b"} // the server's @default
	if !reflect.DeepEqual(out, &want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", out, &want)
	}
}

func TestBindEveryBindingAndResponseHeaders(t *testing.T) {
	c := newClient(t)
	in := &shop.BindReq{
		ID: 42, Q: ptr("a b&c=d/é?"), N: ptr(-7), F: ptr(1e-7), B: ptr(true), Ids: []int{1, -2, 3},
		Trace: ptr("t 1"), Sid: ptr("s1"), Color: ptr(shop.ColorGreen), Pr: ptr(shop.PriorityDeferred),
		Note: ptr("n"), Rate: ptr(2.5), Weight: ptr(0.25),
	}
	_, err := c.Bind(context.Background(), in)
	if e := apiError(t, err); e.Status != http.StatusUnauthorized || e.Message != "unauthorized" {
		t.Fatalf("without the per-call header: %+v", e)
	}
	out, err := c.Bind(context.Background(), in, auth)
	if err != nil {
		t.Fatal(err)
	}
	want := &shop.BindResp{
		ID: 42, Q: in.Q, N: in.N, F: in.F, B: in.B, Ids: in.Ids, Trace: in.Trace, Sid: in.Sid, Color: in.Color,
		Pr: in.Pr, Note: in.Note, Rate: in.Rate, Weight: in.Weight, Total: 7, Tags: []string{"a", "b"}, Token: ptr("tok"),
	}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("bind:\n got %+v\nwant %+v", out, want)
	}
	out, err = c.Bind(context.Background(), &shop.BindReq{ID: -1}, auth)
	if err != nil || out.ID != -1 || out.Q != nil || len(out.Ids) != 0 {
		t.Fatalf("unset optional bindings: %+v %v", out, err)
	}
}

func TestUploadMultipart(t *testing.T) {
	c := newClient(t)
	file, err := client.NewFile("hello.txt", "text/plain", []byte("hi there"))
	if err != nil {
		t.Fatal(err)
	}
	more1, _ := client.NewFile("a.png", "image/png", []byte{1})
	more2, _ := client.NewFile("b.png", "image/png", []byte{2})
	out, err := c.Upload(context.Background(), &shop.UploadReq{
		Title: "t", Count: ptr(3), File: file, More: []*multipart.FileHeader{more1, more2}, Ratio: ptr(0.5),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := &shop.UploadResp{Title: "t", Count: ptr(3), Name: "hello.txt", Size: 8, More: 2, Ratio: ptr(0.5)}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("upload:\n got %+v\nwant %+v", out, want)
	}
	zip, _ := client.NewFile("a.zip", "application/zip", []byte("z"))
	_, err = c.Upload(context.Background(), &shop.UploadReq{Title: "t", File: zip})
	if e := apiError(t, err); e.Status != http.StatusBadRequest || !strings.HasPrefix(e.Message, "file: ") {
		t.Fatalf("a refused type: %+v", e)
	}
	_, err = c.Upload(context.Background(), &shop.UploadReq{Title: "t"})
	if e := apiError(t, err); e.Status != http.StatusBadRequest || e.Message != "file: required" {
		t.Fatalf("no file: %+v", e)
	}
	big, _ := client.NewFile("big.txt", "text/plain", bytes.Repeat([]byte("x"), 4<<10))
	_, err = c.Upload(context.Background(), &shop.UploadReq{Title: "t", File: big})
	if e := apiError(t, err); e.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("past @maxBodySize: %+v", e)
	}
}

func TestFailTypedErrors(t *testing.T) {
	c := newClient(t)
	fail := func(kind string) error { return c.Fail(context.Background(), &shop.FailReq{Kind: kind}) }
	var throttled *shop.ThrottledErr
	if err := fail("throttled"); !errors.As(err, &throttled) || throttled.RetryAfter != 30 ||
		throttled.Session == nil || *throttled.Session != "s1" || throttled.Reason != nil {
		t.Fatalf("throttled: %T %+v", err, err)
	}
	var missing *shop.ItemMissingErr
	if err := fail("missing"); !errors.As(err, &missing) {
		t.Fatalf("missing: %T %v", err, err)
	}
	var clash *shop.ClashErr
	if err := fail("clash"); !errors.As(err, &clash) || clash.Hint == nil || *clash.Hint != "try later" || clash.ID != nil {
		t.Fatalf("clash: %T %+v", err, err)
	}
	var broken *shop.BrokenErr
	if err := fail("broken"); !errors.As(err, &broken) || broken.Detail != "d" || broken.Internal != "" {
		t.Fatalf("broken: %T %+v", err, err)
	}
	if e := apiError(t, fail("deadline")); e.Status != http.StatusGatewayTimeout || e.Message != "gateway timeout" {
		t.Fatalf("deadline: %+v", e)
	}
	if e := apiError(t, fail("other")); e.Status != http.StatusInternalServerError || errors.As(e, &broken) {
		t.Fatalf("an unknown error: %+v", e)
	}
}

func TestOptionalNullableAndStatus(t *testing.T) {
	c := newClient(t)
	out, err := c.Accept(context.Background(), &shop.Empty{}) // @status(202)
	if err != nil || out.Secret != "" || out.List == nil || out.Nick != nil {
		t.Fatalf("accept: %+v %v", out, err)
	}
	in := &shop.Opt{Name: ptr("n"), Nick: ptr("k"), List: []string{}, Maybe: []string{"m"}, Nlist: nil,
		M: map[string]int{"a": 1}, Raw: []byte{0, 255}, Secret: "s", Key: "key"}
	out, err = c.Options(context.Background(), in)
	want := *in
	want.Secret = ""
	if err != nil || !reflect.DeepEqual(out, &want) {
		t.Fatalf("options:\n got %+v %v\nwant %+v", out, err, &want)
	}
}

func TestPlaceDefaultsAtEveryDepthAndBilled(t *testing.T) {
	c := newClient(t)
	id := "123e4567-e89b-12d3-a456-42661417" + time.Now().Format("0405")[:4]
	line := shop.Line{Sku: "s", Qty: 1, Price: shop.Money{Money: shared.Money{Amount: 3, Currency: shared.CurrencyEur}}, Tags: []string{}}
	out, err := c.Place(context.Background(), &shop.Order{ID: id, Lines: []shop.Line{line}})
	if err != nil {
		t.Fatal(err)
	}
	if *out.Source != "web" || *out.Currency != shared.CurrencyEur || *out.Note != "none" || *out.Rush ||
		*out.Lines[0].Color != shop.ColorGreen {
		t.Fatalf("defaults: %+v", out)
	}
	_, err = c.Place(context.Background(), &shop.Order{ID: id})
	if e := apiError(t, err); e.Status != http.StatusBadRequest || !strings.HasPrefix(e.Message, "lines: ") {
		t.Fatalf("no lines: %+v", e)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		billed, err := c.Billed(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range billed.Ids {
			if got == id {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("order %s not billed: %v", id, billed.Ids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestGenericsBoxedAndEmptyMethods(t *testing.T) {
	c := newClient(t)
	page, err := c.Generic(context.Background())
	if err != nil || page.Total != 0 || page.Items == nil || page.Next != nil {
		t.Fatalf("generic: %+v %v", page, err)
	}
	m := shop.Money{Money: shared.Money{Amount: 9, Currency: shared.CurrencyUsd}}
	mirror, err := c.Boxed(context.Background(), &shared.Box[shop.Money]{Value: &m, Note: ptr("n")})
	if err != nil || !reflect.DeepEqual(*mirror.Echo.Value, m) || *mirror.Echo.Note != "n" {
		t.Fatalf("boxed: %+v %v", mirror, err)
	}
	if err := c.Gone(context.Background()); err != nil {
		t.Fatalf("gone: %v", err)
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Fatalf("ping: %v", err)
	}
	if _, err := c.Secure(context.Background()); apiError(t, err).Status != http.StatusUnauthorized {
		t.Fatalf("secure without a token: %v", err)
	}
	if _, err := c.Secure(context.Background(), auth); err != nil {
		t.Fatalf("secure: %v", err)
	}
	if err := c.Headed(context.Background(), &shop.HeadedReq{Key: "k", Sid: "s", Level: 2}); err != nil {
		t.Fatalf("headed: %v", err)
	}
	if err := c.Small(context.Background(), &shop.Note{Text: ptr("short")}); err != nil {
		t.Fatalf("small: %v", err)
	}
	err = c.Small(context.Background(), &shop.Note{Text: ptr(strings.Repeat("x", 100))})
	if e := apiError(t, err); e.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("small past its cap: %+v", e)
	}
}

func TestTroubleSleepAndPassthrough(t *testing.T) {
	c := newClient(t)
	if r, err := c.Trouble(context.Background(), &shop.TroubleReq{Kind: "ok"}); err != nil || r.Value != 1.5 {
		t.Fatalf("trouble ok: %+v %v", r, err)
	}
	for _, kind := range []string{"nan", "panic"} {
		_, err := c.Trouble(context.Background(), &shop.TroubleReq{Kind: kind})
		if e := apiError(t, err); e.Status != http.StatusInternalServerError {
			t.Fatalf("%s: %+v", kind, e)
		}
	}
	if err := c.Sleep(context.Background(), &shop.SleepReq{Ms: 1}); err != nil {
		t.Fatalf("sleep: %v", err)
	}
	if e := apiError(t, c.Sleep(context.Background(), &shop.SleepReq{Ms: 1000})); e.Status != http.StatusGatewayTimeout {
		t.Fatalf("sleep past @timeout: %+v", e)
	}
	if e := apiError(t, c.Sleep(context.Background(), &shop.SleepReq{Ms: -1})); e.Status != http.StatusBadRequest {
		t.Fatalf("sleep -1: %+v", e)
	}
	res, err := c.Raw(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || string(body) != "raw ok" {
		t.Fatalf("raw: %d %q", res.StatusCode, body)
	}
}

// flaky answers 503 (or fails) for the first n requests, reading their bodies first.
type flaky struct {
	n, seen int
	fail    bool
	bodies  []string
	next    http.RoundTripper
}

func (f *flaky) RoundTrip(r *http.Request) (*http.Response, error) {
	f.seen++
	if r.Body != nil {
		b, _ := io.ReadAll(r.Body)
		f.bodies = append(f.bodies, string(b))
		r.Body = io.NopCloser(bytes.NewReader(b))
	}
	if f.seen > f.n {
		return f.next.RoundTrip(r)
	}
	if f.fail {
		return nil, errors.New("connection reset")
	}
	return &http.Response{StatusCode: http.StatusServiceUnavailable, Body: io.NopCloser(strings.NewReader(`{"message":"busy"}`)),
		Header: http.Header{}, Request: r}, nil
}

func withFlaky(t *testing.T, f *flaky, retry bool) *client.Client {
	opts := []client.Option{client.WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
		f.next = next
		return f
	})}
	if retry {
		opts = append(opts, client.WithRetry(client.RetryPolicy{Attempts: 3, Backoff: time.Millisecond}))
	}
	return newClient(t, opts...)
}

func TestRetriesOnlyIdempotentMethodsWhenAskedTo(t *testing.T) {
	f := &flaky{n: 2}
	if _, err := withFlaky(t, f, true).Generic(context.Background()); err != nil || f.seen != 3 {
		t.Fatalf("GET after two 503s: %v after %d tries", err, f.seen)
	}
	f = &flaky{n: 1, fail: true}
	if _, err := withFlaky(t, f, true).Generic(context.Background()); err != nil || f.seen != 2 {
		t.Fatalf("GET after a transport error: %v after %d tries", err, f.seen)
	}
	f = &flaky{n: 5}
	_, err := withFlaky(t, f, true).Generic(context.Background())
	if e := apiError(t, err); e.Status != http.StatusServiceUnavailable || e.Message != "busy" || f.seen != 3 {
		t.Fatalf("bounded attempts: %+v after %d tries", e, f.seen)
	}
	f = &flaky{n: 1}
	forms := &shop.Forms{Title: "t", Tags: []string{}, Grid: [][]int{}, Attrs: map[string]string{}, Scores: map[string]*int{},
		Nested: map[string][]shop.Money{}, Page: shop.Page[shop.Money]{Items: []shop.Money{}}, Payload: 1.0, Data: []byte{},
		Price: shop.Money{Money: shared.Money{Currency: shared.CurrencyEur}}}
	if _, err := withFlaky(t, f, true).Forms(context.Background(), forms); err != nil || f.seen != 2 ||
		f.bodies[0] == "" || f.bodies[0] != f.bodies[1] {
		t.Fatalf("PUT resent whole: %v after %d tries: %q", err, f.seen, f.bodies)
	}
	f = &flaky{n: 1}
	_, err = withFlaky(t, f, true).Check(context.Background(), &shop.Checks{})
	if e := apiError(t, err); e.Status != http.StatusServiceUnavailable || f.seen != 1 {
		t.Fatalf("POST is never retried: %+v after %d tries", e, f.seen)
	}
	f = &flaky{n: 1}
	_, err = withFlaky(t, f, false).Generic(context.Background())
	if e := apiError(t, err); e.Status != http.StatusServiceUnavailable || f.seen != 1 {
		t.Fatalf("no retry without a policy: %+v after %d tries", e, f.seen)
	}
}
