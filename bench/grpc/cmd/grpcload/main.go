// Command grpcload is the loopback half of bench/grpc: each server variant of package
// catalog (bare grpc-go, kit with telemetry off, kit at log level warn, kit with
// telemetry on, kit with batched log writes) runs in its own process (this binary with -serve) pinned to one core
// with taskset, and this process loads them over loopback TCP - unary GetItem calls, then
// 50-item ListItems streams - in alternating rounds. It prints each server's CPU time per
// RPC (from /proc, which other work on the machine barely moves) and RPCs per second,
// the medians over the rounds and each kit variant's ratio to the bare server of the same
// round (median and range). Run this process on another core (run.sh: taskset -c 1).
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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

func main() {
	serve := flag.String("serve", "", "run this server variant (internal)")
	dur := flag.Duration("d", time.Second, "duration of one measured round")
	rounds := flag.Int("rounds", 7, "measured rounds (alternating servers)")
	conc := flag.Int("c", 16, "concurrent callers (over -conns connections)")
	conns := flag.Int("conns", 4, "client connections per server")
	core := flag.String("core", "0", "CPU the servers are pinned to (taskset -c); empty: no pinning")
	flag.Parse()
	if *serve != "" {
		runServer(*serve)
		return
	}
	var servers []*server
	for _, v := range catalog.Variants {
		servers = append(servers, spawn(v, *core, *conns))
	}
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	kinds := []struct {
		name string
		call func(pb.CatalogClient) error
	}{{"unary", unary}, {"stream", stream}}
	for _, k := range kinds { // warm-up, not counted
		for _, s := range servers {
			load(s, k.call, *conc, *dur/4)
		}
	}
	fmt.Printf("grpc benchmark: %d callers over %d connections, %d alternating rounds of %s, servers pinned to CPU %q\n",
		*conc, *conns, *rounds, *dur, *core)
	fmt.Printf("%-7s %-12s %13s %22s %10s %8s\n", "kind", "server", "CPU us/RPC", "ratio (min-max)", "RPC/s", "ratio")
	for _, k := range kinds {
		cpu := make([][]float64, len(servers))
		rps := make([][]float64, len(servers))
		cpuRatio := make([][]float64, len(servers))
		rpsRatio := make([][]float64, len(servers))
		for r := 0; r < *rounds; r++ {
			for i, s := range servers {
				q, c := measure(s, k.call, *conc, *dur)
				cpu[i], rps[i] = append(cpu[i], c), append(rps[i], q)
				cpuRatio[i] = append(cpuRatio[i], c/cpu[0][r])
				rpsRatio[i] = append(rpsRatio[i], q/rps[0][r])
			}
		}
		for i, s := range servers {
			lo, hi := minMax(cpuRatio[i])
			fmt.Printf("%-7s %-12s %13.2f %8.3fx (%.2f-%.2f) %10.0f %7.2fx   cpu/RPC rounds %s\n", k.name, s.name,
				median(cpu[i]), median(cpuRatio[i]), lo, hi, median(rps[i]), median(rpsRatio[i]), fmtAll(cpu[i]))
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

// measure runs one round: RPCs per second and the server's CPU time per RPC in µs.
func measure(s *server, call func(pb.CatalogClient) error, conc int, d time.Duration) (float64, float64) {
	before := cpuTime(s.pid)
	rps, n := load(s, call, conc, d)
	after := cpuTime(s.pid)
	if n == 0 {
		return rps, 0
	}
	return rps, float64(after-before) / float64(time.Microsecond) / float64(n)
}

func load(s *server, call func(pb.CatalogClient) error, conc int, d time.Duration) (float64, int64) {
	var n, errs atomic.Int64
	deadline := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if err := call(s.client); err != nil {
					errs.Add(1)
					continue
				}
				n.Add(1)
			}
		})
	}
	wg.Wait()
	if x := errs.Load(); x > 0 {
		fmt.Fprintf(os.Stderr, "%s: %d failed RPCs\n", s.name, x)
	}
	return float64(n.Load()) / time.Since(start).Seconds(), n.Load()
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
	argv := []string{self, "-serve", variant}
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

func minMax(v []float64) (float64, float64) {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0, 0
	}
	return s[0], s[len(s)-1]
}

func fmtAll(v []float64) string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strings.Join(out, " ")
}
