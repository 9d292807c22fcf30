"""Terminal rendering of a Shadows over Camelot observation, in the reader's language.

The input is ``state.observation(seat)`` as documented in ``pendragon.games.soc.rules.view``
and the :class:`~pendragon.i18n.Catalog` to speak; every word comes from the catalog (the
game's ``soc.*`` messages, shared with the web page, and the terminal's ``soc.term.*``),
never from the rules' card tables. Layout: the board first (turn, swords, siege engines,
quests, knights), then what is on the table for the decision under way, then the seat's
own hand and secrets.

>>> import pendragon
>>> from pendragon.i18n import catalog
>>> from rich.console import Console
>>> state = pendragon.load_game("soc", players=3, seed=11).new_initial_state()
>>> state.play_random_chance()
>>> console = Console(width=100, color_system=None)
>>> with console.capture() as capture:
...     console.print(render_soc(state.observation(0), catalog("en")))
>>> "Round Table" in capture.get() and "Your hand" in capture.get()
True
>>> with console.capture() as capture:
...     console.print(render_soc(state.observation(0), catalog("pl")))
>>> "Okrągły Stół" in capture.get() and "Round Table" not in capture.get()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from pendragon.cli.render import render_generic
from pendragon.games.soc.rules.quests import EXCALIBUR_HOME, GRAIL_SPOTS
from pendragon.games.soc.rules.view import result_key
from pendragon.i18n import Catalog, GameWords

#: Swords on the Round Table, siege engines that lose the game, life on a die.
SWORDS = 12
SIEGE_LIMIT = 12
MAX_LIFE = 6
WAR_FIGURES = 4


class _Words(GameWords):
    """The game's words for the reader of ``view``, seats named with their knights."""

    __slots__ = ()

    def __init__(self, view: Mapping[str, Any], catalog: Catalog) -> None:
        super().__init__(catalog, "soc", view.get("seat"), view)

    def term(self, family: str, key: Any) -> str:
        """``soc.<family>.<key>`` (a card, a place, a knight...), or the key if unknown."""
        message = f"soc.{family}.{key}"
        return self.catalog.text(message) if message in self.catalog else str(key)

    def knight_of(self, seat: Any) -> str | None:
        for knight in self.view.get("knights", []):
            if knight.get("seat") == seat and knight.get("knight"):
                return self.term("knight", knight["knight"])
        return None

    def seat(self, seat: Any) -> str:
        """``"Seat 2 (Sir Kay)"``; "you" for the observer."""
        if seat is None:
            return "-"
        knight = self.knight_of(seat)
        if knight and seat != self.me:
            return self.catalog.text("term.seat.named", n=seat, name=knight)
        return super().seat(seat)

    def short(self, seat: Any) -> str:
        """``"Sir Kay (2)"`` in lists; "you" for the observer."""
        knight = self.knight_of(seat)
        return f"{knight} ({seat})" if knight and seat != self.me else super().seat(seat)

    def seats(self, seats: Sequence[int]) -> str:
        return ", ".join(self.short(s) for s in seats) if seats else "-"

    def counted(self, cards: Mapping[str, int]) -> str:
        """``{"grail": 2, "merlin": 1}`` -> ``"Grail x2, Merlin"``."""
        if not cards:
            return "-"
        return ", ".join(
            f"{self.term('white', k)} x{n}" if n > 1 else self.term("white", k)
            for k, n in cards.items()
        )

    def blacks(self, keys: Sequence[str]) -> str:
        return ", ".join(self.term("black", k) for k in keys) or "-"


def _values(values: Sequence[int], wild: Sequence[int] = ()) -> str:
    """Fight values in a row; a "?" card (its index in ``wild``) reads "?3" (MC-W-FIGHT-ANY)."""
    if not values:
        return "-"
    return " ".join(f"?{v}" if i in wild else str(v) for i, v in enumerate(values))


def _meter(filled: int, total: int, full: str = "#", empty: str = ".") -> str:
    filled = max(0, min(total, filled))
    return full * filled + empty * (total - filled)


