"""Pendragon games as OpenSpiel games: importing this module registers them with ``pyspiel``.

>>> import pyspiel
>>> import pendragon.envs.openspiel
>>> game = pyspiel.load_game("python_pendragon_soc", {"players": 4})
>>> game.num_players(), game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
(4, True)
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

Registered names: ``python_pendragon_<game>`` for every installed game whose plugin declares
research environments (``python_pendragon_soc``: Shadows over Camelot); dashes in a game's
name become underscores.

**Game type.** Sequential, explicit chance (every shuffle, draw and die roll is a chance node
with its outcomes and probabilities), imperfect information, general-sum (in Shadows over
Camelot the loyal knights share +1 or -1 and the traitor gets the opposite), terminal
rewards only: ``returns()`` is the pendragon state's ``returns()``.

**Parameters** are the game's options (``game.option_specs``) with their defaults:
``players``, ``seed`` and the game's own options (``share``, ``expansion``, the variants).
OpenSpiel parameters cannot be ``None``, so an option whose default is ``None`` reads ``""``
for a text option, and ``seed`` defaults to 0. The seed only drives the pendragon state's own
chance stream (``sample_chance``), which OpenSpiel drivers do not use: they pick chance
outcomes themselves.

**Length.** ``max_game_length`` is the game's research bound (``game.max_game_length()``,
docs/research.md "Game lengths"): a measured figure, which a legal game may pass. Such a game
ends there for OpenSpiel, truncated: ``is_terminal()`` true, no legal action, every return 0
(``state.truncated()`` tells it from an ending by the rules).

**Actions** are the game's catalog ids (``num_distinct_actions`` of them; chance outcomes are
ids of the same catalog, so ``max_chance_outcomes`` is the catalog size too), and
``action_to_string`` gives their stable text (``move:grail``, ``die:8``).

**Information state and observation.** The information-state string is the canonical JSON
(sorted keys, no spaces) of ``observation(player)``: the seat's whole view, including all it
privately remembers (its hand and loyalty, the cards it was shown or passed, the deck
positions it saw, its face-down cards). Two histories that leave a seat with the same
knowledge share one information state. The observation string is the same text. Both
tensors are ``observation_tensor(player)`` (``game.info.observation_tensor_size`` floats, the
game's documented layout): the *current* view only, which is what the string reduces to
numerically; the string is the full information state. The public observer
(``IIGObservationType(private_info=PrivateInfoType.NONE)``) gives the spectator's view,
``observation(None)``, as a string only; the privileged one (``ALL_PLAYERS``) gives the full
serialized state.

**Resampling.** ``state.resample_from_infostate(player, sampler)`` returns a state the
player cannot tell from this one (the pendragon state's ``resample_hidden``), so OpenSpiel's
Python IS-MCTS (``open_spiel.python.algorithms.ismcts``) can search it. The copy keeps the
original's action history: pendragon determinizes the hidden cards in place rather than
inventing another history that leads to them.

**Serialization.** ``pyspiel.serialize_game_and_state`` works (the pendragon state pickles
as its own ``serialize()`` text).

**Bots.** OpenSpiel's *Python* IS-MCTS plays these games; its C++ ``pyspiel.MCTSBot`` and
``pyspiel.ISMCTSBot`` crash the process on any game written in Python. OpenSpiel's
``evaluate_bots`` calls ``restart_at`` on every bot, which the Python IS-MCTS lacks: subclass
it with a ``restart_at`` that does nothing (``docs/research.md``, "Traps").

The registered names carry no version (OpenSpiel's names have none); a change of behaviour is
in ``CHANGELOG.md``, the latest: a game reaching the research bound ends truncated (issue 40).
"""

from __future__ import annotations

import json
import random
import struct
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import pyspiel

import pendragon
from pendragon.core.api import CHANCE, TERMINAL, Game, State
from pendragon.core.options import OptionSpec, OptionValue
from pendragon.envs.spec import ENVIRONMENTS

#: Prefix of every registered name: ``python_pendragon_<game>``.
NAME_PREFIX = "python_pendragon_"
#: Default of the ``seed`` parameter (OpenSpiel parameters cannot be ``None``).
DEFAULT_SEED = 0

# pendragon chose OpenSpiel's player ids, so current_player() passes through unchanged.
assert int(pyspiel.PlayerId.CHANCE) == CHANCE and int(pyspiel.PlayerId.TERMINAL) == TERMINAL


