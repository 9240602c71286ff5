module github.com/kitdev/kit/bench/runtime

go 1.26.0

require github.com/kitdev/kit/runtime v0.0.0

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/rs/cors v1.11.1 // indirect
	go.opentelemetry.io/otel v1.47.0 // indirect
	go.opentelemetry.io/otel/trace v1.47.0 // indirect
)

replace github.com/kitdev/kit/runtime => ../../runtime
