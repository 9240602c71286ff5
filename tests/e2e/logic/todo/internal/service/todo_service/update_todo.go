package todo

import (
	"context"

	types "example.com/todo/internal/types/todo"
	"example.com/todo/svccontext"
)

type UpdateTodoService struct{ base }

func NewUpdateTodoService(ctx context.Context, svcCtx *svccontext.ServiceContext) *UpdateTodoService {
	return &UpdateTodoService{newBase(ctx, svcCtx)}
}

func (l *UpdateTodoService) UpdateTodo(req *types.UpdateTodoReq) (*types.Todo, error) {
	mu.Lock()
	defer mu.Unlock()
	t, ok := todos[req.ID]
	if !ok {
		return nil, types.NewTodoNotFoundErr(types.TodoNotFoundBody{ID: req.ID})
	}
	if req.Title != nil {
		t.Title = *req.Title
	}
	if req.Status != nil {
		t.Status = *req.Status
	}
	return t, nil
}
