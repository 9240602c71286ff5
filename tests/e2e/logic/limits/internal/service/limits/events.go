package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/kitdev/kit/runtime/log"

	"example.com/limits/svccontext"
)

// EventsService holds the logic of GET /events.
type EventsService struct {
	log.Logger
	ctx    context.Context
	svcCtx *svccontext.ServiceContext
}

// NewEventsService builds the logic for one request; its logger is bound to ctx.
func NewEventsService(ctx context.Context, svcCtx *svccontext.ServiceContext) *EventsService {
	return &EventsService{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

// Events streams server-sent events for longer than the server's write timeout.
func (l *EventsService) Events(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "text/event-stream")
	rc := http.NewResponseController(w)
	for i := 0; i < 10; i++ {
		if _, err := fmt.Fprintf(w, "data: %d\n\n", i); err != nil {
			return nil // the client went away
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
		time.Sleep(150 * time.Millisecond)
	}
	return nil
}
