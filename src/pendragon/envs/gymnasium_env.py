"""A game-agnostic Gymnasium environment: one seat learns, pendragon bots play the others.

>>> import gymnasium
>>> import pendragon.envs.gymnasium_env
>>> env = gymnasium.make("pendragon/soc-v1", players=3, opponents="random")
>>> observation, info = env.reset(seed=5)
>>> sorted(observation)
['action_mask', 'observation']
>>> action = int(observation["action_mask"].nonzero()[0][0])
>>> observation, reward, terminated, truncated, info = env.step(action)
>>> truncated
False

Registered ids: one per entry of :data:`pendragon.envs.ENVIRONMENTS`, named
``pendragon/<game>-v<version>``: ``pendragon/soc-v1`` (Shadows over Camelot). Version
history: 1 — first release. ``PendragonGymEnv(game=...)`` also works for a registered game
without an entry (its observation box is then unbounded).

**Spaces.** The same as the PettingZoo environments (:mod:`pendragon.envs.pettingzoo_base`)::

    observation_space = Dict({
        "observation": Box(low, high, (game.info.observation_tensor_size,), float32),
        "action_mask": Box(0, 1, (game.info.num_distinct_actions,), int8),
    })
    action_space = Discrete(game.info.num_distinct_actions)

``"observation"`` is ``state.observation_tensor(seat)`` for the learning seat and
``"action_mask"`` marks its legal actions (all zeros once the game is over);
:meth:`PendragonGymEnv.action_masks` returns the same mask as booleans (the method
``sb3_contrib``'s maskable algorithms look for).

**Episode.** ``reset(seed=s)`` deals the game ``pendragon.load_game(game, seed=s)``; a
``reset()`` without a seed draws the next seed from the environment's ``np_random``. The other
seats are bots made by ``pendragon.bots.make_bot(name, seed, game)`` (any registered name, e.g.
``"random"``), seeded from ``np_random`` too; chance uses the state's own stream. ``step``
applies the learner's action, then lets chance and the bots play until the learner must
decide again or the game ends.

**Reward.** 0 until the end, then the learner's entry of ``state.returns()`` (+1 won,
-1 lost in Shadows over Camelot). An illegal action ends the episode at once with reward
``illegal_reward`` (default: the game's ``min_utility``) and ``info["illegal_action"] =
True`` (``illegal_action="raise"`` raises the game's ``IllegalActionError`` instead).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import pendragon
from pendragon.bots import Bot, make_bot
from pendragon.core.api import CHANCE, TERMINAL, State
from pendragon.envs.pettingzoo_base import (
    GameAccess,
    observation_arrays,
    observation_spaces_for,
)
from pendragon.envs.spec import ENVIRONMENTS

Observation = dict[str, npt.NDArray[Any]]


class PendragonGymEnv(GameAccess, gymnasium.Env[dict[str, Any], np.int64]):
    """Seat ``seat`` of pendragon game ``game`` as a single-agent Gymnasium environment.

    ``opponents`` is one bot name for every other seat, or one name per seat in seat order
    (the learner's own entry is ignored). ``seat=None`` draws the learner's seat anew at
    every reset. ``options`` are the game's options (``players``, ``share``, ...; not
    ``seed``, which :meth:`reset` takes).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}
    observation_space: spaces.Dict
    action_space: spaces.Discrete

    def __init__(
        self,
        game: str = "soc",
        seat: int | None = 0,
        opponents: str | Sequence[str] = "random",
        *,
        illegal_action: str = "terminate",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(
                f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}"
            )
        self._load_game(game, render_mode, options)
        seats = self._game.num_players()
        if seat is not None and not 0 <= seat < seats:
            raise ValueError(f"seat must be in 0..{seats - 1} or None, got {seat}")
        self._fixed_seat = seat
        self.seat = 0 if seat is None else seat
        names = [opponents] * seats if isinstance(opponents, str) else list(opponents)
        if len(names) != seats:
            raise ValueError(f"{seats} seats need {seats} bot names, got {len(names)}")
        for name in set(names):
            make_bot(name, 0, game)  # an unknown name fails now, not at the first reset
        self._bot_names = names
        self._bots: list[Bot | None] = [None] * seats
        self._illegal_action = illegal_action
        info = self._game.info
        self._illegal_reward = float(info.min_utility if illegal_reward is None else illegal_reward)
        spec = ENVIRONMENTS.get(game)
        low = spec.observation_low if spec else -float(np.inf)
        high = spec.observation_high if spec else float(np.inf)
        self.observation_space = observation_spaces_for(self._game, low, high)
        self.action_space = spaces.Discrete(self._num_actions)
        self._over = True

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and play until the learner's first decision."""
        super().reset(seed=seed)
        generator = self.np_random
        game_seed = seed if seed is not None else int(generator.integers(2**63))
        self._game = pendragon.load_game(self._game_name, seed=game_seed, **self._options)
        seats = self._game.num_players()
        self.seat = (
            int(generator.integers(seats)) if self._fixed_seat is None else self._fixed_seat
        )
        self._bots = [
            None if s == self.seat
            else make_bot(self._bot_names[s], int(generator.integers(2**63)), self._game_name)
            for s in range(seats)
        ]
        state = self._game.new_initial_state()
        self._state = state
        self._play_others(state)
        self._over = state.current_player() == TERMINAL
        return self._observe(state), {"seat": self.seat}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the learner's ``action``, then play the others until its next decision."""
        state = self._require_state()
        if self._over:
            raise RuntimeError("the episode is over; call reset()")
        action = operator.index(action)
        if not state.is_legal(action):
            if self._illegal_action == "raise":
                state.apply_action(action)  # raises the game's own error
            self._over = True
            observation = self._observe(state)
            return observation, self._illegal_reward, True, False, {"illegal_action": True}
        state.apply_action(action)
        self._play_others(state)
        if state.current_player() == TERMINAL:
            self._over = True
            reward = float(state.returns()[self.seat])
            return self._observe(state), reward, True, False, {}
        return self._observe(state), 0.0, False, False, {}

    def _view_text(self, state: State) -> str:
        """The learner's view as JSON text: what :meth:`render` shows."""
        return json.dumps(state.observation(self.seat), indent=1, sort_keys=True)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as booleans (for maskable learning algorithms)."""
        state = self._require_state()
        mask = np.zeros(self._num_actions, np.bool_)
        if not self._over:
            mask[state.legal_actions()] = True
        return mask

    # ------------------------------------------------------------------ internals
    def _play_others(self, state: State) -> None:
        bots = self._bots
        player = state.current_player()
        while player != self.seat and player != TERMINAL:
            if player == CHANCE:
                state.apply_action(state.sample_chance())
            else:
                bot = bots[player]
                assert bot is not None
                state.apply_action(bot.step(state))
            player = state.current_player()

    def _observe(self, state: State) -> Observation:
        return observation_arrays(state, self.seat, not self._over, self._packer,
                                  self._num_actions)


def register_environments() -> list[str]:
    """Register the Gymnasium id of every game of :data:`pendragon.envs.ENVIRONMENTS`."""
    ids = []
    for spec in ENVIRONMENTS.values():
        if spec.gymnasium_id not in gymnasium.registry:
            gymnasium.register(
                id=spec.gymnasium_id,
                entry_point="pendragon.envs.gymnasium_env:PendragonGymEnv",
                kwargs={"game": spec.game},
            )
        ids.append(spec.gymnasium_id)
    return ids


#: Every registered Gymnasium id.
REGISTERED: tuple[str, ...] = tuple(register_environments())
