// Command grpcload is the loopback half of bench/grpc: each server variant of package
// catalog (bare grpc-go, kit with telemetry off, kit at log level warn, kit with
// telemetry on, ...) runs in its own process (this binary with -serve) pinned to one core
// with taskset, and this process loads them over loopback TCP - unary GetItem calls, then
// 50-item ListItems streams - in many short alternating rounds of a fixed number of RPCs.
//
// The figure is each server's CPU time per RPC: the process's CPU clock
// (clock_gettime of its CPU-time clock, nanoseconds, all threads) read before and after
// its round, so a short round still reads exactly and a busy machine's other work, which
// stretches the wall time, barely moves it. Each round visits every server once, in an
// order rotated from round to round (no server always first); a server's ratio is its CPU
// per RPC over the bare server's of the same round, and the report gives the median of
// those per-round ratios, their interquartile range and the 95% confidence interval of
// the median (distribution-free, from order statistics). "bare-2" is a second bare
// process measured like the others: its ratio to bare is the method's own error (an A/A
// test), which must be well below the 5% the target asks to decide. write/RPC is the
// server's write system calls per RPC (/proc/<pid>/io): the transport's, and the access
// log's. GRPCLOAD_PROFILE=DIR has every server write its CPU profile to DIR.
// Run this process on another core (run.sh: taskset -c 1).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/kitdev/kit/bench/grpc/catalog"
	pb "github.com/kitdev/kit/bench/grpc/catalog/catalogpb"
)

type server struct {
	name   string
	pid    int
	client pb.CatalogClient
	stop   func()
}

// control is the A/A variant: a second process of the bare server.
const control = "bare-2"

func main() {
	serve := flag.String("serve", "", "run this server variant (internal)")
	rounds := flag.Int("rounds", 40, "measured rounds (each visits every server once)")
	n := flag.Int("n", 2000, "unary calls per server and round (streams: n/10)")
	conc := flag.Int("c", 16, "concurrent callers (over -conns connections)")
	conns := flag.Int("conns", 4, "client connections per server")
	core := flag.String("core", "0", "CPU the servers are pinned to (taskset -c); empty: no pinning")
	variants := flag.String("variants", "bare,"+control+","+strings.Join(catalog.Variants[1:], ","),
		"servers, comma-separated, bare first ("+control+": a second bare process, the A/A control; variant@binary: the variant served by another build of grpcload)")
	only := flag.String("kinds", "unary,stream", "the kinds of RPC measured")
	verbose := flag.Bool("v", false, "print every round's ratios")
	paired := flag.Duration("paired", 250*time.Millisecond,
		"load each server together with bare for this long per round (both on the pinned core, in the same machine state); 0: one server at a time, -n calls each")
	flag.Parse()
	if *serve != "" {
		runServer(*serve)
		return
	}
	names := strings.Split(*variants, ",")
	if names[0] != "bare" {
		fatal(errors.New("-variants must start with bare, the reference"))
	}
	var servers []*server
	for _, v := range names {
		servers = append(servers, spawn(v, *core, *conns))
	}
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	type kind struct {
		name  string
		calls int
		call  func(pb.CatalogClient) error
	}
	kinds := []kind{{"unary", *n, unary}, {"stream", max(*n/10, 1), stream}}
	kinds = slices.DeleteFunc(kinds, func(k kind) bool { return !slices.Contains(strings.Split(*only, ","), k.name) })
	for _, k := range kinds { // warm-up, not counted
		for _, s := range servers {
			load(s, k.call, *conc, k.calls)
		}
	}
	if *paired > 0 {
		fmt.Printf("grpc benchmark: %d rounds; in each, every server loaded together with bare for %s (%d callers over %d connections each), both pinned to CPU %q; order rotated each round\n",
			*rounds, *paired, *conc, *conns, *core)
	} else {
		fmt.Printf("grpc benchmark: %d rounds of %d unary calls or %d streams per server, one server at a time (%d callers over %d connections), pinned to CPU %q; order rotated each round\n",
			*rounds, *n, max(*n/10, 1), *conc, *conns, *core)
	}
	fmt.Println("ratio: median of the per-round ratios to bare; IQR: their interquartile range; 95% CI: of the median")
	fmt.Printf("%-7s %-12s %11s %9s %15s %15s %9s %10s\n", "kind", "server", "CPU us/RPC", "ratio", "IQR", "95% CI", "RPC/s", "write/RPC")
	for _, k := range kinds {
		cpu := make([][]float64, len(servers))
		rps := make([][]float64, len(servers))
		ratio := make([][]float64, len(servers))
		wr := make([][]float64, len(servers))
		for r := range *rounds {
			round := make([]float64, len(servers))
			if *paired > 0 {
				round[0] = 1
				for j := range len(servers) - 1 {
					i := 1 + (r+j)%(len(servers)-1)
					m := measurePair(servers[0], servers[i], k.call, *conc, *paired)
					round[i] = m.cpu[1] / m.cpu[0]
					for x, s := range []int{0, i} {
						cpu[s], rps[s], wr[s] = append(cpu[s], m.cpu[x]), append(rps[s], m.rps[x]), append(wr[s], m.writes[x])
					}
				}
				for i := range servers {
					ratio[i] = append(ratio[i], round[i])
				}
				continue
			}
			for j := range servers {
				i := (r + j) % len(servers)
				q, c := measure(servers[i], k.call, *conc, k.calls)
				round[i] = c
				cpu[i], rps[i] = append(cpu[i], c), append(rps[i], q)
			}
			for i := range servers {
				ratio[i] = append(ratio[i], round[i]/round[0])
			}
		}
		for i, s := range servers {
			lo, hi := quartiles(ratio[i])
			clo, chi := medianCI(ratio[i])
			fmt.Printf("%-7s %-12s %11.2f %8.3fx %6.3f-%-8.3f %6.3f-%-8.3f %9.0f %10s\n", k.name, s.name,
				median(cpu[i]), median(ratio[i]), lo, hi, clo, chi, median(rps[i]), fmtWrites(wr[i]))
			if *verbose && i > 0 {
				fmt.Printf("        ratio per round: %s\n", fmtAll(ratio[i]))
			}
		}
	}
}

