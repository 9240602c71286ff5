"""Casing rules of generated names (dsl-facts §3.1, §3.2, §3.4) as table tests."""

from __future__ import annotations

import pytest

from kit_core import naming


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("HTTPRequest", ["HTTP", "Request"]),
        ("DBError", ["DB", "Error"]),
        ("ListV2Items", ["List", "V2Items"]),
        ("user_id", ["user", "id"]),
        ("api-key", ["api", "key"]),
        ("createdAt", ["created", "At"]),
    ],
)
def test_split_words(name: str, words: list[str]) -> None:
    assert naming.split_words(name) == words


@pytest.mark.parametrize(
    ("name", "go"),
    [
        ("id", "ID"),
        ("userId", "UserID"),
        ("avatar_url", "AvatarURL"),
        ("apiKey", "APIKey"),
        ("ok", "Ok"),
        ("createdAt", "CreatedAt"),
        ("ip", "IP"),
        ("uuid", "UUID"),  # initialisms staticcheck knows beyond dsl-facts' list
        ("htmlBody", "HTMLBody"),
        ("rpcName", "RPCName"),
    ],
)
def test_go_name(name: str, go: str) -> None:
    assert naming.go_name(name) == go


@pytest.mark.parametrize(
    ("name", "snake", "kebab", "camel"),
    [
        ("CreateUser", "create_user", "create-user", "createUser"),
        ("UserService", "user_service", "user-service", "userService"),
        ("ListV2Items", "list_v2items", "list-v2items", "listV2items"),
    ],
)
def test_file_cases(name: str, snake: str, kebab: str, camel: str) -> None:
    assert naming.file_case(name, "snake") == snake
    assert naming.file_case(name, "kebab") == kebab
    assert naming.file_case(name, "camel") == camel


def test_middleware_files_and_collisions() -> None:
    assert naming.middleware_file("AuthRequired", "snake") == "auth_required_middleware.go"
    assert naming.middleware_file("AuthRequired", "kebab") == "auth-required-middleware.go"
    assert naming.middleware_file("AuthRequired", "camel") == "authRequiredMiddleware.go"
    assert naming.middleware_file("APIKey", "snake") == naming.middleware_file("ApiKey", "snake")


@pytest.mark.parametrize(
    ("stem", "special"),
    [
        ("run_test", True),
        ("list_windows", True),
        ("get_linux_amd64", True),
        ("list_v2items", False),
        ("run-test", False),
        ("runTest", False),
        ("windows", False),
    ],
)
def test_go_special_file_names(stem: str, special: bool) -> None:
    assert naming.go_file_is_special(stem) is special


def test_error_names_and_codes() -> None:
    assert naming.error_go_type("EmailTaken") == "EmailTakenErr"
    assert naming.error_go_type("RateLimitedErr") == "RateLimitedErr"
    assert naming.error_go_type("BadError") == "BadError"
    assert naming.screaming_snake("UserNotFound") == "USER_NOT_FOUND"
    assert naming.screaming_snake("DBLocked") == "DB_LOCKED"


def test_enum_constants_routes_and_unique_go_names() -> None:
    assert naming.enum_const("TodoStatus", "in_progress") == "TodoStatusInProgress"
    assert naming.route_from_method("ListItems") == "/list-items"
    assert naming.unique_go_names(["userId", "user_id", "userID", "name"]) == [
        "UserID",
        "UserID_2",
        "UserID_3",
        "Name",
    ]
