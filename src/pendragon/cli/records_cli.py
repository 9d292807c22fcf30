"""Game records in the terminal (issue 31 item 1; the format: ``docs/records.md``).

``pendragon play GAME --record FILE`` writes the record of the game when it ends, or when
the player leaves it (an unfinished record); ``pendragon simulate --records DIR`` one
record a game (:mod:`pendragon.simulate` writes them where the games are played);
``pendragon replay FILE`` steps through a record: Enter the next action, ``b`` back, a
number to that action, ``q`` to leave. With ``--seat K`` the board and the narration are
what seat K saw, else the spectators'; when the input is not a terminal, the whole game's
narration is printed (to ``--to N``), then the board.

Like the rest of the terminal, this module sees a game through ``observation(viewer)``
and the events of ``narrate(action, viewer)`` only, worded in the reader's language.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from pendragon.bots.base import Bot
from pendragon.cli.render import render_observation
from pendragon.cli.terminal import LineReader, TerminalGame, stdin_reader
from pendragon.core.api import Game, Observation, State
from pendragon.core.events import Event
from pendragon.i18n import Catalog, MissingMessageError, catalog as load_catalog
from pendragon.records import (
    GameRecord,
    RecordSeat,
    ReplayedRecord,
    read_record,
    record_of,
    replay_record,
    write_record,
)

#: Exit codes of ``pendragon replay`` (a bad record is a usage error, 2, as a bad option).
EXIT_OK = 0
EXIT_INTERRUPTED = 130


def now_iso() -> str:
    """The time now, ISO 8601 in UTC to the second (a record's ``date``)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class RecordingTerminalGame(TerminalGame):
    """A terminal game that keeps what its record needs: the position (every action
    passes through the narration before it is applied) and the seconds each action took."""

    def __init__(self, game: Game, seat: int, bots: Mapping[int, Bot], console: Console,
                 read_line: LineReader | None = None, catalog: Catalog | None = None) -> None:
        super().__init__(game, seat, bots, console, read_line, catalog)
        self.state: State | None = None
        self.seconds: list[float] = []
        self.date = now_iso()
        self._last = time.monotonic()

    def _ask(self, state: State) -> int:
        self.state = state
        return super()._ask(state)

    def _narrate(self, state: State, player: int, action: int) -> None:
        self.state = state
        now = time.monotonic()
        self.seconds.append(round(now - self._last, 3))
        self._last = now
        super()._narrate(state, player, action)


def play_and_record(game: Game, seat: int, bots: Mapping[int, Bot], console: Console,
                    words: Catalog, path: Path, name: str, bot_name: str,
                    read_line: LineReader | None = None) -> int:
    """Play as ``play_in_terminal`` does, then write the game's record to ``path`` (also
    when the player leaves before the end: an unfinished record)."""
    play = RecordingTerminalGame(game, seat, bots, console, read_line, words)
    try:
        code = play.run()
    finally:
        state = play.state if play.state is not None else game.new_initial_state()
        seats = [RecordSeat(name, None) if s == seat else RecordSeat(bot_name, bot_name)
                 for s in range(game.num_players())]
        record = record_of(state, seats, seconds=play.seconds[:state.version], date=play.date)
        write_record(path, record)
        console.print(escape(words.text("term.record.written", path=str(path))), soft_wrap=True)
    return code


def check_record_path(path: str) -> Path:
    """``--record FILE``: a file in a directory that exists (checked before the game)."""
    target = Path(path)
    if not target.parent.is_dir():
        raise ValueError(f"--record: no directory {str(target.parent)!r}")
    if target.is_dir():
        raise ValueError(f"--record: {path!r} is a directory, not a file")
    return target


def records_dir(path: str | None, backend: str, ray_address: str | None) -> str | None:
    """``--records DIR``, made and given as an absolute path (the workers write there).

    Games played on a Ray cluster would write on the cluster's machines: refused."""
    if path is None:
        return None
    if backend == "ray" and ray_address:
        raise ValueError("--records needs the games played on this machine: use the process "
                         "backend or a local Ray (no --ray-address)")
    target = Path(path).resolve()
    target.mkdir(parents=True, exist_ok=True)
    return str(target)


# ---------------------------------------------------------------------- replay
def say(words: Catalog, event: Event, names: Sequence[str], viewer: int | None) -> str:
    """``event`` in the reader's language (English, then its key, where a catalog lags),
    seats named "Seat 2 (Ann)" from the record."""
    for table in (words, load_catalog("en")):
        def name(seat: int, table: Catalog = table) -> str:
            if 0 <= seat < len(names):
                return table.text("term.seat.named", n=seat, name=names[seat])
            return table.text("core.seat", n=seat)

        try:
            return table.render(event, name, viewer)
        except MissingMessageError:
            continue
    return event.key


class RecordReplay:
    """Steps through a replayed record in the terminal, as ``viewer`` saw the game."""

    def __init__(self, replayed: ReplayedRecord, viewer: int | None, console: Console,
                 words: Catalog, read_line: LineReader | None = None) -> None:
        self.replayed = replayed
        self.record: GameRecord = replayed.record
        self.viewer = viewer
        self.console = console
        self.words = words
        self.read_line = read_line or stdin_reader(console)
        self.names = [seat.name for seat in self.record.seats]
        self.total = len(replayed.actions)
        self.version = 0
        self.state = replayed.game.new_initial_state()

    def narration(self, state: State, action: int) -> str:
        """The words of ``action`` about to be applied to ``state``, for the viewer."""
        return " ".join(say(self.words, e, self.names, self.viewer)
                        for e in state.narrate(action, self.viewer))

    def go_to(self, version: int) -> str:
        """Move to the position after ``version`` actions; the narration of the last."""
        version = max(0, min(self.total, version))
        if version < self.version or version == 0:
            self.state, self.version = self.replayed.game.new_initial_state(), 0
        told = ""
        while self.version < version:
            action = self.replayed.actions[self.version]
            if self.version == version - 1:
                told = self.narration(self.state, action)
            self.state.apply_recorded(action)
            self.version += 1
        return told

    def view(self) -> Observation:
        """The board as the viewer saw it at the current position."""
        # A seat that joined mid-game watched the earlier actions as a spectator did.
        seats = len(self.state.returns())
        viewer = self.viewer if self.viewer is not None and self.viewer < seats else None
        return self.state.observation(viewer)

    def show(self) -> None:
        """The board of the current position, and the result once the game is over."""
        self.console.rule(escape(self.words.text("replay.step", n=self.version, total=self.total)))
        self.console.print(render_observation(self.replayed.game.name, self.view(), self.words))
        if self.version == self.total:
            self.console.print(escape(self.result_line()))

    def result_line(self) -> str:
        """The game's result (or that the record stops before the end)."""
        result = self.record.result
        if result is None:
            return self.words.text("term.record.unfinished")
        returns = ", ".join(f"{self.names[s]} {r:+g}" for s, r in enumerate(result.returns))
        return self.words.text("term.record.result", returns=returns)

    def title(self) -> str:
        """The game, its options and its seats, as the replay's heading."""
        game = self.replayed.game
        key = f"game.{game.name}"
        name = self.words.text(key) if key in self.words else game.info.long_name
        return f"{self.words.text('replay.title')}: {name} ({', '.join(self.names)})"

    def print_all(self, to: int | None) -> None:
        """The narration of every action up to ``to`` (default: all), then the board."""
        self.console.rule(escape(self.title()))
        end = self.total if to is None else max(0, min(self.total, to))
        while self.version < end:
            action = self.replayed.actions[self.version]
            told = self.narration(self.state, action)
            if told:
                self.console.print(f"{self.version + 1}. {escape(told)}")
            self.state.apply_recorded(action)
            self.version += 1
        self.show()

    def step(self, start: int | None) -> int:
        """Step interactively from action ``start`` (default 0) until ``q`` or the input
        ends."""
        self.console.rule(escape(self.title()))
        told = self.go_to(start or 0)
        while True:
            if told:
                self.console.print(escape(told))
            self.show()
            try:
                answer = self.read_line(self.words.text("term.record.prompt")).strip().lower()
            except EOFError:
                return EXIT_OK
            except KeyboardInterrupt:
                self.console.print()
                return EXIT_INTERRUPTED
            if answer in ("q", "quit", "exit"):
                return EXIT_OK
            if answer == "":
                told = self.go_to(self.version + 1)
            elif answer == "b":
                told = self.go_to(self.version - 1)
            elif answer.isascii() and answer.isdigit():
                told = self.go_to(int(answer))
            else:
                told = ""
                self.console.print("[red]" + escape(self.words.text(
                    "term.record.bad_command", answer=answer, last=self.total)) + "[/red]")


def run_replay(path: str, seat: int | None, to: int | None, language: str,
               console: Console, read_line: LineReader | None = None,
               interactive: bool | None = None) -> int:
    """The ``replay`` command: read the record at ``path`` and show it (see the module)."""
    words = load_catalog(language)
    replayed = replay_record(read_record(path))
    seats = len(replayed.record.seats)
    if seat is not None and not 0 <= seat < seats:
        raise ValueError(f"--seat must be between 0 and {seats - 1}, got {seat}")
    if to is not None and not 0 <= to <= len(replayed.actions):
        raise ValueError(f"--to must be between 0 and {len(replayed.actions)}, got {to}")
    replay = RecordReplay(replayed, seat, console, words, read_line)
    if interactive is None:
        interactive = read_line is not None or sys.stdin.isatty()
    if not interactive:
        replay.print_all(to)
        return EXIT_OK
    return replay.step(to)
