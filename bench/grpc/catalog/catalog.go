// Package catalog holds the two servers bench/grpc compares, over the same generated code
// (catalogpb): a kit service (rpc.Server as the generated main builds it, the generated
// server layer and logic scaffold written out) and a bare grpc-go server doing the same
// work (the same validation and the same answers).
package catalog

import (
	"context"
	"io"
	"strconv"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/kitdev/kit/bench/grpc/catalog/catalogpb"
	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/rpc"
	"github.com/kitdev/kit/runtime/telemetry"
)

// StreamItems is the number of items a ListItems call streams.
const StreamItems = 50

var tags = []string{"garden", "outdoor", "steel", "sale"}

// item is the answer both servers build for an id.
func item(id string, withDescription bool) *pb.Item {
	it := &pb.Item{
		Id:          id,
		Sku:         "SKU-" + id,
		Name:        "Folding garden chair",
		PriceCents:  4999,
		Currency:    "EUR",
		Stock:       42,
		Status:      pb.Status_STATUS_ACTIVE,
		Tags:        tags,
		Dimensions:  &pb.Dimensions{WidthCm: 54.5, HeightCm: 88, DepthCm: 61.2, WeightKg: 4.3},
		UpdatedUnix: 1764201600,
	}
	if withDescription {
		it.Description = "A steel folding chair for the garden, weatherproof, with a slatted seat."
	}
	return it
}

// listItems sends limit items (StreamItems in the bench) on stream.
func listItems(req *pb.ListItemsRequest, stream grpc.ServerStreamingServer[pb.Item]) error {
	for i := range int(req.GetLimit()) {
		if err := stream.Send(item(strconv.Itoa(i), false)); err != nil {
			return err
		}
	}
	return nil
}

// Bare is the baseline: the generated interface implemented directly on grpc.NewServer,
// with the request's validation.
type Bare struct{ pb.UnimplementedCatalogServer }

// GetItem validates and answers.
func (Bare) GetItem(_ context.Context, req *pb.GetItemRequest) (*pb.Item, error) {
	if err := req.Validate(); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	return item(req.GetId(), req.GetWithDescription()), nil
}

// ListItems validates and streams.
func (Bare) ListItems(req *pb.ListItemsRequest, stream grpc.ServerStreamingServer[pb.Item]) error {
	if err := req.Validate(); err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return listItems(req, stream)
}

// Unchecked is Bare without the validation: Bare against Unchecked is what validation
// itself costs.
type Unchecked struct{ pb.UnimplementedCatalogServer }

// GetItem answers.
func (Unchecked) GetItem(_ context.Context, req *pb.GetItemRequest) (*pb.Item, error) {
	return item(req.GetId(), req.GetWithDescription()), nil
}

// ListItems streams.
func (Unchecked) ListItems(req *pb.ListItemsRequest, stream grpc.ServerStreamingServer[pb.Item]) error {
	return listItems(req, stream)
}

// NewBare returns the bare server; without validation when checked is false.
func NewBare(checked bool) *grpc.Server {
	gs := grpc.NewServer()
	if checked {
		pb.RegisterCatalogServer(gs, Bare{})
	} else {
		pb.RegisterCatalogServer(gs, Unchecked{})
	}
	return gs
}

// KitConfig is the part of a kit service's config the bench varies.
type KitConfig struct {
	Telemetry telemetry.Config
	LogLevel  log.Level
	// Log receives the access log (the generated service writes it to stderr).
	Log io.Writer
	// OldStats installs, with telemetry off, the stats handler GRPCServerHandler returned
	// then before issue 23: OpenTelemetry's, over no-op providers (the same-run baseline
	// of the change).
	OldStats bool
}

// NewKit builds the kit server as the generated main.go does (telemetry.Init, the stats
// handler, no reflection, handler timeout 0) with its service registered; stop shuts the
// server and the telemetry down.
func NewKit(cfg KitConfig) (srv *rpc.Server, stop func(), err error) {
	log.SetLevel(cfg.LogLevel)
	tel, err := telemetry.Init(context.Background(), cfg.Telemetry, telemetry.WithoutGlobals())
	if err != nil {
		return nil, nil, err
	}
	handler := tel.GRPCServerHandler()
	if cfg.OldStats {
		handler = otelgrpc.NewServerHandler(
			otelgrpc.WithTracerProvider(tracenoop.NewTracerProvider()),
			otelgrpc.WithMeterProvider(metricnoop.NewMeterProvider()),
			otelgrpc.WithPropagators(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})),
		)
	}
	srv = rpc.NewServer(
		rpc.WithStatsHandler(handler),
		rpc.WithReflection(false),
		rpc.WithHandlerTimeout(0),
	)
	srv.SetLogger(log.New(cfg.Log))
	pb.RegisterCatalogServer(srv, &Server{svcCtx: &ServiceContext{}})
	return srv, func() {
		_ = srv.Stop(context.Background())
		_ = tel.Shutdown(context.Background())
	}, nil
}

// TelemetryConfig is the generated config's telemetry part: on (otel with exporter none,
// metrics with the Prometheus exporter, no scrape listener) or off.
func TelemetryConfig(on bool) telemetry.Config {
	var c telemetry.Config
	c.ServiceName = "catalog"
	c.Otel.Enabled, c.Metrics.Enabled = on, on
	return c
}
