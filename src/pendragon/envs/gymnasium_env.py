"""A game-agnostic Gymnasium environment: one seat learns, pendragon bots play the others.

>>> import gymnasium
>>> import pendragon.envs.gymnasium_env
>>> env = gymnasium.make("pendragon/soc-v2", players=3, opponents="random")
>>> observation, info = env.reset(seed=5)
>>> sorted(observation)
['action_mask', 'observation']
>>> action = int(observation["action_mask"].nonzero()[0][0])
>>> observation, reward, terminated, truncated, info = env.step(action)
>>> truncated
False

Registered ids: one per entry of :data:`pendragon.envs.ENVIRONMENTS`, named
``pendragon/<game>-v<version>``: ``pendragon/soc-v2`` (Shadows over Camelot). Its version
history: 1 — first release; 2 — the tensor's ``known`` block (the black cards in play and
the deck positions the seat knows, as its JSON view shows them).
``PendragonGymEnv(game=...)`` also works for a registered game without an entry (its
observation box is then unbounded).

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
``"random"``), seeded from ``np_random`` too, or policies (callables, models: self-play, see
:class:`PendragonGymEnv`); chance uses the state's own stream. ``step``
applies the learner's action, then lets chance and the bots play until the learner must
decide again or the game ends.

**Reward.** 0 until the end, then the learner's entry of ``state.returns()`` (+1 won,
-1 lost in Shadows over Camelot). An illegal action ends the episode at once with reward
``illegal_reward`` (default: the game's ``min_utility``) and ``info["illegal_action"] =
True`` (``illegal_action="raise"`` raises the game's ``IllegalActionError`` instead). A game
still running at its ``max_game_length`` (the research bound, three times the longest game
measured: a legal game may pass it, docs/research.md "Game lengths") is truncated, never
refused: ``truncated`` true, reward 0, ``info["too_long"] = True``.
"""

from __future__ import annotations

import copy
import inspect
import json
import operator
from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat, TypeAlias

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import pendragon
from pendragon.bots import Bot, make_bot
from pendragon.core.api import CHANCE, TERMINAL, State
from pendragon.core.errors import IllegalActionError
from pendragon.envs.pettingzoo_base import (
    GameAccess,
    observation_arrays,
    observation_spaces_for,
)
from pendragon.envs.spec import ENVIRONMENTS

Observation = dict[str, npt.NDArray[Any]]

#: A policy from a seat's observation tensor and action mask (``int8``, 1 at the legal ids)
#: to an action id: ``policy(observation, action_mask) -> int``.
Policy: TypeAlias = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]
#: What may play a seat beside the learner: a registered bot name (made anew, seeded, at
#: every reset), a pendragon :class:`~pendragon.bots.Bot` object (``step(state)``), a
#: :data:`Policy` callable, or a model with ``predict`` (Stable-Baselines3's; wrapped in
#: :class:`ModelPolicy`).
Opponent: TypeAlias = "str | Bot | Policy | Any"


class ModelPolicy:
    """A model with a ``predict`` method (a Stable-Baselines3 model or policy) as a
    :data:`Policy`: self-play against a copy of the learner (issue 40 item 1).

    It calls ``model.predict({"observation": ..., "action_mask": ...}, deterministic=...)``
    with the seat's own observation dict (the environment's observation space, so the
    learner's model reads it), and passes the mask as ``action_masks`` (booleans) when
    ``predict`` takes it (``sb3_contrib``'s maskable models do). :meth:`frozen` makes one
    from a deep copy of a model's policy, which later training does not change.

    >>> class FirstLegal:  # any object with predict(observation, ...) -> (action, state)
    ...     def predict(self, observation, deterministic=False):
    ...         return int(observation["action_mask"].nonzero()[0][0]), None
    >>> policy = ModelPolicy(FirstLegal())
    >>> policy(np.zeros(3, np.float32), np.array([0, 1, 1], np.int8))
    1
    """

    def __init__(self, model: Any, deterministic: bool = False) -> None:
        if not callable(getattr(model, "predict", None)):
            raise TypeError(f"{model!r} has no predict method")
        self.model = model
        self.deterministic = deterministic
        try:
            parameters = inspect.signature(model.predict).parameters
        except (TypeError, ValueError):  # a compiled predict without a signature
            parameters = {}  # type: ignore[assignment]
        self._masks = "action_masks" in parameters

    @classmethod
    def frozen(cls, model: Any, deterministic: bool = False) -> ModelPolicy:
        """A policy playing as ``model`` plays now: a deep copy of its ``policy`` (an SB3
        model's network), or of the model itself if it has none."""
        inner = getattr(model, "policy", None)
        return cls(copy.deepcopy(inner if inner is not None and callable(
            getattr(inner, "predict", None)) else model), deterministic)

    def __call__(
        self, observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]
    ) -> int:
        """The model's action for this observation and mask."""
        view = {"observation": observation, "action_mask": action_mask}
        if self._masks:
            action, _ = self.model.predict(view, deterministic=self.deterministic,
                                           action_masks=action_mask.astype(np.bool_))
        else:
            action, _ = self.model.predict(view, deterministic=self.deterministic)
        return int(np.asarray(action).reshape(-1)[0])


