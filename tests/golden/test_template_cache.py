"""Compiled templates are kept and reused (`template_cache`), never stale, and never required."""

from __future__ import annotations

import sys
from pathlib import Path

import jinja2
import pytest

from kit_core.generators.go.render import environment
from kit_core.generators.go.template_cache import TemplateCache, compile_all


def _env(templates: Path, cache: Path) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)), bytecode_cache=TemplateCache(cache))


def _no_compiling(env: jinja2.Environment, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("compiled a template the cache holds")

    monkeypatch.setattr(env, "compile", refuse)


def test_kits_templates_load_from_their_kept_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kit = environment.__wrapped__()  # a fresh environment, not the process's shared one
    cache = TemplateCache(tmp_path)
    kit.bytecode_cache = cache
    compile_all(kit)
    assert len(list(tmp_path.iterdir())) == len(kit.list_templates())
    again = environment.__wrapped__()
    again.bytecode_cache = TemplateCache(tmp_path)
    _no_compiling(again, monkeypatch)
    for name in again.list_templates():
        again.get_template(name)


def test_an_edited_template_is_compiled_again(tmp_path: Path) -> None:
    templates, cache = tmp_path / "t", tmp_path / "c"
    templates.mkdir()
    (templates / "a.j2").write_text("one {{ x }}")
    assert _env(templates, cache).get_template("a.j2").render(x=1) == "one 1"
    (templates / "a.j2").write_text("two {{ x }}")
    assert _env(templates, cache).get_template("a.j2").render(x=1) == "two 1"


def test_nothing_is_written_when_python_may_not_write_bytecode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    templates, cache = tmp_path / "t", tmp_path / "c"
    templates.mkdir()
    (templates / "a.j2").write_text("{{ x }}")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert _env(templates, cache).get_template("a.j2").render(x=2) == "2"
    assert not cache.exists()


def test_a_cache_that_cannot_be_written_only_costs_compiling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    templates, cache = tmp_path / "t", tmp_path / "c"
    templates.mkdir()
    cache.write_text("a file where the folder would be")  # as a read-only install fails (root writes anywhere)
    (templates / "a.j2").write_text("{{ x }}")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert _env(templates, cache).get_template("a.j2").render(x=3) == "3"
