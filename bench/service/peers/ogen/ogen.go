// Package ogen is the ogen peer of the service benchmark: the benchmark's logic over the
// server ogen generates (into ./api) from the OpenAPI document kit writes for the design.
package ogen

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"example.com/benchsvc/internal/peers/ogen/api"
)

type handler struct{}

// Created is the creation time every answer carries.
var Created = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Users are the 100 users GET /v1/users pages through (the hand-written baseline's).
var Users = func() []api.User {
	out := make([]api.User, 100)
	for i := range out {
		out[i] = api.User{
			ID: "u-" + strconv.Itoa(i), Name: "User " + strconv.Itoa(i), Email: "user" + strconv.Itoa(i) + "@example.com",
			Age: int64(20 + i%50), Role: api.RoleMember, Tags: []string{"a", "b"},
			Address: api.Address{Street: "1 Main Street", City: "Springfield", Zip: "12345"}, CreatedAt: Created,
		}
	}
	return out
}()

func (handler) CreateUser(_ context.Context, req *api.CreateUserReq) (*api.User, error) {
	return &api.User{
		ID: "u-1", Name: req.Name, Email: req.Email, Age: req.Age, Role: req.Role,
		Tags: req.Tags, Address: req.Address, CreatedAt: Created,
	}, nil
}

func (handler) GetUser(_ context.Context, params api.GetUserParams) (*api.User, error) {
	u := Users[7]
	u.ID = params.ID
	return &u, nil
}

func (handler) ListUsers(_ context.Context, params api.ListUsersParams) (*api.UserPage, error) {
	return &api.UserPage{Items: Users[:params.Limit.Or(50)], Total: int64(len(Users))}, nil
}

// Handler is ogen's server over the benchmark's logic.
func Handler() http.Handler {
	srv, err := api.NewServer(handler{})
	if err != nil {
		panic(err)
	}
	return srv
}
