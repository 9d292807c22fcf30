"""A stand-in for a state that offers exactly what one seat sees, for the tests that prove a
bot reads nothing else."""

from __future__ import annotations

from typing import Any

from pendragon.core.api import State


class SeatView:
    """Exactly what a seat sees: its observation and its legal actions. Asking for another
    seat's view fails the test."""

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
