package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Codec encodes payloads for the wire and decodes them back. The bus stamps a content type
// other than JSON's on every message it publishes (header "content-type"; none means
// JSON) and refuses, as a payload error, a consumed message of another content type.
type Codec interface {
	ContentType() string
	Encode(v any) ([]byte, error)
	// Decode reads data into v. Strict decoding refuses members v does not declare;
	// tolerant decoding ignores them.
	Decode(data []byte, v any, strict bool) error
}

// JSONCodec is the default codec (encoding/json).
type JSONCodec struct{}

const jsonContentType = "application/json"

// ContentType is "application/json".
func (JSONCodec) ContentType() string { return jsonContentType }

// Encode marshals v.
func (JSONCodec) Encode(v any) ([]byte, error) { return json.Marshal(v) }

// Decode unmarshals one JSON value into v: a null or empty payload is refused, and so is
// data after the value.
func (JSONCodec) Decode(data []byte, v any, strict bool) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return errNilPayload
	}
	if !strict {
		// json.Unmarshal is the fast path (no decoder to allocate); it refuses data after
		// the value with a syntax error, reported like the strict path's.
		err := json.Unmarshal(trimmed, v)
		if err == nil { // before errors.As: its target escapes, an allocation per message
			return nil
		}
		var se *json.SyntaxError
		if errors.As(err, &se) && strings.Contains(se.Error(), "after top-level value") {
			return errTrailingData
		}
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errTrailingData
	}
	return nil
}

// ErrCodecMismatch is a consumed message encoded with another codec than the bus's.
var ErrCodecMismatch = errors.New("events: message content type differs from the bus codec")

func codecMismatch(got, want string) error {
	return fmt.Errorf("%w: %q, want %q", ErrCodecMismatch, got, want)
}
