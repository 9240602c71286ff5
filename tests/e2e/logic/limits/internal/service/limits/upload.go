package api

import (
	"context"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/limits/internal/types/api"
	"example.com/limits/svccontext"
)

// UploadService holds the logic of POST /upload.
type UploadService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewUploadService builds the logic for one request; its logger is bound to ctx.
func NewUploadService(ctx context.Context, svcCtx *svccontext.ServiceContext) *UploadService {
	return &UploadService{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

// Upload answers the size of the uploaded file and where the parser kept it.
func (l *UploadService) Upload(req *types.UploadReq) (*types.Received, error) {
	return received(req.File)
}
