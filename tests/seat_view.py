"""A stand-in for a state that offers exactly what one seat sees, for the tests that prove a
bot reads nothing else."""

from __future__ import annotations

import random
from typing import Any, NoReturn

from pendragon.core.api import State
from pendragon.core.events import Event


class SeatView(State):
    """Exactly what a seat sees: its observation and its legal actions. Asking for another
    seat's view, or for anything else of the state, fails the test.

    A :class:`State` (never initialised: the state's own fields are not there to read), so
    that the compiled bots, which take a ``State``, accept it.
    """

    def __init__(self, state: State) -> None:
        self._state = state
        self._seat = state.current_player()

    def current_player(self) -> int:
        return self._seat

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions()

    def observation(self, seat: int | None) -> dict[str, Any]:
        if seat != self._seat:
            raise AssertionError(f"seat {self._seat} asked for the view of {seat}")
        return self._state.observation(seat)

    def _unseen(self, what: str) -> NoReturn:
        raise AssertionError(f"seat {self._seat} asked for the state's {what}")

    def _legal_actions(self) -> list[int]:
        self._unseen("_legal_actions")

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        self._unseen("chance outcomes")

    def _apply(self, action: int) -> None:
        self._unseen("_apply")

    def returns(self) -> list[float]:
        self._unseen("returns")

    def observation_tensor(self, seat: int) -> list[float]:
        self._unseen("observation tensor")

    def clone(self) -> SeatView:
        self._unseen("clone")

    def serialize(self) -> str:
        self._unseen("serialisation")

    def narrate(self, action: int, viewer: int | None) -> list[Event]:
        self._unseen("narration")

    def action_event(self, action: int) -> Event:
        self._unseen("action words")

    def resample_hidden(self, seat: int, generator: random.Random) -> SeatView:
        self._unseen("hidden cards (resample_hidden)")
