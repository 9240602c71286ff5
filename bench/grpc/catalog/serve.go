package catalog

import (
	"fmt"
	"io"
	"net"

	"github.com/kitdev/kit/runtime/log"
)

// Variants are the servers the loopback load test compares, by name.
var Variants = []string{"bare", "kit", "kit-warn", "kit-otel"}

// InProcessVariants are the servers the in-process bench compares: Variants, the bare
// server without validation and kit's old stats handler.
var InProcessVariants = []string{"bare", "bare-novalid", "kit", "kit-warn", "kit-otel", "kit-oldstats"}

// Serve starts variant on l: "bare" (grpc.NewServer), "bare-novalid" (the same without
// the requests' validation), "kit" (telemetry off, access log at info written to logOut),
// "kit-warn" (telemetry off, logging.level warn: no access line), "kit-otel" (otel with
// exporter none and metrics on, access log at info), "kit-oldstats" (kit with telemetry
// off as it was before issue 23: OpenTelemetry's stats handler with no-op providers still
// installed). stop ends it.
func Serve(variant string, l net.Listener, logOut io.Writer) (stop func(), err error) {
	if variant == "bare" || variant == "bare-novalid" {
		gs := NewBare(variant == "bare")
		go func() { _ = gs.Serve(l) }()
		return gs.Stop, nil
	}
	cfg := KitConfig{Telemetry: TelemetryConfig(false), LogLevel: log.LevelInfo, Log: logOut}
	switch variant {
	case "kit":
	case "kit-warn":
		cfg.LogLevel = log.LevelWarn
	case "kit-otel":
		cfg.Telemetry = TelemetryConfig(true)
	case "kit-oldstats":
		cfg.OldStats = true
	default:
		return nil, fmt.Errorf("unknown variant %q", variant)
	}
	srv, stopKit, err := NewKit(cfg)
	if err != nil {
		return nil, err
	}
	go func() { _ = srv.Serve(l) }()
	return stopKit, nil
}
