"""The terminal's drawing of a seat's view of Shadows over Camelot: The Card Game.

The input is ``state.observation(seat)`` (fields documented in
:mod:`pendragon.games.soc_card.rules.view`) and the :class:`~pendragon.i18n.Catalog` of the
reader's language; every word comes from the game's catalog (``soc-card.board.*``, shared
with the web table's ``board.js``). Layout: whose turn it is and what is awaited, Morgan's
silence, the threat pile with its top card and count and the five quests (those its symbol
opens marked), the swords on the table, the decks, what is in force, the quest under way
or the last one resolved, the players, and the seat's own cards and knowledge.

Nothing is counted for the reader (SCG-RULING-8): the pile shows its top card and its size,
never the cards beneath, and no quest total appears.

>>> import pendragon
>>> from pendragon.i18n import catalog
>>> from rich.console import Console
>>> state = pendragon.load_game("soc-card", players=4, seed=3).new_initial_state()
>>> state.play_random_chance()
>>> console = Console(width=100, color_system=None)
>>> with console.capture() as capture:
...     console.print(render_soc_card(state.observation(0), catalog("en")))
>>> text = capture.get()
>>> "Threat pile" in text and "0 cards in the pile" in text and "Your loyalty card" in text
True
>>> with console.capture() as capture:
...     console.print(render_soc_card(state.observation(0), catalog("pl")))
>>> "Stos zagrożenia" in capture.get() and "Threat pile" not in capture.get()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from pendragon.cli.render import render_generic
from pendragon.core.events import Seat, Term
from pendragon.games.soc_card.rules.cards import CARDS, KIND, KNIGHT_KEYS, QUESTS
from pendragon.games.soc_card.rules.common import END_SWORDS
from pendragon.i18n import Catalog, GameWords

NAME = "soc-card"


def allowed_quests(view: Mapping[str, Any]) -> list[str]:
    """The quests a player may go on by the top card of the threat pile (SCG-QUEST-1).

    A face-down card under Morgan #1 opens the announced quest (SCG-MORGAN-1); with no card
    left to draw every quest is open (SCG-RULING-13).

    >>> allowed_quests({"pile": {"count": 1, "top": {"card": "mordred"}}, "deck": 9,
    ...                 "discard": 0})
    ['picts', 'saxons']
    >>> allowed_quests({"pile": {"count": 2, "top": {"face_down": True, "announced": "grail",
    ...                 "by": 1}}, "deck": 9, "discard": 0})
    ['grail']
    >>> allowed_quests({"pile": {"count": 0, "top": None}, "deck": 0, "discard": 0})
    ['picts', 'saxons', 'dragon', 'excalibur', 'grail']
    """
    if not view.get("deck") and not view.get("discard"):
        return list(QUESTS)
    top = view.get("pile", {}).get("top")
    if not top:
        return []
    if top.get("face_down"):
        return [str(top["announced"])]
    return [QUESTS[q] for q in CARDS[KIND[top["card"]]].allows]


# ---------------------------------------------------------------------- sections
def _headline(w: GameWords) -> RenderableType:
    view = w.view
    lines: list[RenderableType] = []
    if view["status"] != "playing":
        lines.append(Text(_result(w), style="bold magenta"))
        return Group(*lines)
    line = Text(w.event("board.turn", seat=Seat(int(view["turn"]))), style="bold")
    to_act, decision = view.get("to_act"), view.get("decision")
    if isinstance(to_act, int) and to_act >= 0:
        what = Term(f"{NAME}.board.decision.{decision}")
        line.append("  -  " + w.event("board.awaited", seat=Seat(to_act), what=what))
    lines.append(line)
    if decision in ("vivien-give", "vivien-keep") and isinstance(to_act, int):
        lines.append(Text(w.event(f"board.{decision}", seat=Seat(to_act))))
    if view.get("silence"):
        # SCG-MORGAN-0, SCG-RULING-7: the silence is a rule of the game, shown loudly.
        lines.append(Text(f"{w('board.silence')}: {w('board.silence.text')}", style="bold red"))
    return Group(*lines)


def _result(w: GameWords) -> str:
    view = w.view
    parts = [w(f"result.{view['status']}")]
    if view.get("end_reason"):
        parts.append(w(f"end.{view['end_reason']}"))
    swords = view["swords"]
    parts.append(w("result.swords", white=int(swords["white"]), black=int(swords["black"])))
    return " - ".join(parts)


def _top_lines(w: GameWords) -> list[str]:
    """The top card of the threat pile: its face, or Morgan #1's announcement."""
    pile = w.view["pile"]
    top = pile.get("top")
    if not top:
        return [f"{w('board.top')}: {w('board.empty')}"]
    if not top.get("face_down"):
        card = CARDS[KIND[top["card"]]]
        text = f"{w('board.top')}: {w.term('card', card.key)}"
        if card.is_quest:
            return [text]
        return [text, w(f"card.{card.key}.text")]
    lines = [
        f"{w('board.top')}: {w('board.face-down')}",
        w.event("board.announced-by", seat=Seat(int(top["by"])),
                card=Term(f"{NAME}.card.{top['announced_card']}")),
    ]
    you = w.view.get("you") or {}
    if you.get("top_card"):
        lines.append(w("board.your-card", card=w.term("card", you["top_card"])))
    return lines


