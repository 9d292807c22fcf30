"""Play a game in the terminal: one human seat, bots on the others, in the human's language.

What the human sees is limited by construction:

* the table comes only from ``state.observation(seat)`` of the human's seat;
* everything that happens is narrated from ``state.narrate(action, seat)``, called
  *before* the action is applied; it is the game's job to hide what the seat may not learn;
* the menu words each legal action with ``state.action_event(action)`` and the heading
  names the awaited decision with ``state.decision_event()``;
* the result is the human's own entry of ``state.returns()``.

Every word printed comes from a message catalog (:mod:`pendragon.i18n`): the terminal's
own ``term.*`` messages and the game's events, worded in the chosen language. Seats are
named from the human's observation: "you", or "Seat 2 (Sir Kay)" once the seat's knight
is known.

Input is read a line at a time, so the terminal works with piped input (tests, scripts)
and stops cleanly when the input ends.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pendragon.bots.base import Bot
from pendragon.cli.render import render_observation
from pendragon.core.api import CHANCE, Game, Observation, State
from pendragon.core.events import Event
from pendragon.i18n import Catalog, MissingMessageError, catalog as load_catalog
from pendragon.runner import GameTooLongError

#: Reads one line of input after showing a prompt; raises ``EOFError`` when input ends.
LineReader = Callable[[str], str]

#: Exit codes of :func:`play_in_terminal`.
EXIT_FINISHED = 0
EXIT_QUIT = 0
EXIT_END_OF_INPUT = 1
EXIT_INTERRUPTED = 130

# Commands are the same letters in every language, so that instructions carry over.
_HELP_COMMANDS = ("?", "h", "help")
_QUIT_COMMANDS = ("q", "quit", "exit")
_VIEW_COMMANDS = ("v", "view")
#: Ask the coach (``pendragon.coach.hint``): its move for the human's seat (the learned model).
_HINT_COMMANDS = ("hint", "!")
_ENGLISH_YES = ("y", "yes")

# A menu number: ASCII digits only (str.isdigit also accepts "²", which int() rejects).
_NUMBER = re.compile(r"[+-]?[0-9]+")


class QuitGame(Exception):
    """The human asked to leave (or the input ended); carries the exit code and the key of
    the message that says so."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message


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


def seat_names(
    game_name: str, view: Mapping[str, Any], seat: int, words: Catalog
) -> dict[int, str]:
    """Each seat's name as the human at ``seat`` reads it, from the human's observation.

    The human's own seat is "you"; a seat whose record in the observation (a list of
    mappings with an integer ``seat``) names a ``knight`` the game's catalog knows is
    "Seat 2 (Sir Kay)"; any other seat is named by :func:`name_seat`'s fallback.

    >>> from pendragon.i18n import catalog
    >>> view = {"knights": [{"seat": 0, "knight": "arthur"}, {"seat": 1, "knight": "kay"}]}
    >>> seat_names("soc", view, 0, catalog("cs"))
    {0: 'vy', 1: 'Místo 1 (Sir Kay)'}
    """
    names = {seat: words.text("term.seat.you")}
    for value in view.values():
        if not isinstance(value, Sequence) or isinstance(value, str):
            continue
        for record in value:
            if not isinstance(record, Mapping):
                continue
            other, knight = record.get("seat"), record.get("knight")
            if not isinstance(other, int) or other in names or not isinstance(knight, str):
                continue
            key = f"{game_name}.knight.{knight}"
            if key in words:
                names[other] = words.text("term.seat.named", n=other, name=words.text(key))
    return names


def name_seat(names: Mapping[int, str], words: Catalog) -> Callable[[int], str]:
    """A seat namer for :meth:`Catalog.render`: ``names``, else "Seat N"."""
    return lambda seat: names.get(seat) or words.text("core.seat", n=seat)