def spiel_name(game_name: str) -> str:
    """The OpenSpiel short name of pendragon game ``game_name``.

    >>> spiel_name("soc")
    'python_pendragon_soc'
    """
    return NAME_PREFIX + game_name.replace("-", "_")


def canonical_json(value: Any) -> str:
    """Sorted-key JSON without spaces: equal views give equal strings.

    >>> canonical_json({"b": 1, "a": [1, 2]})
    '{"a":[1,2],"b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------------------- parameters
def parameter_default(spec: OptionSpec) -> bool | int | str:
    """The OpenSpiel parameter default of option ``spec`` (see the module docstring)."""
    default = spec.default
    if default is None:
        if spec.name == "seed":
            return DEFAULT_SEED
        if spec.type is str:
            return ""
        raise TypeError(f"option {spec.name!r} has no value OpenSpiel can carry for None")
    if isinstance(default, bool | int | str):
        return default
    raise TypeError(f"option {spec.name!r} has an unsupported default {default!r}")


def options_from_parameters(
    specs: tuple[OptionSpec, ...], parameters: Mapping[str, Any]
) -> dict[str, OptionValue]:
    """Pendragon options from OpenSpiel parameters (``""`` back to ``None``)."""
    known = {spec.name: spec for spec in specs}
    options: dict[str, OptionValue] = {}
    for name, value in parameters.items():
        spec = known.get(name)
        if spec is not None and spec.nullable and spec.type is str and value == "":
            value = None
        options[name] = value
    return options


# ---------------------------------------------------------------------------- the state
def _restore_box(game_name: str, options: dict[str, OptionValue], text: str) -> _StateBox:
    """Unpickle a :class:`_StateBox` (OpenSpiel serializes Python states with pickle)."""
    game = pendragon.load_game(game_name, **options)
    return _StateBox(game.deserialize_state(text))


class _StateBox:
    """Holds a pendragon state for a pyspiel state.

    OpenSpiel clones a Python state by deep-copying its ``__dict__`` and serializes it by
    pickling that dict; this box turns the first into ``State.clone()`` and the second into
    ``State.serialize()``, instead of copying the game object and its tables.
    """

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _StateBox:
        return _StateBox(self.state.clone())

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, OptionValue], str]]:
        game = self.state.game
        return _restore_box, (game.name, dict(game.options), self.state.serialize())


class PendragonSpielState(pyspiel.State):  # type: ignore[misc]
    """A pendragon state seen through OpenSpiel's ``State`` interface."""

    def __init__(self, game: PendragonSpielGame) -> None:
        super().__init__(game)
        self._box = _StateBox(game.pendragon_game.new_initial_state())
        # OpenSpiel is told no game is longer than the research bound (a measured figure a
        # legal game may pass): such a game ends there, truncated, every return 0.
        self._limit = game.pendragon_game.max_game_length()

    def truncated(self) -> bool:
        """Whether the game reached the research bound (``max_game_length``) unfinished:
        then it is over for OpenSpiel (terminal, no legal action, every return 0),
        although the rules would play on (docs/research.md, "Game lengths")."""
        state = self._box.state
        return state.version >= self._limit and not state.is_terminal()

    @property
    def pendragon_state(self) -> State:
        """The underlying pendragon state (for pendragon bots; don't mutate it directly)."""
        return self._box.state

    def current_player(self) -> int:
        """The seat to act, ``pyspiel.PlayerId.CHANCE`` or ``pyspiel.PlayerId.TERMINAL``."""
        if self.truncated():
            return TERMINAL
        return self._box.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if self.truncated():
            return []
        # OpenSpiel requires ascending order; pendragon lists them in rule order.
        return sorted(self._box.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs of the chance node, in ascending action order."""
        return sorted(self._box.state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        self._box.state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._box.state.action_to_string(action)

    def is_terminal(self) -> bool:
        """Whether the game is over: ended by its rules, or truncated at the research bound."""
        state = self._box.state
        return state.is_terminal() or state.version >= self._limit

    def returns(self) -> list[float]:
        """Each seat's result: the pendragon state's ``returns()``; 0 for every seat in a
        truncated game."""
        if self.truncated():
            return [0.0] * self._box.state.seat_count()
        return [float(value) for value in self._box.state.returns()]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> PendragonSpielState:
        """A state ``player_id`` cannot tell from this one, drawn with ``probability_sampler``.

        ``probability_sampler()`` returns a float in [0, 1) (OpenSpiel's
        ``UniformProbabilitySampler``); it seeds the determinization, so equal samplers give
        equal states.
        """
        generator = random.Random(int(float(probability_sampler()) * 2.0**53))
        copy: PendragonSpielState = self.clone()
        copy._box = _StateBox(self._box.state.resample_hidden(player_id, generator))
        return copy

    def __str__(self) -> str:
        # The full state, hidden cards included (OpenSpiel's ToString is a debug dump).
        return self._box.state.serialize()


# ---------------------------------------------------------------------------- observers
class PendragonObserver:
    """OpenSpiel's Python observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``).

    ``private_info`` selects whose view: ``SINGLE_PLAYER`` (the default: the seat's view and
    tensor), ``NONE`` (the spectator's view, string only) or ``ALL_PLAYERS`` (the whole
    serialized state, string only).
    """

    def __init__(self, game: Game, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None:
            if not iig_obs_type.public_info:
                raise ValueError("pendragon views always include the public information")
            private = iig_obs_type.private_info
        self._private = private
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            size = game.info.observation_tensor_size
            self._packer = struct.Struct(f"={size}f")
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: PendragonSpielState, player: int) -> None:
        """Write ``player``'s tensor of ``state`` into :attr:`tensor`."""
        if self.tensor is None:
            raise ValueError("this observer has no tensor (public or privileged view)")
        tensor = state.pendragon_state.observation_tensor(player)
        self._packer.pack_into(self.tensor.data, 0, *tensor)

    def string_from(self, state: PendragonSpielState, player: int) -> str:
        """``player``'s view of ``state`` as canonical JSON (see the module docstring)."""
        inner = state.pendragon_state
        if self._private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return canonical_json(inner.observation(player))
        if self._private == pyspiel.PrivateInfoType.NONE:
            return canonical_json(inner.observation(None))
        return inner.serialize()


# ---------------------------------------------------------------------------- the game
class PendragonSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A pendragon game seen through OpenSpiel's ``Game`` interface.

    :func:`register` makes one subclass per game, binding :attr:`game_name` and
    :attr:`game_type`; OpenSpiel calls it with the game's parameters.
    """

    game_name: ClassVar[str] = ""
    game_type: ClassVar[Any] = None

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        specs = pendragon.game_class(self.game_name).option_specs
        parameters = {spec.name: parameter_default(spec) for spec in specs}
        parameters.update(params or {})
        game = pendragon.load_game(self.game_name, **options_from_parameters(specs, parameters))
        info = game.info
        super().__init__(
            self.game_type,
            pyspiel.GameInfo(
                num_distinct_actions=info.num_distinct_actions,
                max_chance_outcomes=info.num_distinct_actions,
                num_players=game.num_players(),
                min_utility=info.min_utility,
                max_utility=info.max_utility,
                utility_sum=None,
                max_game_length=info.max_game_length,
            ),
            parameters,
        )
        self.pendragon_game = game

    def new_initial_state(self) -> PendragonSpielState:
        """The state before any action (a chance node dealing the cards)."""
        return PendragonSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> PendragonObserver:
        """An observer for ``iig_obs_type`` (``None``: the seat's current view)."""
        if isinstance(iig_obs_type, Mapping):
            # pyspiel calls make_py_observer(params) when no observation type is given.
            iig_obs_type, params = None, iig_obs_type
        return PendragonObserver(self.pendragon_game, iig_obs_type, params)


def game_type(game_name: str) -> Any:
    """The ``pyspiel.GameType`` of pendragon game ``game_name``."""
    cls = pendragon.game_class(game_name)
    specs = cls.option_specs
    defaults = pendragon.load_game(game_name)
    players = {spec.name: spec for spec in specs}.get("players")
    low = players.minimum if players and players.minimum else defaults.info.min_players
    high = players.maximum if players and players.maximum else defaults.info.max_players
    return pyspiel.GameType(
        short_name=spiel_name(game_name),
        long_name=f"{defaults.info.long_name} (pendragon)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={spec.name: parameter_default(spec) for spec in specs},
    )


def register(game_name: str) -> str:
    """Register pendragon game ``game_name`` with pyspiel (idempotent); return its name."""
    name = spiel_name(game_name)
    if name in pyspiel.registered_names():
        return name
    spiel_type = game_type(game_name)
    game_class = type(
        f"PendragonSpielGame_{game_name}",
        (PendragonSpielGame,),
        {"game_name": game_name, "game_type": spiel_type, "__module__": __name__},
    )
    pyspiel.register_game(spiel_type, game_class)
    return name


#: Every registered OpenSpiel name: one per installed game with research environments.
REGISTERED: tuple[str, ...] = tuple(register(name) for name in ENVIRONMENTS)
