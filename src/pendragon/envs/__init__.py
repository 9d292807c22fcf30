"""Research environments: PettingZoo, Gymnasium and OpenSpiel adapters (``pendragon[rl]``).

Every module here sits on top of the game-agnostic API (``pendragon.core.api``) and could be
deleted without touching a rule.

* ``pendragon.envs.soc_v1``: Shadows over Camelot as a PettingZoo AEC environment
  (``soc_v1.env(players=5)``), built on :mod:`pendragon.envs.pettingzoo_base`.
* :mod:`pendragon.envs.gymnasium_env`: one seat learns, the other seats are pendragon bots
  (``gymnasium.make("pendragon/soc-v1")``).
* :mod:`pendragon.envs.openspiel`: importing it registers ``python_pendragon_soc`` with
  ``pyspiel``.

A game gets all three by one :data:`ENVIRONMENTS` entry, a two-function module like
``soc_v1`` and one ``register`` line in :mod:`pendragon.envs.openspiel`. The adapters need
the optional dependencies (``pip install 'pendragon[rl]'``); this package itself imports
none of them. See ``docs/research.md``.

>>> ENVIRONMENTS["soc"].pettingzoo_name
'soc_v1'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EnvironmentSpec:
    """What the adapters need to know about one game beyond the core API."""

    #: Registered pendragon game name.
    game: str
    #: Environment version: goes up whenever observations, actions or rewards change.
    version: int
    #: Bounds of every entry of ``observation_tensor`` (the observation ``Box``).
    observation_low: float
    observation_high: float

    @property
    def pettingzoo_name(self) -> str:
        """The PettingZoo module name, e.g. ``soc_v1``."""
        return f"{self.game}_v{self.version}"

    @property
    def gymnasium_id(self) -> str:
        """The Gymnasium id, e.g. ``pendragon/soc-v1``."""
        return f"pendragon/{self.game}-v{self.version}"


#: Every game with research environments. Shadows over Camelot's tensor entries are
#: non-negative flags and scaled counts; the scaling is not a cap (a hand of 15 cards reads
#: 1.25), so no finite upper bound is declared.
ENVIRONMENTS: dict[str, EnvironmentSpec] = {
    "soc": EnvironmentSpec("soc", 1, 0.0, float("inf")),
}
