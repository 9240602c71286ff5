package server

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"sync/atomic"
	"unsafe"

	"github.com/kitdev/kit/runtime/internal/reqctx"
	"github.com/kitdev/kit/runtime/log"
)

// RequestIDHeader is the header read and written by RequestID.
const RequestIDHeader = "X-Request-Id"

// RequestID reads the X-Request-Id header, or generates an id when it is
// absent or unusable (longer than 128 bytes or not printable ASCII), sets
// it on the response and stores it on the request context
// (RequestIDFromContext, log.FromContext). Generated ids are 32 lower-case
// hex digits, unique within the process and random-looking across
// processes.
func RequestID() Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var id string
			if v := r.Header[RequestIDHeader]; len(v) > 0 { // the key is canonical: Get without canonicalising
				id = v[0]
			}
			st := reqctx.From(r.Context())
			if !validRequestID(id) {
				if st != nil {
					id = newRequestIDIn(st.IDBuffer()) // no allocation: the id lives in the state
				} else {
					id = newRequestID()
				}
			}
			if st != nil {
				st.SetRequestID(id) // no request copy inside the server
				w.Header()[RequestIDHeader] = st.RequestIDHeader()
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set(RequestIDHeader, id)
			next.ServeHTTP(w, r.WithContext(log.ContextWithRequestID(r.Context(), id)))
		})
	}
}

// RequestIDFromContext returns the request id stored by RequestID, or "".
func RequestIDFromContext(ctx context.Context) string { return log.RequestIDFromContext(ctx) }

func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c < 0x21 || c > 0x7e {
			return false
		}
	}
	return true
}

// Request ids are a per-process counter passed through a bijective mixer
// (so consecutive ids look unrelated and never repeat before 2^64 ids),
// followed by 64 random bits drawn once per process: no crypto/rand read
// per request.
var (
	idCounter atomic.Uint64
	idSeed    uint64
	idProcess [16]byte // hex of the per-process random bits
)

func init() {
	var b [16]byte
	_, _ = rand.Read(b[:])
	idSeed = binary.LittleEndian.Uint64(b[:8])
	hex.Encode(idProcess[:], b[8:])
}

func newRequestID() string {
	var out [32]byte
	return string(fillRequestID(&out))
}

// newRequestIDIn writes a new id into buf and returns it as a string sharing
// buf's memory: buf must not change afterwards.
func newRequestIDIn(buf *[32]byte) string {
	return unsafe.String(&fillRequestID(buf)[0], len(buf))
}

// fillRequestID writes a new id into out and returns it.
func fillRequestID(out *[32]byte) []byte {
	x := idCounter.Add(1) ^ idSeed
	// splitmix64 finaliser: a bijection on uint64.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	var raw [8]byte
	binary.BigEndian.PutUint64(raw[:], x)
	hex.Encode(out[:16], raw[:])
	copy(out[16:], idProcess[:])
	return out[:]
}
