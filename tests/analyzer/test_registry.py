"""The decorator registry against the spec's decorator table and dsl-facts §1.4, §7, §2.7."""

from __future__ import annotations

from kit_core.decorators import (
    BINDINGS,
    DECORATORS,
    ERROR_CATEGORIES,
    EXTEND_ALLOWED,
    FLAGS,
    FORMATS,
    REGISTRY,
    REPEATABLE,
    VALIDATORS,
    VARIADIC,
    Family,
    Site,
    for_site,
)

SPEC_TABLE = (
    "doc deprecated example version requiresOneOf mutuallyExclusive length minLength maxLength pattern format "
    "gte gt lte lt range positive negative multipleOf minItems maxItems uniqueItems maxSize mimeTypes nullable "
    "default sensitive json body path query header cookie form prefix group middlewares tags security "
    "ignoreMiddleware ignoreSecurity ignoreTags summary operationId status errors passthrough timeout "
    "maxBodySize contract"
).split()


def test_the_closed_set_is_the_spec_table() -> None:
    assert sorted(REGISTRY) == sorted(SPEC_TABLE)
    assert len(DECORATORS) == len(REGISTRY)


def test_flags_variadics_and_repeatables_follow_dsl_facts() -> None:
    flags = "positive negative uniqueItems nullable sensitive passthrough ignoreMiddleware ignoreSecurity ignoreTags"
    assert FLAGS == set(flags.split())
    assert VARIADIC == set("middlewares tags security errors mimeTypes requiresOneOf mutuallyExclusive".split())
    assert REPEATABLE == {"middlewares", "tags", "security", "errors"}
    assert EXTEND_ALLOWED == {"middlewares", "security", "tags", "deprecated", "doc", "group"}


def test_roles_and_families() -> None:
    assert BINDINGS == {"body", "path", "query", "header", "cookie", "form"}
    assert {d.name for d in DECORATORS if d.family is Family.FILE} == {"maxSize", "mimeTypes"}
    assert {d.name for d in DECORATORS if d.family is Family.ARRAY} == {"minItems", "maxItems", "uniqueItems"}
    assert "length" in VALIDATORS and "default" not in VALIDATORS
    assert REGISTRY["header"].sites == {Site.FIELD, Site.ERROR_FIELD}
    assert REGISTRY["contract"].sites == {Site.EVENT}


def test_every_entry_is_documented_for_the_editor() -> None:
    for spec in DECORATORS:
        assert spec.summary and spec.doc and spec.example.startswith("@" + spec.name), spec.name
        hover = spec.hover()
        assert spec.signature in hover and "**Sites:**" in hover
    assert REGISTRY["length"].signature == "@length(min: int, max: int)"
    assert REGISTRY["middlewares"].signature == "@middlewares(names: ident...)"
    assert {d.name for d in for_site(Site.METHOD)} >= {"summary", "status", "timeout", "middlewares"}


def test_formats_and_error_categories() -> None:
    assert (
        list(FORMATS)
        == (
            "email url uri uuid datetime date time phone ipv4 ipv6 cidr mac creditcard base64 base64url hexcolor json"
        ).split()
    )
    assert FORMATS["url"].label == "URL" and FORMATS["email"].check("ada@example.com")
    assert not FORMATS["uuid"].check("nope") and FORMATS["ipv4"].check("10.0.0.1")
    assert len(ERROR_CATEGORIES) == 21 and "Teapot" not in ERROR_CATEGORIES
    assert (ERROR_CATEGORIES["Gone"].status, ERROR_CATEGORIES["Gone"].message) == (410, "Resource gone")
