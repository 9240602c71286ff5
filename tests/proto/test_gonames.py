"""Go names of proto declarations, exactly as protoc-gen-go and protoc-gen-go-grpc write them."""

from __future__ import annotations

import pytest

from kit_core.proto.gonames import go_camel_case, go_sanitized, message_go_name


@pytest.mark.parametrize(
    ("name", "go"),
    [
        ("GetOrder", "GetOrder"),
        ("get_order", "GetOrder"),
        ("getOrder", "GetOrder"),
        ("_private", "XPrivate"),
        ("foo_bar_2", "FooBar_2"),
        ("HTTPRequest", "HTTPRequest"),
        ("a2b", "A2B"),
        ("Outer.Inner", "Outer_Inner"),
        ("outer.inner", "OuterInner"),
        ("x__y", "X_Y"),
    ],
)
def test_go_camel_case(name: str, go: str) -> None:
    assert go_camel_case(name) == go


def test_package_names_and_nested_messages() -> None:
    assert go_sanitized("shop-api") == "shop_api"
    assert go_sanitized("1x") == "_1x" and go_sanitized("type") == "_type"
    assert message_go_name(".shop.v1.Order.Line", "shop.v1") == "Order_Line"
    assert message_go_name(".Top", "") == "Top"
