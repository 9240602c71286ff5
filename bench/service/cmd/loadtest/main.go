// Command loadtest drives the service benchmark: the generated service (lean and default
// configs), the hand-written baseline and the generated peers (ogen, oapi-codegen), each
// in its own process pinned to one core, loaded over loopback with the same keep-alive
// requests in alternating rounds.
// It prints, per endpoint, each server's CPU time per request (from /proc, which other
// work on the machine barely moves) and requests per second, as medians over the rounds,
// with the ratios against the hand-written baseline measured in the same run.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type endpoint struct {
	name, method, path, body string
	status                   int
}

var endpoints = []endpoint{
	{"create", "POST", "/v1/users", `{"name":"Ada Lovelace","email":"ada@example.com","age":36,"role":"admin","tags":["math","engines","poetry"],"address":{"street":"12 St James's Square","city":"London","zip":"12345"}}`, 201},
	{"invalid", "POST", "/v1/users", `{"name":"Ada Lovelace","email":"ada@example.com","age":5,"role":"admin","tags":["math"],"address":{"street":"12 St James's Square","city":"London","zip":"12345"}}`, 400},
	{"get", "GET", "/v1/users/u-42?verbose=true", "", 200},
	{"list", "GET", "/v1/users?limit=50", "", 200},
}

type server struct {
	name string
	url  string
	pid  int
	stop func()
}

func main() {
	kitBin := flag.String("kit", "", "generated service binary")
	peerBin := flag.String("peer", "", "binary of the hand-written baseline and the peers (cmd/peer)")
	lean := flag.String("lean", "", "config of the lean run")
	def := flag.String("default", "", "config of the default run")
	notel := flag.String("notel", "", "config of the default run with otel and metrics off (optional)")
	dur := flag.Duration("d", time.Second, "duration of one measured round")
	rounds := flag.Int("rounds", 7, "measured rounds (alternating servers)")
	conc := flag.Int("c", 8, "concurrent connections")
	core := flag.String("core", "0", "CPU the servers are pinned to (taskset -c); empty: no pinning")
	only := flag.String("only", "", "comma-separated endpoints to run (default all)")
	peers := flag.Bool("peers", true, "also load the generated peers (ogen, oapi-codegen)")
	parityOnly := flag.Bool("parity", false, "only check that every server answers the invalid requests alike")
	flag.Parse()

	servers := []*server{
		spawn("hand-written", *core, *peerBin, "-impl", "hand"),
		spawn("kit lean", *core, *kitBin, "-config", *lean),
		spawn("kit default", *core, *kitBin, "-config", *def),
	}
	if *notel != "" { // the default config without telemetry: what telemetry costs
		servers = append(servers, spawn("kit def-notel", *core, *kitBin, "-config", *notel))
	}
	if *peers {
		servers = append(servers,
			spawn("ogen", *core, *peerBin, "-impl", "ogen"),
			spawn("oapi-codegen", *core, *peerBin, "-impl", "oapi"))
	}
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	client := &http.Client{Transport: &http.Transport{
		MaxIdleConns: *conc * 2, MaxIdleConnsPerHost: *conc * 2, DisableCompression: true,
	}}
	if *parityOnly {
		if !parity(client, servers) {
			for _, s := range servers {
				s.stop()
			}
			os.Exit(1)
		}
		return
	}
	eps := endpoints
	if *only != "" {
		eps = nil
		for _, e := range endpoints {
			if strings.Contains(","+*only+",", ","+e.name+",") {
				eps = append(eps, e)
			}
		}
	}
	for _, e := range eps {
		for _, s := range servers {
			check(client, s, e)
			load(client, s.url, e, *conc, *dur/4)
		}
	}
	fmt.Printf("service benchmark: %d connections, %d alternating rounds of %s, servers pinned to CPU %q\n", *conc, *rounds, *dur, *core)
	ogenAt := -1 // the server CPU ratios are also taken against, round by round
	for i, s := range servers {
		if s.name == "ogen" {
			ogenAt = i
		}
	}
	fmt.Printf("%-8s %-13s %12s %9s %9s %12s %9s\n", "endpoint", "server", "CPU us/req", "ratio", "vs ogen", "req/s", "ratio")
	for _, e := range eps {
		cpu := make([][]float64, len(servers))
		rps := make([][]float64, len(servers))
		cpuRatio := make([][]float64, len(servers))
		ogenRatio := make([][]float64, len(servers))
		rpsRatio := make([][]float64, len(servers))
		for r := 0; r < *rounds; r++ {
			for i, s := range servers {
				q, c := measure(client, s, e, *conc, *dur)
				cpu[i], rps[i] = append(cpu[i], c), append(rps[i], q)
				cpuRatio[i] = append(cpuRatio[i], c/cpu[0][r])
				rpsRatio[i] = append(rpsRatio[i], q/rps[0][r])
			}
			if ogenAt >= 0 {
				for i := range servers {
					ogenRatio[i] = append(ogenRatio[i], cpu[i][r]/cpu[ogenAt][r])
				}
			}
		}
		for i, s := range servers {
			fmt.Printf("%-8s %-13s %12.1f %8.2fx %8.2fx %12.0f %8.2fx   cpu/req rounds %v\n", e.name, s.name,
				median(cpu[i]), median(cpuRatio[i]), median(ogenRatio[i]), median(rps[i]), median(rpsRatio[i]), fmtAll(cpu[i]))
		}
	}
}