def _pile(w: GameWords) -> Table:
    view = w.view
    table = Table(show_header=False, box=box.ROUNDED, title=escape(w("board.pile")),
                  title_justify="left")
    table.add_column()
    table.add_row(escape(w("board.pile-count", count=int(view["pile"]["count"]))))
    for line in _top_lines(w):
        table.add_row(escape(line))
    table.add_row(_quests(w))
    return table


def _quests(w: GameWords) -> Table:
    """The five quests: name, worth in swords, and whether the top card's symbol opens it."""
    view = w.view
    opened = set(allowed_quests(view))
    you = view.get("you") or {}
    token = you.get("merlin_4_token")
    table = Table(box=box.SIMPLE_HEAD, title=escape(w("board.quests")), title_justify="left")
    for quest in QUESTS:
        table.add_column(escape(w.term("quest", quest)), style="bold" if quest in opened else "dim")
    worth = [escape(w(f"quest.{q}.text")) for q in QUESTS]
    marks = [f"[bold green]{escape(w('board.open'))}[/bold green]" if q in opened else ""
             for q in QUESTS]
    table.add_row(*worth)
    table.add_row(*marks)
    if token:
        table.add_row(*[escape(w("board.token-quest", quest=w.term("quest", q)))
                        if q == token else "" for q in QUESTS])
    return table


def _track(count: int, mark: str, style: str) -> str:
    """``count`` swords on a track of at least :data:`END_SWORDS` places."""
    places = max(END_SWORDS, count)
    return f"[{style}]{mark * count}[/{style}]" + "." * (places - count)


def _swords(w: GameWords) -> Text:
    swords = w.view["swords"]
    white, black = int(swords["white"]), int(swords["black"])
    return Text.from_markup(
        f"[bold]{escape(w('board.swords'))}[/bold]: "
        f"{_track(white, 'W', 'bold')} {escape(w('board.white-swords', count=white))}   "
        f"{_track(black, 'B', 'bold red')} {escape(w('board.black-swords', count=black))}   "
        f"[dim]{escape(w('board.swords-goal'))}[/dim]"
    )


def _decks(w: GameWords) -> Text:
    view = w.view
    parts = [f"{w('board.deck')}: {view['deck']}", f"{w('board.discard')}: {view['discard']}",
             f"{w('board.aside')}: {view['morgans_aside']}"]
    if view.get("expert"):
        parts.append(f"{w('board.knight-deck')}: {view.get('knight_deck', 0)}")
    return Text("  |  ".join(parts))


def _in_force(w: GameWords) -> Text | None:
    view = w.view
    active = [w.term("card", key) for key in ("morgan-1", "morgan-2") if view["in_force"].get(key)]
    if view.get("merlin_4_token"):
        active.append(w("board.token"))
    if not active:
        return None
    return Text(f"{w('board.in-force')}: {', '.join(active)}", style="magenta")


def _piles(w: GameWords) -> list[Text]:
    """The pile being resolved, or the last one resolved: cards as the table saw them."""
    view = w.view
    lines: list[Text] = []
    resolving = view.get("resolving")
    if resolving:
        head = w("board.resolving", quest=w.term("quest", resolving["quest"]))
        lines.append(Text(f"{head}: {w.terms('card', resolving['cards'])}", style="bold"))
    last = view.get("last_resolution")
    if last and not resolving:
        head = w("board.last", quest=w.term("quest", last["quest"]))
        text = f"{head}: {w.terms('card', last['cards'])}"
        if last.get("token"):
            text += "; " + w("board.token-quest", quest=w.term("quest", last["token"]))
        if last.get("bonus"):
            text += "; " + w("board.last-bonus", number=int(last["bonus"]))
        lines.append(Text(text, style="dim"))
    played = {k: n for k, n in (view.get("knights_played") or {}).items() if n}
    if played:
        names = ", ".join(w.term("knight", k) + (f" x{n}" if n > 1 else "")
                          for k, n in played.items())
        lines.append(Text(f"{w('board.knights-played')}: {names}", style="dim"))
    return lines


