"""Go fuzz tests of the generated decoders and encoders of the showcase against encoding/json.

`codec_fuzz_test.go.txt` is written into the built showcase (package shop) and run: the seed
corpus, then a short fuzzing run (a fixed number of executions; set KIT_FUZZ_EXECS to fuzz
longer). A failure prints Go's own report with the failing input.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from e2e_harness import Built, go_fuzz, run

SOURCE = Path(__file__).resolve().parent / "codec_fuzz_test.go.txt"


@pytest.fixture(scope="module")
def fuzz_package(showcase_built: Built) -> Path:
    dest = showcase_built.root / "internal/types/shop/kitfuzz_test.go"
    shutil.copy(SOURCE, dest)
    return dest.parent


def test_seed_corpus(fuzz_package: Path, showcase_built: Built) -> None:
    run(["go", "test", "-run", "^Fuzz", "-count=1", "./internal/types/shop/"], showcase_built.root)


def test_fuzz(fuzz_package: Path, showcase_built: Built) -> None:
    go_fuzz("FuzzCodecs", "./internal/types/shop/", showcase_built.root)
