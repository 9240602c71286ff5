// The benchmark's logic, in place of the scaffold kit writes once: the constructor is
// the scaffold's (a request-bound logger), the method does what the hand-written
// baseline does.
package users

import (
	"context"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/benchsvc/internal/types/users"
	"example.com/benchsvc/svccontext"
)

// CreateUserService holds the logic of POST /v1/users.
type CreateUserService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewCreateUserService builds the logic for one request; its logger is bound to ctx.
func NewCreateUserService(ctx context.Context, svcCtx *svccontext.ServiceContext) *CreateUserService {
	return &CreateUserService{
		Logger: log.FromContext(ctx),
		ctx:    ctx,
		svcCtx: svcCtx,
	}
}

// CreateUser implements POST /v1/users.
func (l *CreateUserService) CreateUser(req *types.CreateUserReq) (*types.User, error) {
	return &types.User{
		ID: "u-1", Name: req.Name, Email: req.Email, Age: req.Age, Role: req.Role,
		Tags: req.Tags, Address: req.Address, CreatedAt: Created,
	}, nil
}
