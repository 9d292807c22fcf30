"""The ``pendragon`` command: listing games, playing in the terminal with piped input."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

import pendragon
from pendragon.cli.main import main
from pendragon.cli.render import render_generic, renderer_for
from pendragon.cli.terminal import Choice, parse_choice
from tests.toygame import ToyGame


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
    """`pendragon games` shows soc with its player range and each option's name."""
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "soc" in out and "players" in out
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
    assert "you are dealt a" in out and "seat 1 is dealt a card" in out


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
    assert out.count("you keep the card") == 2


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
            "unknown bot 'genius'; known bots: heuristic, ismcts, random",
        ),
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
    assert "expansion='merlins-company'" in out and "Your result:" in out
    assert main(["play", "soc", "--expanson", "merlins-company"]) == 2
    assert "unknown option '--expanson'" in capsys.readouterr().err
    assert main(["play", "soc", "--players", "4", "--three-brave-knights"]) == 2
    assert "3-player rule" in capsys.readouterr().err


# ---------------------------------------------------------------------- information leaks
def _spy_views(
    monkeypatch: pytest.MonkeyPatch, state_class: type[pendragon.State]
) -> list[tuple[str, Any]]:
    """Record the seat of every view method the terminal calls on ``state_class``."""
    calls: list[tuple[str, Any]] = []

    def spy(name: str, seat_of: Callable[..., Any]) -> None:
        original = getattr(state_class, name)

        def wrapper(self: pendragon.State, *args: Any, **kwargs: Any) -> Any:
            calls.append((name, seat_of(*args, **kwargs)))
            return original(self, *args, **kwargs)

        monkeypatch.setattr(state_class, name, wrapper)

    spy("observation", lambda seat: seat)
    spy("observation_tensor", lambda seat: seat)
    spy("describe_action", lambda action, viewer: viewer)
    spy("resample_hidden", lambda seat, generator: ("resample", seat))
    spy("serialize", lambda: "serialize")
    return calls


def _assert_only_seat(calls: list[tuple[str, Any]], seat: int) -> None:
    assert any(name == "observation" for name, _ in calls)
    assert any(name == "describe_action" for name, _ in calls)
    wrong = [(name, who) for name, who in calls if who != seat]
    assert not wrong, f"the terminal looked at other views: {wrong[:10]}"


@pytest.mark.parametrize("seat", [0, 2])
def test_toy_terminal_only_looks_at_the_human_seat(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    seat: int,
) -> None:
    """Every view the terminal asks for is the human seat's own."""
    calls = _spy_views(monkeypatch, toy_registered.state_class)
    code, _, _ = _play(
        monkeypatch, capsys, ["play", "toy", "--players", "3", "--seat", str(seat)], "1\n" * 20
    )
    assert code == 0
    _assert_only_seat(calls, seat)


def test_soc_terminal_only_looks_at_seat_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Playing soc as seat 0 never asks for seat 1's (or anyone else's) view."""
    game = pendragon.load_game("soc", players=5, seed=4)
    calls = _spy_views(monkeypatch, type(game.new_initial_state()))
    code, out, err = _play(
        monkeypatch,
        capsys,
        ["play", "soc", "--players", "5", "--seed", "4"],
        "1\n" * game.max_game_length(),
    )
    assert code == 0, err
    _assert_only_seat(calls, 0)


def test_spy_would_catch_a_leak(
    toy_registered: type[ToyGame],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A terminal that narrates with seat 1's view is caught by the spy."""
    from pendragon.cli import terminal

    calls = _spy_views(monkeypatch, toy_registered.state_class)

    def leaky(self: terminal.TerminalGame, state: pendragon.State, player: int, a: int) -> None:
        self._pending.append(("x", state.describe_action(a, 1)))

    monkeypatch.setattr(terminal.TerminalGame, "_narrate", leaky)
    _play(monkeypatch, capsys, ["play", "toy", "--players", "3"], "1\n" * 20)
    with pytest.raises(AssertionError, match="other views"):
        _assert_only_seat(calls, 0)


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
        console.print(renderer_for("toy")(view))
    text = capture.get()
    for expected in ("swords", "white", "Arthur", "Gawain", "life", "fight-5, merlin"):
        assert expected in text
    assert "{" not in text and '"' not in text
    assert renderer_for("toy") is render_generic


# ---------------------------------------------------------------------- fuzzing the input
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_parse_choice_never_raises(answer: str) -> None:
    """Any text yields a menu action or a message, never an exception."""
    menu = [Choice(1, 7, "keep", ""), Choice(2, 8, "swap", ""), Choice(3, 9, "seat:1", "")]
    action, problem = parse_choice(answer.strip(), menu)
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
def test_soc_renderer_handles_every_observation_it_meets() -> None:
    """Seat and spectator views along random soc games render without the fallback."""
    from pendragon.cli.render_soc import render_soc_view
    from pendragon.runner import play_game

    console = Console(width=120, color_system=None)
    rendered = 0

    def render(state: pendragon.State, player: int, action: int) -> None:
        nonlocal rendered
        if state.version % 4:
            return
        for seat in (0, None):
            with console.capture() as capture:
                console.print(render_soc_view(state.observation(seat)))
            text = capture.get()
            assert "Round Table" in text and "Quests" in text and "Knights" in text
            assert ("Your hand" in text) == (seat is not None)
            rendered += 1

    for players, seed in ((3, 1), (5, 2), (7, 3)):
        game = pendragon.load_game("soc", players=players, seed=seed)
        play_game(game, [pendragon.bots.RandomBot(s) for s in range(players)], render)
    assert rendered > 100


def test_soc_labels_every_decision_action() -> None:
    """Every soc decision in the catalog has words in the terminal's menu."""
    from pendragon.cli.render_soc import label_soc_action
    from pendragon.games.soc import actions

    missing = [
        text
        for text in actions.CATALOG.names[actions.NUM_CHANCE_ACTIONS :]
        if label_soc_action(text) is None
    ]
    assert not missing, f"no menu words for: {missing}"


def test_soc_renderer_falls_back_on_an_unknown_shape() -> None:
    """A renderer that lags behind the rules shows the generic layout, not a traceback."""
    from pendragon.cli.render_soc import render_soc

    console = Console(width=100, color_system=None)
    with console.capture() as capture:
        console.print(render_soc({"knights": "not a list", "quests": 3}))
    assert "not a list" in capture.get()


def test_serve_hands_its_arguments_to_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """`pendragon serve ...` starts the online table with the rest of the command line."""
    import pendragon.web.server as server

    seen: list[list[str]] = []
    monkeypatch.setattr(server, "serve_main", lambda argv: seen.append(list(argv)) or 0)
    assert main(["serve", "--port", "9001"]) == 0
    assert seen == [["--port", "9001"]]
