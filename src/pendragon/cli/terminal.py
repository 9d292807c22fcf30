"""Play a game in the terminal: one human seat, bots on the others.

What the human sees is limited by construction:

* the table comes only from ``state.observation(seat)`` of the human's seat;
* everything that happens is narrated with ``state.describe_action(action, viewer=seat)``,
  called *before* the action is applied; it is the game's job to hide what the seat may
  not learn;
* the result is the human's own entry of ``state.returns()``.

Input is read a line at a time, so the terminal works with piped input (tests, scripts)
and stops cleanly when the input ends.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pendragon.bots.base import Bot
from pendragon.cli.render import action_label, render_observation
from pendragon.core.api import CHANCE, Game, Observation, State
from pendragon.runner import GameTooLongError

#: Reads one line of input after showing a prompt; raises ``EOFError`` when input ends.
LineReader = Callable[[str], str]

#: Exit codes of :func:`play_in_terminal`.
EXIT_FINISHED = 0
EXIT_QUIT = 0
EXIT_END_OF_INPUT = 1
EXIT_INTERRUPTED = 130

HELP = """\
Type the [bold]number[/bold] of an action, or its text (a unique beginning is enough).
  [bold]v[/bold]  show the table again
  [bold]?[/bold]  this help
  [bold]q[/bold]  quit the game"""


# A menu number: ASCII digits only (str.isdigit also accepts "²", which int() rejects).
_NUMBER = re.compile(r"[+-]?[0-9]+")


class QuitGame(Exception):
    """The human asked to leave (or the input ended); carries the exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Choice:
    """One numbered line of the action menu: its number, action id, text and meaning."""

    number: int
    action: int
    text: str
    description: str


def stdin_reader(console: Console) -> LineReader:
    """A :data:`LineReader` on ``sys.stdin`` that prints its prompt through ``console``.

    When the input is not a terminal, the line read is echoed so that a transcript reads
    like an interactive session.
    """

    def read(prompt: str) -> str:
        console.print(prompt, end="", markup=False, highlight=False)
        stream = sys.stdin
        line = stream.readline()
        if not line:
            console.print()
            raise EOFError
        if not stream.isatty():
            console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line.rstrip("\r\n")

    return read