# ---------------------------------------------------------------------- sections
def _headline(w: _Words) -> Text:
    view = w.view
    turn = view.get("turn", {})
    waiting = view.get("waiting", {})
    text = Text()
    number = turn.get("number", "?")
    if turn.get("seat") is None:
        text.append(w("term.turn", n=number), style="bold")
    elif turn["seat"] == view.get("seat"):
        text.append(w("table.turn.you", n=number, left=turn.get("actions_left", 0)),
                    style="bold")
    else:
        who = w.seat(turn["seat"])
        text.append(w("table.turn", n=number, who=who, left=turn.get("actions_left", 0)),
                    style="bold")
    if view.get("status", "running") != "running":
        result = w.term("result", result_key(view))
        reason = view.get("end_reason") or ""
        over = (
            w("term.over_reason", result=result, reason=w.term("end", reason))
            if reason
            else w("term.over", result=result)
        )
        text.append(" - " + over, style="bold magenta")
    elif waiting.get("chance"):
        text.append(" - " + w("waiting_chance"))
    elif waiting.get("seat") is not None:
        what = w.term("decision", waiting.get("decision", "none"))
        if waiting["seat"] == view.get("seat"):
            text.append(" - " + w("term.waiting_you", what=what))
        else:
            text.append(" - " + w("waiting", who=w.seat(waiting["seat"]), what=what))
    used = turn.get("used") or []
    if used:
        names = ", ".join(w.term("group", u) for u in used)
        text.append("; " + w("term.used", actions=names), style="dim")
    return text


def _board(w: _Words) -> Table:
    view = w.view
    swords = view.get("round_table", {})
    white, black = int(swords.get("white", 0)), int(swords.get("black", 0))
    siege = int(view.get("siege_engines", 0))
    decks = view.get("decks", {})
    table = Table(
        show_header=False, box=box.ROUNDED, title=escape(w.term("place", "camelot")),
        title_justify="left",
    )
    table.add_column(style="bold")
    table.add_column()
    free = "." * max(0, SWORDS - white - black)
    table.add_row(
        escape(w("board.round_table")),
        f"[green]{'W' * white}[/green][red]{'B' * black}[/red]{free}  "
        + escape(w("result.swords", white=white, black=black)),
    )
    table.add_row(
        escape(w("term.siege")),
        f"[red]{_meter(siege, SIEGE_LIMIT)}[/red]  {siege} / {SIEGE_LIMIT}",
    )
    decks_text = ", ".join(
        f"{w(f'board.{kind}_deck')} {decks.get(kind, '?')} "
        f"({w('board.discard', n=decks.get(f'{kind}_discard', '?'))})"
        for kind in ("white", "black")
    )
    table.add_row(escape(w("term.decks")), escape(decks_text))
    shown = []
    for relic, where in view.get("relics", {}).items():
        name = w.term("relic", relic)
        if isinstance(where, int) and not isinstance(where, bool):
            shown.append(w("board.relic_owned", relic=name, who=w.seat(where)))
        elif where == "lost":
            shown.append(w("board.relic_lost", relic=name))
        else:
            shown.append(w("board.relic_on_quest", relic=name))
    if shown:
        table.add_row(escape(w("term.relics")), escape(", ".join(shown)))
    effects = view.get("effects", {})
    active = []
    for flag, card in (("vivien", "vivien"), ("mist", "mist-of-avalon"),
                       ("dark_forest", "dark-forest")):
        if effects.get(flag):
            active.append(w.term("black", card))
    if effects.get("mordred"):
        active.append(f"{w.term('black', 'mordred')} ({w.term('place', effects['mordred'])})")
    if effects.get("heroism"):
        card, place = w.term("white", "heroism"), w.term("place", effects["heroism"])
        if effects.get("heroism_by") is None:
            active.append(f"{card} ({place})")
        else:  # SOC-RULING-72: lost if the knight it is bound to leaves the solo quest early
            bound = effects["heroism_by"]
            who = w.knight_of(bound) or w.short(bound)
            active.append(f"{w('board.heroism_by', card=card, place=place, who=who)}: "
                          f"{w('board.heroism_by_tip', who=who)}")
    if effects.get("merlin"):
        active.append(w("board.merlin_at", place=w.term("place", effects["merlin"])))
    if view.get("accusations_open"):  # SOC-ACCUSE-1, SOC-RULING-5: open for good
        active.append(w("board.accusations_open"))
    if active:
        table.add_row(escape(w("term.effects")), escape(", ".join(active)))
    return table


def _black_entries(w: _Words, entries: Sequence[Mapping[str, Any]]) -> str:
    """Black cards on a combat quest: their value, ``?`` when face down and not ours."""
    parts = []
    for entry in entries:
        if entry.get("hidden"):
            parts.append("?")
        else:
            value = str(entry.get("value", w.term("black", entry.get("card"))))
            if entry.get("face_down"):
                value += f" ({w('board.face_down_yours')})"
            parts.append(value)
    return " ".join(parts) if parts else "-"


