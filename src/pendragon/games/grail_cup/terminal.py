"""The terminal's drawing of a seat's observation of Grail Cup, in the reader's language.

The input is ``state.observation(seat)`` (``rules/view.py`` documents its fields) and the
:class:`~pendragon.i18n.Catalog` to speak; every word comes from the catalog (the game's
``grail-cup.*`` messages, shared with the web page), so the drawing shows nothing the seat
may not see and speaks the seat's language. Layout: the round (seal, passing direction),
the track, its legend, the knights in race order, the allies of the round and their
calling, then the seat's own allies, the draft hand passed to it and the clover tokens it
knows.

The track is drawn twelve spaces a row, three lines a space: its number, its kind (and the
clover token on it: ``?`` face down, a mark once the seat knows it), and who stands there
(knights by seat number in their colours, the leader first on a shared space, or the
dragon ``▲``).

>>> import pendragon
>>> from pendragon.i18n import catalog
>>> from rich.console import Console
>>> state = pendragon.load_game("grail-cup", players=4, seed=2).new_initial_state()
>>> while state.current_player() < 0:
...     state.apply_action(state.sample_chance())
>>> drafter = state.current_player()
>>> console = Console(width=100, color_system=None)
>>> with console.capture() as capture:
...     console.print(render_grail_cup(state.observation(drafter), catalog("en")))
>>> text = capture.get()
>>> "Round 1" in text and "Allies passed to you" in text and "The knights" in text
True
>>> with console.capture() as capture:
...     console.print(render_grail_cup(state.observation(drafter), catalog("cs")))
>>> "Kolo 1" in capture.get() and "Allies passed" not in capture.get()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markup import escape
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from pendragon.core.events import Seat, Term
from pendragon.i18n import Catalog, GameWords

NAME = "grail-cup"
#: Spaces a row of the drawn track.
ROW = 12
#: The nine allies by number (GC-ALLY-1); the observation names them by key.
ALLY_ORDER = (
    "sorceress", "squire", "merlin", "blacksmith", "dragon-tamer", "princess", "priest",
    "fairy", "unicorn",
)
#: Each seat's colour, as the web table's (``static/js/common.js``), in Rich's names.
SEAT_STYLES = ("red", "blue", "green", "yellow", "magenta", "cyan", "dark_orange", "grey50")
#: A space's kind as one glyph (the start spaces show their number instead).
KIND_GLYPHS = {
    "trail": "·", "clover": "♣", "village": "⌂", "castle": "♜", "castle-clover": "♜",
    "church": "✝", "dragon": "■", "finish": "⚑",
}
#: Kinds named in the legend, in this order.
LEGEND_KINDS = ("castle", "church", "village", "clover", "dragon", "finish")
#: A known clover token's mark on the track (a face-down one is ``?``).
CLOVER_MARKS = {
    "boots": "»", "goblin": "«", "dragon-bait": "≈", "fake-grail": "×", "magnet": "∪",
}
DRAGON_GLYPH = "▲"
HIDDEN_MARK = "?"


def seat_style(seat: int) -> str:
    """The Rich style of ``seat``'s knight (the web table's colour of the seat).

    >>> seat_style(0), seat_style(9)
    ('bold red', 'bold blue')
    """
    return "bold " + SEAT_STYLES[seat % len(SEAT_STYLES)]


def _words(view: Mapping[str, Any], catalog: Catalog) -> GameWords:
    """The game's words for the reader of ``view`` (its ``you`` holds the reader's seat)."""
    you = view.get("you")
    me = int(you["seat"]) if isinstance(you, Mapping) else None
    return GameWords(catalog, NAME, me, view)


def _knight_marks(w: GameWords, seat: int) -> Text:
    return Text(str(seat), style=seat_style(seat) + (" underline" if seat == w.me else ""))


def _cell(w: GameWords, space: int, kind: str, on_space: Sequence[int]) -> Text:
    view = w.view
    known = view.get("you", {}).get("clovers", {})
    mine = w.me is not None and int(view["knights"][w.me]["space"]) == space
    cell = Text(str(space), style="bold" if mine else "dim")
    cell.append("\n")
    glyph = kind.removeprefix("start-") if kind.startswith("start-") else KIND_GLYPHS[kind]
    cell.append(glyph, style="red" if kind == "dragon" else "")
    if kind in ("clover", "castle-clover"):
        token = known.get(str(space))
        cell.append(CLOVER_MARKS[token] if token else HIDDEN_MARK,
                    style="bold green" if token else "green")
    cell.append("\n")
    if view["dragon"] == space:
        cell.append(DRAGON_GLYPH, style="bold red")
    for seat in on_space:
        cell.append_text(_knight_marks(w, seat))
    return cell


def render_track(view: Mapping[str, Any], catalog: Catalog) -> TrackGrid:
    """The track alone: rows of :data:`ROW` spaces, three lines each (number, kind and
    clover token, who stands there; see the module docstring)."""
    return _track(_words(view, catalog))


class TrackGrid:
    """The track's cells, :data:`ROW` a row, drawn as :meth:`grid` draws them: columns as
    wide as their widest line, each line centred, one space between columns.

    Where the rows fit the console, the lines are laid out here directly: ``rich`` lays a
    table's every cell out twice (measured, then drawn), which made the track the dearest
    part of a drawing (16 ms of 37 at eight seats). The layout is the grid's, character for
    character (``tests/test_grail_cup_tables.py`` compares them over whole games); a
    narrower console gets the grid itself, which folds.
    """

    def __init__(self, rows: list[list[Text]]) -> None:
        self.rows = rows

    def grid(self) -> Table:
        """The same cells in a ``rich`` grid."""
        grid = Table.grid(padding=(0, 1))
        for _ in range(ROW):
            grid.add_column(justify="center", min_width=2)
        for row in self.rows:
            grid.add_row(*row)
        return grid

    def _layout(self) -> tuple[list[int], list[list[list[Text]]]]:
        """Each column's width and each cell's lines. The grid's widths: a column's widest
        line, at least 2 wide (3 for the first and last columns, whose measure counts a
        padding the drawing leaves out; the drawing centres in what is left)."""
        lines = [[list(cell.split("\n", allow_blank=True)) for cell in row]
                 for row in self.rows]
        columns = max((len(row) for row in lines), default=0)
        widths = [2] * columns
        for row in lines:
            for column, cell in enumerate(row):
                for line in cell:
                    widths[column] = max(widths[column], line.cell_len)
        if columns:
            widths[0] = max(widths[0], 3)
            widths[-1] = max(widths[-1], 3)
        return widths, lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        widths, lines = self._layout()
        if sum(widths) + len(widths) - 1 > options.max_width:
            yield self.grid()
            return
        for row in lines:
            for index in range(max((len(cell) for cell in row), default=0)):
                out = Text()
                for column, width in enumerate(widths):
                    if column:
                        out.append(" ")
                    cell = row[column] if column < len(row) else []
                    line = cell[index].copy() if index < len(cell) else Text()
                    line.rstrip()
                    line.pad_left((width - line.cell_len) // 2)
                    line.pad_right(width - line.cell_len)
                    out.append_text(line)
                yield from out.render(console)
                yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.grid())


def _track(w: GameWords) -> TrackGrid:
    view = w.view
    kinds: list[str] = view["track"]
    occupants: dict[int, list[int]] = {}
    for seat in view["order"]:  # leader first, so a shared space lists the leader first
        occupants.setdefault(int(view["knights"][seat]["space"]), []).append(seat)
    return TrackGrid([
        [_cell(w, space, kinds[space], occupants.get(space, []))
         for space in range(start, min(start + ROW, len(kinds)))]
        for start in range(0, len(kinds), ROW)
    ])


def _legend(w: GameWords) -> Text:
    legend = Text(style="dim")
    for kind in LEGEND_KINDS:
        legend.append(KIND_GLYPHS[kind], style="red" if kind == "dragon" else "")
        legend.append(f" {w.term('space', kind)}   ")
    legend.append(f"{HIDDEN_MARK} {w('board.clover-hidden')}   ")
    for kind in sorted(set(w.view.get("you", {}).get("clovers", {}).values())):
        legend.append(f"{CLOVER_MARKS[kind]} {w.term('clover', kind)}   ")
    legend.append(DRAGON_GLYPH, style="bold red")
    legend.append(f" {w('board.dragon')}   ")
    legend.append("0-7 ", style="bold")
    legend.append(w("board.legend-knights"))
    return legend


def _knights(w: GameWords) -> Table:
    view = w.view
    table = Table(title=escape(w("board.knights")), title_justify="left", box=box.SIMPLE_HEAD)
    for column in ("knight", "space", "place", "spears", "allies"):
        table.add_column(escape(w(f"board.col.{column}")))
    table.add_column("")
    for place, seat in enumerate(view["order"], start=1):
        knight = view["knights"][seat]
        name = _knight_marks(w, seat)
        name.append(f" {w.seat(seat)}", style=seat_style(seat))
        allies = w("board.allies-held", count=int(knight["allies"]))
        if knight["revealed"]:
            allies += f" ({w.terms('ally', knight['revealed'])})"
        marks = []
        if view["first_player"] == seat:
            marks.append(w("die.seal"))
        if view["waiting"]["seat"] == seat:
            marks.append(w("board.to-act"))
        if view["winner"] == seat:
            marks.append(w("board.winner"))
        table.add_row(name, str(knight["space"]), str(place), str(knight["spears"]),
                      escape(allies), escape(", ".join(marks)))
    return table


def _called(w: GameWords) -> str:
    """Each ally called so far with who held it (public once called, GC-CALL-2)."""
    allies = w.view["allies"]
    parts = []
    for number, key in enumerate(ALLY_ORDER[: int(allies["called"])], start=1):
        holder = allies["revealed"].get(key)
        if holder is not None:
            who = w.seat(int(holder))
        elif key in allies["aside_up"]:
            who = w("board.state.aside")
        else:
            who = w("board.holder-nobody")
        parts.append(f"{number} {w.term('ally', key)}: {who}")
    return "; ".join(parts)


def _round(w: GameWords) -> list[RenderableType]:
    view = w.view
    allies = view["allies"]
    head = [w("board.round", n=int(view["round"]))]
    if view["first_player"] is not None:
        head.append(w.event("board.seal-holder", seat=Seat(int(view["first_player"]))))
    if view["direction"]:
        head.append(w.event("board.direction",
                            direction=Term(f"{NAME}.direction.{view['direction']}")))
    lines: list[RenderableType] = [Text("  ".join(head), style="bold")]
    face_down = int(allies["aside_down"]) + int(allies["random_discard"]) + int(allies["discarded"])
    aside = []
    if allies["aside_up"]:
        aside.append(w("board.aside-up", allies=w.terms("ally", allies["aside_up"])))
    if face_down:
        aside.append(w("board.face-down", count=face_down))
    if aside:
        lines.append(Text("; ".join(aside)))
    calling = w("board.called", n=int(allies["called"]))
    if allies["called"]:
        calling += f" — {_called(w)}"
    lines.append(Text(calling))
    extra = []
    if view["curse"] is not None and view["sorceress"] is not None:
        extra.append(w.event("board.curse", ally=Term(f"{NAME}.ally.{view['curse']}"),
                           seat=Seat(int(view["sorceress"]))))
    if view["squire_named"] is not None and view["squire"] is not None:
        extra.append(w.event("board.squire", knight=Seat(int(view["squire_named"])),
                           seat=Seat(int(view["squire"]))))
    if view["clover_in_play"]:
        extra.append(w("board.clover-in-play", clover=w.term("clover", view["clover_in_play"])))
    if view["merlin_looked"]:
        extra.append(w("board.merlin-looked",
                       spaces=", ".join(str(s) for s in view["merlin_looked"])))
    if view["clover_known_by"]:  # GC-RULING-11: who has seen a token is public
        extra.append(w("board.clover-known", spaces=", ".join(
            f"{space} ({', '.join(w.seat(int(s)) for s in seats)})"
            for space, seats in view["clover_known_by"].items())))
    if view["seal_rolled_by"] is not None:
        extra.append(w.event("board.seal-next", seat=Seat(int(view["seal_rolled_by"]))))
    if view["last_round"]:
        last = ", ".join(f"{w.term('ally', k)} ({w.seat(int(s))})"
                         for k, s in view["last_round"].items())
        extra.append(w("board.last-round", allies=last))
    lines += [Text(line) for line in extra]
    lines.append(Text(w("board.dragon-at", space=int(view["dragon"])) + "  "
                      + w("board.spear-supply", count=int(view["spear_supply"]))))
    return lines


#: :func:`draft_next`'s answer while the seat must still choose the passing direction.
CHOOSES_DIRECTION = -1


def draft_next(view: Mapping[str, Any]) -> int | None:
    """Where the rest of the allies passed to the drafting seat go once it keeps one
    (GC-DRAFT-3..6, GC-RULING-2, GC-RULING-3, GC-RULING-17): the neighbour's seat, ``None``
    when the other card is discarded face down (the last pick), or
    :data:`CHOOSES_DIRECTION` when the first player is still to choose the direction.

    >>> view = {"you": {"seat": 1}, "players": 4, "direction": "right",
    ...         "knights": [{"allies": 0}, {"allies": 0}, {"allies": 1}, {"allies": 0}]}
    >>> draft_next(view)
    0
    >>> draft_next({**view, "knights": [{"allies": 1}] * 4})
    """
    me = int(view["you"]["seat"])
    players = int(view["players"])
    wanted = 2 if players <= 3 else 1  # with 2-3 players everyone drafts two (GC-DRAFT-4)
    if all(int(view["knights"][s]["allies"]) >= wanted for s in range(players) if s != me):
        return None
    step = {"left": 1, "right": -1}.get(view["direction"] or "")
    if step is None and players > 2:
        return CHOOSES_DIRECTION
    return (me + (step or 1)) % players


def _draft_hint(w: GameWords) -> str:
    target = draft_next(w.view)
    if target is None:
        return w("board.pass-last")
    if target == CHOOSES_DIRECTION:
        return w("board.pass-choose")
    return w.event("board.pass-on", seat=Seat(target))


def _private(w: GameWords) -> list[RenderableType]:
    you = w.view["you"]
    knight = w.view["knights"][w.me]
    hand = [w.term("ally", k) + (f" ({w('board.revealed')})" if k in knight["revealed"] else "")
            for k in you["hand"]]
    parts: list[RenderableType] = [
        Text(f"{w('board.your-allies')}: {', '.join(hand) or w('board.none')}", style="bold"),
    ]
    if you["packet"]:
        packet = Table(title=escape(f"{w('board.packet')} — {_draft_hint(w)}"),
                       title_justify="left", box=box.SIMPLE, show_header=False)
        packet.add_column(justify="right")
        packet.add_column(style="bold")
        packet.add_column()
        for key in you["packet"]:
            number = ALLY_ORDER.index(key) + 1
            text = w(f"ally.{key}.text")
            packet.add_row(str(number), escape(w.term("ally", key)), escape(text))
        parts.append(packet)
    if you["seen"]:
        seen = " | ".join(w.terms("ally", packet) for packet in you["seen"])
        parts.append(Text(f"{w('board.seen')}: {seen}"))
    known = [w("board.clover-at", space=int(space), clover=w.term("clover", kind))
             for space, kind in sorted(you["clovers"].items(), key=lambda item: int(item[0]))]
    # GC-RULING-11: tokens he saw that Merlin rearranged lie among those spaces (narrowed to
    # one space by the tokens turned beside it, where it lies).
    known += [w("board.clover-at", space=group["spaces"][0],
                clover=w.term("clover", group["clovers"][0])) if len(group["spaces"]) == 1
              else w("board.clover-among", spaces=", ".join(str(sp) for sp in group["spaces"]),
                     clovers=w.terms("clover", group["clovers"]))
              for group in you["clovers_among"]]
    if known:
        parts.append(Text(f"{w('board.known-clovers')}: {', '.join(known)}"))
    return parts


def render_grail_cup(view: Mapping[str, Any], catalog: Catalog) -> RenderableType:
    """The round, the track and its legend, the knights, the allies' calling, and the
    seat's own allies, draft hand and known clover tokens (a spectator has none)."""
    w = _words(view, catalog)
    # A table size the rulebook does not cover is the project's variant, and says so.
    variant = f"game.{NAME}.players.{view['players']}.help"
    parts: list[RenderableType] = [
        *([Text(catalog.text(variant), style="italic")] if variant in catalog else []),
        *_round(w),
        Text(w("board.track"), style="bold"),
        _track(w),
        _legend(w),
        _knights(w),
    ]
    if w.me is not None:
        parts += _private(w)
    if view["winner"] is not None:
        parts.append(Text(w.event("board.result.win", seat=Seat(int(view["winner"])),
                                n=int(view["round"])), style="bold"))
    return Group(*parts)
