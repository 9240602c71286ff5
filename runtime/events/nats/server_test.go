package nats_test

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// natsURL is the nats-server (with JetStream) that TestMain starts for the package.
var natsURL string

// TestMain uses the nats-server named by KIT_NATS_URL (scripts/test starts one for the
// whole run) or starts a real one (scripts/test-tools/nats.sh installs it into
// $(go env GOPATH)/bin) on a free loopback port and stops it after the tests.
func TestMain(m *testing.M) {
	if url := os.Getenv("KIT_NATS_URL"); url != "" {
		natsURL = url
		os.Exit(m.Run())
	}
	stop, url, err := startServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, "events/nats tests:", err)
		os.Exit(1)
	}
	natsURL = url
	code := m.Run()
	stop()
	os.Exit(code)
}

func serverBinary() (string, error) {
	if p, err := exec.LookPath("nats-server"); err == nil {
		return p, nil
	}
	gopath, err := exec.Command("go", "env", "GOPATH").Output()
	if err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "nats-server")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("nats-server not found: run scripts/test-tools/nats.sh")
}

func startServer() (func(), string, error) {
	bin, err := serverBinary()
	if err != nil {
		return nil, "", err
	}
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	dir, err := os.MkdirTemp("", "kit-nats-")
	if err != nil {
		return nil, "", err
	}
	cmd := exec.Command(bin, "-js", "-a", "127.0.0.1", "-p", fmt.Sprint(port), "-sd", dir)
	out, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	stop := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = os.RemoveAll(dir)
	}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Server is ready") {
				close(ready)
				break
			}
		}
		for sc.Scan() { // keep draining so the server never blocks on its log
		}
	}()
	select {
	case <-ready:
	case <-time.After(20 * time.Second):
		stop()
		return nil, "", fmt.Errorf("nats-server did not start")
	}
	return stop, fmt.Sprintf("nats://127.0.0.1:%d", port), nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
