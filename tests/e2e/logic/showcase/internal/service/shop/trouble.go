package shop

import (
	"context"
	"math"

	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

type TroubleService struct{ ctx context.Context }

func NewTroubleService(ctx context.Context, _ *svccontext.ServiceContext) *TroubleService {
	return &TroubleService{ctx}
}

// Trouble misbehaves as its kind says; any other kind answers a plain reading.
func (l *TroubleService) Trouble(req *types.TroubleReq) (*types.Reading, error) {
	switch req.Kind {
	case "panic":
		panic("trouble: the logic panicked")
	case "nan":
		return &types.Reading{Value: math.NaN()}, nil
	case "inf":
		return &types.Reading{Value: math.Inf(-1)}, nil
	case "wait": // until the client leaves or a deadline passes
		<-l.ctx.Done()
		return nil, l.ctx.Err()
	}
	return &types.Reading{Value: 1.5}, nil
}
