"""The terminal's drawing of a seat's observation of The Sword in the Stone.

Only the observation (``rules/game.py`` documents its fields) and the catalog's words are used,
so the drawing shows nothing the seat may not see.

>>> import pendragon
>>> from pendragon.i18n import catalog
>>> from rich.console import Console
>>> state = pendragon.load_game("sword-stone", players=3, seed=2).new_initial_state()
>>> state.play_random_chance()
>>> console = Console(width=80, color_system=None)
>>> with console.capture() as capture:
...     console.print(render_sword_stone(state.observation(0), catalog("en")))
>>> text = capture.get()
>>> "The stone: 0 of 21" in text and "Your hand" in text and "11 cards left in the deck" in text
True
>>> with console.capture() as capture:
...     console.print(render_sword_stone(state.observation(0), catalog("ru")))
>>> "Камень: 0 из 21" in capture.get() and "В колоде осталось 11 карт" in capture.get()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pendragon.i18n import Catalog, GameWords
from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from pendragon_sword_stone.rules import CARDS, NAME

_CARD_KEYS = {card.value: card.key for card in CARDS}
#: Width of the stone's gauge in characters.
_GAUGE = 30


def _cards(w: GameWords, values: Sequence[int]) -> str:
    """The names of the cards of ``values``, by commas (the game's "none" for no card)."""
    return w.terms("card", (_CARD_KEYS[int(value)] for value in values))


def _gauge(total: int, target: int) -> str:
    filled = round(_GAUGE * total / target) if target else 0
    return "[" + "#" * filled + "." * (_GAUGE - filled) + "]"


def _result(w: GameWords) -> str:
    winner = w.view.get("winner")
    if winner is None:
        return w("result.stalemate")
    if winner == w.me:
        return w("result.win.you")
    return w("result.win", seat=w.seat(int(winner)))


def _knights(w: GameWords) -> Table:
    view = w.view
    table = Table(title=w("board.knights"), box=box.SIMPLE, show_header=False,
                  title_justify="left")
    table.add_column("")
    table.add_column("")
    table.add_column("")
    revealed = view.get("revealed")
    for seat, size in enumerate(view["hand_sizes"]):
        marker = w("board.to-play") if view.get("to_play") == seat else ""
        cards = _cards(w, revealed[seat]) if revealed else w("board.hand", count=int(size))
        table.add_row(escape(w.seat(seat)), escape(cards), marker)
    return table


def render_sword_stone(view: Mapping[str, Any], catalog: Catalog) -> RenderableType:
    """The stone and its gauge, the cards laid on it, the knights, the deck, the hand."""
    w = GameWords(catalog, NAME, view.get("seat"), view)
    total, target = int(view["total"]), int(view["target"])
    parts: list[RenderableType] = [
        Text(w("board.stone", total=total, target=target), style="bold"),
        Text(_gauge(total, target)),
        Text(f"{w('board.pulled')}: {_cards(w, view['stone'])}"),
        _knights(w),
        Text(w("board.deck", count=int(view["deck"]))),
    ]
    if "hand" in view:
        parts.append(Text(f"{w('board.your-hand')}: {_cards(w, view['hand'])}", style="bold"))
    if view.get("over"):
        parts.append(Text(_result(w), style="bold"))
    return Group(*parts)
