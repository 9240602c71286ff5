// Package oapi is the oapi-codegen peer of the service benchmark: the benchmark's logic
// over the strict net/http server oapi-codegen generates (into ./api) from the OpenAPI
// document kit writes for the design, behind oapi-codegen's request validator
// (nethttp-middleware, kin-openapi), which checks each request against that document.
package oapi

import (
	"context"
	"net/http"
	"strconv"
	"time"

	middleware "github.com/oapi-codegen/nethttp-middleware"

	"example.com/benchsvc/internal/peers/oapi/api"
)

type handler struct{}

// Created is the creation time every answer carries.
var Created = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Users are the 100 users GET /v1/users pages through (the hand-written baseline's).
var Users = func() []api.User {
	out := make([]api.User, 100)
	for i := range out {
		out[i] = api.User{
			Id: "u-" + strconv.Itoa(i), Name: "User " + strconv.Itoa(i), Email: "user" + strconv.Itoa(i) + "@example.com",
			Age: int64(20 + i%50), Role: api.Member, Tags: []string{"a", "b"},
			Address: api.Address{Street: "1 Main Street", City: "Springfield", Zip: "12345"}, CreatedAt: Created,
		}
	}
	return out
}()

func (handler) CreateUser(_ context.Context, req api.CreateUserRequestObject) (api.CreateUserResponseObject, error) {
	b := req.Body
	return api.CreateUser201JSONResponse{
		Id: "u-1", Name: b.Name, Email: string(b.Email), Age: b.Age, Role: b.Role,
		Tags: b.Tags, Address: b.Address, CreatedAt: Created,
	}, nil
}

func (handler) GetUser(_ context.Context, req api.GetUserRequestObject) (api.GetUserResponseObject, error) {
	u := Users[7]
	u.Id = req.Id
	return api.GetUser200JSONResponse(u), nil
}

func (handler) ListUsers(_ context.Context, req api.ListUsersRequestObject) (api.ListUsersResponseObject, error) {
	limit := int64(50) // the document's default: the validator checks, it does not fill in
	if req.Params.Limit != nil {
		limit = *req.Params.Limit
	}
	return api.ListUsers200JSONResponse{Items: Users[:limit], Total: int64(len(Users))}, nil
}

// Handler is oapi-codegen's server over the benchmark's logic, behind its request validator.
func Handler() http.Handler {
	spec, err := api.GetSwagger()
	if err != nil {
		panic(err)
	}
	spec.Servers = nil // no host to check: the bench listens on a free loopback port
	validate := middleware.OapiRequestValidatorWithOptions(spec, &middleware.Options{SilenceServersWarning: true})
	return validate(api.Handler(api.NewStrictHandler(handler{}, nil)))
}
