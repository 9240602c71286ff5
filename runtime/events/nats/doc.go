// Package nats is the NATS transport of the events bus, on nats.go and its jetstream
// package. It is its own Go module (github.com/kitdev/kit/runtime/events/nats), so a
// service that does not use NATS pulls nothing of it. Its package name is nats, like the
// client's: import one of them under another name when a file needs both.
//
// # JetStream (default)
//
// Every contract is a subject that a stream covers (WithStream creates or updates one;
// without it the streams must exist and each group's contracts must be in one stream).
// Each group is one durable pull consumer named after the group and carrying the group's
// contracts as filter subjects, so instances of a group share its messages and every group
// gets every message. Per-group settings (events.GroupSettings) map to the consumer:
// AckWait to AckWait, MaxAttempts to MaxDeliver, StartAt to the deliver policy;
// MaxInFlight is the instance's concurrency; Prefetch its pull batch (default 500, nats.go's
// own, whatever MaxInFlight is). WithConsumerConfig adjusts
// anything else (MaxAckPending, for one).
//
// Retries are negative acknowledgements with the backoff delay (NakWithDelay); the bus
// dead-letters a message on its MaxAttempts-th delivery and terminates it (Term), so the
// server never delivers it again. A message published with events.WithDedupID carries
// Nats-Msg-Id and is de-duplicated inside the stream's duplicate window; the ordering key
// travels in the header kit-key.
//
// Stop, during a rolling deploy, stops pulling and negatively acknowledges, without delay,
// every message it pulled but did not hand to a handler, so another instance of the group
// gets it at once instead of after AckWait; handlers in flight finish within the stop
// budget (see events.Bus.Close).
//
// # Core NATS (WithCore)
//
// Each group is a queue subscription per contract: at most once, nothing kept while no
// member runs, no de-duplication. A retry is redelivered by this process after the delay
// (lost if it stops first).
package nats
