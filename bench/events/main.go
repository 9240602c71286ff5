// Command events measures the events bus against the raw client on the same broker in one
// run: events per second published and consumed (end to end: publishing while the group
// consumes), and the p99 latency from publish to handler. See bench/README.md.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// payload is what every path sends: the handler reads SentAt for the latency.
type payload struct {
	Seq    int    `json:"seq"`
	SentAt int64  `json:"sentAt"`
	Pad    string `json:"pad"`
}

func (p *payload) Validate() error { return nil }

var pad = strings.Repeat("x", 128)

// maxInFlight is the bus groups' MaxInFlight (-inflight).
var maxInFlight int

// result is one path's measurement.
type result struct {
	publish float64 // events/s while publishing
	e2e     float64 // events/s from the first publish to the last handled
	p99     time.Duration
	cpu     time.Duration // this process's CPU time per event (publisher and consumer)
}

// warmups is how many warm-up events (seq -1 to -warmups, each its own key) go through
// before the timing starts: enough keys to land on every partition of a Kafka topic, so no
// partition's first fetch (a new topic's leader lookup can wait for a metadata refresh) is
// timed.
const warmups = 32

// recorder collects latencies and signals when n events were handled.
type recorder struct {
	n      int64
	count  atomic.Int64
	mu     sync.Mutex
	lat    []time.Duration
	done   chan struct{}
	warm   chan struct{}
	warmed map[int]bool
}

func newRecorder(n int) *recorder {
	return &recorder{n: int64(n), lat: make([]time.Duration, 0, n), done: make(chan struct{}), warm: make(chan struct{}), warmed: map[int]bool{}}
}

// handled records one handled event; a negative seq is a warm-up event.
func (r *recorder) handled(p *payload) {
	if p.Seq < 0 {
		r.mu.Lock()
		defer r.mu.Unlock()
		if !r.warmed[p.Seq] {
			r.warmed[p.Seq] = true
			if len(r.warmed) == warmups {
				close(r.warm)
			}
		}
		return
	}
	d := time.Duration(time.Now().UnixNano() - p.SentAt)
	r.mu.Lock()
	r.lat = append(r.lat, d)
	r.mu.Unlock()
	if r.count.Add(1) == r.n {
		close(r.done)
	}
}

func (r *recorder) p99() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	slices.Sort(r.lat)
	if len(r.lat) == 0 {
		return 0
	}
	return r.lat[len(r.lat)*99/100]
}

// measure publishes n events in batches through publish while the consumer runs, once the
// warm-up events went through (a new consumer group's first rebalance is not timed).
func measure(ctx context.Context, n, batch int, rec *recorder, publish func(context.Context, []payload) error) (result, error) {
	warmup := time.Now().Add(time.Minute)
	for {
		items := make([]payload, warmups)
		for i := range items {
			items[i] = payload{Seq: -1 - i, Pad: pad}
		}
		if err := publish(ctx, items); err != nil {
			return result{}, err
		}
		select {
		case <-rec.warm:
		case <-time.After(time.Second):
			if time.Now().Before(warmup) {
				continue
			}
			return result{}, fmt.Errorf("the consumer never received the warm-up events")
		}
		break
	}
	start, cpuStart := time.Now(), cpuTime()
	for i := 0; i < n; i += batch {
		items := make([]payload, 0, batch)
		for j := i; j < min(i+batch, n); j++ {
			items = append(items, payload{Seq: j, SentAt: time.Now().UnixNano(), Pad: pad})
		}
		if err := publish(ctx, items); err != nil {
			return result{}, err
		}
	}
	published := time.Since(start)
	select {
	case <-rec.done:
	case <-time.After(2 * time.Minute):
		return result{}, fmt.Errorf("only %d of %d events handled", rec.count.Load(), n)
	}
	total := time.Since(start)
	cpu := (cpuTime() - cpuStart) / time.Duration(n)
	return result{publish: float64(n) / published.Seconds(), e2e: float64(n) / total.Seconds(), p99: rec.p99(), cpu: cpu}, nil
}

