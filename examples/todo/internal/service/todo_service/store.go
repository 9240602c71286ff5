// The in-memory store of the todo example: the logic stubs of this package call it.

package todo

import (
	"slices"
	"strconv"
	"sync"
	"time"

	types "example.com/todo/internal/types/todo"
)

// store keeps the todos in memory, in creation order; a real service would put a database
// handle on the service context instead. Every method hands out copies, so a handler
// encoding a todo never races with a request changing it.
type store struct {
	mu    sync.Mutex
	next  int
	byID  map[string]*types.Todo
	order []string
}

// todos is the one store of the process, shared by every request.
var todos = &store{byID: map[string]*types.Todo{}}

func (s *store) create(title string, status types.Status, tags []string) types.Todo {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	t := &types.Todo{
		ID:        strconv.Itoa(s.next),
		Title:     title,
		Status:    status,
		Tags:      slices.Clone(tags),
		CreatedAt: time.Now().UTC().Truncate(time.Second),
	}
	s.byID[t.ID] = t
	s.order = append(s.order, t.ID)
	return clone(t)
}

// list returns up to limit todos (all of them for limit <= 0) with the given status (any
// status for nil), and how many todos match in all.
func (s *store) list(status *types.Status, limit int) ([]types.Todo, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var items []types.Todo
	total := 0
	for _, id := range s.order {
		t := s.byID[id]
		if status != nil && t.Status != *status {
			continue
		}
		total++
		if limit <= 0 || len(items) < limit {
			items = append(items, clone(t))
		}
	}
	return items, total
}

func (s *store) get(id string) (types.Todo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.byID[id]
	if !ok {
		return types.Todo{}, false
	}
	return clone(t), true
}

// update applies change to the todo with id under the lock and returns the result.
func (s *store) update(id string, change func(*types.Todo)) (types.Todo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.byID[id]
	if !ok {
		return types.Todo{}, false
	}
	change(t)
	return clone(t), true
}

func (s *store) delete(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byID[id]; !ok {
		return false
	}
	delete(s.byID, id)
	s.order = slices.DeleteFunc(s.order, func(o string) bool { return o == id })
	return true
}

func clone(t *types.Todo) types.Todo {
	c := *t
	c.Tags = slices.Clone(t.Tags)
	return c
}

// notFound is the typed error of the design (`error NotFound TodoNotFound`): 404 with {"id": ...}.
func notFound(id string) error {
	return types.NewTodoNotFoundErr(types.TodoNotFoundBody{ID: id})
}
