"""A finite, stable catalog of actions.

Every choice in a game, and every chance outcome, is one integer id of the game's
:class:`ActionCatalog`. Each id has one text form; ``text`` and ``parse`` round-trip.
A game's ``actions`` module lays its catalog out in blocks with a :class:`CatalogBuilder`.

>>> catalog = ActionCatalog(["draw-black", "add-siege", "lose-life"])
>>> catalog.parse("add-siege")
1
>>> catalog.text(1)
'add-siege'
>>> catalog.parse("dance")
Traceback (most recent call last):
...
pendragon.core.errors.MalformedActionError: 'dance' is not an action of this game
"""

from __future__ import annotations

from collections.abc import Iterable

from pendragon.core.errors import MalformedActionError


class ActionCatalog:
    """Bidirectional map between action ids ``0..n-1`` and their unique text forms."""

    __slots__ = ("_names", "_ids")

    def __init__(self, names: Iterable[str]) -> None:
        self._names: tuple[str, ...] = tuple(names)
        self._ids: dict[str, int] = {}
        for index, name in enumerate(self._names):
            if name in self._ids:
                raise ValueError(f"duplicate action name {name!r}")
            self._ids[name] = index

    def __len__(self) -> int:
        return len(self._names)

    def text(self, action: object) -> str:
        """The text form of ``action``; :class:`MalformedActionError` if it is no id."""
        if isinstance(action, bool) or not isinstance(action, int) or not (
            0 <= action < len(self._names)
        ):
            raise MalformedActionError(f"{action!r} is not an action id of this game")
        return self._names[action]

    def parse(self, text: str) -> int:
        """The id whose text form is ``text`` (surrounding blanks ignored)."""
        if not isinstance(text, str):
            raise MalformedActionError(f"{text!r} is not action text")
        action = self._ids.get(text.strip())
        if action is None:
            raise MalformedActionError(f"{text.strip()!r} is not an action of this game")
        return action

    def id(self, name: str) -> int:
        """The id of a name known to exist (for the rules code itself)."""
        return self._ids[name]

    @property
    def names(self) -> tuple[str, ...]:
        """All text forms, in id order."""
        return self._names


class CatalogBuilder:
    """Lays out a catalog block by block: each :meth:`block` returns its first id, so an
    action module names its families by their first ids, in catalog order. Ids are only
    ever appended, so a new block goes at the end.

    >>> layout = CatalogBuilder()
    >>> DIE = layout.block(f"die:{n}" for n in range(1, 9))
    >>> ADD_SIEGE = layout.block(["add-siege"])
    >>> DIE, ADD_SIEGE, len(layout)
    (0, 8, 9)
    >>> CATALOG = layout.build()
    >>> CATALOG.text(DIE + 2), CATALOG.parse("add-siege")
    ('die:3', 8)
    """

    __slots__ = ("_names",)

    def __init__(self) -> None:
        self._names: list[str] = []

    def block(self, names: Iterable[str]) -> int:
        """Append ``names`` (one family of actions) and return the id of the first."""
        start = len(self._names)
        self._names.extend(names)
        return start

    def __len__(self) -> int:
        return len(self._names)

    def build(self) -> ActionCatalog:
        """The catalog of every block so far (``ValueError`` on a name given twice)."""
        return ActionCatalog(self._names)
