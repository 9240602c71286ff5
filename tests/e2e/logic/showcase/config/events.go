package config

// EventsConfig is the showcase's own `events:` block (added to Config by hand): which
// transport the bus runs on.
//
//	events:
//	  transport: nats            # inprocess (default), nats or kafka
//	  nats: {url: "nats://127.0.0.1:4222"}
//	  kafka: {brokers: ["127.0.0.1:9092"]}
type EventsConfig struct {
	Transport string      `yaml:"transport"`
	NATS      NATSConfig  `yaml:"nats"`
	Kafka     KafkaConfig `yaml:"kafka"`
}

// NATSConfig locates the NATS server (JetStream enabled).
type NATSConfig struct {
	URL string `yaml:"url"`
}

// KafkaConfig locates the Kafka cluster.
type KafkaConfig struct {
	Brokers []string `yaml:"brokers"`
}