func check(c *http.Client, s *server, e endpoint) {
	resp, err := do(c, s.url, e)
	if err != nil {
		fatal(fmt.Errorf("%s %s: %w", s.name, e.name, err))
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != e.status {
		fatal(fmt.Errorf("%s %s: status %d, want %d: %s", s.name, e.name, resp.StatusCode, e.status, b))
	}
}

func do(c *http.Client, base string, e endpoint) (*http.Response, error) {
	var body io.Reader
	if e.body != "" {
		body = bytes.NewReader([]byte(e.body))
	}
	req, err := http.NewRequest(e.method, base+e.path, body)
	if err != nil {
		return nil, err
	}
	if e.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.Do(req)
}

// measure runs one round and returns requests per second and the server's CPU time
// per request in microseconds.
func measure(c *http.Client, s *server, e endpoint, conc int, d time.Duration) (float64, float64) {
	before := cpuTime(s.pid)
	rps, n := load(c, s.url, e, conc, d)
	after := cpuTime(s.pid)
	if n == 0 {
		return rps, 0
	}
	return rps, float64(after-before) / float64(time.Microsecond) / float64(n)
}

func load(c *http.Client, base string, e endpoint, conc int, d time.Duration) (float64, int64) {
	var n, errs atomic.Int64
	deadline := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < conc; i++ {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				resp, err := do(c, base, e)
				if err != nil {
					errs.Add(1)
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == e.status {
					n.Add(1)
				} else {
					errs.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if x := errs.Load(); x > 0 {
		fmt.Fprintf(os.Stderr, "%s %s: %d failed requests\n", base, e.name, x)
	}
	return float64(n.Load()) / time.Since(start).Seconds(), n.Load()
}

// cpuTime is the user plus system CPU time of process pid (/proc/<pid>/stat, 100 Hz).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * (time.Second / 100)
}

// spawn starts a server (pinned with taskset when core is set), reads its
// "listening on <url>" line and keeps draining its output (stderr, where the
// default config writes its access log, is drained and dropped).
func spawn(name, core, bin string, args ...string) *server {
	argv := append([]string{bin}, args...)
	if core != "" {
		argv = append([]string{"taskset", "-c", core}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = io.Discard // the access log of the default config
	stdin, err := cmd.StdinPipe()
	if err != nil {
		fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fatal(err)
	}
	if err := cmd.Start(); err != nil {
		fatal(err)
	}
	rd := bufio.NewReader(stdout)
	var url string
	for url == "" {
		line, err := rd.ReadString('\n')
		if err != nil {
			fatal(fmt.Errorf("%s: %w", name, err))
		}
		if _, rest, ok := strings.Cut(line, "listening on "); ok {
			url = strings.TrimSpace(rest)
		}
	}
	go func() { _, _ = io.Copy(io.Discard, rd) }()
	return &server{name: name, url: url, pid: cmd.Process.Pid, stop: func() {
		_ = stdin.Close()
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
		}
	}}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "loadtest:", err)
	os.Exit(1)
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fmtAll(v []float64) string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strings.Join(out, " ")
}
