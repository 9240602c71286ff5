// Package benchgrpc compares, in process over loopback TCP, the
// catalog service served by kit (the rpc server as the generated main builds it, the
// generated server layer) and by a bare grpc-go server of the same proto with the same
// validation: time and allocations per unary call and per 50-item server stream. The
// client is the same for all, so differences are the servers'. run.sh runs these and the
// loopback load test (cmd/grpcload: CPU per RPC, each server in its own pinned process).
package benchgrpc

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/kitdev/kit/bench/grpc/catalog"
	pb "github.com/kitdev/kit/bench/grpc/catalog/catalogpb"
)

func client(b *testing.B, variant string) pb.CatalogClient {
	b.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	stop, err := catalog.Serve(variant, lis, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	return pb.NewCatalogClient(conn)
}

func BenchmarkUnary(b *testing.B) {
	for _, v := range catalog.InProcessVariants {
		b.Run(v, func(b *testing.B) {
			c := client(b, v)
			req := &pb.GetItemRequest{Id: "item-42", WithDescription: true}
			ctx := context.Background()
			for range 100 { // warm the connection's buffers
				if _, err := c.GetItem(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.GetItem(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkStream(b *testing.B) {
	for _, v := range catalog.InProcessVariants {
		b.Run(v, func(b *testing.B) {
			c := client(b, v)
			req := &pb.ListItemsRequest{Category: "garden", Limit: catalog.StreamItems}
			ctx := context.Background()
			list := func() {
				s, err := c.ListItems(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for {
					_, err := s.Recv()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != catalog.StreamItems {
					b.Fatalf("%d items", n)
				}
			}
			for range 20 {
				list()
			}
			b.ReportAllocs()
			for b.Loop() {
				list()
			}
		})
	}
}
