package shop

import (
	"context"

	"example.com/showcase/svccontext"
)

type PingService struct{ ctx context.Context }

func NewPingService(ctx context.Context, _ *svccontext.ServiceContext) *PingService { return &PingService{ctx} }

func (l *PingService) Ping() error { return nil }
