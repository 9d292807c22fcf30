"""Names of observation-tensor elements: one description per game gives both the names and
the tensor's size (issue 40 item 3).

A game's tensor is a sequence of *blocks*; a block is a name and the labels of its
elements, in the order the game's writer emits them. :func:`block_names` turns blocks into
the flat element names (``block.label``) and :func:`blocks_size` counts them, so a game
that declares its size as ``blocks_size(...)`` cannot change its writer's length without
changing its names (the environments' packer and the tests fail on a mismatch).

>>> blocks = (("swords", ("white", "black")), ("seat", one_hot(("0", "1"))))
>>> block_names(blocks)
['swords.white', 'swords.black', 'seat.0', 'seat.1']
>>> blocks_size(blocks)
4
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: One block: its name and the labels of its elements, in the writer's order.
Block = tuple[str, tuple[str, ...]]


def one_hot(labels: Iterable[object]) -> tuple[str, ...]:
    """The labels of a one-hot block over ``labels`` (``str`` of each).

    >>> one_hot(range(3))
    ('0', '1', '2')
    """
    return tuple(str(label) for label in labels)


def per_item(items: Iterable[object], fields: Sequence[str]) -> tuple[str, ...]:
    """Labels of a block with ``fields`` for each of ``items``, item by item
    (``item.field``).

    >>> per_item(range(2), ("space", "spears"))
    ('0.space', '0.spears', '1.space', '1.spears')
    """
    return tuple(f"{item}.{name}" for item in items for name in fields)


def block_names(blocks: Iterable[Block]) -> list[str]:
    """The element names of ``blocks``, in order: ``<block>.<label>``."""
    return [f"{name}.{label}" for name, labels in blocks for label in labels]


def blocks_size(blocks: Iterable[Block]) -> int:
    """The number of elements of ``blocks``."""
    return sum(len(labels) for _, labels in blocks)
