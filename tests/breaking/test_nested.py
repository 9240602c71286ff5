"""`kit diff` compares what travels to any depth: nested types, array and map elements,
generic instances, enums reached through nesting, error bodies and event payloads. Each
change is reported once per declaration, with its paths and the methods, errors and events
it reaches, on the sides where it breaks a client (request: what it sends; response and
error body: what it receives; event payload: both, publishers send it and consumers read it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

MakeRepo = Callable[[dict[str, str]], Any]
Diff = Callable[..., tuple[int, list[str], str]]

KIT = """\
package shop

enum Status {
	Open   = "open"
	Closed = "closed"
}

enum Tier {
	Gold   = "gold"
	Silver = "silver"
}

enum Stage {
	Draft = "draft"
	Final = "final"
}

type Money {
	amount   int64
	currency string
}

type Line {
	sku   string @minLength(1)
	qty   int32
	price Money
	tier  Tier?
}

type Page<T> {
	items T[]
	next  string?
}

type Listing {
	page  Page<Line>
	stage Stage?
}

type Node {
	name     string
	children Node[]?
}

type Order {
	lines   Line[]
	bySku   map<string, Line>?
	status  Status?
	tree    Node?
	history Page<Money>?
	note    string?
}

type OrderID {
	id   string @path
	tier Tier   @query
}

type Detail {
	reason string
	code   int32
}

error NotFound Missing {
	detail Detail
}

event Placed {
	payload Order
}

@contract("shop.lines.repriced")
event Repriced {
	payload Line[]
}

service Orders {
	post Place /orders {
		request  Order
		response Order
	}

	@errors(Missing)
	get ListLines /orders/{id}/lines {
		request  OrderID
		response Listing
	}
}
"""

SHOP = "design/shop.kit"
BOTH = "event shop.Placed and the request of Orders.Place and the response of Orders.Place"
SENT = "event shop.Placed and the request of Orders.Place"


@pytest.fixture
def repo(make_repo: MakeRepo) -> Any:
    return make_repo({SHOP: KIT})


def test_the_money_example_from_the_issue(make_repo: MakeRepo, kit_diff: Diff) -> None:
    kit = """\
package shop

type Money {
	amount   int64
	currency string
}

type Quote {
	sku   string
	price Money
}

