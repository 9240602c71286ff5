"""Where each design proto's Go code goes (spec "Design folder"):

* `option go_package` is not needed: the Go package of `<dir>/x.proto` is `<output.pb>/<dir>`,
  imported as `<module>/<output.pb>/<dir>`, named after the directory's last element;
* a written `go_package` keeps only its `;name` suffix, for the package name;
* a proto directly in the design folder lands in `<output.pb>` itself, as package `pb`;
* with `output.pb: -` no plugin runs: the written `go_package` (required) is the import path.
"""

from __future__ import annotations

import posixpath

from google.protobuf import descriptor_pb2

from kit_core.proto.gonames import go_sanitized, package_name_of


def written_go_package(fdp: descriptor_pb2.FileDescriptorProto) -> tuple[str, str]:
    """(import path, `;name` suffix) of the written `option go_package`; ("", "") when absent."""
    if not fdp.options.HasField("go_package"):
        return "", ""
    path, _, name = fdp.options.go_package.partition(";")
    return path, name


def pb_dir(name: str, pb: str) -> str:
    """The project-relative directory of a design proto's pb code."""
    return posixpath.normpath(posixpath.join(pb, posixpath.dirname(name)))


def design_package_name(fdp: descriptor_pb2.FileDescriptorProto, pb: str | None) -> str:
    """The Go package name of a design proto's pb code."""
    path, suffix = written_go_package(fdp)
    if suffix:
        return go_sanitized(suffix)
    if pb is None:
        return package_name_of(path) if path else ""
    d = posixpath.dirname(fdp.name)
    return go_sanitized(posixpath.basename(d)) if d else "pb"


def foreign_package(fdp: descriptor_pb2.FileDescriptorProto) -> tuple[str, str]:
    """(import path, name) of a proto kit does not generate (imports, well-known types)."""
    path, suffix = written_go_package(fdp)
    return path, go_sanitized(suffix) if suffix else package_name_of(path)
