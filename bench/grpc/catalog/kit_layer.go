package catalog

// What kit generates for the Catalog service, written out: the server layer is
// kit_core/generators/templates/go/grpc_rpc.go.j2 rendered for each RPC, the logic types
// are the scaffolds (a logger bound to the call's context) with the bench's bodies.

import (
	"context"

	"google.golang.org/grpc"

	pb "github.com/kitdev/kit/bench/grpc/catalog/catalogpb"
	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/rpc"
)

// ServiceContext stands for the generated service context.
type ServiceContext struct{}

// Server serves bench.catalog.v1.Catalog (generated server.go).
type Server struct {
	pb.UnimplementedCatalogServer
	svcCtx *ServiceContext
}

// GetItem serves /bench.catalog.v1.Catalog/GetItem (generated get_item.go).
func (s *Server) GetItem(ctx context.Context, req *pb.GetItemRequest) (*pb.Item, error) {
	if err := rpc.Validate(req); err != nil {
		return nil, err
	}
	resp, err := NewGetItemLogic(ctx, s.svcCtx).GetItem(req)
	if err != nil {
		return nil, rpc.Error(ctx, err)
	}
	return resp, nil
}

// ListItems serves /bench.catalog.v1.Catalog/ListItems (generated list_items.go).
func (s *Server) ListItems(req *pb.ListItemsRequest, stream grpc.ServerStreamingServer[pb.Item]) error {
	ctx := stream.Context()
	if err := rpc.Validate(req); err != nil {
		return err
	}
	return rpc.Error(ctx, NewListItemsLogic(ctx, s.svcCtx).ListItems(req, stream))
}

// GetItemLogic is the logic scaffold of GetItem.
type GetItemLogic struct {
	log.Logger
	ctx    context.Context
	svcCtx *ServiceContext
}

// NewGetItemLogic builds the logic for one call; its logger is bound to ctx.
func NewGetItemLogic(ctx context.Context, svcCtx *ServiceContext) *GetItemLogic {
	return &GetItemLogic{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

// GetItem answers the item.
func (l *GetItemLogic) GetItem(req *pb.GetItemRequest) (*pb.Item, error) {
	return item(req.GetId(), req.GetWithDescription()), nil
}

// ListItemsLogic is the logic scaffold of ListItems.
type ListItemsLogic struct {
	log.Logger
	ctx    context.Context
	svcCtx *ServiceContext
}

// NewListItemsLogic builds the logic for one call; its logger is bound to ctx.
func NewListItemsLogic(ctx context.Context, svcCtx *ServiceContext) *ListItemsLogic {
	return &ListItemsLogic{Logger: log.FromContext(ctx), ctx: ctx, svcCtx: svcCtx}
}

// ListItems streams the items.
func (l *ListItemsLogic) ListItems(req *pb.ListItemsRequest, stream grpc.ServerStreamingServer[pb.Item]) error {
	return listItems(req, stream)
}
