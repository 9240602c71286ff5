"""Diagnostics: the value type and the code registry."""

from kit_core.diagnostics.codes import CODES, Code, make, register
from kit_core.diagnostics.diagnostic import Diagnostic, Fix, Related, Severity, merge

__all__ = ["CODES", "Code", "Diagnostic", "Fix", "Related", "Severity", "make", "merge", "register"]
