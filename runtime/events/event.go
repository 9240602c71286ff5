package events

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/kitdev/kit/runtime/internal/jsonpath"
)

// Event is the descriptor of one event contract whose payload is a T.
type Event[T any] struct {
	contract string
	validate func(*T) error
	fill     func(*T)
	strict   bool
	// encode is encodeWith for a payload passed as any, built once per descriptor so an
	// Envelope can carry it without an allocation per message.
	encode func(Codec, any) ([]byte, error)
}

// NewEvent describes the event with wire identity contract and payload type T. validate
// checks a decoded payload; nil means the payload type has nothing to check.
func NewEvent[T any](contract string, validate func(*T) error) Event[T] {
	return withEncode(Event[T]{contract: contract, validate: validate, fill: fillOne[T]})
}

// withEncode sets e.encode.
func withEncode[T any](e Event[T]) Event[T] {
	e.encode = func(c Codec, payload any) ([]byte, error) {
		if p, ok := payload.(*T); ok {
			return e.encodeWith(c, p)
		}
		return encodeAny(c, e.contract, payload) // the caller swapped the envelope's payload
	}
	return e
}

// NewEventSlice describes an event whose payload is an array of E (`payload E[]`):
// every element is checked by validate in turn, and a failure names its index.
func NewEventSlice[E any](contract string, validate func(*E) error) Event[[]E] {
	e := Event[[]E]{contract: contract, fill: fillEach[E]}
	if validate != nil {
		e.validate = func(items *[]E) error {
			for i := range *items {
				if err := validate(&(*items)[i]); err != nil {
					return fmt.Errorf("[%d]: %w", i, err)
				}
			}
			return nil
		}
	}
	return withEncode(e)
}

// Contract is the event's wire identity (its subject).
func (e Event[T]) Contract() string { return e.contract }

// Validate checks a payload against the constraints of its type.
func (e Event[T]) Validate(payload *T) error {
	if payload == nil {
		return e.fail(errNilPayload)
	}
	if e.validate == nil {
		return nil
	}
	if err := e.validate(payload); err != nil {
		return e.fail(err)
	}
	return nil
}

// Decode reads a JSON payload and validates it. Decoding is tolerant: members the payload
// type does not declare are ignored, so a producer that adds a field does not break the
// consumers still running the older contract during a rolling deploy. A null payload,
// malformed JSON, a member of the wrong type or data after the JSON value is refused. Use
// Strict for a descriptor that also refuses unknown members.
func (e Event[T]) Decode(data []byte) (*T, error) { return e.decodeWith(JSONCodec{}, data) }

// Strict returns the descriptor with strict decoding: a payload with a member its type
// does not declare is refused (and, consumed through a bus, dead-lettered).
func (e Event[T]) Strict() Event[T] {
	e.strict = true
	return e
}

// decodeWith decodes with codec and validates; errors are *PayloadError.
func (e Event[T]) decodeWith(codec Codec, data []byte) (*T, error) {
	payload := new(T)
	if err := codec.Decode(data, payload, e.strict); err != nil {
		return nil, e.fail(typeError[T](err))
	}
	if err := e.Validate(payload); err != nil {
		return nil, err
	}
	return payload, nil
}

// Encode validates a payload and writes it as JSON. Required lists, maps and bytes left
// nil are written as [], {} and "" (the payload type's FillEmpty, when it has one).
func (e Event[T]) Encode(payload *T) ([]byte, error) { return e.encodeWith(JSONCodec{}, payload) }

func (e Event[T]) encodeWith(codec Codec, payload *T) ([]byte, error) {
	if err := e.Validate(payload); err != nil {
		return nil, err
	}
	if e.fill != nil {
		e.fill(payload)
	}
	data, err := codec.Encode(payload)
	if err != nil {
		return nil, e.fail(err)
	}
	return data, nil
}

func (e Event[T]) fail(err error) error {
	return &PayloadError{Event: e.contract, Err: err}
}

// typeError rewrites a JSON type mismatch as `<json path>: expected <type>, got <type>`,
// the shape of the HTTP side's decode messages (embedded struct names dropped).
func typeError[T any](err error) error {
	var ute *json.UnmarshalTypeError
	if !errors.As(err, &ute) {
		return err
	}
	return errors.New(jsonpath.TypeMismatch(ute, reflect.TypeFor[T](), "payload"))
}

// filler is a payload type with required lists, maps or bytes (generated FillEmpty).
type filler interface{ FillEmpty() }

func fillOne[T any](payload *T) {
	if f, ok := any(payload).(filler); ok {
		f.FillEmpty()
	}
}

func fillEach[E any](items *[]E) {
	if *items == nil {
		*items = []E{}
	}
	for i := range *items {
		fillOne(&(*items)[i])
	}
}

var (
	errNilPayload   = errors.New("payload: required")
	errTrailingData = errors.New("payload: unexpected data after the JSON value")
)

// PayloadError is a payload that could not be decoded, validated or encoded.
type PayloadError struct {
	Event string // the contract
	Err   error
}

func (e *PayloadError) Error() string { return "events: " + e.Event + ": " + e.Err.Error() }

func (e *PayloadError) Unwrap() error { return e.Err }