service Prices {
	post CreateQuote /quotes {
		request  Quote
		response Quote
	}

	put UpdateQuote /quotes {
		request  Quote
		response Quote
	}
}
"""
    repo = make_repo({SHOP: kit})
    repo.edit(SHOP, ("\tcurrency string\n", ""))
    code, lines, err = kit_diff(repo, "--exit-code")
    assert (code, lines) == (
        1,
        [
            f"{SHOP}:3:6: warning breaking/removed: field currency of Money was removed (at price.currency in the "
            "request of Prices.CreateQuote, Prices.UpdateQuote and the response of Prices.CreateQuote, "
            "Prices.UpdateQuote)",
        ],
    )
    assert "1 change breaks clients since main" in err


def test_array_and_map_elements_generic_arguments_and_array_payloads(repo: Any, kit_diff: Diff) -> None:
    repo.edit(SHOP, ("\tqty   int32\n", ""))
    assert kit_diff(repo)[1] == [
        f"{SHOP}:23:6: warning breaking/removed: field qty of Line was removed (at [].qty in event "
        f"shop.lines.repriced; at bySku{{}}.qty in {BOTH}; at lines[].qty in {BOTH}; at page.items[].qty in the "
        "response of Orders.ListLines)",
    ]


def test_generic_instances_are_compared_per_instantiation(repo: Any, kit_diff: Diff) -> None:
    repo.edit(SHOP, ("\tnext  string?\n", ""))
    assert kit_diff(repo)[1] == [
        f"{SHOP}:30:6: warning breaking/removed: field next of Page<Line> was removed (at page.next in the response "
        "of Orders.ListLines)",
        f"{SHOP}:30:6: warning breaking/removed: field next of Page<Money> was removed (at history.next in {BOTH})",
    ]


def test_a_type_argument_changes_what_its_instance_carries(repo: Any, kit_diff: Diff) -> None:
    repo.edit(SHOP, ("\thistory Page<Money>?", "\thistory Page<Line>?"))
    owner = "Money (now Line)"
    assert kit_diff(repo)[1] == [
        f"{SHOP}:23:6: warning breaking/removed: field amount of {owner} was removed (at history.items[].amount in "
        f"{BOTH})",
        f'{SHOP}:24:2: warning breaking/renamed: field currency of {owner} was renamed to sku (body "currency" is '
        f'now body "sku") (at history.items[].currency in {BOTH})',
        f"{SHOP}:25:2: warning breaking/required: field qty of {owner} is new and required (at history.items[].qty in "
        f"{SENT})",
        f"{SHOP}:26:2: warning breaking/required: field price of {owner} is new and required (at "
        f"history.items[].price in {SENT})",
    ]


def test_enum_values_reached_through_nesting_break_what_clients_send(repo: Any, kit_diff: Diff) -> None:
    # Tier travels inside Line (in requests and event payloads); Stage only in a response,
    # where a value that is gone is one the client never receives again
    repo.edit(SHOP, ('\tSilver = "silver"\n', ""), ('\tFinal = "final"\n', ""))
    assert kit_diff(repo)[1] == [
        f'{SHOP}:8:6: warning breaking/removed: enum value Tier.Silver ("silver") was removed (at [].tier in event '
        f"shop.lines.repriced; at bySku{{}}.tier in {SENT}; at lines[].tier in {SENT}; at tier in the request of "
        "Orders.ListLines)",
    ]


def test_error_bodies_are_compared_as_responses(repo: Any, kit_diff: Diff) -> None:
    repo.edit(SHOP, ("\tcode   int32\n", ""), ("\tdetail Detail\n", "\tdetail Detail?\n"))
    assert kit_diff(repo)[1] == [
        f"{SHOP}:59:6: warning breaking/removed: field code of Detail was removed (at detail.code in error Missing "
        "of Orders.ListLines)",
        f"{SHOP}:64:2: warning breaking/required: field detail of Missing may now be absent (it was required) (at "
        "detail in error Missing of Orders.ListLines)",
    ]


def test_event_payloads(repo: Any, kit_diff: Diff) -> None:
    repo.edit(SHOP, ("\tnote    string?", "\tnote    int64?"), ('@contract("shop.lines.repriced")', ""))
    assert kit_diff(repo)[1] == [
        f"{SHOP}:51:2: warning breaking/type: field note of Order changed type from string to int64 (at note in "
        "event shop.Placed)",
        f'{SHOP}:51:2: warning breaking/type: request field note (body "note") of Orders.Place changed type from '
        "string to int64",
        f'{SHOP}:51:2: warning breaking/type: response field note (body "note") of Orders.Place changed type from '
        "string to int64",
        "main:design/shop.kit:73:7: warning breaking/removed: event shop.lines.repriced was removed (or its "
        "@contract changed)",
    ]


def test_an_event_payload_that_becomes_an_array(repo: Any, kit_diff: Diff) -> None:
    repo.edit(SHOP, ("\tpayload Order\n", "\tpayload Order[]\n"))
    assert kit_diff(repo)[1] == [
        f"{SHOP}:68:7: warning breaking/type: payload of event shop.Placed changed type from Order to Order[]",
    ]


def test_recursive_types_end_where_they_meet_themselves(repo: Any, kit_diff: Diff) -> None:
    repo.edit(SHOP, ("\tname     string\n", ""))
    assert kit_diff(repo)[1] == [
        f"{SHOP}:40:6: warning breaking/removed: field name of Node was removed (at tree.children[].name in {BOTH}; "
        f"at tree.name in {BOTH})",
    ]


def test_direction_rules_of_required_fields_and_validators(repo: Any, kit_diff: Diff) -> None:
    repo.edit(
        SHOP,
        ("\tcurrency string\n", "\tcurrency string?\n"),
        ("\tqty   int32\n", "\tqty   int32\n\tcode  string\n\tgift  bool?\n"),
        ("@minLength(1)", "@minLength(2)"),
    )
    received = "event shop.Placed and the response of Orders.Place"
    repriced = "event shop.lines.repriced"
    assert kit_diff(repo)[1] == [
        f"{SHOP}:20:2: warning breaking/required: field currency of Money may now be absent (it was required) (at "
        f"[].price.currency in {repriced}; at bySku{{}}.price.currency in {received}; at "
        f"history.items[].currency in {received}; at lines[].price.currency in {received}; at "
        "page.items[].price.currency in the response of Orders.ListLines)",
        f"{SHOP}:24:2: warning breaking/narrowed: field sku of Line: @minLength(1) narrowed to @minLength(2) (at "
        f"[].sku in {repriced}; at bySku{{}}.sku in {SENT}; at lines[].sku in {SENT})",
        f"{SHOP}:26:2: warning breaking/required: field code of Line is new and required (at [].code in {repriced}; "
        f"at bySku{{}}.code in {SENT}; at lines[].code in {SENT})",
    ]


def test_nested_types_and_wire_names(repo: Any, kit_diff: Diff) -> None:
    repo.edit(
        SHOP, ("\tamount   int64\n", "\tamount   int32\n"), ("\treason string\n", '\treason string @json("why")\n')
    )
    assert kit_diff(repo)[1] == [
        f"{SHOP}:19:2: warning breaking/type: field amount of Money changed type from int64 to int32 (at "
        f"[].price.amount in event shop.lines.repriced; at bySku{{}}.price.amount in {BOTH}; at "
        f"history.items[].amount in {BOTH}; at lines[].price.amount in {BOTH}; at page.items[].price.amount in the "
        "response of Orders.ListLines)",
        f'{SHOP}:60:2: warning breaking/wire: field reason of Detail travels as body "why" (was body "reason") '
        "(at detail.reason in error Missing of Orders.ListLines)",
    ]


def test_renamed_retyped_and_newly_required_below_the_top(repo: Any, kit_diff: Diff) -> None:
    repo.edit(
        SHOP,
        ("\tname     string\n", "\tlabel    string\n"),
        ("\tbySku   map<string, Line>?", "\tbySku   map<int32, Line>?"),
        ("\ttier  Tier?", "\ttier  Tier"),
        ("\tcode   int32\n", "\tcode   int32[]\n"),
    )
    change = "changed type from map<string, Line> to map<int32, Line>"
    assert kit_diff(repo)[1] == [  # (bySku's elements are no longer compared: their key changed)
        f"{SHOP}:27:2: warning breaking/required: field tier of Line became required (at [].tier in event "
        f"shop.lines.repriced; at lines[].tier in {SENT})",
        f'{SHOP}:41:2: warning breaking/renamed: field name of Node was renamed to label (body "name" is now body '
        f'"label") (at tree.children[].name in {BOTH}; at tree.name in {BOTH})',
        f"{SHOP}:47:2: warning breaking/type: field bySku of Order {change} (at bySku in event shop.Placed)",
        f'{SHOP}:47:2: warning breaking/type: request field bySku (body "bySku") of Orders.Place {change}',
        f'{SHOP}:47:2: warning breaking/type: response field bySku (body "bySku") of Orders.Place {change}',
        f"{SHOP}:61:2: warning breaking/type: field code of Detail changed type from int32 to int32[] (at "
        "detail.code in error Missing of Orders.ListLines)",
    ]


def test_what_does_not_break_a_client(repo: Any, kit_diff: Diff) -> None:
    # optional fields added at any depth, a wider validator, a new enum value, a value gone
    # from a response-only enum, a type renamed with the same shape, a scalar for its primitive
    repo.edit(
        SHOP,
        ("\tqty   int32\n", "\tqty   int32\n\tgift  bool?\n"),
        ("@minLength(1)", "@minLength(0)"),
        ('\tSilver = "silver"\n', '\tSilver = "silver"\n\tBronze = "bronze"\n'),
        ('\tFinal = "final"\n', ""),
        ("type Money {", "scalar Code string\n\ntype Cash {"),
        ("\tcurrency string\n", "\tcurrency Code\n"),
        ("\tprice Money\n", "\tprice Cash\n"),
        ("Page<Money>", "Page<Cash>"),
        ("\treason string\n", "\treason string\n\thint   string?\n"),
    )
    assert kit_diff(repo, "--exit-code")[:2] == (0, [])


def test_a_field_a_mixin_brings_is_one_change_where_it_is_written(make_repo: MakeRepo, kit_diff: Diff) -> None:
    kit = """\
