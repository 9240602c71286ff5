"""What each feature advertises, as plain data: one light module per feature, same name.

`kit_lsp.features.<name>` registers its handlers through `DECLARED.feature(server, method)`
(and `DECLARED.command`), so the options pygls is given are the declared ones; the
boot (`kit_lsp.startup.capabilities`) computes the `initialize` answer from the same
declarations before pygls is imported. So these modules import the standard library only,
and lsprotocol only inside `Method.registration` (which runs in the server).

Why not the feature modules themselves: they build lsprotocol values at module level and
import the analyzer; reading them would cost the boot the very imports it answers before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


class Method:
    """One LSP method a feature handles. ``provider``: the `ServerCapabilities` key it fills
    (None: none, or one computed per client, see `kit_lsp.startup.capabilities`);
    ``options``: what `server.feature` is given, as JSON, and ``options_type`` the lsprotocol
    class it is read as; ``advertises``: the provider's value when it is not ``options`` (or
    True without options)."""

    __slots__ = ("name", "provider", "options", "options_type", "advertises")

    def __init__(
        self,
        name: str,
        provider: str | None = None,
        options: dict[str, Any] | None = None,
        options_type: str | None = None,
        advertises: dict[str, Any] | None = None,
    ) -> None:
        if (options is None) != (options_type is None):
            raise ValueError(f"{name}: options and options_type go together")
        self.name, self.provider, self.options = name, provider, options
        self.options_type, self.advertises = options_type, advertises

    def advertised(self) -> Any:
        """The value of ``provider`` in the `initialize` answer."""
        if self.advertises is not None:
            return self.advertises
        return self.options if self.options is not None else True

    def registration(self) -> Any:
        """The options as the lsprotocol value `server.feature` takes (None: none)."""
        if self.options is None or self.options_type is None:
            return None
        # deferred: the boot reads the declarations without pygls or lsprotocol
        from lsprotocol import types as lsp

        return _converter().structure(self.options, getattr(lsp, self.options_type))


class Declares:
    """A feature's declaration: the methods it handles and the commands it runs."""

    __slots__ = ("methods", "commands")

    def __init__(self, *methods: Method, commands: tuple[str, ...] = ()) -> None:
        self.methods = {m.name: m for m in methods}
        self.commands = commands

    def feature(self, server: Any, name: str) -> Callable[[Any], Any]:
        """``server.feature(name, options)`` with the declared options; an undeclared
        method is an error here, at registration."""
        method = self.methods.get(name)
        if method is None:
            raise KeyError(f"{name} is not declared; add it to the feature's declaration")
        options = method.registration()
        return server.feature(name) if options is None else server.feature(name, options)

    def command(self, server: Any, name: str) -> Callable[[Any], Any]:
        if name not in self.commands:
            raise KeyError(f"command {name} is not declared; add it to the feature's declaration")
        return server.command(name)


@functools.cache
def _converter() -> Any:
    # deferred: the boot reads the declarations without pygls or lsprotocol
    from pygls.protocol import default_converter

    return default_converter()
