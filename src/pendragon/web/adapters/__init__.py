"""Per-game pieces of the web table: narration in words, chat rules, the join hook.

The server, the storage and the page framework are game-agnostic; a game plugs in with a
:class:`~pendragon.web.adapters.base.GameAdapter` (registered here) and a board drawing
module ``static/games/<name>.js``.

>>> adapter_for("soc").game
'soc'
>>> adapter_for("chess").game
'chess'
"""

from __future__ import annotations

from pendragon.web.adapters.base import GameAdapter, Narration
from pendragon.web.adapters.soc import SocAdapter

__all__ = ["GameAdapter", "Narration", "adapter_for", "register_adapter"]

_ADAPTERS: dict[str, GameAdapter] = {"soc": SocAdapter()}


def register_adapter(adapter: GameAdapter) -> None:
    """Register the web adapter of ``adapter.game``."""
    _ADAPTERS[adapter.game] = adapter


def adapter_for(game: str) -> GameAdapter:
    """The adapter of ``game``; a generic one (raw narration text) if none is registered."""
    adapter = _ADAPTERS.get(game)
    if adapter is None:
        adapter = GameAdapter(game)
        _ADAPTERS[game] = adapter
    return adapter
