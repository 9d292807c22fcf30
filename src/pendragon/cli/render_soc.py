"""Terminal rendering of a Shadows over Camelot observation, and words for its actions.

The input is ``state.observation(seat)`` as documented in ``pendragon.games.soc.view``;
only static card data (names) comes from the game package. Layout: the board first (turn,
swords, siege engines, quests, knights), then what is on the table for the decision under
way, then the seat's own hand and secrets.

>>> import pendragon
>>> from rich.console import Console
>>> state = pendragon.load_game("soc", players=3, seed=11).new_initial_state()
>>> state.play_random_chance()
>>> console = Console(width=100, color_system=None)
>>> with console.capture() as capture:
...     console.print(render_soc(state.observation(0)))
>>> "Round Table" in capture.get() and "Your hand" in capture.get()
True
>>> label_soc_action("move:grail")
'Move to the Holy Grail'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from pendragon.cli.render import register_action_labeller, register_renderer, render_generic
from pendragon.games.soc.cards import BLACK, KNIGHTS, LOCATION_KEYS, LOCATION_NAMES, WHITE
from pendragon.games.soc.quests import EXCALIBUR_HOME, GRAIL_SPOTS

WHITE_NAMES = {card.key: card.name for card in WHITE}
BLACK_NAMES = {card.key: card.name for card in BLACK}
KNIGHT_NAMES = {knight.key: knight.name for knight in KNIGHTS}
PLACE_NAMES = dict(zip(LOCATION_KEYS, LOCATION_NAMES, strict=True))
QUEST_TITLES = {
    "black-knight": "Black Knight",
    "lancelot": "Lancelot",
    "excalibur": "Excalibur",
    "grail": "Holy Grail",
    "picts": "Picts",
    "saxons": "Saxons",
    "camelot": "Camelot",
}
#: Swords on the Round Table, siege engines that lose the game, life on a die.
SWORDS = 12
SIEGE_LIMIT = 12
MAX_LIFE = 6
WAR_FIGURES = 4


# ---------------------------------------------------------------------- small helpers
def _knight_of(view: Mapping[str, Any], seat: Any) -> str | None:
    for knight in view.get("knights", []):
        if knight.get("seat") == seat and knight.get("knight"):
            key = str(knight["knight"])
            return KNIGHT_NAMES.get(key, key)
    return None


def _seat_name(view: Mapping[str, Any], seat: Any) -> str:
    """``"seat 2 (Sir Kay)"``, ``"you"`` for the observer."""
    if seat is None:
        return "-"
    if seat == view.get("seat"):
        return "you"
    knight = _knight_of(view, seat)
    return f"seat {seat} ({knight})" if knight else f"seat {seat}"


def _short_name(view: Mapping[str, Any], seat: Any) -> str:
    """``"Kay (2)"`` in lists, ``"you"`` for the observer."""
    if seat == view.get("seat"):
        return "you"
    knight = _knight_of(view, seat)
    if not knight:
        return f"seat {seat}"
    return f"{knight.removeprefix('Sir ').removeprefix('King ')} ({seat})"


def _seat_list(view: Mapping[str, Any], seats: Sequence[int]) -> str:
    return ", ".join(_short_name(view, s) for s in seats) if seats else "-"


def _white_name(key: str) -> str:
    return WHITE_NAMES.get(key, key)


def _black_name(key: str) -> str:
    return BLACK_NAMES.get(key, key)


def _counted(cards: Mapping[str, int], name: Any = _white_name) -> str:
    """``{"grail": 2, "merlin": 1}`` -> ``"Grail x2, Merlin"``."""
    if not cards:
        return "-"
    return ", ".join(f"{name(k)} x{n}" if n > 1 else name(k) for k, n in cards.items())


def _values(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values) if values else "-"


def _black_entries(entries: Sequence[Mapping[str, Any]]) -> str:
    """Black cards on a combat quest: their value, ``?`` when face down and not ours."""
    parts = []
    for entry in entries:
        if entry.get("hidden"):
            parts.append("?")
        else:
            mark = " (face down)" if entry.get("face_down") else ""
            parts.append(f"{entry.get('value', _black_name(str(entry.get('card'))))}{mark}")
    return " ".join(parts) if parts else "-"


def _meter(filled: int, total: int, full: str = "#", empty: str = ".") -> str:
    filled = max(0, min(total, filled))
    return full * filled + empty * (total - filled)


# ---------------------------------------------------------------------- sections
def _headline(view: Mapping[str, Any]) -> Text:
    turn = view.get("turn", {})
    waiting = view.get("waiting", {})
    text = Text()
    text.append(f"Turn {turn.get('number', '?')}", style="bold")
    if turn.get("seat") is not None:
        owner = _seat_name(view, turn["seat"])
        text.append(" (yours)" if owner == "you" else f" of {owner}")
    if view.get("status", "running") != "running":
        reason = view.get("end_reason") or ""
        text.append(f" - game over: {view['status']}", style="bold magenta")
        if reason:
            text.append(f" ({reason})")
    elif waiting.get("chance"):
        text.append(" - chance acts next")
    elif waiting.get("seat") is not None:
        who = _seat_name(view, waiting["seat"])
        text.append(f" - waiting for {who}: {waiting.get('decision', '')}")
    used = turn.get("used") or []
    if used:
        text.append(f"; actions used: {', '.join(used)}", style="dim")
    return text


def _board(view: Mapping[str, Any]) -> Table:
    swords = view.get("round_table", {})
    white, black = int(swords.get("white", 0)), int(swords.get("black", 0))
    siege = int(view.get("siege_engines", 0))
    decks = view.get("decks", {})
    table = Table(show_header=False, box=box.ROUNDED, title="Camelot", title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    free = "." * max(0, SWORDS - white - black)
    table.add_row(
        "Round Table",
        f"[green]{'W' * white}[/green][red]{'B' * black}[/red]{free}"
        f"  white {white}, black {black} of {SWORDS} swords",
    )
    table.add_row(
        "Siege engines", f"[red]{_meter(siege, SIEGE_LIMIT)}[/red]  {siege} of {SIEGE_LIMIT}"
    )
    table.add_row(
        "Decks",
        f"white {decks.get('white', '?')} (discards {decks.get('white_discard', '?')}), "
        f"black {decks.get('black', '?')} (discards {decks.get('black_discard', '?')})",
    )
    relics = view.get("relics", {})
    if relics:
        shown = []
        for relic, where in relics.items():
            place = _seat_name(view, where) if isinstance(where, int) else str(where)
            shown.append(f"{relic}: {place}")
        table.add_row("Relics", escape(", ".join(shown)))
    effects = view.get("effects", {})
    active = []
    if effects.get("vivien"):
        active.append("Vivien")
    if effects.get("mist"):
        active.append("Mist of Avalon")
    if effects.get("dark_forest"):
        active.append("Dark Forest")
    if effects.get("mordred"):
        active.append(f"Mordred with the {effects['mordred']}")
    if effects.get("heroism"):
        active.append(f"Heroism at {PLACE_NAMES.get(effects['heroism'], effects['heroism'])}")
    if active:
        table.add_row("In effect", escape(", ".join(active)))
    return table


def _quest_progress(key: str, quest: Mapping[str, Any]) -> str:
    if key in ("black-knight", "lancelot"):
        side = ""
        if key == "lancelot":
            if quest.get("side") == "over":
                return "over"
            side = "Dragon: " if quest.get("side") == "dragon" else ""
        return (
            f"{side}white {_values(quest.get('white', []))} vs black "
            f"{_black_entries(quest.get('black', []))}"
        )
    if key == "excalibur":
        if quest.get("over"):
            return "over"
        position = int(quest.get("position", 0))
        track = ["-"] * (2 * EXCALIBUR_HOME + 1)
        track[max(0, min(len(track) - 1, position + EXCALIBUR_HOME))] = "X"
        return f"evil [{''.join(track)}] knights ({position:+d})"
    if key == "grail":
        if quest.get("over"):
            return "over"
        black = ", ".join(_black_name(k) for k in quest.get("black", [])) or "-"
        forest = "; Dark Forest" if quest.get("dark_forest") else ""
        return (
            f"{_meter(int(quest.get('grail_cards', 0)), GRAIL_SPOTS, 'G')} "
            f"{quest.get('grail_cards', 0)}/{GRAIL_SPOTS} Grail; black {black}{forest}"
        )
    if key in ("picts", "saxons"):
        figures = int(quest.get("figures", 0))
        mordred = "; Mordred" if quest.get("mordred") else ""
        return (
            f"{_meter(figures, WAR_FIGURES, 'P' if key == 'picts' else 'S')} "
            f"{figures}/{WAR_FIGURES} {key}; white {_values(quest.get('white', []))}{mordred}"
        )
    return ""


def _quests(view: Mapping[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="Quests", title_justify="left")
    table.add_column("quest", style="bold")
    table.add_column("progress", no_wrap=True)
    table.add_column("knights there")
    for key, quest in view.get("quests", {}).items():
        table.add_row(
            QUEST_TITLES.get(key, key),
            escape(_quest_progress(key, quest)),
            escape(_seat_list(view, quest.get("knights", []))),
        )
    return table


def _knights(view: Mapping[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="Knights", title_justify="left")
    for column in ("seat", "knight", "life", "where", "hand", "relics", "loyalty", "notes"):
        table.add_column(column)
    for knight in view.get("knights", []):
        seat = knight.get("seat")
        life = int(knight.get("life", 0))
        status = knight.get("status", "in-play")
        notes = [] if status == "in-play" else [status]
        if knight.get("accusation_used"):
            notes.append("has accused")
        location = knight.get("location")
        name = KNIGHT_NAMES.get(knight.get("knight") or "", knight.get("knight") or "-")
        table.add_row(
            f"{seat}" + (" (you)" if seat == view.get("seat") else ""),
            escape(name.removeprefix("Sir ")),
            f"[red]{_meter(life, MAX_LIFE, 'o', '.')}[/red] {life}",
            escape(QUEST_TITLES.get(location, location) if location else "-"),
            str(knight.get("hand_size", "?")),
            escape(", ".join(knight.get("relics", [])) or "-"),
            escape(knight.get("loyalty") or "?"),
            escape(", ".join(notes)),
        )
    return table


def _table_rows(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The public parts of the decision under way, only those that are non-empty."""
    table = view.get("table", {})
    rows: list[tuple[str, str]] = []
    if table.get("offer"):
        eligible = table.get("offer_to", [])
        everyone = len(eligible) == view.get("players")
        to = "anyone" if everyone else _seat_list(view, eligible)
        giver = table.get("offer_giver")
        by = f", given out by {_short_name(view, giver)}" if giver is not None else ""
        rows.append(
            ("Cards to share", f"{', '.join(_white_name(k) for k in table['offer'])} (to {to}{by})")
        )
    if table.get("pledges"):
        rows.append(("Merlins pledged", _seat_list(view, table["pledges"])))
    fight = table.get("siege_fight", {})
    if fight.get("cards") or fight.get("die"):
        die = fight.get("die")
        rows.append(
            (
                "Siege fight",
                f"cards {_values(fight.get('cards', []))}"
                + (f", die {die}" if die else "")
                + (f", Kay +{fight['kay_bonus']}" if fight.get("kay_bonus") else ""),
            )
        )
    if table.get("contributions_made"):
        rows.append(("Contributed", _seat_list(view, table["contributions_made"])))
    in_play = []
    for entry in table.get("black_in_play", []):
        if entry.get("hidden"):
            in_play.append(f"a {QUEST_TITLES.get(entry.get('quest', ''), 'combat')} card")
        else:
            in_play.append(_black_name(str(entry.get("card"))))
    if in_play:
        rows.append(("Black cards in play", ", ".join(in_play)))
    if table.get("held_by") is not None and table.get("held_count"):
        rows.append(
            (
                "Black cards held",
                f"{table['held_count']} by {_short_name(view, table['held_by'])}",
            )
        )
    return rows


