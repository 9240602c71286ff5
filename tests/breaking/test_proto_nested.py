"""Proto messages compared to any depth: nested messages, repeated and map fields, enums
nested in messages, recursive messages; each change with the paths and RPCs it reaches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MakeRepo = Callable[[dict[str, str]], Any]
Diff = Callable[..., tuple[int, list[str], str]]

PROTO = """\
syntax = "proto3";

package shop.v1;

service Orders {
  rpc Place(Order) returns (Receipt);
  rpc Watch(Receipt) returns (stream Order);
}

message Order {
  message Line {
    string sku = 1;
    int32 qty = 2;
    Kind kind = 3;
  }
  enum Kind {
    KIND_UNSPECIFIED = 0;
    KIND_BOX = 1;
  }
  repeated Line lines = 1;
  map<string, Line> by_sku = 2;
  Node tree = 3;
}

message Node {
  string name = 1;
  repeated Node children = 2;
}

message Receipt {
  string id = 1;
  Order order = 2;
}
"""

FILE = "design/shop/v1/orders.proto"


def _at(field: str) -> str:
    """Where a field of Order.Line travels: Order is Place's request and Watch's response,
    and inside Receipt (Place's response, Watch's request) as `order`."""
    place, watch = "shop.v1.Orders/Place", "shop.v1.Orders/Watch"
    outer, inner = (
        f"the request of {place} and the response of {watch}",
        f"the request of {watch} and the response of {place}",
    )
    return (
        f"at by_sku{{}}.{field} in {outer}; at lines[].{field} in {outer}; at order.by_sku{{}}.{field} in {inner}; "
        f"at order.lines[].{field} in {inner}"
    )


def test_nested_messages_and_enums(make_repo: MakeRepo, kit_diff: Diff) -> None:
    repo = make_repo({FILE: PROTO})
    repo.edit(
        FILE,
        ("    int32 qty = 2;\n", ""),
        ("    string sku = 1;", "    string sku = 4;"),
        ("    KIND_BOX = 1;\n", ""),
        ("    Kind kind = 3;", "    int64 kind = 3;"),
    )
    code, lines, _ = kit_diff(repo, "--exit-code")
    assert code == 1
    assert lines == [
        f"{FILE}:11:11: warning breaking/removed: field shop.v1.Order.Line.qty (2) was removed without reserving "
        f"its number ({_at('qty')})",
        f"{FILE}:12:12: warning breaking/field-number: field shop.v1.Order.Line.sku moved from number 1 to 4 "
        f"({_at('sku')})",
        f"{FILE}:13:11: warning breaking/type: type of field shop.v1.Order.Line.kind changed from "
        f"shop.v1.Order.Kind to int64 ({_at('kind')})",
        f"{FILE}:15:8: warning breaking/removed: enum value shop.v1.Order.Kind.KIND_BOX (1) was removed "
        f"({_at('kind')})",  # where the baseline's clients meet it
    ]


def test_recursive_messages_end_where_they_meet_themselves(make_repo: MakeRepo, kit_diff: Diff) -> None:
    repo = make_repo({FILE: PROTO})
    repo.edit(FILE, ("  string name = 1;", "  bytes name = 1;"))
    place, watch = "shop.v1.Orders/Place", "shop.v1.Orders/Watch"
    outer, inner = (
        f"the request of {place} and the response of {watch}",
        f"the request of {watch} and the response of {place}",
    )
    assert kit_diff(repo)[1] == [
        f"{FILE}:26:9: warning breaking/type: type of field shop.v1.Node.name changed from string to bytes (at "
        f"order.tree.children[].name in {inner}; at order.tree.name in {inner}; at tree.children[].name in {outer}; "
        f"at tree.name in {outer})",
    ]


def test_an_enum_reached_through_nesting(make_repo: MakeRepo, kit_diff: Diff) -> None:
    repo = make_repo({FILE: PROTO})
    repo.edit(FILE, ("    KIND_BOX = 1;\n", ""))
    assert kit_diff(repo)[1] == [
        f"{FILE}:16:8: warning breaking/removed: enum value shop.v1.Order.Kind.KIND_BOX (1) was removed "
        f"({_at('kind')})",
    ]


def test_a_reserved_nested_field_is_safe(make_repo: MakeRepo, kit_diff: Diff) -> None:
    repo = make_repo({FILE: PROTO})
    repo.edit(FILE, ("    int32 qty = 2;\n", "    reserved 2;\n    int32 count = 4;\n"))
    assert kit_diff(repo, "--exit-code")[:2] == (0, [])
