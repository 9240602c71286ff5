package notes

import (
	"strconv"
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	notesv1 "example.com/notes/internal/pb/notes/v1"
)

// store keeps the notes in memory, in creation order.
var store = struct {
	sync.Mutex
	notes []*notesv1.Note
}{}

func save(req *notesv1.CreateNoteRequest) *notesv1.Note {
	store.Lock()
	defer store.Unlock()
	n := &notesv1.Note{
		Id:        strconv.Itoa(len(store.notes) + 1),
		Title:     req.GetTitle(),
		Body:      req.GetBody(),
		CreatedAt: timestamppb.New(time.Unix(1700000000+int64(len(store.notes)), 0)),
	}
	store.notes = append(store.notes, n)
	return n
}

func find(id string) *notesv1.Note {
	store.Lock()
	defer store.Unlock()
	for _, n := range store.notes {
		if n.GetId() == id {
			return n
		}
	}
	return nil
}

func all() []*notesv1.Note {
	store.Lock()
	defer store.Unlock()
	return append([]*notesv1.Note(nil), store.notes...)
}