def _private(you: Mapping[str, Any]) -> Table:
    table = Table(show_header=False, box=box.ROUNDED, title="You", title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("Your hand", escape(_counted(you.get("hand", {}))))
    loyalty = you.get("loyalty")
    if loyalty == "traitor":
        table.add_row("Loyalty", "[bold red]the TRAITOR[/bold red]")
    else:
        table.add_row("Loyalty", escape(loyalty or "not dealt yet"))
    if you.get("contribution"):
        table.add_row("Your contribution", escape(_white_name(you["contribution"])))
    for holder, cards in (you.get("known_hands") or {}).items():
        table.add_row(f"Known in seat {holder}'s hand", escape(_counted(cards)))
    known = [
        f"{_black_name(e['card'])} ({e['from']} {e['depth'] + 1 if e['from'] == 'top' else ''})"
        .replace(" )", ")")
        for e in you.get("black_deck_known", [])
    ]
    if known:
        table.add_row("Black deck, known", escape(", ".join(known)))
    if you.get("held_black"):
        held = ", ".join(map(_black_name, you["held_black"]))
        table.add_row("Black cards you hold", escape(held))
    if you.get("ordered_black"):
        table.add_row(
            "Black cards ordered", escape(", ".join(map(_black_name, you["ordered_black"])))
        )
    return table


def render_soc_view(view: Mapping[str, Any]) -> RenderableType:
    """The board, the decision under way and the seat's own hand and secrets."""
    parts: list[RenderableType] = [_headline(view), _board(view), _quests(view), _knights(view)]
    rows = _table_rows(view)
    if rows:
        table = Table(
            show_header=False, box=box.ROUNDED, title="On the table", title_justify="left"
        )
        table.add_column(style="bold")
        table.add_column()
        for label, value in rows:
            table.add_row(label, escape(value))
        parts.append(table)
    if view.get("you") is not None:
        parts.append(_private(view["you"]))
    return Group(*parts)


def render_soc(view: Mapping[str, Any]) -> RenderableType:
    """:func:`render_soc_view`, or the generic layout if the observation's shape is unknown.

    A game in progress is never interrupted by a renderer that lags behind the rules.
    """
    try:
        return render_soc_view(view)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return render_generic(view)


# ---------------------------------------------------------------------- action words
_FIXED_LABELS = {
    "draw-black": "Progression of Evil: draw and play a black card",
    "add-siege": "Progression of Evil: add a siege engine",
    "lose-life": "Progression of Evil: lose 1 life",
    "peek": "Percival: look at the top black card first",
    "draw-white": "At Camelot: draw white cards",
    "fight-siege": "At Camelot: fight a siege engine",
    "target:siege": "Merlin: remove a siege engine",
    "sacrifice": "Lose 1 life for a second heroic action",
    "end-turn": "End your turn",
    "done": "Done",
    "pass": "Pass",
    "arthur-exchange": "King Arthur: start a card exchange",
    "pledge-merlin": "Pledge a Merlin card against this black card",
    "sacrifice-excalibur": "Sacrifice Excalibur to cancel the black card just drawn",
    "drink-grail": "Use the Grail to save the dying knight",
    "face-down": "Place the black card face down",
    "face-up": "Place the black card face up",
    "volunteer": "Take Morgan's burden alone",
    "answer": "Answer the Convocation",
    "self": "For yourself",
    "others": "For the other knights",
    "fate:loyal": "Play Fate as a loyal knight",
    "fate:reveal": "Reveal yourself as the traitor",
    # Merlin's Company.
    "gaheris-merlin": "Use Sir Gaheris's power",
    "bedivere-swap": "Use Sir Bedivere's power",
    "caradoc-trade": "Use Sir Caradoc's power",
    "geraint-skip-evil": "Use Sir Geraint's power (skip the Progression of Evil)",
    "lamorak-discard": "Use Sir Lamorak's power (discard 2 cards instead of losing 1 life)",
    "merlin-draw": "Draw a white card where the Merlin figure stands",
    "stay": "Stay (travel card)",
    "go": "Go (travel card)",
    "slayer:draw": "Dragon Slayer: draw",
    "slayer:fight": "Dragon Slayer: fight",
    "join": "Join the game",
}
_PREFIX_LABELS = {
    "move": "Move to {place}",
    "play": "Play {white}",
    "special": "Play the special card {white}",
    "heal": "Discard three {white} to heal 1 life",
    "accuse": "Accuse {seat} of being the traitor",
    "seat": "Choose {seat}",
    "target": "Target {place}",
    "choose-black": "Choose the black card {black}",
    "value": "Give the Fight ? card the value {value}",
    "free": "Free captured {seat} with a special white card",
    "leave": "{seat} leaves the table",
}


def label_soc_action(text: str, view: Mapping[str, Any] | None = None) -> str | None:
    """Words for a soc action's text (seats named from ``view``); ``None`` if unknown.

    >>> label_soc_action("play:fight-5"), label_soc_action("draw-black")
    ('Play Fight 5', 'Progression of Evil: draw and play a black card')
    >>> label_soc_action("seat:1", {"seat": 0, "knights": [{"seat": 1, "knight": "kay"}]})
    'Choose seat 1 (Sir Kay)'
    >>> label_soc_action("dance") is None
    True
    """
    if text in _FIXED_LABELS:
        return _FIXED_LABELS[text]
    kind, _, argument = text.partition(":")
    template = _PREFIX_LABELS.get(kind)
    if template is None or not argument:
        return None
    seat = _seat_name(view or {}, int(argument)) if argument.isdigit() else argument
    label = template.format(
        place=PLACE_NAMES.get(argument, argument),
        white=_white_name(argument),
        black=_black_name(argument),
        seat=seat,
        value=argument,
    )
    return label[0].upper() + label[1:]


register_renderer("soc", render_soc)
register_action_labeller("soc", label_soc_action)