// cpuTime is the user and system CPU time of this process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func encode(p *payload) []byte {
	data, _ := json.Marshal(p)
	return data
}

func main() {
	natsURL := flag.String("nats", os.Getenv("KIT_NATS_URL"), "NATS server URL (JetStream enabled)")
	kafkaBrokers := flag.String("kafka", os.Getenv("KIT_KAFKA_BROKERS"), "Kafka bootstrap brokers, comma-separated")
	n := flag.Int("n", 100000, "events per path and round")
	batch := flag.Int("batch", 100, "events per publish batch")
	rounds := flag.Int("rounds", 3, "rounds (the median ratio is reported)")
	flag.IntVar(&warmupRounds, "warmup", 3, "rounds run first and not counted (a fresh broker speeds up for a while)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.IntVar(&maxInFlight, "inflight", 0, "the bus group's MaxInFlight (0: the default, 16)")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			panic(err)
		}
		_ = pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	ctx := context.Background()
	fmt.Printf("events bench: %d events of %d bytes per path, batches of %d, %d rounds after %d not counted\n", *n, len(encode(&payload{Pad: pad})), *batch, *rounds, warmupRounds)
	ok := true
	if *natsURL != "" {
		ok = report("nats jetstream", *rounds, func(round int) (result, result, error) {
			return benchNATS(ctx, *natsURL, round, *n, *batch)
		}) && ok
	}
	if *kafkaBrokers != "" {
		ok = report("kafka", *rounds, func(round int) (result, result, error) {
			return benchKafka(ctx, strings.Split(*kafkaBrokers, ","), round, *n, *batch)
		}) && ok
	}
	if !ok {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// warmupRounds run before the counted ones. A freshly started broker is not at its steady
// speed: Kafka's JVM compiles its hot paths over the first few hundred thousand events (the
// raw client's rate rose 3x over 7 rounds, 54k to 151k/s), so whichever path ran second in
// a round was favoured. Users run warm brokers; the counted rounds measure that.
var warmupRounds int

// report runs the rounds of one broker and prints each round and the median ratios.
// Rounds alternate which path runs first, so warm-up effects do not favour one.
func report(name string, rounds int, run func(round int) (raw, bus result, err error)) bool {
	var pubRatios, e2eRatios, cpuRatios []float64
	for round := range warmupRounds {
		if _, _, err := run(round); err != nil {
			fmt.Printf("%s warm-up round %d: %v\n", name, round+1, err)
			return false
		}
	}
	for round := range rounds {
		raw, bus, err := run(round)
		if err != nil {
			fmt.Printf("%s round %d: %v\n", name, round+1, err)
			return false
		}
		fmt.Printf("%-15s round %d  raw: publish %6.0f/s  e2e %6.0f/s  p99 %-8s cpu %-7s | bus: publish %6.0f/s  e2e %6.0f/s  p99 %-8s cpu %s\n",
			name, round+1, raw.publish, raw.e2e, raw.p99.Round(time.Millisecond), raw.cpu.Round(100*time.Nanosecond),
			bus.publish, bus.e2e, bus.p99.Round(time.Millisecond), bus.cpu.Round(100*time.Nanosecond))
		pubRatios = append(pubRatios, bus.publish/raw.publish)
		e2eRatios = append(e2eRatios, bus.e2e/raw.e2e)
		cpuRatios = append(cpuRatios, raw.cpu.Seconds()/bus.cpu.Seconds())
	}
	fmt.Printf("%-15s bus/raw (median): publish %.2fx  end-to-end %.2fx  events per CPU second %.2fx  (target >= 0.90x)\n",
		name, median(pubRatios), median(e2eRatios), median(cpuRatios))
	return true
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// inOrder runs raw then bus on even rounds, bus then raw on odd ones.
func inOrder(round int, raw, bus func() (result, error)) (r, b result, err error) {
	if round%2 == 1 {
		if b, err = bus(); err != nil {
			return r, b, err
		}
		r, err = raw()
		return r, b, err
	}
	if r, err = raw(); err != nil {
		return r, b, err
	}
	b, err = bus()
	return r, b, err
}
