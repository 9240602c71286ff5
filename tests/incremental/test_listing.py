"""A design session lists its folder again on a file event (`forget_listing`); when the
client watches files (`watched`) a keystroke neither walks the folder nor looks at the files
on disk, and without file events the listing is walked again by age."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit_core.resident import session as resident
from kit_core.resident.session import DesignSession

MANIFEST = "version: 1\nname: shop\n"


def _design(root: Path) -> Path:
    (root / "kit.design.yaml").write_text(MANIFEST, encoding="utf-8")
    for name in ("users", "orders"):
        (root / name).mkdir()
        (root / name / f"{name}.kit").write_text(f"package {name}\n\ntype T {{\n\tid string\n}}\n", encoding="utf-8")
    return root


def _dup(root: Path) -> None:
    (root / "users" / "dup.kit").write_text("package users\n\ntype T {\n\tx int\n}\n", encoding="utf-8")


def _codes(session: DesignSession) -> set[str]:
    return {d.code for d in session.analyze({}).diagnostics}


def test_a_watched_design_is_listed_again_on_a_file_event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = DesignSession(_design(tmp_path))
    session.watched = True
    assert "decl/duplicate" not in _codes(session)
    walks: list[Path] = []
    reads: list[str] = []
    design_paths = resident.design_paths
    monkeypatch.setattr(resident, "design_paths", lambda root: walks.append(root) or design_paths(root))
    get = session.disk.get
    monkeypatch.setattr(session.disk, "get", lambda path: reads.append(path) or get(path))
    _dup(tmp_path)
    assert "decl/duplicate" not in _codes(session)  # no event yet: the listing is trusted
    assert (walks, reads) == ([], [])
    session.forget_listing()  # the event
    assert "decl/duplicate" in _codes(session)
    assert walks == [tmp_path]


def test_without_file_events_the_listing_is_walked_again_by_age(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = DesignSession(_design(tmp_path))
    assert "decl/duplicate" not in _codes(session)
    monkeypatch.setattr(resident.DesignSession, "WALK_TTL", 0.0)
    monkeypatch.setattr(session.disk, "trust", 0.0)
    _dup(tmp_path)
    assert "decl/duplicate" in _codes(session)
