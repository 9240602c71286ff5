// Package events holds the typed event descriptors that kit generates from the design.
//
// For every DSL `event` a generated events.go declares the event's contract (its wire
// identity, `<package>.<Event>` unless `@contract` names another) and a descriptor
// Event[T] typed on the payload. A descriptor encodes a payload to JSON and decodes JSON
// into a payload, validating it with the payload type's generated Validate method
// (every element in turn for an array payload).
//
// This is the minimal surface the generated code needs. The bus (Use, Register, Start,
// Plan), groups, publish options, handler dispositions, the access-log middleware and
// the in-process, NATS and Kafka transports are a later piece of work and are not in this
// package yet.
package events
