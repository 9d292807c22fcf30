"""A game-agnostic PettingZoo AEC environment over any registered pendragon game.

Each game's public environment module (``soc_v2``, ...) only binds the game's
:class:`~pendragon.envs.EnvironmentSpec` to :class:`PendragonAECEnv`; everything else lives
here.

Agents are ``"player_0"`` ... ``"player_{n-1}"`` (agent ``player_i`` is seat ``i``). Every
agent has the same spaces::

    observation_space(agent) = Dict({
        "observation": Box(low, high, (game.info.observation_tensor_size,), float32),
        "action_mask": Box(0, 1, (game.info.num_distinct_actions,), int8),
    })
    action_space(agent) = Discrete(game.info.num_distinct_actions)

``"observation"`` is ``state.observation_tensor(seat)`` (the game's documented layout) and
``"action_mask"`` is 1 at the legal action ids of the agent to act, all zeros for the other
agents and after the end. Actions are the game's catalog ids; ``state.action_to_string`` names
them. An illegal action raises :class:`~pendragon.core.errors.IllegalActionError` (a
``ValueError``) and changes nothing; wrap the raw environment in PettingZoo's
``TerminateIllegalWrapper`` to end the game with a penalty instead.

Chance nodes are resolved inside the environment with the state's own seeded stream
(``state.sample_chance()``), so a game is reproduced exactly from the seed and the agents'
actions: ``reset(seed=s)`` plays the same game as ``pendragon.load_game(name, seed=s)``.
A later ``reset()`` without a seed draws the next game seed from a stream seeded by the last
explicit seed (or by the operating system if none was ever given).

Rewards are 0 until the game ends, then each agent receives its entry of
``state.returns()`` once. A game still running at its declared maximum length
(``max_game_length``, the research bound, three times the longest game measured: a legal
game may pass it, docs/research.md "Game lengths") is truncated there, never refused: every
agent's ``truncated`` is true, with no reward.

Observations are lazy: only the agent passed to :meth:`~PendragonAECEnv.observe` (through
``last()``) has its view computed, never the whole table on every step.
"""

from __future__ import annotations

import copy
import json
import operator
import random
import struct
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

import pendragon
from pendragon.core.api import CHANCE, TERMINAL, Game, State
from pendragon.core.storage import stored_options
from pendragon.envs.spec import EnvironmentSpec

#: Dtype of the ``"observation"`` array.
OBSERVATION_DTYPE = np.float32
#: Dtype of the ``"action_mask"`` array (PettingZoo's convention for masks).
MASK_DTYPE = np.int8

Observation = dict[str, npt.NDArray[Any]]


def agent_name(seat: int) -> str:
    """The PettingZoo name of ``seat``.

    >>> agent_name(3)
    'player_3'
    """
    return f"player_{seat}"


def observation_spaces_for(
    game: Game, low: float, high: float
) -> spaces.Dict:
    """The observation space of every agent of ``game``."""
    size = game.info.observation_tensor_size
    actions = game.info.num_distinct_actions
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, (size,), OBSERVATION_DTYPE),
            "action_mask": spaces.Box(0, 1, (actions,), MASK_DTYPE),
        }
    )


def tensor_packer(size: int) -> struct.Struct:
    """A packer of ``size`` float32 values (see :func:`observation_arrays`)."""
    return struct.Struct(f"={size}f")


