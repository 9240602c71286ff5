package events

import "strings"

// Message is one event on the wire: the payload bytes of a contract and the metadata that
// travels beside them. The bus builds it from an Envelope when publishing; consumers see
// it in middleware and raw subscriptions.
type Message struct {
	// Event is the contract, the event's wire identity: the NATS subject, the Kafka topic.
	Event string
	// Key is the ordering key: messages of one key are handled in publish order by one
	// consumer instance (and, on Kafka, land on one partition). Empty means unordered.
	Key string
	// DedupID identifies the message for de-duplication (JetStream's Nats-Msg-Id, a Kafka
	// header); empty unless the publisher sets one (WithDedupID).
	DedupID string
	// Metadata holds application metadata, the codec stamp and the W3C trace context (nil
	// when there is none; Get works on nil). Keys starting with "kit-" are reserved for
	// the transports, and MetaCodec for the bus.
	Metadata Metadata
	// Payload is the encoded payload (see Codec).
	Payload []byte
	// Attempt is the delivery count of a consumed message: 1 the first time. Zero on the
	// publishing side.
	Attempt int
	// AdapterOptions are the publish options set with WithAdapterOption, per adapter
	// (transport name). Nil on the consuming side.
	AdapterOptions map[string]map[string]any
	// Raw is the transport's own form of a consumed message (a *kgo.Record, a
	// jetstream.Msg), reached through the transport's accessor (kafka.RecordFrom,
	// nats.MsgFrom). Nil on the publishing side and for the in-process transport.
	Raw any
}

// AdapterOption returns the publish option key set for adapter with WithAdapterOption.
func (m *Message) AdapterOption(adapter, key string) (any, bool) {
	v, ok := m.AdapterOptions[adapter][key]
	return v, ok
}

// Metadata is message metadata. Keys are case-sensitive on the wire; Get and Set are
// exact-match helpers, and Get works on a nil Metadata.
type Metadata map[string]string

// Get returns the value of key ("" when absent).
func (md Metadata) Get(key string) string { return md[key] }

// Set stores value under key (the Metadata must not be nil).
func (md Metadata) Set(key, value string) { md[key] = value }

const (
	// MetaCodec is the metadata key naming the codec that encoded the payload (see
	// Codec.Name). The bus stamps it; a publisher's own value is dropped.
	MetaCodec = "content-codec"
	// reservedPrefix starts the metadata keys of the transports (kit-id, kit-key).
	reservedPrefix = "kit-"
)

// reserved reports whether key is kept for the bus (MetaCodec) or the transports (the
// "kit-" prefix), case-insensitively: a publisher's value under such a key is dropped.
func reserved(key string) bool {
	return strings.EqualFold(key, MetaCodec) ||
		len(key) >= len(reservedPrefix) && strings.EqualFold(key[:len(reservedPrefix)], reservedPrefix)
}

// Envelope is one message to publish: PublishAll takes a slice of them, and every
// PublishOption fills one.
type Envelope struct {
	// Event is the contract.
	Event string
	// Key is the ordering key (WithKey); empty keeps the bus's default key, if any, else
	// the message is unordered.
	Key string
	// DedupID is the id brokers de-duplicate on (WithDedupID).
	DedupID string
	// Payload is the value to encode with the bus's codec. A payload with a
	// `Validate() error` method (the generated types, by pointer) is validated first and
	// not published when that fails; a Raw payload is published as it is.
	Payload any
	// Metadata travels beside the payload (WithHeader). Reserved keys are dropped.
	Metadata Metadata
	// AdapterOptions are per-transport settings (WithAdapterOption).
	AdapterOptions map[string]map[string]any

	// encode is set by Event.Envelope: the descriptor's validation and encoding of Payload.
	encode func(Codec, any) ([]byte, error)
}

// Raw is a payload already encoded with the bus's codec, published as it is (bridges,
// replays of dead-lettered messages).
type Raw []byte

// PublishOption sets a per-message publish setting. Options apply in order: the last one
// setting a value wins.
type PublishOption func(*Envelope)

// WithKey sets the ordering key: messages of one key are handled in order.
func WithKey(key string) PublishOption { return func(e *Envelope) { e.Key = key } }

// WithDedupID sets the id that brokers de-duplicate on (JetStream drops a second message
// with the same id inside the stream's duplicate window).
func WithDedupID(id string) PublishOption { return func(e *Envelope) { e.DedupID = id } }

// WithHeader adds one metadata entry. Reserved keys (MetaCodec, "kit-…", in any case) are
// dropped.
func WithHeader(key, value string) PublishOption {
	return func(e *Envelope) {
		if reserved(key) {
			return
		}
		if e.Metadata == nil {
			e.Metadata = Metadata{}
		}
		e.Metadata[key] = value
	}
}

// WithAdapterOption sets a setting that only the transport named adapter reads (see
// AdapterOptionReader); other transports ignore it, so one publish can carry settings for
// several.
func WithAdapterOption(adapter, key string, value any) PublishOption {
	return func(e *Envelope) {
		if e.AdapterOptions == nil {
			e.AdapterOptions = map[string]map[string]any{}
		}
		if e.AdapterOptions[adapter] == nil {
			e.AdapterOptions[adapter] = map[string]any{}
		}
		e.AdapterOptions[adapter][key] = value
	}
}
