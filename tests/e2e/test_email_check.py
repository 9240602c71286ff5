"""The generated `@format(email)` check (`kitEmail`) against net/mail.ParseAddress, which it
must agree with: the check takes the common form (dot-separated atoms of letters, digits and
`-_+` around one `@`) without the parser, so every address it takes that way must be one the
parser accepts. The design's generated validate.go is compiled with a Go test: a table, and a
short fuzzing run (set KIT_FUZZ_EXECS to fuzz longer).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_harness import generate_files, go_available, go_fuzz, run

DESIGN = """\
package mail

type Contact {
\taddress string @format(email)
}
"""

TEST = """\
package mail

import (
\tnet_mail "net/mail"
\t"testing"
)

func agree(t *testing.T, s string) {
\t_, err := net_mail.ParseAddress(s)
\tif got := kitEmail(s); got != (err == nil) {
\t\tt.Errorf("kitEmail(%q) = %v; mail.ParseAddress: %v", s, got, err)
\t}
}

var seeds = []string{
\t"ada@example.com", "a@b", "a.b@c.d", "a+b_c@d-e.f", "-a@-b", "A@B", "a..b@c", "@a", "a@",
\t"a@b@c", ".a@b", "a@.b", "a@b.", "a.@b", "Ada <ada@example.com>", "\\"a b\\"@c", "a@[1.2.3.4]",
\t"a b@c", "a@b c", "", "@", "é@b", "a@b\\x00",
}

func TestKitEmailAgreesWithParseAddress(t *testing.T) {
\tfor _, s := range seeds {
\t\tagree(t, s)
\t}
}

func FuzzKitEmail(f *testing.F) {
\tfor _, s := range seeds {
\t\tf.Add(s)
\t}
\tf.Fuzz(agree)
}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not go_available():
        pytest.skip("the Go toolchain is needed")
    root = tmp_path_factory.mktemp("emailcheck")
    design = root / "design"
    design.mkdir()
    (design / "contact.kit").write_text(DESIGN)
    files = generate_files(design, module="example.com/emailcheck")
    validate = next(text for path, text in files.items() if path.endswith("/validate.go") and "kitEmail" in text)
    pkg = root / "mail"
    pkg.mkdir()
    # validate.go alone: kitEmail with its imports (the methods it holds are not needed).
    (pkg / "validate.go").write_text(_only_helper(validate))
    (pkg / "validate_test.go").write_text(TEST)
    (root / "go.mod").write_text("module example.com/emailcheck\n\ngo 1.26\n")
    return root


def _only_helper(validate: str) -> str:
    start = validate.index("func kitEmail(")
    end = validate.index("\n}\n", start) + 3
    return 'package mail\n\nimport "net/mail"\n\n' + validate[start:end]


def test_kit_email_agrees_with_parse_address(project: Path) -> None:
    run(["go", "test", "-count=1", "./mail/"], project)


def test_fuzz_kit_email(project: Path) -> None:
    go_fuzz("FuzzKitEmail", "./mail/", project)
