package todo

import (
	"context"

	types "example.com/todo/internal/types/todo"
	"example.com/todo/svccontext"
)

type GetTodoService struct{ base }

func NewGetTodoService(ctx context.Context, svcCtx *svccontext.ServiceContext) *GetTodoService {
	return &GetTodoService{newBase(ctx, svcCtx)}
}

func (l *GetTodoService) GetTodo(req *types.TodoID) (*types.Todo, error) {
	mu.Lock()
	defer mu.Unlock()
	t, ok := todos[req.ID]
	if !ok {
		return nil, types.NewTodoNotFoundErr(types.TodoNotFoundBody{ID: req.ID})
	}
	return t, nil
}