def _opponent(entry: Any) -> str | Bot | Policy:
    """``entry`` checked: a bot name, a Bot, or a Policy (a model wrapped)."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, ModelPolicy):
        return entry
    if callable(getattr(entry, "predict", None)):
        return ModelPolicy(entry)
    if callable(getattr(entry, "step", None)):
        return entry  # type: ignore[no-any-return]
    if callable(entry):
        return entry  # type: ignore[no-any-return]
    raise TypeError(
        f"an opponent is a bot name, a Bot (step(state)), a callable (observation, "
        f"action_mask) -> action or a model with predict; got {entry!r}"
    )


class PendragonGymEnv(GameAccess, gymnasium.Env[dict[str, Any], np.int64]):
    """Seat ``seat`` of pendragon game ``game`` as a single-agent Gymnasium environment.

    ``opponents`` is one :data:`Opponent` for every other seat, or one per seat in seat
    order (the learner's own entry is ignored): a registered bot name (a new bot, seeded
    from the environment's ``np_random``, at every reset), a pendragon ``Bot`` object
    (``step(state)``, kept across episodes), any callable ``(observation, action_mask) ->
    action`` of the seat's own tensor and ``int8`` mask, or a model with ``predict`` (a
    Stable-Baselines3 model: :class:`ModelPolicy`; ``ModelPolicy.frozen(model)`` for a
    frozen copy of the learner). :meth:`set_opponents` changes them from the next reset
    (self-play leagues; ``vec_env.env_method("set_opponents", ...)`` in a vector
    environment). An opponent's illegal action raises ``IllegalActionError`` (its fault,
    not the learner's). ``seat=None`` draws the learner's seat anew at every reset.
    ``options`` are the game's options (``players``, ``share``, ...; not ``seed``, which
    :meth:`reset` takes).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}
    observation_space: spaces.Dict
    action_space: spaces.Discrete

    def __init__(
        self,
        game: str = "soc",
        seat: int | None = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
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
        self._bot_names: list[str | Bot | Policy] = []
        self.set_opponents(opponents)
        self._bots: list[Bot | Policy | None] = [None] * seats
        self._steps: list[bool] = [False] * seats
        self._illegal_action = illegal_action
        info = self._game.info
        self._illegal_reward = float(info.min_utility if illegal_reward is None else illegal_reward)
        spec = ENVIRONMENTS.get(game)
        low = spec.observation_low if spec else -float(np.inf)
        high = spec.observation_high if spec else float(np.inf)
        self.observation_space = observation_spaces_for(self._game, low, high)
        self.action_space = spaces.Discrete(self._num_actions)
        self._over = True

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """The other seats' players from the next reset on (see the class docstring):
        one :data:`Opponent` for every seat, or one per seat."""
        seats = self._game.num_players()
        single = isinstance(opponents, str) or not isinstance(opponents, Sequence)
        entries = [opponents] * seats if single else list(opponents)  # type: ignore[arg-type]
        if len(entries) != seats:
            raise ValueError(f"{seats} seats need {seats} opponents, got {len(entries)}")
        checked = [_opponent(entry) for entry in entries]
        for name in {entry for entry in checked if isinstance(entry, str)}:
            make_bot(name, 0, self._game_name)  # an unknown name fails now, not at reset
        self._bot_names = checked

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and play until the learner's first decision.

        ``options={"state": text}`` goes on from a serialized state instead (see
        :meth:`restore`; ``"seat"`` may name the learner's seat); this is the way through
        ``gymnasium.make``'s wrappers, which refuse a step before a reset.
        """
        super().reset(seed=seed)
        generator = self.np_random
        if options and "state" in options:
            return self._restore(options["state"], options.get("seat"))
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}; only 'state' and "
                             f"'seat' (with 'state')")
        game_seed = seed if seed is not None else int(generator.integers(2**63))
        self._game = pendragon.load_game(self._game_name, seed=game_seed, **self._options)
        seats = self._game.num_players()
        self.seat = (
            int(generator.integers(seats)) if self._fixed_seat is None else self._fixed_seat
        )
        self._make_bots(generator)
        return self._start(self._game.new_initial_state())

    def restore(
        self, state: State | str, *, seed: int | None = None, seat: int | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Go on from ``state`` instead of a new deal (issue 40 item 2), like :meth:`reset`
        (and the same as ``reset(seed=seed, options={"state": state, "seat": seat})``, the
        call that passes ``gymnasium.make``'s wrappers): ``state`` is a state of this
        environment's game (cloned) or the text of its ``serialize()``
        (``env.unwrapped.game_state.serialize()``).

        The learner sits at ``seat`` (default: the fixed seat, else a seat drawn as at a
        reset); bots named by ``opponents`` are made anew from ``np_random`` (reseeded by
        ``seed`` when given), then chance and the other seats play until the learner's turn.
        The state carries its own chance stream, so two restores of one text with one seed
        play alike, and with opponents that decide from what they see (callables,
        deterministic bots) the game goes on as the original did. To continue with the
        original bots' own random streams too, copy or pickle the environment instead.
        """
        return self.reset(seed=seed, options={"state": state, "seat": seat})

    def _restore(self, state: State | str, seat: int | None) -> tuple[Observation, dict[str, Any]]:
        restored = self._restored(state)
        seats = self._game.num_players()
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
                raise ValueError(f"seat must be in 0..{seats - 1}, got {seat!r}")
            self.seat = seat
        else:
            self.seat = (int(self.np_random.integers(seats)) if self._fixed_seat is None
                         else self._fixed_seat)
        self._make_bots(self.np_random)
        return self._start(restored)

    def _make_bots(self, generator: np.random.Generator) -> None:
        seats = self._game.num_players()
        bots: list[Bot | Policy | None] = []
        for s in range(seats):
            # A seed per seat is drawn whoever plays it, so bots' seeds do not depend on
            # which other seats are policies.
            bot_seed = int(generator.integers(2**63)) if s != self.seat else 0
            entry = self._bot_names[s]
            if s == self.seat:
                bots.append(None)
            elif isinstance(entry, str):
                bots.append(make_bot(entry, bot_seed, self._game_name))
            else:
                bots.append(entry)
        self._bots = bots
        # Which seats a state-reading bot plays (checked once, not at every decision).
        self._steps = [bot is not None and isinstance(bot, Bot) for bot in bots]

    def _start(self, state: State) -> tuple[Observation, dict[str, Any]]:
        self._state = state
        self._play_others(state)
        self._over = (state.current_player() == TERMINAL
                      or state.version >= self._game.max_game_length())
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
        if state.version >= self._game.max_game_length():
            # At the research bound (issue 40 item 6): the episode is truncated.
            self._over = True
            return self._observe(state), 0.0, False, True, {"too_long": True}
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
        bots, steps = self._bots, self._steps
        limit = self._game.max_game_length()
        player = state.current_player()
        while player != self.seat and player != TERMINAL and state.version < limit:
            if player == CHANCE:
                state.apply_action(state.sample_chance())
            else:
                bot = bots[player]
                assert bot is not None
                if steps[player]:
                    state.apply_action(bot.step(state))  # type: ignore[union-attr]
                else:
                    self._apply_policy(state, player, bot)  # type: ignore[arg-type]
            player = state.current_player()

    def _apply_policy(self, state: State, player: int, policy: Policy) -> None:
        view = observation_arrays(state, player, True, self._packer, self._num_actions)
        choice = policy(view["observation"], view["action_mask"])
        try:
            action = operator.index(choice)
        except TypeError:
            raise TypeError(f"the policy of seat {player} returned {choice!r}, not an "
                            f"action id") from None
        if not state.is_legal(action):
            raise IllegalActionError(
                f"the policy of seat {player} chose {action}, which is not legal now "
                f"(legal: {sorted(state.legal_actions())})")
        state.apply_action(action)

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