package shop

type Stamp {
	at      string
	version int32
}

type Doc {
	Stamp
	title string
}

type Note {
	Stamp
	body string
}

type Folder {
	doc  Doc
	note Note
}

service Docs {
	post Save /docs {
		request  Folder
		response Folder
	}
}
"""
    repo = make_repo({SHOP: kit})
    repo.edit(SHOP, ("\tversion int32\n", ""))
    both = "the request of Docs.Save and the response of Docs.Save"
    assert kit_diff(repo)[1] == [
        f"{SHOP}:3:6: warning breaking/removed: field version of Stamp was removed (at doc.version in {both}; at "
        f"note.version in {both})",
    ]
    repo.edit(SHOP, ("type Note {\n\tStamp\n", "type Note {\n"))  # Note drops the mixin: Note lost them
    assert kit_diff(repo)[1] == [
        f"{SHOP}:3:6: warning breaking/removed: field version of Stamp was removed (at doc.version in {both})",
        f"{SHOP}:12:6: warning breaking/removed: field at of Note was removed (at note.at in {both})",
        f"{SHOP}:12:6: warning breaking/removed: field version of Note was removed (at note.version in {both})",
    ]


def test_a_baseline_that_instantiates_a_type_without_end_still_ends(make_repo: MakeRepo, kit_diff: Diff) -> None:
    # the analyzer refuses Tree<Tree<T>> in Tree (generic/instantiation-cycle), but a baseline
    # is read as it was committed, errors and all
    kit = """\
