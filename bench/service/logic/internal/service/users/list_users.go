package users

import (
	"context"
	"strconv"
	"time"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/benchsvc/internal/types/users"
	"example.com/benchsvc/svccontext"
)

// ListUsersService holds the logic of GET /v1/users.
type ListUsersService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewListUsersService builds the logic for one request; its logger is bound to ctx.
func NewListUsersService(ctx context.Context, svcCtx *svccontext.ServiceContext) *ListUsersService {
	return &ListUsersService{
		Logger: log.FromContext(ctx),
		ctx:    ctx,
		svcCtx: svcCtx,
	}
}

// ListUsers implements GET /v1/users.
func (l *ListUsersService) ListUsers(req *types.ListUsersReq) (*types.UserPage, error) {
	return &types.UserPage{Items: Users[:*req.Limit], Total: len(Users)}, nil
}

// Created is the creation time every answer carries.
var Created = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Users are the 100 users GET /v1/users pages through (the hand-written baseline's).
var Users = func() []types.User {
	out := make([]types.User, 100)
	for i := range out {
		out[i] = types.User{
			ID: "u-" + strconv.Itoa(i), Name: "User " + strconv.Itoa(i), Email: "user" + strconv.Itoa(i) + "@example.com",
			Age: 20 + i%50, Role: types.RoleMember, Tags: []string{"a", "b"},
			Address: types.Address{Street: "1 Main Street", City: "Springfield", Zip: "12345"}, CreatedAt: Created,
		}
	}
	return out
}()
