package rpc

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// ValidateClientStream returns s with Recv running Validate on every
// received message (a failure ends the receive with InvalidArgument); when
// Req has no Validate method s is returned as it is.
func ValidateClientStream[Req, Res any](s grpc.ClientStreamingServer[Req, Res]) grpc.ClientStreamingServer[Req, Res] {
	if _, ok := any(new(Req)).(validator); !ok {
		return s
	}
	return validClientStream[Req, Res]{s}
}

type validClientStream[Req, Res any] struct {
	grpc.ClientStreamingServer[Req, Res]
}

func (s validClientStream[Req, Res]) Recv() (*Req, error) {
	m, err := s.ClientStreamingServer.Recv()
	if err != nil {
		return m, err
	}
	if err := Validate(m); err != nil {
		return nil, err
	}
	return m, nil
}

// ValidateBidiStream is ValidateClientStream for bidirectional streams.
func ValidateBidiStream[Req, Res any](s grpc.BidiStreamingServer[Req, Res]) grpc.BidiStreamingServer[Req, Res] {
	if _, ok := any(new(Req)).(validator); !ok {
		return s
	}
	return validBidiStream[Req, Res]{s}
}

type validBidiStream[Req, Res any] struct {
	grpc.BidiStreamingServer[Req, Res]
}

func (s validBidiStream[Req, Res]) Recv() (*Req, error) {
	m, err := s.BidiStreamingServer.Recv()
	if err != nil {
		return m, err
	}
	if err := Validate(m); err != nil {
		return nil, err
	}
	return m, nil
}

// ValidateUnary returns an interceptor running fn on every unary request
// message; a failure answers InvalidArgument with fn's message. It installs
// a rule-based validator that messages do not carry as a method, for
// example buf's protovalidate:
//
//	v := func(m proto.Message) error { return protovalidate.Validate(m) }
//	srv.Use(rpc.ValidateUnary(v))
//	srv.UseStream(rpc.ValidateStream(v))
func ValidateUnary(fn func(proto.Message) error) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		if err := validateWith(fn, req); err != nil {
			return nil, err
		}
		return next(ctx, req)
	}
}

// ValidateStream returns a stream interceptor running fn on every message
// the server receives; a failure ends the receive with InvalidArgument.
func ValidateStream(fn func(proto.Message) error) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		return next(srv, validStream{ServerStream: ss, fn: fn})
	}
}

type validStream struct {
	grpc.ServerStream
	fn func(proto.Message) error
}

func (s validStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return validateWith(s.fn, m)
}

func validateWith(fn func(proto.Message) error, m any) error {
	msg, ok := m.(proto.Message)
	if !ok {
		return nil
	}
	if err := fn(msg); err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return nil
}
