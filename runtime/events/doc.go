// Package events is kit's contract-based publish/subscribe: the typed event descriptors
// kit generates from the design, and the Bus that publishes them and runs the groups that
// consume them, over an in-process, NATS or Kafka transport.
//
// # Descriptors
//
// For every DSL `event` a generated events.go declares the event's contract (its wire
// identity, `<package>.<Event>` unless `@contract` names another) and a descriptor
// Event[T] typed on the payload. A descriptor encodes a payload to JSON and decodes JSON
// into a payload, validating it with the payload type's generated Validate method (every
// element in turn for an array payload).
//
// # Reading payloads during a rolling deploy
//
// Payloads are decoded tolerantly by default: members the payload type does not declare
// are ignored, so a producer deployed with a contract that gained a field does not break
// the consumers still running the older one. Everything else is refused (malformed JSON,
// a member of the wrong type, a null payload, data after the value) and so is a payload
// that fails validation. Event.Strict returns a descriptor that also refuses unknown
// members, for contracts that must not drift.
//
// # The bus
//
//	bus := events.New(events.WithTransport(transport), events.WithLogger(logger),
//		events.WithMiddleware(events.Tracing(), events.AccessLog(logger)))
//	shop.OrderPlaced.Subscribe(bus, "billing", billing.OnPlaced)   // group is an argument
//	fmt.Print(bus.Plan())                                           // what will be consumed where
//	bus.Start(ctx)
//	shop.OrderPlaced.Publish(ctx, bus, &order, events.WithKey(order.ID))
//	defer bus.Close(ctx)                                            // graceful stop
//
// A Group is the unit of consumption: every instance subscribing one group shares its
// messages, and every group gets every message. Group settings (GroupSettings: max in
// flight, ack wait, delivery cap, backoff, start position) are set per group with
// WithGroup or Bus.Configure.
//
// A typed handler receives the decoded, validated payload; a payload that fails never
// reaches it and is dead-lettered (WithDeadLetter decides what that means; by default it
// is logged). The handler's returned error is the message's disposition: nil acks, an
// error retries after the group's backoff, RetryAfter times the retry, DeadLetter and
// Drop settle it for good. A message still failing on its MaxAttempts-th delivery is
// dead-lettered with a *CapError.
//
// Messages of one ordering key (WithKey) are handled one at a time, in publish order, by
// the instance that receives them (a retry sends a message to the back of the line).
// WithDedupID sets the id brokers de-duplicate on; WithHeader adds metadata (the
// "content-codec" key and keys under "kit-" are reserved); WithAdapterOption sets what one
// transport reads; WithPublishDefaults sets options every publish of a bus starts from.
// Bus.PublishAll publishes several Envelopes and names the ones it did not send in a
// *PartialPublishError.
//
// A Subscription is one contract consumed by one group: Event.Subscription builds the
// typed one, a literal around a Handler a raw one. Middleware is handed the Subscription
// it wraps and its next Handler, and sees the raw Message and its disposition. Handlers
// run inside Recovery (installed outermost by default), then the bus's chain
// (WithMiddleware, Bus.Use), then the subscription's Chain. Shipped: Recovery, AccessLog
// and Tracing, which continues in the consumer the W3C trace context the publishing bus put
// in the message metadata, through the telemetry package's propagator.
//
// # Transports
//
// The Transport interface documents thread-safety, acknowledgement and close semantics;
// every transport passes the conformance suite in package eventstest. NewInProcess is
// this package's; github.com/kitdev/kit/runtime/events/nats (JetStream and core NATS) and
// github.com/kitdev/kit/runtime/events/kafka (classic and share groups) are separate
// modules, so a service pulls only the client it uses.
//
//	| Transport        | Kept while no member runs | Redelivery          | Order per key        |
//	|------------------|---------------------------|---------------------|----------------------|
//	| in-process       | yes (in memory)           | after the delay     | per instance         |
//	| NATS JetStream   | yes (stream)              | NakWithDelay        | per instance         |
//	| NATS core        | no                        | by this process     | per instance         |
//	| Kafka classic    | yes (topic)               | by this member      | per partition (key)  |
//	| Kafka share      | yes (topic)               | release after delay | no                   |
package events
