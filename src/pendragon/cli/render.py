"""Turn a seat's observation into something Rich can print.

Renderers only ever see an observation (``state.observation(seat)``), never a state, so they
cannot show what the seat may not know. A game can register its own renderer; any other game
gets :func:`render_generic`, which lays out any JSON-like observation as nested tables.

>>> from rich.console import Console
>>> console = Console(width=60, color_system=None)
>>> with console.capture() as capture:
...     console.print(render_generic({"my_card": 4, "discards": [2, 5], "over": False}))
>>> text = capture.get()
>>> "my card" in text and "2, 5" in text and "no" in text
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

Renderer = Callable[[Mapping[str, Any]], RenderableType]
#: Explains an action's text in words (``"move:grail"`` -> ``"Move to the Holy Grail"``),
#: given the acting seat's observation; ``None`` when it has nothing to add.
ActionLabeller = Callable[[str, Mapping[str, Any]], str | None]

_RENDERERS: dict[str, Renderer] = {}
_LABELLERS: dict[str, ActionLabeller] = {}
# Renderers shipped with the package, imported on first use so that the terminal starts
# fast and a renderer's bug cannot break the other games.
_BUILTIN_MODULES = {"soc": "pendragon.cli.render_soc"}

#: Nesting depth past which values are shown as plain text.
_MAX_DEPTH = 6


def register_renderer(game_name: str, renderer: Renderer) -> Renderer:
    """Use ``renderer`` for observations of ``game_name``; returns it (decorator-friendly)."""
    _RENDERERS[game_name] = renderer
    return renderer


def register_action_labeller(game_name: str, labeller: ActionLabeller) -> ActionLabeller:
    """Use ``labeller`` to explain the actions of ``game_name`` in the terminal's menu."""
    _LABELLERS[game_name] = labeller
    return labeller


def _load_builtin(game_name: str) -> None:
    module = _BUILTIN_MODULES.get(game_name)
    if module is not None and game_name not in _RENDERERS:
        importlib.import_module(module)


def renderer_for(game_name: str) -> Renderer:
    """The renderer registered for ``game_name``, or :func:`render_generic`.

    >>> renderer_for("no-such-game") is render_generic
    True
    """
    _load_builtin(game_name)
    return _RENDERERS.get(game_name, render_generic)


def action_label(game_name: str, text: str, observation: Mapping[str, Any]) -> str | None:
    """Words for the action ``text`` of ``game_name`` seen from ``observation``, if any.

    >>> action_label("no-such-game", "keep", {}) is None
    True
    """
    _load_builtin(game_name)
    labeller = _LABELLERS.get(game_name)
    return labeller(text, observation) if labeller is not None else None


def render_observation(game_name: str, observation: Mapping[str, Any]) -> RenderableType:
    """Render ``observation`` with the renderer of ``game_name``."""
    return renderer_for(game_name)(observation)


def humanize(key: str) -> str:
    """A dictionary key as a label: ``"siege_engines"`` -> ``"siege engines"``.

    >>> humanize("black_swords")
    'black swords'
    """
    return key.replace("_", " ").replace("-", " ")


def scalar_text(value: Any) -> str:
    """Text of a JSON scalar for people: ``None`` -> ``-``, booleans -> yes/no.

    >>> [scalar_text(v) for v in (None, True, 3, 0.5, "grail")]
    ['-', 'yes', '3', '0.5', 'grail']
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def render_value(value: Any, depth: int = 0) -> RenderableType:
    """Any JSON-like value as a Rich renderable (the building block of :func:`render_generic`)."""
    if _is_scalar(value):
        return Text(scalar_text(value))
    if depth >= _MAX_DEPTH:
        return Text(repr(value))
    if isinstance(value, Mapping):
        if not value:
            return Text("-")
        table = Table(show_header=False, box=box.SIMPLE if depth else box.ROUNDED, padding=(0, 1))
        table.add_column(style="bold")
        table.add_column()
        for key, item in value.items():
            table.add_row(escape(humanize(str(key))), render_value(item, depth + 1))
        return table
    if isinstance(value, Sequence):
        return _render_sequence(value, depth)
    return Text(str(value))


def _render_sequence(items: Sequence[Any], depth: int) -> RenderableType:
    if not items:
        return Text("-")
    if all(_is_scalar(item) for item in items):
        return Text(", ".join(scalar_text(item) for item in items))
    if all(isinstance(item, Mapping) for item in items):
        # Records with shared fields (one per knight, per quest...): one row each.
        columns: list[str] = []
        for item in items:
            columns.extend(str(k) for k in item if str(k) not in columns)
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1))
        for column in columns:
            table.add_column(escape(humanize(column)))
        for item in items:
            table.add_row(*(render_value(item.get(c), depth + 1) for c in columns))
        return table
    return Group(*(render_value(item, depth + 1) for item in items))


def render_generic(observation: Mapping[str, Any]) -> RenderableType:
    """Any observation: a table of its fields, nested values as nested tables."""
    return render_value(observation)
