package users

import (
	"context"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/benchsvc/internal/types/users"
	"example.com/benchsvc/svccontext"
)

// GetUserService holds the logic of GET /v1/users/{id}.
type GetUserService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewGetUserService builds the logic for one request; its logger is bound to ctx.
func NewGetUserService(ctx context.Context, svcCtx *svccontext.ServiceContext) *GetUserService {
	return &GetUserService{
		Logger: log.FromContext(ctx),
		ctx:    ctx,
		svcCtx: svcCtx,
	}
}

// GetUser implements GET /v1/users/{id}.
func (l *GetUserService) GetUser(req *types.GetUserReq) (*types.User, error) {
	u := Users[7]
	u.ID = req.ID
	return &u, nil
}
