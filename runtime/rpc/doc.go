// Package rpc is the gRPC runtime of kit services: a server over
// google.golang.org/grpc with health, reflection, recovery, an access log,
// a unary deadline and graceful stop, the mapping of logic errors to gRPC
// statuses (Error), and a lazy client (Dial).
//
// A call to a user service passes through, outermost first:
//
//	stats handler (WithStatsHandler, in the transport: spans and metrics)
//	  → recovery → access log → unary timeout (WithHandlerTimeout)
//	  → interceptors added with Use / UseStream, in added order → handler
//
// The built-in services grpc.health.v1.Health (always registered) and
// server reflection (WithReflection) bypass the stats handler and every
// interceptor. Health reports SERVING for the server ("") and for each
// registered service once Serve starts, and NOT_SERVING as soon as Stop
// begins; Stop then drains in-flight calls within its context and cuts off
// the rest.
//
// Generated per-RPC code is thin: it calls Validate on the request, calls
// the logic and returns Error(ctx, err). A rule-based validator without a
// Validate method on the message (for example buf's protovalidate) is
// installed as an interceptor with ValidateUnary and ValidateStream.
package rpc
