"""Per-game hooks of the web table (chat open, joining mid-game), found through plugins.

The server, the storage and the page framework are game-agnostic. A game plugs in through
its plugin (:mod:`pendragon.core.plugins`): ``web_adapter`` names a
:class:`~pendragon.web.adapters.base.GameAdapter` subclass, ``web_module`` its board
module. A game without an adapter gets the generic one.

>>> type(adapter_for("soc")).__name__
'SocAdapter'
>>> adapter_for("chess").game
'chess'
"""

from __future__ import annotations

from functools import cache

from pendragon.core.plugins import plugin_for
from pendragon.web.adapters.base import GameAdapter

__all__ = ["GameAdapter", "adapter_for"]


@cache
def adapter_for(game: str) -> GameAdapter:
    """The adapter of ``game``: its plugin's ``web_adapter`` if it names one, else the
    generic :class:`GameAdapter`."""
    plugin = plugin_for(game)
    cls = plugin.load("web_adapter") if plugin is not None else None
    if cls is None:
        return GameAdapter(game)
    if not (isinstance(cls, type) and issubclass(cls, GameAdapter)):
        raise TypeError(f"{game}: web_adapter {cls!r} is not a GameAdapter subclass")
    adapter: GameAdapter = cls(game)
    return adapter
