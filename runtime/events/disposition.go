package events

import (
	"errors"
	"fmt"
	"time"
)

// A handler's return value decides what happens to its message (its disposition):
//
//	nil                  ack: handled, never delivered to this group again
//	any other error      retry after the group's Backoff (dead-letter at MaxAttempts)
//	RetryAfter(d, err)   retry after d
//	DeadLetter(err)      dead-letter now, no retry
//	Drop(err)            settle without handling and without dead-letter
//
// A payload that fails to decode or validate is dead-lettered before the handler runs.

// Disposition is what the bus does with a message after its handler returned.
type Disposition int

const (
	// Ack settles the message as handled.
	Ack Disposition = iota
	// Retry hands the message back for another delivery after a delay.
	Retry
	// DeadLettered gives the message to the dead-letter function and settles it for good.
	DeadLettered
	// Dropped settles the message for good without handling or dead-lettering it.
	Dropped
)

func (d Disposition) String() string {
	switch d {
	case Ack:
		return "ack"
	case Retry:
		return "retry"
	case DeadLettered:
		return "dead-letter"
	default:
		return "drop"
	}
}

// dispositionError carries a handler's explicit disposition.
type dispositionError struct {
	disposition Disposition
	delay       time.Duration
	err         error
}

func (e *dispositionError) Error() string {
	if e.err == nil {
		return e.disposition.String()
	}
	return e.err.Error()
}

func (e *dispositionError) Unwrap() error { return e.err }

// RetryAfter asks for another delivery no sooner than delay.
func RetryAfter(delay time.Duration, err error) error {
	return &dispositionError{disposition: Retry, delay: delay, err: err}
}

// DeadLetter settles the message as failed for good: the bus's dead-letter function
// receives it and it is not delivered again.
func DeadLetter(err error) error { return &dispositionError{disposition: DeadLettered, err: err} }

// Drop settles the message without handling it and without dead-lettering it.
func Drop(err error) error { return &dispositionError{disposition: Dropped, err: err} }

// DispositionOf tells what the bus does with a handler's error, and the retry delay when
// the handler timed the retry itself (zero: the group's Backoff decides).
func DispositionOf(err error) (Disposition, time.Duration) {
	if err == nil {
		return Ack, 0
	}
	var de *dispositionError
	if errors.As(err, &de) {
		return de.disposition, de.delay
	}
	var pe *PayloadError
	if errors.As(err, &pe) {
		return DeadLettered, 0
	}
	return Retry, 0
}

// PanicError is a handler panic turned into an error by Recovery; it is retried like any
// other error.
type PanicError struct {
	Event    string // the contract being handled
	Consumer string
	Group    Group
	Value    any    // what was passed to panic
	Stack    []byte // where it panicked; not part of Error
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("events: %s in group %q (%s) panicked: %v", e.Event, e.Group, e.Consumer, e.Value)
}

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
