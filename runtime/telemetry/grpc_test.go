package telemetry_test

import (
	"testing"

	"github.com/kitdev/kit/runtime/telemetry"
)

// With tracing and metrics both off there is no gRPC server stats handler
// (rpc.WithStatsHandler(nil) installs none); with either on there is one.
func TestGRPCServerHandlerOffIsNil(t *testing.T) {
	if h := initTelemetry(t, config(false, false)).GRPCServerHandler(); h != nil {
		t.Fatalf("telemetry off: stats handler %T", h)
	}
	for _, c := range []telemetry.Config{config(true, false), config(false, true)} {
		if initTelemetry(t, c).GRPCServerHandler() == nil {
			t.Fatalf("config %+v: no stats handler", c)
		}
	}
}
