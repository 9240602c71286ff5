package todo

import (
	"context"

	types "example.com/todo/internal/types/todo"
	"example.com/todo/svccontext"
)

type CreateTodoService struct{ base }

func NewCreateTodoService(ctx context.Context, svcCtx *svccontext.ServiceContext) *CreateTodoService {
	return &CreateTodoService{newBase(ctx, svcCtx)}
}

func (l *CreateTodoService) CreateTodo(req *types.CreateTodoReq) (*types.Todo, error) {
	mu.Lock()
	defer mu.Unlock()
	t := &types.Todo{ID: newID(), Title: req.Title, Status: *req.Status, Tags: req.Tags, CreatedAt: now()}
	todos[t.ID] = t
	order = append(order, t.ID)
	return t, nil
}
