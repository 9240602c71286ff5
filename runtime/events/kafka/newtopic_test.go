package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kitdev/kit/runtime/events"
	"github.com/kitdev/kit/runtime/events/kafka"
)

// newTopic is a topic name no other test or run uses.
func newTopic(prefix string, i int) string {
	return fmt.Sprintf("%s.%d.%d", prefix, time.Now().UnixNano(), i)
}

// The first publish to a topic the transport has just created succeeds: the broker
// answers UNKNOWN_TOPIC_OR_PARTITION until the new topic's metadata has reached it, and
// the transport retries that within the publish deadline. franz-go's own retries are cut
// to none here (UnknownTopicRetries(0)), so a loop of fresh topics hits the window
// nearly every time; without the transport's retry the first publish fails.
func TestFirstPublishToANewTopicSucceeds(t *testing.T) {
	t.Parallel()
	impatient := kafka.WithClientOptions(kgo.UnknownTopicRetries(0))
	for name, opts := range map[string][]kafka.Option{
		// The transport creates the topic, then publishes at once.
		"created": {kafka.WithTopicCreation(3, 1), impatient},
		// The broker creates the topic on the first metadata request for it.
		"auto-created": {kafka.WithClientOptions(kgo.AllowAutoTopicCreation()), impatient},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tr, err := kafka.New(strings.Split(kafkaBrokers, ","), opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			for i := range 6 {
				topic := newTopic("newtopic."+name, i)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				err := tr.Publish(ctx, []*events.Message{{Event: topic, Payload: []byte(`{"seq":1}`)}})
				cancel()
				if err != nil {
					t.Fatalf("first publish to new topic %s: %v", topic, err)
				}
			}
		})
	}
}

// A topic that does not exist, that the transport may not create and the broker is not
// asked to create, still fails the publish promptly: the retry is for topics that are on
// their way, not a wait for the deadline.
func TestPublishToAMissingTopicStillFails(t *testing.T) {
	t.Parallel()
	tr, err := kafka.New(strings.Split(kafkaBrokers, ","), kafka.WithClientOptions(kgo.UnknownTopicRetries(0)))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	err = tr.Publish(ctx, []*events.Message{{Event: newTopic("missing", 0), Payload: []byte(`{}`)}})
	if !errors.Is(err, kerr.UnknownTopicOrPartition) {
		t.Fatalf("publish to a missing topic = %v, want UNKNOWN_TOPIC_OR_PARTITION", err)
	}
	if waited := time.Since(start); waited > 15*time.Second {
		t.Errorf("the publish failed after %s: it waited for a topic nobody creates", waited)
	}
}
