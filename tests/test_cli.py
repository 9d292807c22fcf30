"""The ``pendragon`` command: listing games, playing in the terminal with piped input."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from rich.console import Console

import pendragon
from pendragon.cli.main import main
from pendragon.cli.render import render_generic, renderer_for
from pendragon.cli.terminal import Choice, parse_choice
from pendragon.i18n import LANGUAGES, catalog
from tests.toygame import ToyGame


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default language comes from the locale: these tests run in a known one (C)."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def _feed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def _play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    text: str,
) -> tuple[int, str, str]:
    _feed(monkeypatch, text)
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------- games
def test_games_lists_soc_and_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    """`pendragon games` shows soc with its player range, each option's name, and the bot
    its tables seat (GamePlugin.table_bot), which `pendragon play --bots` defaults to."""
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "soc" in out and "players" in out
    words = " ".join(out.split())  # the console wraps long lines
    assert "own bots: stealth; table bot: stealth;" in words
    assert words.count("table bot: heuristic") >= 1  # Grail Cup's
    for spec in pendragon.game_class("soc").option_specs:
        assert spec.name in out


def test_games_lists_the_toy_game(
    toy_registered: type[ToyGame], capsys: pytest.CaptureFixture[str]
) -> None:
    """A registered game appears with its long name, player range and options."""
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "toy: High Card Swap (2-3 players)" in out
    assert "cards" in out and "4..9" in out and "decisions of each seat" in out


# ---------------------------------------------------------------------- full games
def test_toy_game_typing_1_finishes(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Always choosing option 1 plays the game to the end and prints the result."""
    code, out, err = _play(
        monkeypatch, capsys, ["play", "toy", "--players", "3", "--seed", "5"], "1\n" * 20
    )
    assert code == 0, err
    assert "Game over" in out and "Your result:" in out
    assert "Your options" in out and "Seed 5" in out
    assert "Your decision:" in out and "High Card Swap (players=3)" in out


