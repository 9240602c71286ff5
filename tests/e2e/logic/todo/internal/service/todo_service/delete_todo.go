package todo

import (
	"context"

	types "example.com/todo/internal/types/todo"
	"example.com/todo/svccontext"
)

type DeleteTodoService struct{ base }

func NewDeleteTodoService(ctx context.Context, svcCtx *svccontext.ServiceContext) *DeleteTodoService {
	return &DeleteTodoService{newBase(ctx, svcCtx)}
}

func (l *DeleteTodoService) DeleteTodo(req *types.TodoID) error {
	mu.Lock()
	defer mu.Unlock()
	if _, ok := todos[req.ID]; !ok {
		return types.NewTodoNotFoundErr(types.TodoNotFoundBody{ID: req.ID})
	}
	delete(todos, req.ID)
	return nil
}