class TerminalGame:
    """A game between one human seat at the terminal and bots on every other seat."""

    def __init__(
        self,
        game: Game,
        seat: int,
        bots: Mapping[int, Bot],
        console: Console,
        read_line: LineReader | None = None,
        catalog: Catalog | None = None,
    ) -> None:
        missing = [p for p in range(game.num_players()) if p != seat and p not in bots]
        if missing:
            raise ValueError(f"no bot for seats {missing}")
        self.game = game
        self.seat = seat
        self.bots = bots
        self.console = console
        self.read_line = read_line or stdin_reader(console)
        self.words = catalog or load_catalog("en")
        # Seat names as last read from the human's observation.
        self._names: dict[int, str] = {seat: self.words.text("term.seat.you")}
        # Narration not yet printed: (actor kind, text).
        self._pending: list[tuple[str, str]] = []

    # ------------------------------------------------------------------ words
    def text(self, key: str, **params: str | int) -> str:
        """The terminal's message ``key`` in the human's language."""
        return self.words.text(key, **params)

    def say(self, event: Event) -> str:
        """``event`` in the human's language, seats named as the human knows them.

        A message the language lacks falls back to English, then to its key: a game in
        progress is never stopped by a catalog that lags behind the rules (the catalog
        checks of the tests catch the gap).
        """
        for words in (self.words, load_catalog("en")):
            try:
                return words.render(event, name_seat(self._names, words), self.seat)
            except MissingMessageError:
                continue
        return event.key

    def _title(self) -> str:
        key = f"game.{self.game.name}"
        name = self.text(key) if key in self.words else self.game.info.long_name
        defaults = {spec.name: spec.default for spec in self.game.option_specs}
        options = ", ".join(
            f"{k}={v!r}"
            for k, v in self.game.options.items()
            if k == "players" or (k != "seed" and v != defaults.get(k))
        )
        if options:
            name = f"{name} ({options})"
        return self.text("term.title", game=name, n=self.seat)

    def _learn_names(self, view: Observation) -> None:
        self._names = seat_names(self.game.name, view, self.seat, self.words)

    # ------------------------------------------------------------------ main loop
    def run(self) -> int:
        """Play to the end; return an exit code (0 finished or quit, 1 input ended)."""
        state = self.game.new_initial_state()
        limit = self.game.length_cap()  # the proved hard cap: past it, a rules bug
        self.console.rule(escape(self._title()))
        try:
            while not state.is_terminal():
                if state.version >= limit:
                    raise GameTooLongError(f"the game is still running after {limit} actions")
                player = state.current_player()
                if player == self.seat:
                    action = self._ask(state)
                elif player == CHANCE:
                    action = state.sample_chance()
                else:
                    action = self.bots[player].step(state)
                self._narrate(state, player, action)
                state.apply_action(action)
        except QuitGame as leave:
            self._flush_narration()
            self.console.print(escape(self.text(leave.message)))
            return leave.code
        except KeyboardInterrupt:
            self._flush_narration()
            self.console.print("\n" + escape(self.text("term.interrupted")))
            return EXIT_INTERRUPTED
        self._show_result(state)
        return EXIT_FINISHED

    # ------------------------------------------------------------------ narration
    def _who(self, player: int) -> str:
        if player == CHANCE:
            return "chance"
        return "you" if player == self.seat else "other"

    def _narrate(self, state: State, player: int, action: int) -> None:
        # narrate(action, seat) is the only narration source: it knows what the human's seat
        # may learn (and names the actor; the actor only picks the colour). Seats are named
        # as the human knew them before the action (a knight is named once dealt).
        events = state.narrate(action, self.seat)
        self._learn_names(state.observation(self.seat))
        self._pending.append((self._who(player), " ".join(self.say(e) for e in events)))

    def _flush_narration(self) -> None:
        """Print pending narration, folding runs of identical lines into one (``x3``)."""
        lines, self._pending = self._pending, []
        index = 0
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

    # ------------------------------------------------------------------ decisions
    def _show_view(self, state: State, view: Observation) -> None:
        decision = self.say(state.decision_event())
        self.console.rule(escape(self.text("term.decision", what=decision)))
        self.console.print(render_observation(self.game.name, view, self.words))

    def _choices(self, state: State) -> list[Choice]:
        choices = []
        for number, action in enumerate(state.legal_actions(), start=1):
            text = state.action_to_string(action)
            meaning = self.say(state.action_event(action))
            choices.append(Choice(number, action, text, "" if meaning == text else meaning))
        return choices

    def _show_menu(self, choices: list[Choice]) -> None:
        described = any(c.description for c in choices)
        table = Table(
            box=box.SIMPLE_HEAD, padding=(0, 1), title=escape(self.text("term.menu.title"))
        )
        table.add_column("#", justify="right", style="bold cyan")
        table.add_column(escape(self.text("term.menu.action")))
        if described:
            table.add_column(escape(self.text("term.menu.meaning")), style="dim")
        for choice in choices:
            row = [str(choice.number), escape(choice.text)]
            if described:
                row.append(escape(choice.description))
            table.add_row(*row)
        self.console.print(table)

    def _show_help(self) -> None:
        lines = [escape(self.text("term.help.intro"))]
        for command, key in (("v", "term.help.view"), ("hint", "term.help.hint"),
                             ("?", "term.help.help"), ("q", "term.help.quit")):
            lines.append(f"  [bold]{command}[/bold]  {escape(self.text(key))}")
        self.console.print("\n".join(lines))

    def _read(self, prompt: str) -> str:
        try:
            return self.read_line(prompt)
        except EOFError:
            raise QuitGame(EXIT_END_OF_INPUT, "term.input_ended") from None

    def _ask(self, state: State) -> int:
        """Show the seat's view and menu; read until a legal action is chosen."""
        view = state.observation(self.seat)
        self._flush_narration()
        self._learn_names(view)
        self._show_view(state, view)
        choices = self._choices(state)
        self._show_menu(choices)
        numbers = "1" if len(choices) == 1 else f"1-{len(choices)}"
        while True:
            answer = self._read(self.text("term.prompt", numbers=numbers)).strip()
            lowered = answer.lower()
            if lowered in _HELP_COMMANDS:
                self._show_help()
            elif lowered in _QUIT_COMMANDS:
                self._confirm_quit()
            elif lowered in _VIEW_COMMANDS:
                self._show_view(state, view)
                self._show_menu(choices)
            elif lowered in _HINT_COMMANDS:
                self._show_hint(state, choices)
            else:
                chosen, problem = parse_choice(answer, choices, self.words)
                if chosen is not None:
                    return chosen
                self.console.print(f"[red]{escape(problem)}[/red]")

    def _show_hint(self, state: State, choices: list[Choice]) -> None:
        """The coach's hint for the human's seat (from that seat's information only, as
        every bot decides), seeded by the position so that asking twice says the same."""
        from pendragon.coach import hint

        self.console.print(f"[dim]{escape(self.text('term.hint.thinking'))}[/dim]")
        found = hint(state, self.seat, seed=state.version)
        number = next(c.number for c in choices if c.action == found.action)
        self.console.print(f"[bold cyan]{number}[/bold cyan]  {escape(self.say(found.reason))}")

    def _confirm_quit(self) -> None:
        answer = self._read(self.text("term.quit.confirm")).strip().lower()
        yes = {word.strip().lower() for word in self.text("term.quit.yes").split(",")}
        if answer and answer in yes | set(_ENGLISH_YES):
            raise QuitGame(EXIT_QUIT, "term.quit.left")
        self.console.print(escape(self.text("term.quit.carry_on")))

    # ------------------------------------------------------------------ the end
    def _show_result(self, state: State) -> None:
        view = state.observation(self.seat)
        self._flush_narration()
        self.console.rule(escape(self.text("term.game_over")))
        self.console.print(render_observation(self.game.name, view, self.words))
        mine = state.returns()[self.seat]
        if mine > 0:
            verdict = f"[bold green]{escape(self.text('term.won'))}[/bold green]"
        elif mine < 0:
            verdict = f"[bold red]{escape(self.text('term.lost'))}[/bold red]"
        else:
            verdict = f"[bold]{escape(self.text('term.draw'))}[/bold]"
        self.console.print(f"{verdict} {escape(self.text('term.result', result=f'{mine:+g}'))}")


