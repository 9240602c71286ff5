"""Go's lexical tables and net/http's status names, checked against the Go install, and the
rules built on them: doc comments begin with the identifier, clashing imports are aliased."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kit_core import gowords
from kit_core.generators.go.gocontext import go_doc
from kit_core.generators.go.imports import ImportSet, pb_alias
from kit_core.generators.go.statuses import HTTP_STATUS_NAMES, go_status

needs_go = pytest.mark.skipif(shutil.which("go") is None, reason="the Go toolchain is needed")


def goroot() -> Path:
    out = subprocess.run(["go", "env", "GOROOT"], capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


@needs_go
def test_std_packages_cover_the_go_install() -> None:
    listed = subprocess.run(["go", "list", "std"], capture_output=True, text=True, check=True).stdout.split()
    names = {p.rsplit("/", 1)[-1] for p in listed if not {"internal", "vendor"} & set(p.split("/"))}
    assert names - gowords.STD_PACKAGES == set()


@needs_go
def test_status_names_are_net_https() -> None:
    source = (goroot() / "src/net/http/status.go").read_text()
    declared = {int(code): name for name, code in re.findall(r"^\t(Status\w+)\s+= (\d+)", source, re.M)}
    assert HTTP_STATUS_NAMES == declared
    assert go_status(409) == "http.StatusConflict" and go_status(299) == "299"


@pytest.mark.parametrize(
    ("doc", "lead", "defines", "want"),
    [
        ("A greeting for someone.", "", True, "Greeting is a greeting for someone."),
        ("The greeting.", "", True, "Greeting is the greeting."),
        ("Greeting holds a word.", "", True, "Greeting holds a word."),
        ("A Greeting holds a word.", "", True, "A Greeting holds a word."),
        (
            "Said on arrival.",
            "Greeting is the x.Greeting type of the design.",
            True,
            "Greeting is the x.Greeting type of the design.\n\nSaid on arrival.",
        ),
        ("", "Greeting is the x.Greeting type of the design.", True, ""),
        ("A word.", "Greeting handles GET /hi.", False, "Greeting handles GET /hi.\n\nA word."),
        ("", "Greeting handles GET /hi.", False, "Greeting handles GET /hi."),
    ],
)
def test_doc_comment_begins_with_the_name(doc: str, lead: str, defines: bool, want: str) -> None:
    assert go_doc("Greeting", doc, (), lead, defines) == want


@pytest.mark.parametrize(
    ("path", "package", "alias"),
    [
        ("example.com/app/internal/pb/grpc/testing", "testing", "grpctestingpb"),
        ("example.com/app/internal/pb/string", "string", "stringpb"),
        ("example.com/app/internal/pb/context", "context", "contextpb"),
        ("example.com/app/internal/pb/type", "_type", "typepb"),
    ],
)
def test_clashing_pb_package_is_aliased(path: str, package: str, alias: str) -> None:
    assert pb_alias(path, package) == alias
    imports = ImportSet("example.com/app")
    assert imports.pb(path, package) == alias
    assert f'\t{alias} "{path}"' in imports.render()


def test_free_names_are_not_aliased() -> None:
    imports = ImportSet("example.com/app")
    assert imports.pb("example.com/app/internal/pb/orders", "orders") == "orders"
    assert imports.design("example.com/app/internal/types/errors", "errors") == "errorstypes"
    assert '\t"example.com/app/internal/pb/orders"' in imports.render()
