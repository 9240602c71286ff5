// Command loadtest serves the benchmark endpoint on a bare http.ServeMux,
// on the kit server with its default middleware and on the kit server
// without RequestID and AccessLog, each in its own child process on a
// loopback port; it drives each with the same bounded keep-alive load in
// alternating rounds and prints requests per second and the ratios. It only
// talks to 127.0.0.1, caps every round in time and count, and stops by
// itself.
//
// On a machine shared with other work the requests per second of a round
// swing widely, so it reports three views: the ratio of the medians, the
// median of the per-round ratios (each kit round against the bare round run
// just before it), and, where /proc is readable, the CPU time each server
// process spent per request, which other load barely moves.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	benchruntime "github.com/kitdev/kit/bench/runtime"
)

func main() {
	dur := flag.Duration("d", 3*time.Second, "duration of one measured round")
	rounds := flag.Int("rounds", 3, "measured rounds per server (alternating)")
	conc := flag.Int("c", 16, "concurrent connections")
	maxReq := flag.Int64("max", 5_000_000, "request cap per round")
	serveOnly := flag.String("serve", "", "internal: serve one variant (bare, kit, minimal) and print its URL")
	flag.StringVar(&profileDir, "profile", "", "write a CPU profile of each server to <dir>/<variant>.pprof")
	flag.Parse()

	if *serveOnly != "" {
		serveChild(*serveOnly)
		return
	}

	// Each server runs in its own process, so garbage collection of one
	// (or of the load generator) does not slow the other.
	bareURL, barePID, stopBare := spawn("bare")
	defer stopBare()
	kitURL, kitPID, stopKit := spawn("kit")
	defer stopKit()
	minURL, minPID, stopMin := spawn("minimal")
	defer stopMin()

	client := &http.Client{Transport: &http.Transport{
		MaxIdleConns:        *conc * 2,
		MaxIdleConnsPerHost: *conc * 2,
		DisableCompression:  true,
	}}
	// Warm-up every server.
	for _, u := range []string{bareURL, kitURL, minURL} {
		load(client, u, *conc, *dur/4, *maxReq)
	}

	var bare, kitRPS, minRPS, kitPair, minPair []float64
	var bareCPU, kitCPU, minCPU []float64
	for i := 0; i < *rounds; i++ {
		b, bc := measure(client, bareURL, barePID, *conc, *dur, *maxReq)
		k, kc := measure(client, kitURL, kitPID, *conc, *dur, *maxReq)
		m, mc := measure(client, minURL, minPID, *conc, *dur, *maxReq)
		bare, kitRPS, minRPS = append(bare, b), append(kitRPS, k), append(minRPS, m)
		kitPair, minPair = append(kitPair, k/b), append(minPair, m/b)
		bareCPU, kitCPU, minCPU = append(bareCPU, bc), append(kitCPU, kc), append(minCPU, mc)
	}
	b, k, m := median(bare), median(kitRPS), median(minRPS)
	fmt.Printf("loopback load: %d connections, %d alternating rounds of %s each, one process per server (median; all rounds listed)\n", *conc, *rounds, *dur)
	fmt.Printf("  bare http.ServeMux                    %9.0f req/s  %v\n", b, fmtAll(bare, "%.0f"))
	fmt.Printf("  kit, default middleware               %9.0f req/s  %v\n", k, fmtAll(kitRPS, "%.0f"))
	fmt.Printf("  kit, WithoutDefaultMiddleware         %9.0f req/s  %v\n", m, fmtAll(minRPS, "%.0f"))
	fmt.Printf("  ratio kit default / bare              %9.3fx (target >= 0.9x); median of per-round ratios %.3fx %v\n", k/b, median(kitPair), fmtAll(kitPair, "%.2f"))
	fmt.Printf("  ratio kit without access log / bare   %9.3fx; median of per-round ratios %.3fx\n", m/b, median(minPair))
	if bc, kc, mc := median(bareCPU), median(kitCPU), median(minCPU); bc > 0 && kc > 0 && mc > 0 {
		fmt.Printf("  server CPU per request (median)       bare %.1f us, kit default %.1f us (%.3fx bare), kit without access log %.1f us (%.3fx)\n",
			bc, kc, bc/kc, mc, bc/mc)
	}
}

// measure runs one round against url and returns the requests per second
// and the CPU time the server process pid spent per request in
// microseconds (0 when /proc is not readable).
func measure(c *http.Client, url string, pid, conc int, d time.Duration, max int64) (float64, float64) {
	before, okBefore := cpuTime(pid)
	rps, n := load(c, url, conc, d, max)
	after, okAfter := cpuTime(pid)
	if !okBefore || !okAfter || n == 0 {
		return rps, 0
	}
	return rps, float64(after-before) / float64(time.Microsecond) / float64(n)
}

// cpuTime returns the user plus system CPU time of process pid from
// /proc/<pid>/stat (Linux; 100 ticks per second).
func cpuTime(pid int) (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command name (field 2) may hold spaces: fields count from the
	// closing parenthesis.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * (time.Second / 100), true
}

// serveChild serves one variant on a loopback port, prints its URL and
// stops when stdin closes (the parent exits or kills it).
func serveChild(variant string) {
	var h http.Handler
	switch variant {
	case "bare":
		h = benchruntime.Bare()
	case "kit":
		_, h = benchruntime.Kit()
	case "minimal":
		h = benchruntime.KitMinimal()
	default:
		fmt.Fprintln(os.Stderr, "unknown variant", variant)
		os.Exit(2)
	}
	if profileDir != "" {
		f, err := os.Create(filepath.Join(profileDir, variant+".pprof"))
		if err != nil {
			fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fatal(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			_ = f.Close()
		}()
	}
	url, stop := serve(h)
	fmt.Println(url)
	_, _ = io.Copy(io.Discard, os.Stdin)
	stop()
}

var profileDir string

// spawn starts this program as a server child and returns its URL and
// process id.
func spawn(variant string) (string, int, func()) {
	exe, err := os.Executable()
	if err != nil {
		fatal(err)
	}
	cmd := exec.Command(exe, "-serve", variant, "-profile", profileDir)
	cmd.Stderr = os.Stderr
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
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		fatal(fmt.Errorf("%s server: %w", variant, err))
	}
	return strings.TrimSpace(line), cmd.Process.Pid, func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
		}
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func serve(h http.Handler) (string, func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/users/42", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
}

// load runs conc workers against url for d (or until max requests) and
// returns the successful requests per second and their number.
func load(c *http.Client, url string, conc int, d time.Duration, max int64) (float64, int64) {
	var n, errs atomic.Int64
	deadline := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < conc; i++ {
		wg.Go(func() {
			for time.Now().Before(deadline) && n.Load()+errs.Load() < max {
				resp, err := c.Get(url)
				if err != nil {
					errs.Add(1)
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					n.Add(1)
				} else {
					errs.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if e := errs.Load(); e > 0 {
		fmt.Fprintf(os.Stderr, "%s: %d failed requests\n", url, e)
	}
	return float64(n.Load()) / time.Since(start).Seconds(), n.Load()
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fmtAll(v []float64, format string) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = fmt.Sprintf(format, x)
	}
	return out
}
