"""Strongly connected components of a directed graph (Tarjan's algorithm with an explicit
stack: a chain of thousands of nodes must not exhaust Python's recursion limit)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TypeVar

N = TypeVar("N", bound=Hashable)


def strongly_connected(
    nodes: Iterable[N], successors: Mapping[N, Iterable[N]] | Callable[[N], Iterable[N]]
) -> list[list[N]]:
    """Every component, each in the order its members were first reached; ``nodes`` gives
    the roots in order, successors outside ``nodes`` count only if they have successors."""
    nexts = successors if callable(successors) else (lambda n: successors.get(n, ()))  # type: ignore[union-attr]
    index: dict[N, int] = {}
    low: dict[N, int] = {}
    stack: list[N] = []
    on_stack: set[N] = set()
    out: list[list[N]] = []
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(nexts(root)))]
        while work:
            node, it = work[-1]
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(nexts(nxt))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: list[N] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    out.append(component[::-1])
    return out
