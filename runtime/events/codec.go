package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Codec encodes payloads for the wire and decodes them back. The bus stamps the name of a
// codec other than JSON on every message it publishes (metadata MetaCodec,
// "content-codec"; none means JSON, so a JSON message carries no metadata it does not
// need) and refuses, as a payload error, a consumed message stamped with another codec.
type Codec interface {
	// Name identifies the encoding on the wire ("json").
	Name() string
	Encode(v any) ([]byte, error)
	// Decode reads data into v. Strict decoding refuses members v does not declare;
	// tolerant decoding ignores them.
	Decode(data []byte, v any, strict bool) error
}

// JSONCodec is the default codec (encoding/json).
type JSONCodec struct{}

const jsonCodec = "json"

// Name is "json".
func (JSONCodec) Name() string { return jsonCodec }

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
var ErrCodecMismatch = errors.New("events: message codec differs from the bus codec")

func codecMismatch(got, want string) error {
	return fmt.Errorf("%w: %q, want %q", ErrCodecMismatch, got, want)
}
