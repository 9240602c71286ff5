package shop

import (
	"context"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type UploadService struct{ ctx context.Context }

func NewUploadService(ctx context.Context, _ *svccontext.ServiceContext) *UploadService { return &UploadService{ctx} }

func (l *UploadService) Upload(req *types.UploadReq) (*types.UploadResp, error) {
	return &types.UploadResp{Title: req.Title, Count: req.Count, Name: req.File.Filename, Size: req.File.Size, More: len(req.More),
		Ratio: req.Ratio}, nil
}
