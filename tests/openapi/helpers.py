"""Analyze inline designs and build their OpenAPI document."""

from __future__ import annotations

from typing import Any

from openapi_spec_validator import validate

from kit_core.analyzer import analyze
from kit_core.generators.openapi import document_for, render
from kit_core.lower import parse_file
from kit_core.manifest import Manifest, default_manifest
from kit_core.manifest_reader import parse_manifest


def manifest_of(text: str = "") -> Manifest:
    if not text:
        return default_manifest()
    manifest, diags = parse_manifest("kit.design.yaml", text)
    assert not [d for d in diags if d.is_error], [d.render() for d in diags]
    return manifest


def analysis_of(sources: dict[str, str] | str, manifest: Manifest) -> Any:
    if isinstance(sources, str):
        sources = {"main.kit": sources}
    files = [parse_file(path, text) for path, text in sorted(sources.items())]
    analysis = analyze(files, manifest)
    errors = [d.render() for d in analysis.diagnostics if d.is_error]
    assert not errors, errors
    return analysis


def doc(sources: dict[str, str] | str, manifest_text: str = "", check: bool = True) -> dict[str, Any]:
    manifest = manifest_of(manifest_text)
    document = document_for(analysis_of(sources, manifest), manifest)
    if check:
        validate(document)
    return document


def text(sources: dict[str, str] | str, manifest_text: str = "") -> str:
    manifest = manifest_of(manifest_text)
    return render(analysis_of(sources, manifest), manifest)


def op(document: dict[str, Any], path: str, verb: str) -> dict[str, Any]:
    return document["paths"][path][verb]


def schema(document: dict[str, Any], name: str) -> dict[str, Any]:
    return document["components"]["schemas"][name]
