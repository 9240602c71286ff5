package events

import "strings"

// Message is one event on the wire: the payload bytes of a contract and the metadata that
// travels beside them. Publishers build it through a descriptor (Event.Message) or by hand;
// consumers see it in middleware.
type Message struct {
	// Contract is the event's wire identity: the NATS subject, the Kafka topic.
	Contract string
	// ID identifies the message for de-duplication (JetStream's Nats-Msg-Id, a Kafka
	// header); empty unless the publisher sets one (WithMessageID).
	ID string
	// Key is the ordering key: messages of one key are handled in publish order by one
	// consumer instance (and, on Kafka, land on one partition). Empty means unordered.
	Key string
	// Header holds application metadata and the W3C trace context (nil when there is
	// none; Get works on nil). Keys starting with "kit-" are reserved for the bus and its
	// transports.
	Header Header
	// Payload is the encoded payload (see Codec).
	Payload []byte
	// Attempt is the delivery count of a consumed message: 1 the first time. Zero on the
	// publishing side.
	Attempt int
	// Raw is the transport's own form of a consumed message (a *kgo.Record, a
	// jetstream.Msg), reached through the transport's accessor (kafka.RecordFrom,
	// nats.MsgFrom). Nil on the publishing side and for the in-process transport.
	Raw any
}

// Header is message metadata. Keys are case-sensitive on the wire; Get and Set are
// exact-match helpers that work on a nil Header's reads.
type Header map[string]string

// Get returns the value of key ("" when absent).
func (h Header) Get(key string) string { return h[key] }

// Set stores value under key (the Header must not be nil).
func (h Header) Set(key, value string) { h[key] = value }

// Reserved header keys.
const (
	// HeaderContentType names the codec that encoded the payload.
	HeaderContentType = "content-type"
	reservedPrefix    = "kit-"
)

// reserved reports whether key is in the namespace kept for the bus and transports.
func reserved(key string) bool {
	return len(key) >= len(reservedPrefix) && strings.EqualFold(key[:len(reservedPrefix)], reservedPrefix)
}

// PublishOption sets a per-message publish setting.
type PublishOption func(*Message)

// WithKey sets the ordering key: messages of one key are handled in order.
func WithKey(key string) PublishOption { return func(m *Message) { m.Key = key } }

// WithMessageID sets the message id that brokers de-duplicate on (JetStream drops a second
// message with the same id inside the stream's duplicate window).
func WithMessageID(id string) PublishOption { return func(m *Message) { m.ID = id } }

// WithHeader adds one header. Keys under the reserved "kit-" prefix are ignored.
func WithHeader(key, value string) PublishOption {
	return func(m *Message) {
		if reserved(key) {
			return
		}
		if m.Header == nil {
			m.Header = Header{}
		}
		m.Header[key] = value
	}
}
