"""Shadows over Camelot as a PettingZoo AEC environment: ``soc_v1``.

>>> from pendragon.envs import soc_v1
>>> env = soc_v1.env(players=5)
>>> env.reset(seed=7)
>>> for agent in env.agent_iter(max_iter=20):
...     observation, reward, terminated, truncated, info = env.last()
...     legal = observation["action_mask"].nonzero()[0]
...     env.step(None if terminated else int(legal[0]))
>>> env.possible_agents
['player_0', 'player_1', 'player_2', 'player_3', 'player_4']

=====================  ====================================================================
Import                 ``from pendragon.envs import soc_v1``
Agents                 ``player_0`` ... ``player_{n-1}`` (seat ``i``), 3-7 (8 with the
                       expansion)
Action space           ``Discrete(NUM_ACTIONS)``: the catalog of ``pendragon.games.soc.actions``
Observation space      ``Dict(observation=Box(0, inf, (TENSOR_SIZE,), float32),
                       action_mask=Box(0, 1, (NUM_ACTIONS,), int8))``
Rewards                0 until the end, then ``state.returns()``: +1 won, -1 lost (the traitor
                       wins when the loyal knights lose)
Chance                 resolved inside the environment from ``reset(seed=...)``
=====================  ====================================================================

Arguments: ``players`` (default 5), ``expansion`` (``None`` or ``"merlins-company"``; only
passed to the game when not ``None``), ``render_mode`` (``None``, ``"ansi"``, ``"human"``),
and any other option of ``pendragon.load_game("soc", ...)`` (``share``, variants); an unknown
option raises ``UnknownOptionError``.

**Actions.** Every decision of a knight is one id of the soc catalog (``move:grail``,
``play:fight-5``, ``seat:2``, ``done``, ...); ``env.unwrapped.game_state.action_to_string(a)``
names an id. A composite choice (which cards to give to whom) is a short sequence of atomic
decisions, each with its own mask.

**Observation.** ``observation`` is ``state.observation_tensor(seat)``, the layout of
``pendragon.games.soc.view.TENSOR_LAYOUT`` (seats rotated so the observer is block 0; then
swords and siege engines, each quest, effects, decks, the observer's hand and loyalty, the
decision under way, and the public table). Every entry is a non-negative flag or a count
scaled so that ordinary values lie in [0, 1]; the scaling is not a cap (a hand of 15 cards
reads 1.25), so the box declares no finite upper bound. The full JSON view of the seat,
``state.observation(seat)``, is available from ``env.unwrapped.game_state``.

Version history:

* ``soc_v1``: first release (the base game, options of ``load_game("soc")``).
"""

from __future__ import annotations

from typing import Any

from pendragon.envs import ENVIRONMENTS
from pendragon.envs.pettingzoo_base import PendragonAECEnv

SPEC = ENVIRONMENTS["soc"]


def env(
    players: int = 5,
    expansion: str | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> PendragonAECEnv:
    """The environment (see the module docstring for the arguments).

    It checks the call order and the action ids itself and raises on a misuse, so it is not
    wrapped in PettingZoo's ``OrderEnforcingWrapper``/``AssertOutOfBoundsWrapper``: they
    would repeat those checks through ``__getattr__`` forwarding at a third of the step cost.
    """
    if expansion is not None:
        options["expansion"] = expansion
    return PendragonAECEnv(SPEC, render_mode=render_mode, players=players, **options)


#: PettingZoo's name for the unwrapped environment; the same as :func:`env` here.
raw_env = env
