"""Grail Cup at the tables: its terminal drawing, its web adapter and its board's words.

Whole games are played in the terminal the way ``tests/test_plugin_example.py`` plays the
example game (``pendragon play`` with piped input); the drawing is checked on declared
positions (``rules/fixtures.py``) and on every decision of seeded random games. The browser
plays are in ``tests/web/test_grail_cup_e2e.py``. Rule IDs refer to
``docs/rules/grail-cup.md``.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

import pendragon
from pendragon.core.api import CHANCE, State
from pendragon.core.plugins import installed_plugins
from pendragon.games.grail_cup.rules.data import ALLY_KEYS
from pendragon.games.grail_cup.rules.fixtures import load_state
from pendragon.games.grail_cup.terminal import (
    CHOOSES_DIRECTION,
    CLOVER_MARKS,
    DRAGON_GLYPH,
    HIDDEN_MARK,
    ROW,
    draft_next,
    render_grail_cup,
    render_track,
)
from pendragon.i18n import LANGUAGES, catalog

NAME = "grail-cup"
PLUGIN = installed_plugins()[NAME]
ENGLISH = catalog("en")


def draw(renderable: Any, width: int = 160) -> str:
    console = Console(width=width, color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def decisions(players: int, seed: int) -> Iterator[State]:
    """Every decision of a seeded random game (chance from the state's own stream)."""
    state = pendragon.load_game(NAME, players=players, seed=seed).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        yield state
        state.apply_action(rng.choice(state.legal_actions()))
    yield state


def track_rows(view: dict[str, Any], language: str = "en") -> list[tuple[str, str, str]]:
    """The drawn track as (numbers, kinds, occupants) lines, one triple per row."""
    lines = draw(render_track(view, catalog(language)), width=200).splitlines()
    assert len(lines) == 3 * -(-len(view["track"]) // ROW)
    return [(lines[i], lines[i + 1], lines[i + 2]) for i in range(0, len(lines), 3)]


# ---------------------------------------------------------------------- registration
def test_the_plugin_names_its_terminal_web_adapter_and_board_module() -> None:
    """The three pieces load from the plugin; the board module is the package's file."""
    assert PLUGIN.load("terminal") is render_grail_cup
    assert PLUGIN.load("web_adapter").__name__ == "GrailCupAdapter"
    board = PLUGIN.web_module_path()
    assert board is not None and board.name == "board.js" and board.is_file()
    from pendragon.cli.render import renderer_for

    assert renderer_for(NAME) is render_grail_cup


def test_the_web_adapter_keeps_the_chat_open_and_seats_nobody_mid_game() -> None:
    """Table talk is part of the game; the allies are dealt, so nobody joins (GC-SETUP-3)."""
    from pendragon.web.adapters import adapter_for

    adapter = adapter_for(NAME)
    for state in decisions(3, 1):
        assert adapter.chat_open(state)
        assert not adapter.can_add_seat(state)
        assert adapter.add_seat_action(state) is None


# ---------------------------------------------------------------------- terminal: whole games
@pytest.mark.parametrize(("players", "seed", "language"), [(2, 3, "en"), (4, 5, "en"),
                                                           (4, 6, "ru")])
def test_a_whole_game_plays_in_the_terminal(
    players: int, seed: int, language: str,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """``pendragon play grail-cup``: typing 1 at every prompt drafts, calls and races to the
    finish, drawn by the game's renderer and narrated from its catalog in the seat's
    language, the seat addressed as "you" (GC-END-1)."""
    from pendragon.cli.main import main

    game = pendragon.load_game(NAME, players=players, seed=seed)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * game.max_game_length()))
    monkeypatch.setenv("LANGUAGE", language)
    code = main(["play", NAME, "--players", str(players), "--seat", "0", "--seed", str(seed),
                 "--bots", "heuristic"])
    out, err = capsys.readouterr()
    assert code == 0, err + out[-2000:]
    assert "Traceback" not in out + err
    words = catalog(language)
    for key in ("board.track", "board.knights", "board.your-allies", "board.packet",
                "board.legend-knights"):
        assert words.text(f"{NAME}.{key}") in out, key
    if language != "en":
        assert ENGLISH.text(f"{NAME}.board.track") not in out
    # The seat's own events read in the second person (the catalog's ".you" forms).
    assert words.text(f"{NAME}.log.keep-known.you", ally="@").split("@")[0] in out
    assert words.text(f"{NAME}.decision.draft.you") in out
    # The final drawing names the winner and the round; the human's verdict agrees.
    other_wins = words.text(f"{NAME}.board.result.win", seat="@", n=99).split("@")[1]
    you_win = words.text(f"{NAME}.board.result.win.you", n=99)
    ending = out[out.rindex(words.text("term.game_over")):]
    if words.text("term.won") in ending:
        assert you_win.split("99")[0] in ending
    else:
        assert words.text("term.lost") in ending
        assert other_wins.split("99")[0] in ending


# ---------------------------------------------------------------------- terminal: the drawing
def test_the_track_shows_every_space_by_kind_and_the_dragon() -> None:
    """Every space is drawn with its number and kind glyph; start spaces show their number;
    the dragon stands on its space (GC-TRACK-1, GC-SETUP-2, GC-RULING-1)."""
    state = pendragon.load_game(NAME, players=3, seed=1).new_initial_state()
    view = state.observation(None)
    rows = track_rows(view)
    numbers = [int(n) for numbers, _, _ in rows for n in numbers.split()]
    assert numbers == list(range(len(view["track"])))
    glyphs = [g for _, kinds, _ in rows for g in kinds.split()]
    # The start numbers, two on most start spaces (GC-SETUP-3, GC-RULING-1).
    assert glyphs[:5] == ["9", "8+7", "6+5", "4+3", "2+1"], "start-9 .. start-2+1"
    assert glyphs[view["track"].index("finish")] == "⚑"
    assert [i for i, g in enumerate(glyphs) if g.startswith("♜")] == [
        i for i, k in enumerate(view["track"]) if k in ("castle", "castle-clover")]
    dragon_row = rows[view["dragon"] // ROW]
    assert dragon_row[2].count(DRAGON_GLYPH) == 1
    assert sum(row[2].count(DRAGON_GLYPH) for row in rows) == 1


def test_a_shared_space_lists_the_leader_first() -> None:
    """Knights sharing a space are drawn in race order, the first arrived first
    (GC-KNIGHTS-1); the knights' table lists the same order."""
    state = load_state({"players": 4, "knights": [{"space": 20}, {"space": 30}, {"space": 30},
                                                  {"space": 30}],
                        "hands": {0: ["fairy"]}, "call": 8})
    view = state.observation(0)
    assert view["order"][:3] == [1, 2, 3]
    occupants = track_rows(view)[30 // ROW][2]
    assert "123" in occupants and "321" not in occupants
    text = draw(render_grail_cup(view, ENGLISH))
    table = text[text.index("The knights"):]
    assert [int(m) for m in re.findall(r"^\s+(\d) (?:Seat \d|you)", table, re.M)] == [1, 2, 3, 0]
    # In play, a later arrival stands behind whoever was there, whatever the seat numbers:
    # the drawing follows the race order, not the seats.
    found = 0
    for position in decisions(6, 4):
        view = position.observation(None)
        by_space: dict[int, list[int]] = {}
        for seat in view["order"]:
            by_space.setdefault(view["knights"][seat]["space"], []).append(seat)
        shared = {space: seats for space, seats in by_space.items()
                  if len(seats) > 1 and seats != sorted(seats)}
        rows = track_rows(view) if shared else []
        for space, seats in shared.items():
            found += 1
            occupants = rows[space // ROW][2]
            assert "".join(map(str, seats)) in occupants
            assert "".join(map(str, sorted(seats))) not in occupants
    assert found > 5


def test_the_track_is_laid_out_as_the_rich_grid_lays_it_out() -> None:
    """Issue 41 item 4: the track's own layout (``TrackGrid``, what a drawing uses) draws
    the seat to act's and the spectator's track as ``rich``'s grid of the same cells does,
    character for character and in colour, along an 8-seat game (knights sharing spaces,
    clover tokens known and not); and at a console so narrow that the grid folds its
    columns, the grid itself is drawn."""
    def coloured(renderable: Any) -> str:
        console = Console(width=160, color_system="truecolor", force_terminal=True)
        with console.capture() as capture:
            console.print(renderable)
        return capture.get()

    compared = 0
    for step, state in enumerate(decisions(8, 15)):
        if step % 25:
            continue
        actor = state.current_player()
        seat_view = render_track(state.observation(max(actor, 0)), catalog("ru"))
        watcher = render_track(state.observation(None), ENGLISH)
        assert draw(seat_view) == draw(seat_view.grid())
        assert coloured(seat_view) == coloured(seat_view.grid())
        assert draw(watcher) == draw(watcher.grid())
        narrow = draw(watcher, width=40)
        assert narrow == draw(watcher.grid(), width=40)
        assert max(len(line) for line in narrow.splitlines()) <= 40
        compared += 1
    assert compared >= 5


def test_clover_tokens_are_face_down_unless_the_seat_knows_them() -> None:
    """A token is drawn ``?`` until the seat has seen it (GC-SETUP-6, GC-RULING-11,
    GC-RULING-20): the seat who knows it sees its mark, the others and the spectators do
    not."""
    state = load_state({"players": 3, "clovers": {10: "goblin", 15: "magnet"},
                        "clover_known": {10: [1], 15: [1, 2]},
                        "hands": {0: ["fairy"]}, "call": 8})
    clover_spaces = [i for i, k in enumerate(state.observation(None)["track"])
                     if k in ("clover", "castle-clover")]

    def marks(viewer: int | None) -> tuple[int, str]:
        kinds = "\n".join(row[1] for row in track_rows(state.observation(viewer)))
        return kinds.count(HIDDEN_MARK), kinds

    hidden, kinds = marks(None)
    assert hidden == len(clover_spaces)
    assert not any(mark in kinds for mark in CLOVER_MARKS.values())
    hidden, kinds = marks(1)
    assert hidden == len(clover_spaces) - 2
    assert CLOVER_MARKS["goblin"] in kinds and CLOVER_MARKS["magnet"] in kinds
    hidden, kinds = marks(2)
    assert hidden == len(clover_spaces) - 1
    assert CLOVER_MARKS["magnet"] in kinds and CLOVER_MARKS["goblin"] not in kinds
    text = draw(render_grail_cup(state.observation(1), ENGLISH))
    assert "Clover tokens you know: space 10: Goblin, space 15: Magnet" in text
    assert "Clover tokens you know" not in draw(render_grail_cup(state.observation(0), ENGLISH))


def test_who_knows_a_clover_token_is_public_and_drawn() -> None:
    """GC-RULING-11, GC-RULING-20: who has seen the token on a space (Merlin's looks) is
    public, what he saw is not: every view, a spectator's too, lists the knowers, and the
    drawing says it."""
    state = load_state({"players": 3, "clovers": {10: "goblin", 15: "magnet"},
                        "clover_known": {10: [1], 15: [1, 2]},
                        "hands": {0: ["fairy"]}, "call": 8})
    for viewer in (None, 0, 1):
        assert state.observation(viewer)["clover_known_by"] == {"10": [1], "15": [1, 2]}
    text = " ".join(draw(render_grail_cup(state.observation(None), ENGLISH)).split())
    one, two = ENGLISH.text("core.seat", n=1), ENGLISH.text("core.seat", n=2)
    assert f"Who knows a clover token: 10 ({one}), 15 ({one}, {two})." in text
    assert "Goblin" not in text and "Magnet" not in text


def _names_in(view: Any) -> set[str]:
    """Every ally key a view mentions anywhere (as a value or a mapping key)."""
    if isinstance(view, dict):
        return set().union(*(_names_in(k) | _names_in(v) for k, v in view.items()), set())
    if isinstance(view, list):
        return set().union(*(_names_in(v) for v in view), set())
    return {view} if view in ALLY_KEYS else set()


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_the_drawing_shows_the_seats_own_allies_but_never_anothers(players: int) -> None:
    """At the decisions of seeded games, each seat's drawing names its own drafted allies
    and the packet passed to it, and never an ally another seat drafted that this seat's
    view does not mention (GC-RULING-20): hidden allies do not reach the screen."""
    checked = 0
    # One whole game a table size (two at the smallest, whose games are short): every seat
    # is drawn at every decision, at 8 seats at every other one (~220 of ~440 decisions,
    # 1,800 drawings: each round's draft and race still drawn many times over).
    stride = 2 if players == 8 else 1
    for seed in range(2 if players == 2 else 1):
        for index, state in enumerate(decisions(players, 100 * players + seed)):
            if index % stride:
                continue
            views = [state.observation(seat) for seat in range(players)]
            for seat, view in enumerate(views):
                text = draw(render_grail_cup(view, ENGLISH), width=240)
                mine = text[text.index("Your allies this round"):]
                for ally in view["you"]["hand"] + view["you"]["packet"]:
                    assert ENGLISH.text(f"{NAME}.ally.{ally}") in mine
                knowable = _names_in(view)
                for other, theirs in enumerate(views):
                    secret = set(theirs["you"]["hand"]) - knowable
                    if other == seat or not secret:
                        continue
                    checked += 1
                    for ally in secret:
                        assert ENGLISH.text(f"{NAME}.ally.{ally}") not in text, (seat, ally)
            spectator = draw(render_grail_cup(state.observation(None), ENGLISH), width=240)
            assert "Your allies" not in spectator
    assert checked >= 10, "too few positions had a secret ally to hide"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 7, 8])
def test_the_draft_hint_names_where_the_rest_of_the_allies_go(players: int) -> None:
    """:func:`draft_next` foretells the next drafter, the first player's choice of
    direction, or the discard of the last card (GC-DRAFT-3..6, GC-RULING-2, GC-RULING-3,
    GC-RULING-17), checked against the rules at every pick of seeded games."""
    outcomes: set[str] = set()
    for seed in range(3):
        pending: tuple[int, int, int | None] | None = None  # round, drafter, forecast
        for state in decisions(players, seed):
            view = state.observation(None)
            waiting = view["waiting"]
            if pending is not None:
                round_no, drafter, target = pending
                pending = None
                if target == CHOOSES_DIRECTION:
                    # The drafter keeps one, then chooses; the pass follows his choice.
                    assert waiting == {"seat": drafter, "decision": "direction"}
                    outcomes.add("choose")
                    pending = (round_no, drafter, -2)
                    continue
                if target == -2:
                    target = (drafter + (1 if view["direction"] == "left" else -1)) % players
                if target is None:
                    assert waiting["decision"] != "draft" or view["round"] != round_no
                    outcomes.add("last")
                else:
                    assert (view["round"], waiting) == (round_no,
                                                        {"seat": target, "decision": "draft"})
                    outcomes.add("pass")
            if waiting["decision"] == "draft":
                drafter = waiting["seat"]
                pending = (view["round"], drafter, draft_next(state.observation(drafter)))
    assert outcomes >= {"pass", "last"} | ({"choose"} if players > 2 else set())


def test_the_drawing_speaks_every_language() -> None:
    """Every word of the drawing comes from the catalog: the same position drawn in each
    language uses no English heading outside English (a missing key would raise)."""
    state = load_state({"players": 4, "knights": [{"space": 12, "spears": 2}, {"space": 30},
                                                  {"space": 30}, {"space": 40}],
                        "hands": {0: ["fairy"], 1: ["merlin"]}, "call": 8, "curse": "unicorn",
                        "sorceress": 2, "squire": 3, "named": 1})
    english = draw(render_grail_cup(state.observation(0), ENGLISH))
    assert "Cursed: Unicorn (Sorceress: Seat 2)" in english
    assert "Squire's pick: Seat 1 (Squire: Seat 3)" in english
    for language in LANGUAGES:
        text = draw(render_grail_cup(state.observation(0), catalog(language)))
        heading = catalog(language).text(f"{NAME}.board.your-allies")
        assert heading in text
        if language != "en":
            assert "Your allies" not in text and "The knights" not in text


# ---------------------------------------------------------------------- the board module's words
BOARD_KEY = re.compile(r"\b(?:tr|say)\(ctx, \"(board\.[a-z.-]+)\"")


def test_every_key_the_board_module_names_exists_in_every_language() -> None:
    """``board.js`` words everything through the game's catalog: each literal key it names
    (``tr(ctx, "board....")``, ``say(ctx, "board....")``) is in all four catalogs."""
    board = PLUGIN.web_module_path()
    assert board is not None
    source = board.read_text(encoding="utf-8")
    used = {f"{NAME}.{key}" for key in BOARD_KEY.findall(source)}
    assert len(used) > 40
    for language in LANGUAGES:
        words = catalog(language)
        assert sorted(k for k in used if k not in words) == [], language
    # The terminal and the page share the board's words.
    terminal = (board.parent / "terminal.py").read_text(encoding="utf-8")
    shared = {f"{NAME}.{k}" for k in re.findall(r"\"(board\.[a-z.-]+)\"", terminal)}
    assert shared and shared <= set(ENGLISH.messages)
    assert len(shared & used) > 20


# ---------------------------------------------------------------------- the 2-player variant
def test_the_two_player_game_is_named_the_projects_variant_wherever_a_table_is_set() -> None:
    """GC-RULING-3: the seed has rules for 3-8 players; 2 is the project's own variant. The
    players option says so (``pendragon games``), the catalog labels the seat count for the
    lobby in every language, and the terminal's board opens with the note."""
    spec = next(s for s in pendragon.game_class(NAME).option_specs if s.name == "players")
    assert spec.minimum == 2 and "variant" in spec.help and "3-8" in spec.help
    for language in LANGUAGES:
        words = catalog(language)
        assert "game.grail-cup.players.2" in words and "game.grail-cup.players.2.help" in words
        assert "game.grail-cup.players.3" not in words
    note = ENGLISH.text("game.grail-cup.players.2.help")
    two = pendragon.load_game(NAME, players=2, seed=1).new_initial_state()
    three = pendragon.load_game(NAME, players=3, seed=1).new_initial_state()
    assert draw(render_grail_cup(two.observation(0), ENGLISH)).startswith(note[:40])
    assert note[:40] not in draw(render_grail_cup(three.observation(0), ENGLISH))


def test_the_table_lists_tokens_remembered_among_the_spaces_merlin_rearranged() -> None:
    """GC-RULING-11: seat 1 saw the Goblin on 10; after Merlin's player rearranged 10, 15
    and 19 the table tells him it lies among them, and tells nobody else."""
    state = load_state({"players": 3, "knights": [{"space": 9}, {"space": 40}, {"space": 30}],
                        "clovers": {10: "goblin", 15: "boots", 19: "magnet"},
                        "clover_known": {10: [1]}, "hands": {0: ["merlin"]}, "call": 3})
    for text in ("look:10", "look:15", "look:19", "place:magnet", "place:boots"):
        state.apply_text(text)
    text = draw(render_grail_cup(state.observation(1), ENGLISH))
    assert "Clover tokens you know: among spaces 10, 15, 19: Goblin" in text
    assert "among spaces" not in draw(render_grail_cup(state.observation(2), ENGLISH))
    merlin = draw(render_grail_cup(state.observation(0), ENGLISH))
    assert "space 10: Magnet, space 15: Seven-league Boots, space 19: Goblin" in merlin


def test_a_memory_narrowed_to_one_space_reads_as_a_known_token() -> None:
    """GC-RULING-11: once the tokens turned beside it leave a remembered token one space, the
    table says where it lies, as for a token seen there."""
    state = load_state({"players": 3, "clovers": {19: "goblin"}, "hands": {0: ["fairy"]},
                        "call": 8})
    state.recall = ((1, (19,), (1,), 2),)  # seat 1 remembers the Goblin (1), on 19 alone
    state.check_invariants()
    assert state.observation(1)["you"]["clovers_among"] == [
        {"spaces": [19], "clovers": ["goblin"]}]
    text = draw(render_grail_cup(state.observation(1), ENGLISH))
    assert "Clover tokens you know: space 19: Goblin" in text
