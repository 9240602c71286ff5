// Package e2ehttp calls every method of examples/todo through its generated Go client
// (output.client) over loopback; KIT_E2E_HTTP is the running service's base URL.
package e2ehttp

import (
	"context"
	"errors"
	"net/http"
	"os"
	"testing"
	"time"

	"example.com/todo/client"
	"example.com/todo/internal/types/todo"
)

func ptr[T any](v T) *T { return &v }

func newClient(t *testing.T, opts ...client.Option) *client.Client {
	t.Helper()
	base := os.Getenv("KIT_E2E_HTTP")
	if base == "" {
		t.Skip("KIT_E2E_HTTP names no running todo service")
	}
	c, err := client.New(base, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEveryMethod(t *testing.T) {
	c := newClient(t)
	ctx := context.Background()
	created, err := c.CreateTodo(ctx, &todo.CreateTodoReq{Title: "buy milk", Tags: []string{"shop"}})
	if err != nil {
		t.Fatal(err)
	}
	if created.Title != "buy milk" || created.Status != todo.StatusOpen || len(created.Tags) != 1 ||
		time.Since(created.CreatedAt) > time.Minute {
		t.Fatalf("created: %+v", created)
	}
	got, err := c.GetTodo(ctx, &todo.TodoID{ID: created.ID})
	if err != nil || got.ID != created.ID || !got.CreatedAt.Equal(created.CreatedAt) {
		t.Fatalf("get: %+v %v", got, err)
	}
	updated, err := c.UpdateTodo(ctx, &todo.UpdateTodoReq{ID: created.ID, Status: ptr(todo.StatusDone)})
	if err != nil || updated.Status != todo.StatusDone || updated.Title != "buy milk" {
		t.Fatalf("update: %+v %v", updated, err)
	}
	list, err := c.ListTodos(ctx, &todo.ListTodosReq{Status: ptr(todo.StatusDone), Limit: ptr(1)})
	if err != nil || len(list.Items) != 1 || list.Items[0].Status != todo.StatusDone || list.Total < 1 {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := c.DeleteTodo(ctx, &todo.TodoID{ID: created.ID}); err != nil {
		t.Fatalf("delete: %v", err)
	}
	var missing *todo.TodoNotFoundErr
	if _, err := c.GetTodo(ctx, &todo.TodoID{ID: created.ID}); !errors.As(err, &missing) || missing.ID != created.ID {
		t.Fatalf("get after delete: %T %v", err, err)
	}
	if err := c.DeleteTodo(ctx, &todo.TodoID{ID: "no/such id"}); !errors.As(err, &missing) || missing.ID != "no/such id" {
		t.Fatalf("delete of an unknown id (escaped path): %T %v", err, err)
	}
}

func TestValidation(t *testing.T) {
	ctx := context.Background()
	_, err := newClient(t).CreateTodo(ctx, &todo.CreateTodoReq{Title: ""})
	var e *client.Error
	if !errors.As(err, &e) || e.Status != http.StatusBadRequest || e.Message != "title: length out of range [1, 200]" {
		t.Fatalf("server validation: %T %v", err, err)
	}
	_, err = newClient(t).ListTodos(ctx, &todo.ListTodosReq{Limit: ptr(0)})
	if !errors.As(err, &e) || e.Message != "limit: out of range [1, 100]" {
		t.Fatalf("query validation: %T %v", err, err)
	}
	_, err = newClient(t, client.WithValidation()).ListTodos(ctx, &todo.ListTodosReq{Limit: ptr(0)})
	var v *client.ValidationError
	if !errors.As(err, &v) || v.Error() != e.Message {
		t.Fatalf("client-side validation: %T %v", err, err)
	}
}
