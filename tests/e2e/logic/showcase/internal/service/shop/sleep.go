package shop

import (
	"context"
	"time"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type SleepService struct{ ctx context.Context }

func NewSleepService(ctx context.Context, _ *svccontext.ServiceContext) *SleepService { return &SleepService{ctx} }

func (l *SleepService) Sleep(req *types.SleepReq) error {
	select {
	case <-time.After(time.Duration(req.Ms) * time.Millisecond):
		return nil
	case <-l.ctx.Done():
		return l.ctx.Err()
	}
}