@pytest.mark.parametrize("players", [3, 5])
def test_soc_game_typing_1_finishes(
    players: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole soc game where the human always types 1 ends with a result."""
    game = pendragon.load_game("soc", players=players, seed=2)
    code, out, err = _play(
        monkeypatch,
        capsys,
        ["play", "soc", "--players", str(players), "--seed", "2"],
        "1\n" * game.max_game_length(),
    )
    assert code == 0, err + out[-2000:]
    assert "Game over" in out and "Your result:" in out
    assert "Traceback" not in out + err


# ---------------------------------------------------------------------- bad input
def test_bad_input_gets_a_message_and_a_new_prompt(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """0, 999, banana and an empty line are answered, then the game goes on."""
    code, out, _ = _play(
        monkeypatch,
        capsys,
        ["play", "toy", "--seed", "3"],
        "0\n999\nbanana\n\n?\nv\nkeep\n" + "1\n" * 10,
    )
    assert code == 0
    assert "There is no option 0: type a number from 1 to" in out
    assert "There is no option 999" in out
    assert "'banana' is not one of your options" in out
    assert "Please type a number from 1 to" in out
    assert "a unique beginning is enough" in out  # the help
    assert out.count("(? for help): ") >= 7  # one prompt per answer
    assert "Game over" in out


def test_action_text_and_prefix_are_accepted(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Typing an action's text, or a unique beginning of it, chooses it."""
    code, out, _ = _play(
        monkeypatch, capsys, ["play", "toy", "--seed", "3", "--option", "rounds=2"],
        "keep\nk\n",
    )
    assert code == 0
    assert out.count("(? for help): ") == 2  # each answer chose an action at once
    assert "Game over" in out


def test_quit_asks_for_confirmation(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """q then n carries on; q then y leaves with exit code 0 and no result."""
    code, out, _ = _play(monkeypatch, capsys, ["play", "toy", "--seed", "3"], "q\nn\nq\ny\n")
    assert code == 0
    assert "Carrying on." in out and "You left the game." in out
    assert "Game over" not in out


def test_end_of_input_exits_cleanly(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """When the piped input runs out the game is abandoned with exit code 1."""
    code, out, err = _play(monkeypatch, capsys, ["play", "toy", "--seed", "3"], "1\n")
    assert code == 1
    assert "Input ended before the game did" in out
    assert "Traceback" not in out + err


# ---------------------------------------------------------------------- bad command lines
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "toy", "--option", "colour=red"], "unknown option 'colour'; known options:"),
        (["play", "toy", "--option", "cards=99"], "option 'cards' must be between 4 and 9"),
        (["play", "toy", "--option", "cards"], "--option expects KEY=VALUE"),
        (["play", "toy", "--option", "players=3"], "set 'players' with --players"),
        (["play", "toy", "--players", "9"], "option 'players' must be between 2 and 3"),
        (["play", "toy", "--seat", "2"], "--seat must be between 0 and 1"),
        (
            ["play", "toy", "--bots", "genius"],
            "unknown bot 'genius' for toy; known bots: heuristic, ismcts, random",
        ),
        (["simulate", "grail-cup", "--bots", "stealth"],
         "unknown bot 'stealth' for grail-cup; known bots: heuristic, ismcts, random"),
        (["play", "chess"], "unknown game 'chess'; registered games:"),
        (["play", "toy", "--players", "many"], "invalid int value"),
        (["dance"], "invalid choice"),
    ],
)
def test_bad_command_line_exits_2_with_a_message(
    toy_registered: type[ToyGame],
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    """Command-line mistakes: exit code 2 and a clear message on stderr, no traceback."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert message in err
    assert "Traceback" not in out + err


def test_soc_unknown_option_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """soc validates its own options: an unknown one is a usage error."""
    assert main(["play", "soc", "--option", "no_such_option=1"]) == 2
    assert "unknown option 'no_such_option'" in capsys.readouterr().err


def test_soc_options_as_flags(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """VAR-OPTIONS, MC-SETUP-1: game options as their own flags; a misspelt one is refused."""
    code, out, err = _play(
        monkeypatch,
        capsys,
        ["play", "soc", "--players", "8", "--expansion", "merlins-company", "--squires",
         "--seed", "4"],
        "1\n" * 200_000,
    )
    assert code == 0, err + out[-2000:]
    assert "expansion='merlins-company'" in out and "squires=True" in out
    assert "Your result:" in out
    assert main(["play", "soc", "--expanson", "merlins-company"]) == 2
    assert "unknown option '--expanson'" in capsys.readouterr().err
    assert main(["play", "soc", "--players", "4", "--three-brave-knights"]) == 2
    assert "3-player rule" in capsys.readouterr().err


# ---------------------------------------------------------------------- information leaks
#: View methods and whose view each call is: its seat argument, or for the words of a
#: menu or a decision the seat to act (they are only for that seat).
_VIEW_METHODS: dict[str, Callable[..., Any]] = {
    "observation": lambda state, seat: seat,
    "observation_tensor": lambda state, seat: seat,
    "narrate": lambda state, action, viewer: viewer,
    "describe_action": lambda state, action, viewer: viewer,
    "action_event": lambda state, action: state.current_player(),
    "decision_event": lambda state: state.current_player(),
    "resample_hidden": lambda state, seat, generator: ("resample", seat),
    "serialize": lambda state: "serialize",
}


def _spy_views(
    monkeypatch: pytest.MonkeyPatch, state_class: type[pendragon.State]
) -> list[tuple[str, Any]]:
    """Record whose view every view method the terminal calls on ``state_class`` shows.

    Only outermost calls count: a game's ``narrate`` may word an action with its own
    ``action_event``, which is its business, not the terminal's.
    """
    calls: list[tuple[str, Any]] = []
    depth = [0]

    def spy(name: str, seat_of: Callable[..., Any]) -> None:
        original = getattr(state_class, name)

        def wrapper(self: pendragon.State, *args: Any, **kwargs: Any) -> Any:
            if not depth[0]:
                calls.append((name, seat_of(self, *args, **kwargs)))
            depth[0] += 1
            try:
                return original(self, *args, **kwargs)
            finally:
                depth[0] -= 1

        monkeypatch.setattr(state_class, name, wrapper)

    for name, seat_of in _VIEW_METHODS.items():
        spy(name, seat_of)
    return calls


def _assert_only_seat(calls: list[tuple[str, Any]], seat: int) -> None:
    for method in ("observation", "narrate", "action_event", "decision_event"):
        assert any(name == method for name, _ in calls), f"the terminal never calls {method}"
    wrong = [(name, who) for name, who in calls if who != seat]
    assert not wrong, f"the terminal looked at other views: {wrong[:10]}"


@pytest.mark.parametrize("seat", [0, 2])
def test_toy_terminal_only_looks_at_the_human_seat(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    seat: int,
) -> None:
    """Every view the terminal asks for is the human seat's own (random bots, which look at
    nothing, so that every view recorded is the terminal's)."""
    calls = _spy_views(monkeypatch, toy_registered.state_class)
    code, _, _ = _play(
        monkeypatch, capsys,
        ["play", "toy", "--players", "3", "--seat", str(seat), "--bots", "random"], "1\n" * 20
    )
    assert code == 0
    _assert_only_seat(calls, seat)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_soc_terminal_only_looks_at_seat_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """Playing soc as seat 0 never asks for seat 1's (or anyone else's) view or narration
    (random bots, which look at nothing, so every view recorded is the terminal's)."""
    game = pendragon.load_game("soc", players=5, seed=4)
    calls = _spy_views(monkeypatch, type(game.new_initial_state()))
    code, out, err = _play(
        monkeypatch,
        capsys,
        ["play", "soc", "--players", "5", "--seed", "4", "--lang", lang, "--bots", "random"],
        "1\n" * game.max_game_length(),
    )
    assert code == 0, err
    _assert_only_seat(calls, 0)
    assert not any(name == "describe_action" for name, _ in calls)  # events, not English


def test_spy_would_catch_a_leak(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A terminal that narrates with seat 1's view is caught by the spy."""
    from pendragon.cli import terminal

    calls = _spy_views(monkeypatch, toy_registered.state_class)

    def leaky(self: terminal.TerminalGame, state: pendragon.State, player: int, a: int) -> None:
        self._pending.append(("x", " ".join(map(self.say, state.narrate(a, 1)))))

    monkeypatch.setattr(terminal.TerminalGame, "_narrate", leaky)
    _play(monkeypatch, capsys, ["play", "toy", "--players", "3"], "1\n" * 20)
    with pytest.raises(AssertionError, match="other views"):
        _assert_only_seat(calls, 0)


# ---------------------------------------------------------------------- languages
def _soc_game_in(
    lang: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    game = pendragon.load_game("soc", players=3, seed=2)
    code, out, err = _play(
        monkeypatch,
        capsys,
        ["play", "soc", "--players", "3", "--seed", "2", "--lang", lang],
        "1\n" * game.max_game_length(),
    )
    assert code == 0, err + out[-2000:]
    assert "Traceback" not in out + err
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_soc_game_plays_to_the_end_in_each_language(
    lang: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole game with piped input in each language: the terminal's words, the board's,
    the narration and the menu all come from that language's catalog, and no message key
    is ever shown raw (a key missing from a catalog would be)."""
    out = _soc_game_in(lang, monkeypatch, capsys)
    words = catalog(lang)
    for key in ("term.game_over", "term.menu.title", "soc.board.round_table", "soc.term.quests"):
        assert words.text(key) in out, key
    assert words.text("term.seed", seed=2) in out
    assert words.text("term.result", result="") in out
    assert words.text("term.decision", what=words.text("soc.decision.contrib")) in out
    # Narration: another seat, named with its knight, draws a card the human does not see.
    drawn = words.text("soc.log.draw-white", seat="\0").split("\0")[1]
    assert words.text("core.seat", n=1) + " (" in out and drawn in out
    assert "soc." not in out and "term." not in out


def _english_fragments() -> set[str]:
    """Long pieces of the English of the terminal's, board's and narration's messages that
    the Russian catalog does not keep in English (placeholders cut out)."""
    english, russian = catalog("en"), catalog("ru")
    prefixes = ("term.", "soc.term.", "soc.log.", "soc.table.", "soc.private.", "soc.board.")
    fragments = set()
    for key, message in english.messages.items():
        if not key.startswith(prefixes) or russian.entries[key].same_as_english:
            continue
        for text in message.values() if isinstance(message, dict) else [message]:
            for piece in re.split(r"\{[a-z_]+\}", text):
                if len(piece.strip()) >= 10:
                    fragments.add(piece.strip())
    return fragments


def test_russian_transcript_has_no_english_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Playing in Russian shows Russian words and none of the catalog's English sentences."""
    out = _soc_game_in("ru", monkeypatch, capsys)
    for russian in ("Ваше решение", "Круглый стол", "Ваши варианты", "Конец партии", "Вы:"):
        assert russian in out
    for english in ("Your options", "Game over", "Round Table", "Your hand", "for help",
                    "Your result", "draws a white card", "You draw", "Seed "):
        assert english not in out
    fragments = _english_fragments()
    assert len(fragments) > 100  # the check below covers the catalogs, not a handful
    shown = sorted(f for f in fragments if f in out)
    assert not shown, f"English left in the Russian game: {shown[:10]}"


def test_help_quit_and_errors_speak_czech(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The help, the error messages and the quit dialogue come from the catalog too;
    the language's own "yes" (ano) confirms."""
    code, out, _ = _play(
        monkeypatch, capsys, ["play", "toy", "--seed", "3", "--lang", "cs"], "9\nx\n?\nq\nano\n"
    )
    assert code == 0
    assert "Možnost 9 neexistuje: napište číslo od 1 do 2." in out
    assert "„x“ mezi vašimi možnostmi není" in out
    assert "stačí jednoznačný začátek" in out and "Opustili jste hru." in out
    assert "Vyberte 1-2 (? pro nápovědu): " in out and "Your options" not in out


def test_language_comes_from_the_locale(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without --lang the locale decides (LANG=pl_PL.UTF-8: Polish)."""
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    code, out, _ = _play(monkeypatch, capsys, ["play", "toy", "--seed", "3"], "q\ntak\n")
    assert code == 0
    assert "Twoje możliwości" in out and "Opuszczasz grę." in out


def test_unknown_language_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """--lang xx: exit code 2 and a message naming the choices, before any game starts."""
    assert main(["play", "soc", "--lang", "xx"]) == 2
    out, err = capsys.readouterr()
    assert "argument --lang: invalid choice: 'xx'" in err
    assert all(lang in err for lang in LANGUAGES)
    assert "Traceback" not in out + err and "Seed" not in out


# ---------------------------------------------------------------------- rendering
def test_generic_renderer_lays_out_nested_observations() -> None:
    """Nested dicts and lists of records become readable tables, not JSON."""
    view = {
        "swords": {"white": 3, "black": 1},
        "knights": [{"name": "Arthur", "life": 4}, {"name": "Gawain", "life": 2}],
        "hand": ["fight-5", "merlin"],
        "secret": None,
    }
    console = Console(width=100, color_system=None)
    with console.capture() as capture:
        console.print(renderer_for("toy")(view, catalog("en")))
    text = capture.get()
    for expected in ("swords", "white", "Arthur", "Gawain", "life", "fight-5, merlin"):
        assert expected in text
    assert "{" not in text and '"' not in text
    assert renderer_for("toy") is render_generic
    with console.capture() as capture:
        console.print(render_generic({"over": True, "won": False}, catalog("ru")))
    assert "да" in capture.get() and "нет" in capture.get()


# ---------------------------------------------------------------------- fuzzing the input
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.sampled_from(LANGUAGES))
def test_parse_choice_never_raises(answer: str, lang: str) -> None:
    """Any text yields a menu action or a message (in any language), never an exception."""
    menu = [Choice(1, 7, "keep", ""), Choice(2, 8, "swap", ""), Choice(3, 9, "seat:1", "")]
    action, problem = parse_choice(answer.strip(), menu, catalog(lang))
    assert (action in (7, 8, 9) and problem == "") or (action is None and problem)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.text(st.characters(exclude_categories=["Cs"]), max_size=12), max_size=30))
def test_terminal_survives_any_input(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
) -> None:
    """Random lines of input end the game, quit it or run out: never a traceback."""
    clean = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    code, out, err = _play(
        monkeypatch, capsys, ["play", "toy", "--seed", "1"], "".join(f"{x}\n" for x in clean)
    )
    assert code in (0, 1)
    assert "Traceback" not in out + err


# ---------------------------------------------------------------------- the soc renderer
def test_renderers_come_from_the_plugins() -> None:
    """soc's plugin names its renderer; a game without one gets the generic layout."""
    from pendragon.core.plugins import installed_plugins
    from pendragon.games.soc.terminal import render_soc

    assert renderer_for("soc") is render_soc is installed_plugins()["soc"].load("terminal")
    assert renderer_for("toy") is render_generic


def test_soc_renderer_handles_every_observation_it_meets() -> None:
    """Seat and spectator views along random soc games render without the fallback."""
    from pendragon.games.soc.terminal import render_soc_view
    from pendragon.runner import play_game

    console = Console(width=120, color_system=None)
    english, russian = catalog("en"), catalog("ru")
    rendered = 0

    def render(state: pendragon.State, player: int, action: int) -> None:
        nonlocal rendered
        if state.version % 4:
            return
        for seat in (0, None):
            with console.capture() as capture:
                console.print(render_soc_view(state.observation(seat), english))
            text = capture.get()
            assert "Round Table" in text and "Quests" in text and "Knights" in text
            assert ("Your hand" in text) == (seat is not None)
            rendered += 1
        if state.version % 20 == 0:
            with console.capture() as capture:
                console.print(render_soc_view(state.observation(0), russian))
            text = capture.get()
            assert "Круглый стол" in text and "Ваша рука" in text and "Round Table" not in text

    for players, seed in ((3, 1), (5, 2), (7, 3)):
        game = pendragon.load_game("soc", players=players, seed=seed)
        play_game(game, [pendragon.bots.RandomBot(s) for s in range(players)], render)
    assert rendered > 100


def test_soc_hand_counts_its_cards_in_each_plural_form() -> None:
    """The hand's card count picks the language's plural form (5 karet, 3 karty, 1 karta)."""
    from pendragon.games.soc.terminal import render_soc_view

    state = pendragon.load_game("soc", players=3, seed=11).new_initial_state()
    state.play_random_chance()
    view = state.observation(0)
    console = Console(width=200, color_system=None)
    expected = {
        "ru": {1: "1 карта", 3: "3 карты", 5: "5 карт"},
        "cs": {1: "1 karta", 3: "3 karty", 5: "5 karet"},
        "pl": {1: "1 karta", 3: "3 karty", 5: "5 kart"},
        "en": {1: "1 card:", 3: "3 cards", 5: "5 cards"},
    }
    for lang, forms in expected.items():
        for count, words in forms.items():
            view["you"]["hand"] = {"fight-5": count}
            with console.capture() as capture:
                console.print(render_soc_view(view, catalog(lang)))
            assert words in capture.get(), (lang, count)


def test_soc_renderer_falls_back_on_an_unknown_shape() -> None:
    """A renderer that lags behind the rules shows the generic layout, not a traceback."""
    from pendragon.games.soc.terminal import render_soc

    console = Console(width=100, color_system=None)
    with console.capture() as capture:
        console.print(render_soc({"knights": "not a list", "quests": 3}, catalog("en")))
    assert "not a list" in capture.get()


def test_serve_hands_its_arguments_to_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """`pendragon serve ...` starts the online table with the rest of the command line."""
    import pendragon.web.server as server

    seen: list[list[str]] = []
    def serve_main(argv: list[str]) -> int:
        seen.append(list(argv))
        return 0

    monkeypatch.setattr(server, "serve_main", serve_main)
    assert main(["serve", "--port", "9001"]) == 0
    assert seen == [["--port", "9001"]]
