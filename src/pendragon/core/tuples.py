"""Tuple fields: a state keeps a field that clones share as a tuple, and a change replaces
the tuple (never changes it in place). These make the new tuple: one item replaced, a count
changed, an item removed.

>>> added(replaced((0, 0, 0), 0, 4), 0, -1)
(3, 0, 0)
"""

from __future__ import annotations

from typing import TypeVar

V = TypeVar("V")


def replaced(values: tuple[V, ...], index: int, value: V) -> tuple[V, ...]:
    """``values`` with item ``index`` set to ``value``: how a tuple field changes.

    >>> replaced((1, 2, 3), 1, 5)
    (1, 5, 3)
    """
    items = list(values)
    items[index] = value
    return tuple(items)


def added(values: tuple[int, ...], index: int, change: int) -> tuple[int, ...]:
    """``values`` with ``change`` added to item ``index`` (a count of a kind).

    >>> added((1, 2, 3), 2, -1)
    (1, 2, 2)
    """
    items = list(values)
    items[index] += change
    return tuple(items)


def without(values: tuple[V, ...], item: V) -> tuple[V, ...]:
    """``values`` without the first ``item`` (``ValueError`` if none, as ``list.remove``).

    >>> without((4, 5, 4), 4)
    (5, 4)
    """
    items = list(values)
    items.remove(item)
    return tuple(items)
