package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type BindService struct{ ctx context.Context }

func NewBindService(ctx context.Context, _ *svccontext.ServiceContext) *BindService { return &BindService{ctx} }

func (l *BindService) Bind(req *types.BindReq) (*types.BindResp, error) {
	tok := "tok"
	return &types.BindResp{ID: req.ID, Q: req.Q, N: req.N, F: req.F, B: req.B, Ids: req.Ids, Trace: req.Trace,
		Sid: req.Sid, Color: req.Color, Pr: req.Pr, Note: req.Note, Rate: req.Rate, Weight: req.Weight, Total: 7, Tags: []string{"a", "b"}, Token: &tok}, nil
}