def _players(w: GameWords) -> Table:
    view = w.view
    table = Table(box=box.SIMPLE_HEAD, title=escape(w("board.players")), title_justify="left")
    for column in ("player", "loyalty", "notes"):
        table.add_column(escape(w(f"board.col.{column}")))
    ended = view.get("loyalties") or []
    hand = view.get("hand") or {}
    for seat, entry in enumerate(view["seats"]):
        loyalty = entry.get("loyalty") or (ended[seat] if seat < len(ended) else None)
        you = view.get("you") or {}
        if loyalty is None and seat == w.me and you.get("loyalty"):
            loyalty = you["loyalty"]  # the reader's own card, which only he sees
        notes: list[str] = []
        if view["status"] == "playing" and view["turn"] == seat:
            notes.append(w("board.turn-tag"))
        if view["status"] == "playing" and view.get("to_act") == seat:
            notes.append(w("board.deciding"))
        if entry.get("accused"):
            notes.append(w("board.has-accused"))
        if entry.get("knights"):
            notes.append(w("board.knights", count=int(entry["knights"])))
        if hand.get("seat") == seat:
            notes.append(w.event("board.holds", seat=Seat(seat), count=int(hand["count"])))
        shown = w.term("loyalty", loyalty) if loyalty else "?"
        style = "bold red" if loyalty == "traitor" else ""
        table.add_row(escape(w.seat(seat)), f"[{style}]{escape(shown)}[/{style}]" if style
                      else escape(shown), escape(", ".join(notes)))
    return table


def _private(w: GameWords, you: Mapping[str, Any]) -> Table:
    """The seat's own cards and what it alone knows (``you`` of the observation)."""
    table = Table(show_header=False, box=box.ROUNDED, title=escape(w("board.yours")),
                  title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    loyalty = you.get("loyalty")
    if loyalty:
        text = Text(f"{w.term('loyalty', loyalty)} - {w(f'loyalty.{loyalty}.text')}",
                    style="bold red" if loyalty == "traitor" else "bold green")
        table.add_row(escape(w("board.loyalty")), text)
    else:
        table.add_row(escape(w("board.loyalty")), escape(w("board.no-loyalty")))
    if you.get("offer"):
        offer = you["offer"]
        table.add_row(escape(w("board.offer")),
                      escape(f"{w.term('loyalty', offer)} - {w('board.offer.text')}"))
    hand = you.get("hand") or []
    table.add_row(escape(w("board.hand")),
                  escape(w.terms("card", hand) if hand else w("board.no-hand")))
    knights = you.get("knights")
    if knights is not None:
        held = [w.term("knight", k) + (f" x{n}" if n > 1 else "")
                + f" ({w(f'knight.{k}.text')})"
                for k, n in knights.items() if k in KNIGHT_KEYS]
        table.add_row(escape(w("board.your-knights")),
                      escape("\n".join(held) if held else w("board.none")))
    known: list[str] = []
    if you.get("merlin_4_token"):
        known.append(w("board.token-yours", quest=w.term("quest", you["merlin_4_token"])))
    if you.get("deck_seen"):
        known.append(w("board.deck-seen", cards=w.terms("card", you["deck_seen"])))
    for seat, loyalty_seen in sorted((you.get("known_loyalties") or {}).items()):
        known.append(w("board.known-loyalty", who=w.seat(int(seat)),
                       loyalty=w.term("loyalty", loyalty_seen)))
    if known:
        table.add_row(escape(w("board.known")), escape("\n".join(known)))
    return table


def render_soc_card_view(view: Mapping[str, Any], catalog: Catalog) -> RenderableType:
    """The whole drawing of ``view`` (see the module docstring)."""
    w = GameWords(catalog, NAME, view.get("seat"), view)
    parts: list[RenderableType] = [_headline(w), _pile(w), _swords(w), _decks(w)]
    in_force = _in_force(w)
    if in_force is not None:
        parts.append(in_force)
    parts += _piles(w)
    parts.append(_players(w))
    if view.get("you") is not None:
        parts.append(_private(w, view["you"]))
    return Group(*parts)


def render_soc_card(view: Mapping[str, Any], catalog: Catalog) -> RenderableType:
    """:func:`render_soc_card_view`, or the generic layout if the observation's shape is
    unknown: a game in progress is never stopped by a drawing that lags behind the rules."""
    try:
        return render_soc_card_view(view, catalog)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return render_generic(view, catalog)
