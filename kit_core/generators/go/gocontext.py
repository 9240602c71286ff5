"""State shared by every Go artefact generator of one run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kit_core.generators.go.design import FieldFacts, GoDesign
from kit_core.generators.go.imports import ImportSet
from kit_core.generators.go.layout import Layout
from kit_core.generators.go.needs import Needs
from kit_core.generators.go.typemap import TypeMapper
from kit_core.model import DeclBase, Decorator, Field
from kit_core.semantics import HttpModel, TypeIndex, http_model

RUNTIME = "github.com/kitdev/kit/runtime"


@dataclass
class GoGen:
    design: GoDesign
    layout: Layout
    needs: Needs
    http: HttpModel
    index: TypeIndex
    runtime: str
    manifest: Any
    protos: Any = None  # kit_core.proto.ProtoSet of the design's protos, None without protos
    keys: Any = None  # `GenContext.keys`: given in a long-lived process, None otherwise

    @classmethod
    def build(cls, ctx: Any) -> GoGen:
        analysis = ctx.analysis
        symbols = analysis.symbols
        design = GoDesign(symbols)
        index = getattr(analysis, "index", None) or TypeIndex(symbols)
        http = getattr(analysis, "http", None) or http_model(symbols, ctx.manifest, index)
        layout = Layout.from_manifest(ctx.manifest, ctx.module)
        runtime = getattr(ctx, "runtime_module", RUNTIME)
        protos, keys = getattr(ctx, "protos", None), getattr(ctx, "keys", None)
        return cls(design, layout, Needs(design), http, index, runtime, ctx.manifest, protos, keys)

    @property
    def has_grpc(self) -> bool:
        """A proto declares a service (and the layer is generated: not under contracts)."""
        return self.layout.kind != "contracts" and self.protos is not None and bool(self.protos.services)

    @property
    def has_http(self) -> bool:
        """The entry point serves HTTP: routes exist, or there is no gRPC service."""
        return bool(self.http.methods) or not self.has_grpc

    def imports(self) -> ImportSet:
        return ImportSet(self.layout.module)

    def mapper(self, imports: ImportSet, home: str, home_alias: str | None = None) -> TypeMapper:
        return TypeMapper(self.design, self.layout, imports, home, home_alias)

    def rt(self, imports: ImportSet, pkg: str) -> str:
        """Import a runtime package (`server`, `log`, `telemetry`, `events`); returns its name."""
        return imports.std(f"{self.runtime}/{pkg}")


def doc_comment(doc: str | None, decorators: tuple[Decorator, ...]) -> str:
    """Doc text plus a `Deprecated:` paragraph when `@deprecated` is set (struct fields and
    enum constants, whose comments need not begin with their name)."""
    parts = [doc.strip()] if doc and doc.strip() else []
    parts.extend(_deprecated(decorators))
    return "\n\n".join(parts)


_ARTICLES = ("A ", "An ", "The ")


def go_doc(name: str, doc: str | None, decorators: tuple[Decorator, ...], lead: str, defines: bool = False) -> str:
    """The doc comment of the exported Go identifier ``name``, which begins with the name as
    Go's convention (staticcheck ST1020-ST1022) asks, built the same way every time:

    - a design doc that already begins with the name (after an optional article) stays first;
    - for a type (``defines``), a design doc that begins with an article becomes the
      definition: `A page of items.` -> `Page is a page of items.`; an undocumented type
      gets no comment;
    - otherwise the generated ``lead`` sentence comes first and the design's doc follows
      as its own paragraph.

    A `Deprecated:` paragraph ends it when `@deprecated` is set.
    """
    text = (doc or "").strip()
    deprecated = _deprecated(decorators)
    if not text and defines and not deprecated:
        return ""
    if text and _begins_with(text, name):
        parts = [text] if defines else [text, lead]
    elif text and defines and text.startswith(_ARTICLES):
        parts = [f"{name} is {text[0].lower()}{text[1:]}"]
    else:
        parts = [lead, text]
    return "\n\n".join(p for p in [*parts, *deprecated] if p)


def _begins_with(text: str, name: str) -> bool:
    for article in _ARTICLES:
        if text.startswith(article):
            text = text[len(article) :]
            break
    return text.startswith(name + " ")


def _deprecated(decorators: tuple[Decorator, ...]) -> list[str]:
    dep = next((d for d in decorators if d.name == "deprecated"), None)
    if dep is None:
        return []
    reason = str(dep.args[0].value) if dep.args else "do not use."
    return [f"Deprecated: {reason}"]


def defined(name: str, package: str, keyword: str) -> str:
    """The lead of a type the design documents otherwise: `Audit is the shared.Audit type of the design.`"""
    return f"{name} is the {package}.{name} {keyword} of the design."


def decl_doc(decl: DeclBase, name: str, lead: str, defines: bool = False) -> str:
    return go_doc(name, decl.doc, decl.decorators, lead, defines)


def field_doc(f: Field) -> str:
    d = f.decorator("doc")
    doc = str(d.args[0].value) if d is not None and d.args else f.trivia.doc_text
    return doc_comment(doc, f.decorators)


def struct_tag(f: FieldFacts, pointer: bool) -> str:
    """`json:"key,omitempty"`, `json:"-" query:"page"`, `json:"-"` for sensitive fields."""
    if f.sensitive:
        return '`json:"-"`'
    binding = f.explicit_binding
    if binding and binding != "body":
        return f'`json:"-" {binding}:"{f.wire_name(binding)}"`'
    key = f.json_key
    if f.optional:
        key += ",omitempty" if pointer else ",omitzero"
    return f'`json:"{key}"`'