// runServer serves variant on a loopback port, prints "listening on <addr>" and stops
// when stdin closes.
func runServer(variant string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fatal(err)
	}
	// GRPCLOAD_PROFILE=DIR: each server writes its CPU profile to DIR/<variant>.prof.
	if dir := os.Getenv("GRPCLOAD_PROFILE"); dir != "" {
		f, err := os.Create(filepath.Join(dir, variant+"-"+strconv.Itoa(os.Getpid())+".prof"))
		if err != nil {
			fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fatal(err)
		}
		defer func() { pprof.StopCPUProfile(); _ = f.Close() }()
	}
	// The access log goes to stderr, as the generated service writes it.
	stop, err := catalog.Serve(variant, ln, os.Stderr)
	if err != nil {
		fatal(err)
	}
	fmt.Printf("listening on %s\n", ln.Addr())
	_, _ = io.Copy(io.Discard, os.Stdin)
	stop()
}

var (
	unaryReq  = &pb.GetItemRequest{Id: "item-42", WithDescription: true}
	streamReq = &pb.ListItemsRequest{Category: "garden", Limit: catalog.StreamItems}
)

func unary(c pb.CatalogClient) error {
	_, err := c.GetItem(context.Background(), unaryReq)
	return err
}

func stream(c pb.CatalogClient) error {
	s, err := c.ListItems(context.Background(), streamReq)
	if err != nil {
		return err
	}
	n := 0
	for {
		if _, err := s.Recv(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return err
		}
		n++
	}
	if n != catalog.StreamItems {
		return fmt.Errorf("%d items", n)
	}
	return nil
}

// measure runs one round of calls RPCs: RPCs per second and the server's CPU time per
// RPC in µs.
func measure(s *server, call func(pb.CatalogClient) error, conc, calls int) (float64, float64) {
	before := cpuTime(s.pid)
	rps := load(s, call, conc, calls)
	after := cpuTime(s.pid)
	return rps, float64(after-before) / float64(time.Microsecond) / float64(calls)
}

// minCalls is the fewest RPCs of each server in a paired round's window.
const minCalls = 200

// pairResult is a paired round's figures of its two servers: CPU time per RPC in µs,
// RPCs per second, write system calls per RPC (the access log's among them).
type pairResult struct{ cpu, rps, writes [2]float64 }

// measurePair loads a and b at once for d (conc callers each) and measures both over the
// same window.
func measurePair(a, b *server, call func(pb.CatalogClient) error, conc int, d time.Duration) pairResult {
	var stop atomic.Bool
	var done [2]atomic.Int64
	var wg sync.WaitGroup
	for i, s := range []*server{a, b} {
		for range conc {
			wg.Go(func() {
				for !stop.Load() {
					if err := call(s.client); err != nil {
						fatal(fmt.Errorf("%s: %w", s.name, err))
					}
					done[i].Add(1)
				}
			})
		}
	}
	time.Sleep(d / 10) // let both reach their pace
	ca, cb := cpuTime(a.pid), cpuTime(b.pid)
	wa, wb := writes(a.pid), writes(b.pid)
	na, nb := done[0].Load(), done[1].Load()
	start := time.Now()
	time.Sleep(d)
	// A starved round (this machine is shared) runs on until each server made minCalls.
	for done[0].Load()-na < minCalls || done[1].Load()-nb < minCalls {
		time.Sleep(d / 10)
	}
	ca, cb = cpuTime(a.pid)-ca, cpuTime(b.pid)-cb
	na, nb = done[0].Load()-na, done[1].Load()-nb
	wa, wb = writes(a.pid)-wa, writes(b.pid)-wb
	el := time.Since(start)
	stop.Store(true)
	wg.Wait()
	per := func(c time.Duration, n int64) float64 {
		return float64(c) / float64(time.Microsecond) / float64(max(n, 1))
	}
	return pairResult{
		cpu:    [2]float64{per(ca, na), per(cb, nb)},
		rps:    [2]float64{float64(na) / el.Seconds(), float64(nb) / el.Seconds()},
		writes: [2]float64{float64(wa) / float64(max(na, 1)), float64(wb) / float64(max(nb, 1))},
	}
}

