package shop

import (
	"context"
	"errors"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type FailService struct{ ctx context.Context }

func NewFailService(ctx context.Context, _ *svccontext.ServiceContext) *FailService { return &FailService{ctx} }

func (l *FailService) Fail(req *types.FailReq) error {
	session := "s1"
	hint := "try later"
	switch req.Kind {
	case "throttled":
		return types.NewThrottledErr(types.ThrottledBody{RetryAfter: 30, Session: &session})
	case "missing":
		return types.NewItemMissingErr()
	case "clash":
		return types.NewClashErr(types.ClashBody{Hint: &hint})
	case "broken":
		return types.NewBrokenErr(types.BrokenBody{Detail: "d", Internal: "secret"})
	case "deadline":
		return context.DeadlineExceeded
	}
	return errors.New("database password is hunter2")
}
