"""A table's log: what each viewer learns of each action, and the replay of a finished game.

Per applied action a table keeps its actor (-1: chance or a table operation) and the events
of each viewer (seats 0..n-1, then the spectators'), as JSON; a seat that learns no more than
the spectators shares their list (the same object). Nothing here knows a game: it asks the
state to ``narrate`` and compares the narrations.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pendragon.core.api import Game, State
from pendragon.core.events import Event, Seat

#: The events one viewer learns of one action, as JSON (``Event.to_json()`` each).
LogEvents = list[dict[str, Any]]
#: The log's note on a move a bot played because a person's time ran out.
TIMED_OUT = "table.timed_out"


def narrate(state: State, action: int) -> tuple[int, tuple[LogEvents, ...]]:
    """Actor and per-viewer events of ``action`` about to be applied to ``state``.

    One list per seat of ``state`` (seats 0..n-1), then the spectators'. A seat that
    learns no more than the spectators shares their list (the same object).
    """
    player = state.current_player()
    actor = -1 if player < 0 or state.is_table_operation(action) else player
    public = state.narrate(action, None)
    public_json = [e.to_json() for e in public]
    lines: list[LogEvents] = []
    for viewer in range(state.seat_count()):
        events = state.narrate(action, viewer)
        lines.append(public_json if events == public else [e.to_json() for e in events])
    lines.append(public_json)
    return actor, tuple(lines)


def with_timeout_note(line: tuple[LogEvents, ...], seat: int) -> tuple[LogEvents, ...]:
    """Every viewer's events of a move, after the note that ``seat``'s time ran out."""
    note = Event(TIMED_OUT, {"seat": Seat(seat)}).to_json()
    return tuple([note, *events] for events in line)


def log_lines(actors: list[int], lines: list[tuple[LogEvents, ...]], viewer: int | None,
              start: int = 0) -> list[dict[str, Any]]:
    """``viewer``'s log lines from action index ``start`` on:
    ``{"i": index, "s": actor or None, "events": [event JSON, ...]}``."""
    out = []
    for i in range(start, len(lines)):
        row = lines[i]
        # A seat that joined later saw the earlier actions as a spectator did.
        events = row[viewer] if viewer is not None and viewer < len(row) - 1 else row[-1]
        actor = actors[i]
        out.append({"i": i, "s": actor if actor >= 0 else None, "events": events})
    return out


def replay_steps(actors: list[int], lines: list[tuple[LogEvents, ...]]) -> list[dict[str, Any]]:
    """Every action of a finished game, narrated with every secret revealed.

    A decision is told as its actor knew it; a chance event (or a table operation) as
    the first seat told more than the spectators knew it (the one who drew the card).
    Nothing here knows the game: it compares the narrations.
    """
    steps = []
    for i, actor in enumerate(actors):
        row = lines[i]
        public = row[-1]
        if actor >= 0:
            events = row[actor]
        else:
            events = next((x for x in row[:-1] if x is not public and x != public), public)
        steps.append({"i": i, "s": actor if actor >= 0 else None, "events": events})
    return steps


def replay_position(game: Game, history: Iterable[int], version: int) -> dict[str, Any]:
    """Every seat's observation (and the spectators') after the first ``version`` actions
    of ``history``, played from ``game``'s initial state."""
    state = game.new_initial_state()
    for action in list(history)[:version]:
        state.apply_recorded(action)
    *seats, spectator = state.observations([*range(state.seat_count()), None])
    player = state.current_player()
    return {
        "version": version,
        "observations": seats,
        "spectator": spectator,
        "to_act": player if player >= 0 else None,
        "decision": state.decision_event().to_json(),
        "finished": state.is_terminal(),
    }


def with_move_labels(game: Game, actions: Sequence[int], found: dict[str, Any]) -> None:
    """Give each reviewed move of ``found`` (a review's JSON) the label events of the move
    played and of the coach's move (``played_label``, ``best_label``), so that the page
    words them in its reader's language, as it words the legal moves' buttons (issue 39,
    item 6), rather than showing their texts (``dragon:24``)."""
    wanted = {int(move["index"]): move for move in found.get("moves", [])}
    if not wanted:
        return
    last = max(wanted)
    state = game.new_initial_state()
    for index, action in enumerate(actions):
        move = wanted.get(index)
        if move is not None:
            move["played_label"] = state.action_event(int(move["played"])).to_json()
            move["best_label"] = state.action_event(int(move["best"])).to_json()
        if index >= last:
            return
        state.apply_recorded(action)


def replay_game(game_name: str, seed: int, options: dict[str, Any],
                actions: Iterable[int]) -> tuple[State, list[int], list[tuple[LogEvents, ...]]]:
    """A stored table's game replayed to its last action, with each action's actor and
    narration (what ``TableCore.replay_into`` records): the cold load of a table (issue
    36, item 5), run off the event loop."""
    import pendragon

    state = pendragon.load_game(game_name, seed=seed, **options).new_initial_state()
    actors: list[int] = []
    lines: list[tuple[LogEvents, ...]] = []
    for action in actions:
        actor, told = narrate(state, action)
        state.apply_recorded(action)
        actors.append(actor)
        lines.append(told)
    return state, actors, lines


def replay_in_worker(game_name: str, seed: int, options: dict[str, Any],
                     actions: list[int]) -> bytes:
    """:func:`replay_game` in a loader process: pickled, sharing the game (the server
    unpickles it with its own game object, ``limits.loads_sharing``)."""
    from pendragon.web.limits import dumps_sharing

    replayed = replay_game(game_name, seed, options, actions)
    return dumps_sharing(replayed, replayed[0].game)
