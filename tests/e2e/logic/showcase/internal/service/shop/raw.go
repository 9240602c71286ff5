package shop

import (
	"bytes"
	"context"
	"net/http"
	"strconv"

	shared "example.com/showcase/internal/types/shared"
	types "example.com/showcase/internal/types/shop"
	"example.com/showcase/svccontext"
)

var _ = shared.Money{}
var _ = types.Empty{}

type RawService struct{ ctx context.Context }

func NewRawService(ctx context.Context, _ *svccontext.ServiceContext) *RawService { return &RawService{ctx} }

func (l *RawService) Raw(w http.ResponseWriter, r *http.Request) error {
	if r.URL.Query().Get("fail") != "" {
		return types.NewItemMissingErr()
	}
	w.Header().Set("Content-Type", "text/plain")
	if mb, _ := strconv.Atoi(r.URL.Query().Get("mb")); mb > 0 { // a large answer, for the write timeout
		_, err := w.Write(bytes.Repeat([]byte("x"), mb<<20))
		return err
	}
	_, err := w.Write([]byte("raw ok"))
	return err
}