// load makes calls RPCs from conc callers and returns RPCs per second.
func load(s *server, call func(pb.CatalogClient) error, conc, calls int) float64 {
	var next, errs atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			for next.Add(1) <= int64(calls) {
				if err := call(s.client); err != nil {
					errs.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if x := errs.Load(); x > 0 {
		fatal(fmt.Errorf("%s: %d failed RPCs", s.name, x))
	}
	return float64(calls) / time.Since(start).Seconds()
}

// roundRobin spreads calls over several connections.
type roundRobin struct {
	clients []pb.CatalogClient
	next    atomic.Uint64
}

func (r *roundRobin) pick() pb.CatalogClient {
	return r.clients[r.next.Add(1)%uint64(len(r.clients))]
}

// spawn starts a server process (pinned with taskset when core is set), reads its address
// and dials it.
func spawn(variant, core string, conns int) *server {
	self, err := os.Executable()
	if err != nil {
		fatal(err)
	}
	serveAs := variant
	if variant == control {
		serveAs = "bare"
	}
	// variant@binary: the variant as another build of this command serves it (the same
	// variant before and after a change, in one run).
	if v, exe, ok := strings.Cut(variant, "@"); ok {
		serveAs, self = v, exe
	}
	argv := []string{self, "-serve", serveAs}
	if core != "" {
		argv = append([]string{"taskset", "-c", core}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	// The access log: one write(2) per line to /dev/null, which never waits for a reader
	// (a pipe drained by this busy process would make the server wait on it).
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		fatal(err)
	}
	defer devNull.Close()
	cmd.Stderr = devNull
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
	var addr string
	for addr == "" {
		line, err := rd.ReadString('\n')
		if err != nil {
			fatal(fmt.Errorf("%s: %w", variant, err))
		}
		if _, rest, ok := strings.Cut(line, "listening on "); ok {
			addr = strings.TrimSpace(rest)
		}
	}
	go func() { _, _ = io.Copy(io.Discard, rd) }()
	rr := &roundRobin{}
	var closers []func() error
	for range conns {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			fatal(err)
		}
		closers = append(closers, conn.Close)
		rr.clients = append(rr.clients, pb.NewCatalogClient(conn))
	}
	return &server{name: variant, pid: cmd.Process.Pid, client: rrClient{rr}, stop: func() {
		for _, c := range closers {
			_ = c()
		}
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}}
}

// rrClient is a CatalogClient over the round robin's connections.
type rrClient struct{ rr *roundRobin }

func (c rrClient) GetItem(ctx context.Context, in *pb.GetItemRequest, opts ...grpc.CallOption) (*pb.Item, error) {
	return c.rr.pick().GetItem(ctx, in, opts...)
}

func (c rrClient) ListItems(ctx context.Context, in *pb.ListItemsRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[pb.Item], error) {
	return c.rr.pick().ListItems(ctx, in, opts...)
}

// cpuTime is the CPU time of process pid, all its threads: clock_gettime of the
// process's CPU-time clock (MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) in the kernel's
// posix-timers.h), in nanoseconds, where /proc/<pid>/stat counts 10 ms ticks.
func cpuTime(pid int) time.Duration {
	clock := int32(uint32(^int32(pid))<<3) | 2
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		fatal(fmt.Errorf("CPU clock of %d: %w", pid, e))
	}
	return time.Duration(ts.Nano())
}

// writes is the number of write system calls of process pid (/proc/<pid>/io, syscw).
func writes(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "grpcload:", err)
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

// quartiles are the first and third quartiles of v (linear interpolation).
func quartiles(v []float64) (float64, float64) {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return quantile(s, 0.25), quantile(s, 0.75)
}

func quantile(s []float64, q float64) float64 {
	if len(s) == 0 {
		return 0
	}
	x := q * float64(len(s)-1)
	i := int(x)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (x-float64(i))*(s[i+1]-s[i])
}

// medianCI is the distribution-free 95% confidence interval of v's median: the order
// statistics n/2 -+ 0.98 sqrt(n) (binomial, normal approximation).
func medianCI(v []float64) (float64, float64) {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0, 0
	}
	h := 0.98 * math.Sqrt(float64(len(s)))
	lo := max(int(math.Floor(float64(len(s))/2-h)), 0)
	hi := min(int(math.Ceil(float64(len(s))/2+h)), len(s)-1)
	return s[lo], s[hi]
}

// fmtWrites is the median of write system calls per RPC (paired rounds only).
func fmtWrites(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	return strconv.FormatFloat(median(v), 'f', 3, 64)
}

func fmtAll(v []float64) string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strings.Join(out, " ")
}
