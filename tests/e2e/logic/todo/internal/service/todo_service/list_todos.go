package todo

import (
	"context"

	types "example.com/todo/internal/types/todo"
	"example.com/todo/svccontext"
)

type ListTodosService struct{ base }

func NewListTodosService(ctx context.Context, svcCtx *svccontext.ServiceContext) *ListTodosService {
	return &ListTodosService{newBase(ctx, svcCtx)}
}

func (l *ListTodosService) ListTodos(req *types.ListTodosReq) (*types.TodoList, error) {
	mu.Lock()
	defer mu.Unlock()
	out := &types.TodoList{}
	for _, id := range order {
		t, ok := todos[id]
		if !ok || (req.Status != nil && t.Status != *req.Status) {
			continue
		}
		out.Total++
		if len(out.Items) < *req.Limit {
			out.Items = append(out.Items, *t)
		}
	}
	return out, nil
}
