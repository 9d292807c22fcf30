"""Turn a seat's observation into something Rich can print, in the reader's language.

Renderers only ever see an observation (``state.observation(seat)``), never a state, so they
cannot show what the seat may not know. A game names its renderer in its plugin
(:attr:`pendragon.core.plugins.GamePlugin.terminal`); any other game gets
:func:`render_generic`, which lays out any JSON-like observation as nested tables. Every
renderer takes the :class:`~pendragon.i18n.Catalog` of the language to speak.

>>> from rich.console import Console
>>> from pendragon.i18n import catalog
>>> console = Console(width=60, color_system=None)
>>> with console.capture() as capture:
...     console.print(render_generic({"my_card": 4, "discards": [2, 5], "over": False},
...                                  catalog("ru")))
>>> text = capture.get()
>>> "my card" in text and "2, 5" in text and "нет" in text
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from pendragon.core.plugins import plugin_for
from pendragon.i18n import Catalog

#: ``(observation, catalog) -> renderable``: a game's drawing of one seat's view.
Renderer = Callable[[Mapping[str, Any], Catalog], RenderableType]

#: Nesting depth past which values are shown as plain text.
_MAX_DEPTH = 6


def renderer_for(game_name: str) -> Renderer:
    """The renderer the plugin of ``game_name`` declares, or :func:`render_generic`.

    The renderer's module is imported on first use, so the terminal starts fast.

    >>> renderer_for("no-such-game") is render_generic
    True
    >>> renderer_for("soc").__name__
    'render_soc'
    """
    plugin = plugin_for(game_name)
    renderer = plugin.load("terminal") if plugin is not None else None
    return cast(Renderer, renderer) if renderer is not None else render_generic


def render_observation(
    game_name: str, observation: Mapping[str, Any], catalog: Catalog
) -> RenderableType:
    """Render ``observation`` with the renderer of ``game_name``, in ``catalog``'s language."""
    return renderer_for(game_name)(observation, catalog)


def humanize(key: str) -> str:
    """A dictionary key as a label: ``"siege_engines"`` -> ``"siege engines"``.

    Keys are the game's data names, not words of a language; a game that wants them
    translated draws its observation with its own renderer.

    >>> humanize("black_swords")
    'black swords'
    """
    return key.replace("_", " ").replace("-", " ")


def scalar_text(value: Any, catalog: Catalog) -> str:
    """Text of a JSON scalar for people: ``None`` -> ``-``, booleans -> yes/no.

    >>> from pendragon.i18n import catalog
    >>> [scalar_text(v, catalog("en")) for v in (None, True, 3, 0.5, "grail")]
    ['-', 'yes', '3', '0.5', 'grail']
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return catalog.text("term.yes" if value else "term.no")
    return str(value)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def render_value(value: Any, catalog: Catalog, depth: int = 0) -> RenderableType:
    """Any JSON-like value as a Rich renderable (the building block of :func:`render_generic`)."""
    if _is_scalar(value):
        return Text(scalar_text(value, catalog))
    if depth >= _MAX_DEPTH:
        return Text(repr(value))
    if isinstance(value, Mapping):
        if not value:
            return Text("-")
        table = Table(show_header=False, box=box.SIMPLE if depth else box.ROUNDED, padding=(0, 1))
        table.add_column(style="bold")
        table.add_column()
        for key, item in value.items():
            table.add_row(escape(humanize(str(key))), render_value(item, catalog, depth + 1))
        return table
    if isinstance(value, Sequence):
        return _render_sequence(value, catalog, depth)
    return Text(str(value))


def _render_sequence(items: Sequence[Any], catalog: Catalog, depth: int) -> RenderableType:
    if not items:
        return Text("-")
    if all(_is_scalar(item) for item in items):
        return Text(", ".join(scalar_text(item, catalog) for item in items))
    if all(isinstance(item, Mapping) for item in items):
        # Records with shared fields (one per knight, per quest...): one row each.
        columns: list[str] = []
        for item in items:
            columns.extend(str(k) for k in item if str(k) not in columns)
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1))
        for column in columns:
            table.add_column(escape(humanize(column)))
        for item in items:
            table.add_row(*(render_value(item.get(c), catalog, depth + 1) for c in columns))
        return table
    return Group(*(render_value(item, catalog, depth + 1) for item in items))


def render_generic(observation: Mapping[str, Any], catalog: Catalog) -> RenderableType:
    """Any observation: a table of its fields, nested values as nested tables."""
    return render_value(observation, catalog)