def parse_choice(
    answer: str, choices: list[Choice], catalog: Catalog | None = None
) -> tuple[int | None, str]:
    """The action chosen by ``answer`` (a menu number, an action text or a unique prefix).

    Returns ``(action, "")`` or ``(None, message explaining the problem)``, the message in
    ``catalog``'s language (English by default).

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
    >>> from pendragon.i18n import catalog
    >>> parse_choice("9", menu, catalog("pl"))[1]
    'Nie ma opcji 9: wpisz liczbę od 1 do 3.'
    """
    words = catalog or load_catalog("en")
    last = len(choices)
    if not answer:
        return None, words.text("term.error.empty", last=last)
    if _NUMBER.fullmatch(answer):
        number = int(answer)
        for choice in choices:
            if choice.number == number:
                return choice.action, ""
        return None, words.text("term.error.no_option", n=number, last=last)
    for choice in choices:
        if choice.text == answer:
            return choice.action, ""
    matches = [c for c in choices if c.text.startswith(answer)]
    if len(matches) == 1:
        return matches[0].action, ""
    if matches:
        names = ", ".join(c.text for c in matches)
        return None, words.text("term.error.ambiguous", answer=answer, names=names)
    return None, words.text("term.error.unknown", answer=answer, last=last)


def play_in_terminal(
    game: Game,
    seat: int,
    bots: Mapping[int, Bot],
    console: Console | None = None,
    read_line: LineReader | None = None,
    catalog: Catalog | None = None,
) -> int:
    """Play ``game`` with a human on ``seat`` in ``catalog``'s language (English by default);
    return the exit code (see :class:`TerminalGame`)."""
    console = console or Console(highlight=False)
    return TerminalGame(game, seat, bots, console, read_line, catalog).run()