package x

type Tree<T> {
	value T
	kids  Tree<Tree<T>>[]?
}

type Root {
	tree Tree<string>
}

service S {
	post Put /p {
		request  Root
		response Root
	}
}
"""
    repo = make_repo({SHOP: kit})
    repo.edit(SHOP, ("\tkids  Tree<Tree<T>>[]?\n", "\tkids  Tree<T>[]?\n"))
    code, lines, _ = kit_diff(repo)
    assert code == 0 and 1 <= len(lines) <= 32
    assert lines[-1].endswith(
        "changed type from Tree<string> to string (at tree.kids[].value in the request of "
        "S.Put and the response of S.Put)"
    )


def test_an_error_header_is_known_by_its_header_name(make_repo: MakeRepo, kit_diff: Diff) -> None:
    kit = """\
package shop

error TooManyRequests Throttled {
	retryAfter int     @header("Retry-After")
	reason     string?
}

type Ping {
	id string @path
}

service Probe {
	@errors(Throttled)
	get Ping /ping/{id} {
		request Ping
	}
}
"""
    repo = make_repo({SHOP: kit})
    repo.edit(SHOP, ('@header("Retry-After")', '@header("X-Retry-After")'), ("reason     string?", "reason     string"))
    assert kit_diff(repo)[1] == [  # (a field made required in what clients receive breaks none)
        f'{SHOP}:4:2: warning breaking/wire: field retryAfter of Throttled travels as header "X-Retry-After" (was '
        'header "Retry-After") (at Retry-After in error Throttled of Probe.Ping)',
    ]
