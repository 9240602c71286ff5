package api

import (
	"context"
	"time"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/limits/internal/types/api"
	"example.com/limits/svccontext"
)

// SlowService holds the logic of GET /slow.
type SlowService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewSlowService builds the logic for one request; its logger is bound to ctx.
func NewSlowService(ctx context.Context, svcCtx *svccontext.ServiceContext) *SlowService {
	return &SlowService{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

// Slow takes longer than the server's write timeout, within its @timeout.
func (l *SlowService) Slow() (*types.Slept, error) {
	d := 1500 * time.Millisecond
	select {
	case <-time.After(d):
		return &types.Slept{Slept: d.String()}, nil
	case <-l.ctx.Done():
		return nil, l.ctx.Err()
	}
}
