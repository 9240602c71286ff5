"""The generated query readers (`First`, `Values` of the transport helper package) against
url.ParseQuery, which they replace in the generated handlers: `query_scan_test.go.txt` is
written into the built showcase's transport package and run, its table and a short fuzzing
run (set KIT_FUZZ_EXECS to fuzz longer).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from e2e_harness import Built, go_fuzz, run

SOURCE = Path(__file__).resolve().parent / "query_scan_test.go.txt"


@pytest.fixture(scope="module")
def transport_package(showcase_built: Built) -> Path:
    dest = showcase_built.root / "internal/transport/kitquery_test.go"
    shutil.copy(SOURCE, dest)
    return dest.parent


def test_query_readers_agree_with_parse_query(transport_package: Path, showcase_built: Built) -> None:
    run(["go", "test", "-count=1", "./internal/transport/"], showcase_built.root)


def test_fuzz_query_readers(transport_package: Path, showcase_built: Built) -> None:
    go_fuzz("FuzzQueryReaders", "./internal/transport/", showcase_built.root)