def observation_arrays(
    state: State, seat: int, acting: bool, packer: struct.Struct, actions: int
) -> Observation:
    """``seat``'s tensor and action mask as fresh numpy arrays.

    The arrays are new on every call: learners keep observations in replay buffers, so a
    reused buffer would silently rewrite their history (Gymnasium's checker rejects it).
    ``packer`` (:func:`tensor_packer`) converts the list of floats in one C call, twice as
    fast as ``np.fromiter``, and raises ``struct.error`` if the game's tensor is not of its
    declared size.
    """
    observation = np.empty(packer.size // 4, OBSERVATION_DTYPE)
    packer.pack_into(observation.data, 0, *state.observation_tensor(seat))
    return {"observation": observation, "action_mask": legal_mask(state, acting, actions)}


def legal_mask(state: State, acting: bool, actions: int) -> npt.NDArray[np.int8]:
    """1 at the legal ids of ``state`` if ``acting``, else all zeros (a fresh array)."""
    flags = bytearray(actions)
    if acting:
        # A few legal ids: setting bytes beats numpy's fancy indexing on a list.
        for action in state.legal_actions():
            flags[action] = 1
    return np.frombuffer(flags, MASK_DTYPE)


class GameAccess:
    """What the PettingZoo and the Gymnasium environments share: checking the arguments
    every environment takes, the game they load, access to it, and rendering.

    An environment calls :meth:`_load_game` first in its ``__init__``.
    """

    metadata: dict[str, Any]
    render_mode: str | None
    _state: State | None

    def _load_game(self, game: str, render_mode: str | None, options: dict[str, Any]) -> Game:
        """Check ``render_mode`` and the ``options``, and load ``game`` once (seed 0), so
        that a bad option fails at construction, not at the first reset."""
        if "seed" in options:
            raise ValueError("pass the seed to reset(seed=...), not to the environment")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self._game_name = game
        self._options = dict(options)
        self._game: Game = pendragon.load_game(game, seed=0, **self._options)
        self._packer = tensor_packer(self._game.info.observation_tensor_size)
        self._num_actions = self._game.info.num_distinct_actions
        self._state = None
        return self._game

    @property
    def game(self) -> Game:
        """The pendragon game of the current episode (its seed is the episode's)."""
        return self._game

    def observation_names(self) -> list[str]:
        """The name of every element of the ``"observation"`` array, in order (issue 40
        item 3): ``game.observation_tensor_names()``, generated from the description the
        game's tensor writer is laid out by (``docs/research.md`` has the tables).

        >>> from pendragon.envs.spec import ENVIRONMENTS
        >>> env = PendragonAECEnv(ENVIRONMENTS["grail-cup"], players=3)
        >>> names = env.observation_names()
        >>> len(names) == env.observation_space("player_0")["observation"].shape[0]
        True
        >>> names[:2]
        ['knight.0.space', 'knight.0.spears']
        """
        return self._game.observation_tensor_names()

    @property
    def game_state(self) -> State:
        """The live pendragon state (all hidden information: for tools and tests, not agents)."""
        return self._require_state()

    def _restored(self, state: State | str) -> State:
        """A fresh state of this environment's game equal to ``state`` (a state or its
        serialized text); raises ``ValueError`` for a state of another game or options."""
        if isinstance(state, str):
            return self._game.deserialize_state(state)
        game = state.game
        if game.name != self._game.name or stored_options(game) != stored_options(self._game):
            raise ValueError(f"a state of {game!r} cannot go on in an environment of "
                             f"{self._game!r}")
        self._game = game
        return state.clone()

    def _require_state(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def render(self) -> str | None:
        """The environment's view (:meth:`_view_text`) as text for ``"ansi"``; printed (and
        ``None``) for ``"human"``; ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        text = self._view_text(self._require_state())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _view_text(self, state: State) -> str:
        """What :meth:`render` shows: the spectator's view (no hidden information, the
        PettingZoo environment's); the Gymnasium environment shows its learner's."""
        return state.decision_summary() + "\n" + json.dumps(
            state.observation(None), indent=1, sort_keys=True
        )

    # ------------------------------------------------------------------ copies
    # Issue 40 item 2: an environment copies and pickles mid-game and goes on exactly as
    # the original. The state copies by ``clone()`` and pickles as its serialized text
    # (``State.__reduce__``); the game is immutable and shared by copies; the tensor's
    # packer (a ``struct.Struct``, which cannot be pickled) is rebuilt.
    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        """A copy that goes on exactly as this environment does (its state cloned, its
        random streams and bots copied)."""
        cls = type(self)
        new = cls.__new__(cls)
        memo[id(self)] = new
        shared = {"_game", "_packer"}
        for name, value in self.__dict__.items():
            new.__dict__[name] = value if name in shared else copy.deepcopy(value, memo)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """Everything but the packer (rebuilt on loading)."""
        state = dict(self.__dict__)
        state.pop("_packer", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Load :meth:`__getstate__`'s dict."""
        self.__dict__.update(state)
        self._packer = tensor_packer(self._game.info.observation_tensor_size)


class PendragonAECEnv(GameAccess, AECEnv, EzPickle):  # type: ignore[misc]
    """A pendragon game as a PettingZoo AEC environment (see the module docstring).

    ``spec`` names the game, the environment's version and the tensor's bounds; ``options``
    are the game's options (``players`` and game options such as ``share``; not ``seed``,
    which :meth:`reset` takes). Unknown or invalid options raise at construction.

    >>> from pendragon.envs.spec import ENVIRONMENTS
    >>> env = PendragonAECEnv(ENVIRONMENTS["soc"], players=3)
    >>> env.reset(seed=1)
    >>> env.agent_selection in env.agents
    True
    >>> observation, reward, terminated, truncated, info = env.last()
    >>> observation["observation"].shape == (env.game.info.observation_tensor_size,)
    True
    >>> int(observation["action_mask"].sum()) == len(env.game_state.legal_actions())
    True
    """

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "pendragon",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self, spec: EnvironmentSpec, *, render_mode: str | None = None, **options: Any
    ) -> None:
        EzPickle.__init__(self, spec, render_mode=render_mode, **options)
        super().__init__()
        self._load_game(spec.game, render_mode, options)
        self.metadata = {**self.metadata, "name": spec.pettingzoo_name}
        self.spec = spec
        seats = self._game.num_players()
        self.possible_agents: list[str] = [agent_name(s) for s in range(seats)]
        self._seat_of = {name: seat for seat, name in enumerate(self.possible_agents)}
        space = observation_spaces_for(self._game, spec.observation_low, spec.observation_high)
        self.observation_spaces = {name: space for name in self.possible_agents}
        action_space = spaces.Discrete(self._game.info.num_distinct_actions)
        self.action_spaces = {name: action_space for name in self.possible_agents}
        self._seeds: random.Random | None = None
        # Until the first reset there is no game: step() and observe() raise.
        self.agents: list[str] = []

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object on every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes its chance stream (see the module docstring).

        ``options={"state": text}`` goes on from a serialized state instead: :meth:`restore`.
        """
        if options and "state" in options:
            if seed is not None:
                self._seeds = random.Random(seed)
            self.restore(options["state"])
            return
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            if self._seeds is None:
                self._seeds = random.Random()
            game_seed = self._seeds.getrandbits(63)
        self._game = pendragon.load_game(self._game_name, seed=game_seed, **self._options)
        self._start(self._game.new_initial_state())

    def restore(self, state: State | str) -> None:
        """Go on from ``state`` instead of a new deal (issue 40 item 2): a state of this
        environment's game (it is cloned) or the text of its ``serialize()``.

        Like :meth:`reset`, it resolves chance up to the next decision and selects the
        agent to act; a terminal state leaves every agent terminated with its return. The
        state carries its own chance stream, so the environment then plays exactly as the
        one the state was taken from (``env.game_state.serialize()``), given the same
        actions. A text that is not a state of this game (other options, another game)
        raises the game's ``CorruptStateError`` (a ``ValueError``) and changes nothing.

        >>> from pendragon.envs.spec import ENVIRONMENTS
        >>> env = PendragonAECEnv(ENVIRONMENTS["grail-cup"], players=3)
        >>> env.reset(seed=1)
        >>> text = env.game_state.serialize()
        >>> other = PendragonAECEnv(ENVIRONMENTS["grail-cup"], players=3)
        >>> other.restore(text)
        >>> other.game_state.serialize() == text, other.agent_selection == env.agent_selection
        (True, True)
        """
        restored = self._restored(state)
        if self._seeds is None:
            self._seeds = random.Random()
        self._start(restored)

    def _start(self, state: State) -> None:
        """Play ``state`` from here: every agent in, rewards 0, chance resolved."""
        self._state = state
        self.agents = list(self.possible_agents)
        self.rewards = {name: 0.0 for name in self.agents}
        self._cumulative_rewards = {name: 0.0 for name in self.agents}
        self.terminations = {name: False for name in self.agents}
        self.truncations = {name: False for name in self.agents}
        self.infos: dict[str, dict[str, Any]] = {name: {} for name in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.agents[0]
        self._advance(state)

    def step(self, action: int | None) -> None:
        """Apply the selected agent's ``action`` (``None`` for an agent whose game is over).

        Raises ``RuntimeError`` before :meth:`reset` or once every agent is done,
        ``TypeError`` for an action that is not an integer, and the game's
        ``MalformedActionError``/``IllegalActionError`` (``ValueError``) for an id outside
        the catalog or not legal now; nothing changes when it raises.
        """
        if not self.agents:
            raise RuntimeError("the game is over and every agent has stepped; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose an action; None is only for finished agents")
        state = self._require_state()
        state.apply_action(operator.index(action))
        self._cumulative_rewards[agent] = 0.0
        self._advance(state)
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation; only this agent's view is computed."""
        state = self._require_state()
        seat = self._seat_of[agent]
        return observation_arrays(
            state,
            seat,
            state.current_player() == seat,
            self._packer,
            self._num_actions,
        )

    def close(self) -> None:
        """Nothing to release (no window, no process)."""

    # ------------------------------------------------------------------ internals
    def _advance(self, state: State) -> None:
        # Chance is the environment's job; stop at the next decision or at the end.
        limit = self._game.max_game_length()
        player = state.current_player()
        while player == CHANCE and state.version < limit:
            state.apply_action(state.sample_chance())
            player = state.current_player()
        if player == TERMINAL:
            returns = state.returns()
            for name in self.agents:
                self.rewards[name] = float(returns[self._seat_of[name]])
                self.terminations[name] = True
            self._accumulate_rewards()
        elif state.version >= limit:
            # At the research bound (issue 40 item 6): the game is cut, not played on.
            for name in self.agents:
                self.truncations[name] = True
        else:
            # Rewards stay 0 until the end, so there is nothing to accumulate mid-game.
            self.agent_selection = self.possible_agents[player]
