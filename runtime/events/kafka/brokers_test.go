package kafka_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// kafkaBrokers is the Kafka the tests run against: KIT_KAFKA_BROKERS when scripts/test
// started one for the whole run, else one started here through tests/brokers.py (the
// harness that starts the broker from the jars scripts/test-tools/kafka.sh fetched).
var kafkaBrokers string

func TestMain(m *testing.M) {
	kafkaBrokers = os.Getenv("KIT_KAFKA_BROKERS")
	stop := func() {}
	if kafkaBrokers == "" {
		var err error
		stop, kafkaBrokers, err = serveKafka()
		if err != nil {
			fmt.Fprintln(os.Stderr, "events/kafka tests:", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	stop()
	os.Exit(code)
}

func serveKafka() (func(), string, error) {
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "..", "tests", "brokers.py")
	cmd := exec.Command("python3", script, "serve", "kafka")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	stop := func() {
		_ = stdin.Close() // brokers.py stops Kafka when its input closes
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
		}
	}
	sc := bufio.NewScanner(out)
	addr := ""
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "KIT_KAFKA_BROKERS="); ok {
			addr = v
		}
		if line == "READY" {
			go func() { _, _ = io.Copy(io.Discard, out) }()
			return stop, addr, nil
		}
	}
	stop()
	return nil, "", fmt.Errorf("tests/brokers.py did not start Kafka")
}