def _quest_progress(w: _Words, key: str, quest: Mapping[str, Any]) -> str:
    over = w("board.quest_over")
    if key in ("black-knight", "lancelot"):
        side = ""
        if key == "lancelot":
            if quest.get("side") == "over":
                return over
            side = w("board.dragon") + ": " if quest.get("side") == "dragon" else ""
        return side + w(
            "term.combat",
            white=_values(quest.get("white", []), quest.get("white_any", ())),
            black=_black_entries(w, quest.get("black", [])),
        )
    if key == "excalibur":
        if quest.get("over"):
            return over
        position = int(quest.get("position", 0))
        track = ["-"] * (2 * EXCALIBUR_HOME + 1)
        track[max(0, min(len(track) - 1, position + EXCALIBUR_HOME))] = "X"
        evil, knights = w("board.evil_side"), w("board.knights_side")
        return f"{evil} [{''.join(track)}] {knights} ({position:+d})"
    if key == "grail":
        if quest.get("over"):
            return over
        cards = int(quest.get("grail_cards", 0))
        text = f"{_meter(cards, GRAIL_SPOTS, 'G')} " + w(
            "term.grail", white=cards, black=w.blacks(quest.get("black", []))
        )
        if quest.get("dark_forest"):
            text += "; " + w.term("black", "dark-forest")
        return text
    if key in ("picts", "saxons"):
        figures = int(quest.get("figures", 0))
        text = (
            f"{_meter(figures, WAR_FIGURES, 'P' if key == 'picts' else 'S')} "
            f"{figures}/{WAR_FIGURES}; "
            + w("term.white_cards",
                values=_values(quest.get("white", []), quest.get("white_any", ())))
        )
        if quest.get("mordred"):
            text += "; " + w.term("black", "mordred")
        return text
    return ""


def _quests(w: _Words) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title=escape(w("term.quests")), title_justify="left")
    table.add_column(escape(w("term.col.quest")), style="bold")
    table.add_column(escape(w("term.col.progress")), no_wrap=True)
    table.add_column(escape(w("term.col.knights")))
    for key, quest in w.view.get("quests", {}).items():
        table.add_row(
            escape(w.term("place", key)),
            escape(_quest_progress(w, key, quest)),
            escape(w.seats(quest.get("knights", []))),
        )
    return table


def _knights(w: _Words) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title=escape(w("term.knights")), title_justify="left")
    for column in ("seat", "knight", "life", "where", "hand", "relics", "loyalty", "notes"):
        table.add_column(escape(w(f"term.col.{column}")))
    for knight in w.view.get("knights", []):
        seat = knight.get("seat")
        life = int(knight.get("life", 0))
        status = knight.get("status", "in-play")
        notes = [] if status == "in-play" else [w.term("status", status)]
        if knight.get("captured"):
            notes.append(w("status.captured"))
        if knight.get("accusation_used"):
            notes.append(w("knights.accused"))
        location = knight.get("location")
        loyalty = knight.get("loyalty")
        mine = f" ({w.catalog.text('term.seat.you')})" if seat == w.me else ""
        table.add_row(
            f"{seat}{escape(mine)}",
            escape(w.term("knight", knight["knight"]) if knight.get("knight") else "-"),
            f"[red]{_meter(life, MAX_LIFE, 'o', '.')}[/red] {life}",
            escape(w.term("place", location) if location else "-"),
            str(knight.get("hand_size", "?")),
            escape(", ".join(w.term("relic", r) for r in knight.get("relics", [])) or "-"),
            escape(w.term("loyalty", loyalty) if loyalty else "?"),
            escape(", ".join(notes)),
        )
    return table