class TerminalGame:
    """A game between one human seat at the terminal and bots on every other seat."""

    def __init__(
        self,
        game: Game,
        seat: int,
        bots: Mapping[int, Bot],
        console: Console,
        read_line: LineReader | None = None,
    ) -> None:
        missing = [p for p in range(game.num_players()) if p != seat and p not in bots]
        if missing:
            raise ValueError(f"no bot for seats {missing}")
        self.game = game
        self.seat = seat
        self.bots = bots
        self.console = console
        self.read_line = read_line or stdin_reader(console)
        # Narration not yet printed: (actor kind, text).
        self._pending: list[tuple[str, str]] = []

    # ------------------------------------------------------------------ main loop
    def run(self) -> int:
        """Play to the end; return an exit code (0 finished or quit, 1 input ended)."""
        state = self.game.new_initial_state()
        limit = self.game.max_game_length()
        self.console.rule(escape(f"{self.game!r} - you are seat {self.seat}"))
        try:
            while not state.is_terminal():
                if state.version >= limit:
                    raise GameTooLongError(f"the game is still running after {limit} actions")
                player = state.current_player()
                if player == self.seat:
                    self._flush_narration()
                    action = self._ask(state)
                elif player == CHANCE:
                    action = state.sample_chance()
                else:
                    action = self.bots[player].step(state)
                self._narrate(state, player, action)
                state.apply_action(action)
        except QuitGame as leave:
            self._flush_narration()
            return leave.code
        except KeyboardInterrupt:
            self._flush_narration()
            self.console.print("\nInterrupted; the game is abandoned.")
            return EXIT_INTERRUPTED
        self._flush_narration()
        self._show_result(state)
        return EXIT_FINISHED

    # ------------------------------------------------------------------ narration
    def _who(self, player: int) -> str:
        if player == CHANCE:
            return "chance"
        return "you" if player == self.seat else "other"

    def _narrate(self, state: State, player: int, action: int) -> None:
        # describe_action is the only narration source: it knows what the viewer may see
        # (and names the actor; the actor only picks the colour).
        self._pending.append((self._who(player), state.describe_action(action, self.seat)))

    def _flush_narration(self) -> None:
        """Print pending narration, folding runs of identical lines into one (``x3``)."""
        index = 0
        lines = self._pending
        while index < len(lines):
            run = 1
            while index + run < len(lines) and lines[index + run] == lines[index]:
                run += 1
            who, what = lines[index]
            repeat = f" [dim](x{run})[/dim]" if run > 1 else ""
            style = {"you": "green", "chance": "dim"}.get(who)
            line = f"[{style}]{escape(what)}[/{style}]" if style else escape(what)
            self.console.print(line + repeat)
            index += run
        self._pending = []

    # ------------------------------------------------------------------ decisions
    def _show_view(self, view: Observation) -> None:
        self.console.rule(f"Your decision - seat {self.seat}")
        self.console.print(render_observation(self.game.name, view))

    def _choices(self, state: State, view: Observation) -> list[Choice]:
        choices = []
        for number, action in enumerate(state.legal_actions(), start=1):
            text = state.action_to_string(action)
            meaning = action_label(self.game.name, text, view)
            if meaning is None:
                # The game's own narration, when it says more than the action's text.
                described = state.describe_action(action, self.seat)
                meaning = "" if text in described else described
            choices.append(Choice(number, action, text, meaning))
        return choices

    def _show_menu(self, choices: list[Choice]) -> None:
        described = any(c.description for c in choices)
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), title="Your options")
        table.add_column("#", justify="right", style="bold cyan")
        table.add_column("action")
        if described:
            table.add_column("meaning", style="dim")
        for choice in choices:
            row = [str(choice.number), escape(choice.text)]
            if described:
                row.append(escape(choice.description))
            table.add_row(*row)
        self.console.print(table)

    def _read(self, prompt: str) -> str:
        try:
            return self.read_line(prompt)
        except EOFError:
            self.console.print("Input ended before the game did; the game is abandoned.")
            raise QuitGame(EXIT_END_OF_INPUT) from None

    def _ask(self, state: State) -> int:
        """Show the seat's view and menu; read until a legal action is chosen."""
        view = state.observation(self.seat)
        self._show_view(view)
        choices = self._choices(state, view)
        self._show_menu(choices)
        numbers = "1" if len(choices) == 1 else f"1-{len(choices)}"
        while True:
            answer = self._read(f"Choose {numbers} (? for help): ").strip()
            lowered = answer.lower()
            if lowered in ("?", "h", "help"):
                self.console.print(HELP)
            elif lowered in ("q", "quit", "exit"):
                self._confirm_quit()
            elif lowered in ("v", "view"):
                self._show_view(view)
                self._show_menu(choices)
            else:
                chosen, problem = parse_choice(answer, choices)
                if chosen is not None:
                    return chosen
                self.console.print(f"[red]{escape(problem)}[/red]")

    def _confirm_quit(self) -> None:
        answer = self._read("Really quit the game? [y/N] ").strip().lower()
        if answer in ("y", "yes"):
            self.console.print("You left the game.")
            raise QuitGame(EXIT_QUIT)
        self.console.print("Carrying on.")

    # ------------------------------------------------------------------ the end
    def _show_result(self, state: State) -> None:
        self.console.rule("Game over")
        self.console.print(render_observation(self.game.name, state.observation(self.seat)))
        mine = state.returns()[self.seat]
        if mine > 0:
            verdict = "[bold green]You won.[/bold green]"
        elif mine < 0:
            verdict = "[bold red]You lost.[/bold red]"
        else:
            verdict = "[bold]A draw.[/bold]"
        self.console.print(f"{verdict} Your result: {mine:+g}")


def parse_choice(answer: str, choices: list[Choice]) -> tuple[int | None, str]:
    """The action chosen by ``answer`` (a menu number, an action text or a unique prefix).

    Returns ``(action, "")`` or ``(None, message explaining the problem)``.

    >>> menu = [Choice(1, 10, "keep", "keep"), Choice(2, 11, "swap", "swap"),
    ...         Choice(3, 12, "swim", "swim")]
    >>> parse_choice("2", menu), parse_choice("keep", menu), parse_choice("k", menu)
    ((11, ''), (10, ''), (10, ''))
    >>> parse_choice("9", menu)[1]
    'There is no option 9: type a number from 1 to 3.'
    >>> parse_choice("²", menu)[1]
    "'²' is not one of your options: type a number from 1 to 3, an action's text, or ? for help."
    >>> parse_choice("s", menu)[1]
    "'s' could mean: swap, swim. Type more of it, or its number."
    """
    if not answer:
        return None, f"Please type a number from 1 to {len(choices)}, or ? for help."
    if _NUMBER.fullmatch(answer):
        number = int(answer)
        for choice in choices:
            if choice.number == number:
                return choice.action, ""
        return None, f"There is no option {number}: type a number from 1 to {len(choices)}."
    for choice in choices:
        if choice.text == answer:
            return choice.action, ""
    matches = [c for c in choices if c.text.startswith(answer)]
    if len(matches) == 1:
        return matches[0].action, ""
    if matches:
        names = ", ".join(c.text for c in matches)
        return None, f"{answer!r} could mean: {names}. Type more of it, or its number."
    return None, (
        f"{answer!r} is not one of your options: type a number from 1 to {len(choices)},"
        " an action's text, or ? for help."
    )


def play_in_terminal(
    game: Game,
    seat: int,
    bots: Mapping[int, Bot],
    console: Console | None = None,
    read_line: LineReader | None = None,
) -> int:
    """Play ``game`` with a human on ``seat``; return the exit code (see :class:`TerminalGame`)."""
    console = console or Console(highlight=False)
    return TerminalGame(game, seat, bots, console, read_line).run()
