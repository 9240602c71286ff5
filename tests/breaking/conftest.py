"""A design committed at `main` in a real git repository, and `kit diff main` run on it."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from kit_core.cli import main

MANIFEST = "openapi:\n  basePath: /api\n"


def git(root: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
        "PATH": "/usr/bin:/bin",
    }
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True, env=env).stdout


class Repo:
    """``files`` (paths under the repository) committed at main; `edit` changes one in the work tree."""

    def __init__(self, root: Path, files: dict[str, str]) -> None:
        self.root, self.files = root, files
        for rel, text in {
            "go.mod": "module example.com/shop\n\ngo 1.26\n",
            "design/kit.design.yaml": MANIFEST,
            **files,
        }.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        git(root, "init", "-q", "-b", "main")
        git(root, "add", "-A")
        git(root, "commit", "-qm", "base")

    def edit(self, rel: str, *pairs: tuple[str, str]) -> None:
        text = (self.root / rel).read_text()
        for a, b in pairs:
            assert a in text, a
            text = text.replace(a, b, 1)
        (self.root / rel).write_text(text)


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[[dict[str, str]], Repo]:
    return lambda files: Repo(tmp_path / "repo", files)


Diff = Callable[..., tuple[int, list[str], str]]


@pytest.fixture
def kit_diff(capsys: pytest.CaptureFixture[str]) -> Diff:
    """`kit diff main <repo>/design [flags]` -> (exit code, stdout lines with the repository
    path left out, stderr)."""

    def run(repo: Repo, *flags: str) -> tuple[int, list[str], str]:
        capsys.readouterr()
        code = main(["diff", "main", str(repo.root / "design"), *flags])
        out, err = capsys.readouterr()
        return code, out.replace(str(repo.root) + "/", "").splitlines(), err

    return run
