package todo

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/kitdev/kit/runtime/log"

	types "example.com/todo/internal/types/todo"
	"example.com/todo/svccontext"
)

// The e2e tests' in-memory store (replaces a database).
var (
	mu    sync.Mutex
	next  int
	todos = map[string]*types.Todo{}
	order []string
)

type base struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

func newBase(ctx context.Context, svcCtx *svccontext.ServiceContext) base {
	return base{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

func newID() string {
	next++
	return strconv.Itoa(next)
}

func now() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