def _table_lines(w: _Words) -> list[str]:
    """The public parts of the decision under way, only those that are non-empty."""
    view = w.view
    table = view.get("table", {})
    lines: list[str] = []
    if table.get("offer"):
        eligible = table.get("offer_to", [])
        if len(eligible) == view.get("players"):
            to = w("term.offer_anyone")
        else:
            to = w("term.offer_to", who=w.seats(eligible))
        cards = ", ".join(w.term("white", k) for k in table["offer"])
        line = f"{w('table.offer')} {cards} ({to})."
        giver = table.get("offer_giver")
        dealt = "dealer" if table.get("offer_dealt") else "giver"  # SOC-RULING-77
        if giver == view.get("seat"):
            line += " " + w(f"term.offer_{dealt}_you")
        elif giver is not None:
            line += " " + w(f"table.offer_{dealt}", who=w.short(giver))
        lines.append(line)
    reward = table.get("face_down_reward")
    if reward:  # a solo quest's, which Sir Bors is asked to take part in
        lines.append(w("table.face_down_reward", who=w.short(reward["winner"]),
                       count=int(reward["cards"])))
    if table.get("pledges"):
        lines.append(f"{w('table.pledges')} {w.seats(table['pledges'])}")
    fight = table.get("siege_fight", {})
    if fight.get("cards") or fight.get("die"):
        values = [int(v) for v in fight.get("cards", [])]
        parts = [w("table.siege_cards", cards=_values(values, fight.get("cards_any", ())),
                   total=sum(values))]
        if fight.get("die"):
            parts.append(w("table.die", n=fight["die"]))
        if fight.get("kay_bonus"):
            parts.append(f"{w.term('knight', 'kay')} +{fight['kay_bonus']}")
        lines.append(f"{w('table.siege_fight')} {', '.join(parts)}")
    if table.get("contributions_made"):
        lines.append(w("table.contributed", who=w.seats(table["contributions_made"])))
    in_play = []
    for entry in table.get("black_in_play", []):
        if entry.get("hidden"):
            quest = w.term("place", entry.get("quest", ""))
            in_play.append(w("table.hidden_combat", quest=quest))
        else:
            in_play.append(w.term("black", entry.get("card")))
    if in_play:
        lines.append(f"{w('table.black_in_play')} {', '.join(in_play)}")
    if table.get("held_by") is not None and table.get("held_count"):
        lines.append(w("table.held", who=w.short(table["held_by"]), n=table["held_count"]))
    return lines


def _private(w: _Words, you: Mapping[str, Any]) -> Table:
    knight = w.knight_of(w.view.get("seat"))
    title = w("private.title_knight", knight=knight) if knight else w("term.you")
    table = Table(show_header=False, box=box.ROUNDED, title=escape(title), title_justify="left")
    table.add_column()
    hand = you.get("hand", {})
    count = sum(int(n) for n in hand.values())
    table.add_row(escape(w("term.hand", count=count, cards=w.counted(hand))))
    loyalty = you.get("loyalty")
    side = w.term("loyalty", loyalty) if loyalty else w("term.not_dealt")
    line = escape(w("term.loyalty", loyalty=side))
    table.add_row(f"[bold red]{line}[/bold red]" if loyalty == "traitor" else line)
    if you.get("contribution"):
        card = w.term("white", you["contribution"])
        table.add_row(escape(w("private.contribution", card=card)))
    for holder, cards in (you.get("known_hands") or {}).items():
        who = w.short(int(holder))
        table.add_row(escape(w("private.known_hand", who=who, cards=w.counted(cards))))
    for entry in you.get("black_deck_known", []):
        where = "private.deck_top" if entry["from"] == "top" else "private.deck_bottom"
        card = w.term("black", entry["card"])
        table.add_row(escape(w(where, n=int(entry["depth"]) + 1, card=card)))
    if you.get("held_black"):
        table.add_row(escape(w("private.held_black", cards=w.blacks(you["held_black"]))))
    if you.get("ordered_black"):
        ordered = w.blacks(you["ordered_black"])
        table.add_row(escape(w("private.ordered_black", cards=ordered)))
    if you.get("merlins_in_discard") is not None:
        table.add_row(escape(w("term.merlins_discard", n=you["merlins_in_discard"])))
    return table


def render_soc_view(view: Mapping[str, Any], catalog: Catalog) -> RenderableType:
    """The board, the decision under way and the seat's own hand and secrets."""
    w = _Words(view, catalog)
    parts: list[RenderableType] = [_headline(w), _board(w), _quests(w), _knights(w)]
    lines = _table_lines(w)
    if lines:
        table = Table(
            show_header=False, box=box.ROUNDED, title=escape(w("table.title")),
            title_justify="left",
        )
        table.add_column()
        for line in lines:
            table.add_row(escape(line))
        parts.append(table)
    if view.get("you") is not None:
        parts.append(_private(w, view["you"]))
    return Group(*parts)


def render_soc(view: Mapping[str, Any], catalog: Catalog) -> RenderableType:
    """:func:`render_soc_view`, or the generic layout if the observation's shape is unknown.

    A game in progress is never interrupted by a renderer that lags behind the rules.
    """
    try:
        return render_soc_view(view, catalog)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return render_generic(view, catalog)
