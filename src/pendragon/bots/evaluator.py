"""A learned evaluator (issue 38): a seat's chance that its side wins, from that seat's
information only, read by a small model shipped with its game as data.

The inputs are the seat's :meth:`~pendragon.core.api.State.evaluation_tensor`: its
observation tensor (what the seat sees: the board, its own hand and loyalty as far as it
knows them, and the public record the game keeps in the tensor: accusations, unmasked
traitors, swords, who holds what face up), or a game's function of that tensor alone
(Grail Cup's: turned to the viewer, one length at every table), followed by the *setup
features* of the game's options (:func:`setup_features`: the player count one-hot, each
variant and expansion). Nothing else: the model never reads another seat's hand or loyalty.

The model is a one-hidden-layer network (ReLU) per input size (one for every setup of a
game; a game whose inputs grew with its seats would have one per player count), its
output a logit turned into a chance by a logistic with a calibration fitted on held-out
games (``scale * z + shift``), or, with no hidden layer, a logistic regression; a setup
with enough held-out games of its own has a second such calibration in the metadata
(``setup_calibration``), which :class:`Evaluator` applies. Inference is plain typed
Python, compiled with the rest of the bots: each hidden unit sums the non-zero inputs
only (most of an observation is zeros), so one evaluation costs some tens of
microseconds compiled (docs/bots.md, "Evaluator").

"Its side" as in the coach: in Shadows over Camelot and the card game the loyal side, or
the traitors for a seat whose loyalty card says so (it knows its own); in Grail Cup the
knight alone. Trained on ``returns[seat] > 0``.

A model file (JSON, :data:`MODEL_FORMAT`) is package data of its game
(``<game package>/evaluator.json``; :func:`load_model` reads any path for tests and
training) and carries its metadata: the setups it was trained on, the bots, games and
positions, the seed, the validation calibration, and the *layout*: per setup the tensor's
size and a hash of the tensors of a reference game (:func:`layout_fingerprint`). A model
whose layout no longer matches the game is not used (:func:`model_for` returns ``None``
and the coach falls back to its search), and a test fails until the model is trained
again (``pendragon train GAME``).

>>> model = Model("coin", ["x"], [Network([[1.0, -1.0], [0.0, 0.0]], [0.0, 0.0], [2.0, -2.0], 0.0)])
>>> round(model.probability([1.0, 1.0]), 4), round(model.probability([0.0, 1.0]), 4)
(0.8808, 0.5)
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from mypy_extensions import mypyc_attr

from pendragon.core.api import CHANCE, Game, State

#: What a model file says it is.
MODEL_FORMAT = "pendragon-evaluator"
MODEL_VERSION = 1
#: The shipped model's name in its game's package.
MODEL_FILE = "evaluator.json"
#: Options that are never setup features: the seed, and options naming something on this
#: machine (``OptionSpec.remote`` false: a track file).
_NOT_SETUP = ("seed", "players")
#: Actions of the reference game the layout's hash reads (chance by the game's own seeded
#: stream, decisions the first legal action).
REFERENCE_ACTIONS = 60


@mypyc_attr(allow_interpreted_subclasses=True)
class Network:
    """One fitted network: ``weights[i]`` is input ``i``'s row of ``hidden`` weights (input
    major, so a zero input is skipped whole), ``bias`` the hidden biases, ``out`` the
    output weights and ``out_bias`` its bias; ``scale`` and ``shift`` calibrate the logit.
    With no hidden layer (``bias`` empty) ``weights[i]`` is ``[w_i]`` and the logit is
    ``out_bias + sum(w_i x_i)`` (a logistic regression).

    >>> net = Network([[1.0, -1.0]], [0.0, 0.0], [2.0, -2.0], 0.0)
    >>> round(net.probability([1.0]), 4), round(net.probability([0.0]), 4)
    (0.8808, 0.5)
    """

    def __init__(self, weights: list[list[float]], bias: list[float], out: list[float],
                 out_bias: float, scale: float = 1.0, shift: float = 0.0) -> None:
        self.weights = weights
        self.bias = bias
        self.out = out
        self.out_bias = out_bias
        self.scale = scale
        self.shift = shift
        self.inputs = len(weights)
        if bias and any(len(row) != len(bias) for row in weights):
            raise ValueError("every input's row needs one weight per hidden unit")
        if bias and len(out) != len(bias):
            raise ValueError("the output needs one weight per hidden unit")
        if not bias and any(len(row) != 1 for row in weights):
            raise ValueError("a network without a hidden layer has one weight per input")
        #: The weights unit by unit (``by_unit[j][i]`` is ``weights[i][j]``): a unit's sum
        #: runs in a native float over the non-zero inputs, in the inputs' order.
        self.by_unit: list[list[float]] = [[row[j] for row in weights]
                                            for j in range(len(bias))]

    def logit(self, inputs: Sequence[float]) -> float:
        """The calibrated logit of ``inputs``."""
        if len(inputs) != self.inputs:
            raise ValueError(f"the network reads {self.inputs} inputs, got {len(inputs)}")
        weights = self.weights
        if not self.bias:
            z = self.out_bias
            for i in range(self.inputs):
                value = inputs[i]
                if value != 0.0:
                    z += value * weights[i][0]
            return self.scale * z + self.shift
        where: list[int] = []
        values: list[float] = []
        for i in range(self.inputs):
            value = inputs[i]
            if value != 0.0:
                where.append(i)
                values.append(value)
        count = len(where)
        bias = self.bias
        out = self.out
        z = self.out_bias
        for j, row in enumerate(self.by_unit):
            unit: float = bias[j]
            for k in range(count):
                unit += values[k] * row[where[k]]
            if unit > 0.0:
                z += unit * out[j]
        return self.scale * z + self.shift

    def probability(self, inputs: Sequence[float]) -> float:
        """The chance (0..1) that the seat's side wins, from ``inputs``."""
        return sigmoid(self.logit(inputs))

    def to_json(self) -> dict[str, Any]:
        """The network as :func:`parse_model` reads it (weights to 6 significant digits)."""
        return {
            "inputs": self.inputs, "scale": self.scale, "shift": self.shift,
            "hidden_bias": [_round(v) for v in self.bias],
            "out": [_round(v) for v in self.out], "out_bias": _round(self.out_bias),
            "weights": [[_round(v) for v in row] for row in self.weights],
        }


@mypyc_attr(allow_interpreted_subclasses=True)
class Model:
    """A game's evaluator: one :class:`Network` per evaluation tensor size
    (:meth:`~pendragon.core.api.State.evaluation_tensor`; one for every setup of each
    shipped game), the names of the setup features that follow the tensor, and the
    metadata (what it was trained on, how it measured)."""

    def __init__(self, game: str, setup_names: list[str], networks: list[Network],
                 metadata: dict[str, Any] | None = None) -> None:
        self.game = game
        self.setup_names = setup_names
        self.networks: dict[int, Network] = {}
        for network in networks:
            if network.inputs in self.networks:
                raise ValueError(f"two networks read {network.inputs} inputs")
            if network.inputs <= len(setup_names):
                raise ValueError("a network reads the tensor and the setup features")
            self.networks[network.inputs] = network
        self.metadata: dict[str, Any] = metadata if metadata is not None else {}

    @property
    def tensor_sizes(self) -> list[int]:
        """The evaluation tensor lengths this model reads (its networks'), ascending."""
        return sorted(size - len(self.setup_names) for size in self.networks)

    def probability(self, inputs: Sequence[float]) -> float:
        """The chance (0..1) that the seat's side wins, from ``inputs`` (the tensor, then
        the setup features), by the network of that length."""
        network = self.networks.get(len(inputs))
        if network is None:
            got = len(inputs) - len(self.setup_names)
            raise ValueError(f"the {self.game} model reads tensors of "
                             f"{self.tensor_sizes} entries, got {got}")
        return network.probability(inputs)

    def to_json(self) -> dict[str, Any]:
        """The model as :func:`parse_model` reads it."""
        return {
            "format": MODEL_FORMAT, "version": MODEL_VERSION, "game": self.game,
            "metadata": self.metadata, "setup_names": list(self.setup_names),
            "networks": [self.networks[size].to_json() for size in sorted(self.networks)],
        }


def _round(value: float) -> float:
    return float(f"{value:.6g}")


def sigmoid(z: float) -> float:
    """The logistic function, safe at both ends.

    >>> sigmoid(0.0), sigmoid(-1000.0), sigmoid(1000.0)
    (0.5, 0.0, 1.0)
    """
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    if z < -700.0:
        return 0.0
    e = math.exp(z)
    return e / (1.0 + e)


def _floats(value: object, where: str) -> list[float]:
    if not isinstance(value, list) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for v in value):
        raise ValueError(f"{where}: a list of finite numbers")
    return [float(v) for v in value]


def _network(data: object, where: str) -> Network:
    if not isinstance(data, dict):
        raise ValueError(f"{where}: a mapping")
    raw = data.get("weights")
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{where}: 'weights', one row per input")
    weights = [_floats(row, f"{where}: weights row {i}") for i, row in enumerate(raw)]
    numbers = [data.get(k) for k in ("out_bias", "scale", "shift")]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
               for v in numbers):
        raise ValueError(f"{where}: 'out_bias', 'scale' and 'shift' are finite numbers")
    return Network(weights, _floats(data.get("hidden_bias"), f"{where}: hidden_bias"),
                   _floats(data.get("out"), f"{where}: out"), float(numbers[0] or 0.0),
                   float(numbers[1] or 0.0), float(numbers[2] or 0.0))


def parse_model(data: object) -> Model:
    """A model from its JSON data; ``ValueError`` saying what is wrong with data that is
    not one.

    >>> parse_model({"format": "other"})
    Traceback (most recent call last):
    ValueError: not a pendragon-evaluator model
    >>> model = Model("coin", ["a"], [Network([[0.5], [0.1]], [], [], 0.0)])
    >>> parse_model(model.to_json()).probability([2.0, 1.0]) == model.probability([2.0, 1.0])
    True
    """
    if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
        raise ValueError(f"not a {MODEL_FORMAT} model")
    if data.get("version") != MODEL_VERSION:
        raise ValueError(f"model version {data.get('version')!r}; this build reads "
                         f"version {MODEL_VERSION}")
    game = data.get("game")
    names = data.get("setup_names")
    metadata = data.get("metadata", {})
    if not isinstance(game, str) or not isinstance(metadata, dict):
        raise ValueError("a model names its game and carries its metadata (a mapping)")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError("'setup_names': a list of names")
    raw = data.get("networks")
    if not isinstance(raw, list) or not raw:
        raise ValueError("'networks': at least one network")
    return Model(game, [str(n) for n in names],
                 [_network(entry, f"network {i}") for i, entry in enumerate(raw)], metadata)


def load_model(path: str | Path) -> Model:
    """The model in the file ``path`` (``ValueError`` if it is not one)."""
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not JSON ({error.msg})") from None
    return parse_model(data)


def setup_names(game_class: type[Game]) -> list[str]:
    """The names of the setup features of ``game_class``: ``players=N`` for each count the
    option allows, then each option a table may set but the seed (a flag for a true/false
    option, ``name=value`` for each choice of a choice option, ``name`` scaled by its
    maximum for a number).

    >>> import pendragon
    >>> setup_names(pendragon.game_class("soc-card"))[5:]
    ['players=6', 'players=7', 'knights_relief', 'promos']
    """
    names: list[str] = []
    for spec in game_class.option_specs:
        if spec.name == "players":
            low = spec.minimum if spec.minimum is not None else 1
            high = spec.maximum if spec.maximum is not None else low
            names += [f"players={count}" for count in range(low, high + 1)]
        elif spec.name in _NOT_SETUP or not spec.remote:
            continue
        elif spec.choices is not None:
            names += [f"{spec.name}={choice}" for choice in spec.choices]
        else:
            names.append(spec.name)
    return names


def setup_features(game: Game, names: Sequence[str] | None = None) -> list[float]:
    """``game``'s setup as numbers, one per name of :func:`setup_names` (or of ``names``,
    a model's own list: a name the game does not know reads 0)."""
    wanted = setup_names(type(game)) if names is None else list(names)
    specs = {spec.name: spec for spec in type(game).option_specs}
    options = game.options
    values: list[float] = []
    for name in wanted:
        key, _, choice = name.partition("=")
        value = options.get(key)
        spec = specs.get(key)
        if choice:
            values.append(1.0 if str(value) == choice else 0.0)
        elif isinstance(value, bool):
            values.append(1.0 if value else 0.0)
        elif isinstance(value, int):
            top = spec.maximum if spec is not None and spec.maximum else 1
            values.append(value / top)
        else:
            values.append(0.0)
    return values


def setup_key(game: Game) -> str:
    """A setup's name in a model's metadata: its options but the seed, as ``k=v`` joined
    by commas, sorted (options at their defaults included)."""
    options = game.options
    return ",".join(f"{k}={options[k]}" for k in sorted(options)
                    if k not in ("seed",) and _is_remote(game, k))


def _is_remote(game: Game, key: str) -> bool:
    for spec in type(game).option_specs:
        if spec.name == key:
            return spec.remote
    return True


def reference_tensors(game: Game) -> list[list[float]]:
    """Every seat's observation tensor at each decision of the reference game: ``game``
    (its seed as given) played for :data:`REFERENCE_ACTIONS` actions, chance by the game's
    own stream, each decision its first legal action."""
    state = game.new_initial_state()
    found: list[list[float]] = []
    seats = game.num_players()
    for _ in range(REFERENCE_ACTIONS):
        if state.is_terminal():
            break
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        for seat in range(seats):
            found.append(state.evaluation_tensor(seat))
        state.apply_action(state.legal_actions()[0])
    return found


def layout_fingerprint(game: Game) -> dict[str, Any]:
    """The observation layout ``game`` gives a model: the tensor's size and the SHA-256 of
    the reference game's tensors (:func:`reference_tensors`, to 6 places), so that a
    change of what any entry means, or of its place, changes the hash."""
    tensors = reference_tensors(game)
    text = json.dumps([[round(v, 6) for v in row] for row in tensors], separators=(",", ":"))
    size = len(tensors[0]) if tensors else 0
    return {"tensor_size": size, "sha256": hashlib.sha256(text.encode()).hexdigest()}


@functools.cache
def shipped_model(game_name: str) -> Model | None:
    """The model shipped with ``game_name``'s package (``None``: none ships)."""
    from pendragon.core.plugins import plugin_for

    plugin = plugin_for(game_name)
    if plugin is None or plugin.package is None:
        return None
    resource = files(plugin.package).joinpath(MODEL_FILE)
    if not resource.is_file():
        return None
    return parse_model(json.loads(resource.read_text("utf-8")))


@mypyc_attr(allow_interpreted_subclasses=True)
class Evaluator:
    """A model bound to one game (its setup features computed once): :meth:`chance` of a
    seat in a state of that game."""

    def __init__(self, model: Model, game: Game) -> None:
        self.model = model
        self.game = game
        self.setup = setup_features(game, model.setup_names)
        self.size = game.evaluation_tensor_size()
        network = model.networks.get(self.size + len(self.setup))
        if network is None:
            raise ValueError(f"the {model.game} model has no network for tensors of "
                             f"{self.size}")
        self.network: Network = network
        # A per-setup recalibration of the network's logit, fitted on held-out games of
        # this setup (metadata "setup_calibration": setup key -> [scale, shift]).
        self.scale = 1.0
        self.shift = 0.0
        table = model.metadata.get("setup_calibration")
        if isinstance(table, dict):
            pair = table.get(setup_key(game))
            if isinstance(pair, list) and len(pair) == 2 and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool)
                    and math.isfinite(v) for v in pair):
                self.scale, self.shift = float(pair[0]), float(pair[1])
        # A setup's monotone map of the recalibrated chance (metadata "setup_chance_map":
        # setup key -> [chances, what they come true as], fitted on that setup's many
        # calibration games where the training was asked for it), read between its points.
        self.map_from: list[float] = []
        self.map_to: list[float] = []
        maps = model.metadata.get("setup_chance_map")
        if isinstance(maps, dict):
            found = maps.get(setup_key(game))
            if found is not None:
                self.map_from, self.map_to = chance_map(found)

    def inputs(self, state: State, seat: int) -> list[float]:
        """The model's inputs for ``seat`` in ``state``: its tensor, then the setup."""
        tensor = state.evaluation_tensor(seat)
        if len(tensor) != self.size:
            raise ValueError(f"the {self.model.game} model reads tensors of "
                             f"{self.model.tensor_sizes} entries, the game gives "
                             f"{len(tensor)}: train the model again (pendragon train)")
        return tensor + self.setup

    def chance(self, state: State, seat: int) -> float:
        """``seat``'s chance that its side wins from ``state`` (its information only)."""
        if state.is_terminal():
            return 1.0 if state.returns()[seat] > 0 else 0.0
        chance = sigmoid(self.scale * self.network.logit(self.inputs(state, seat)) + self.shift)
        if self.map_from:
            return interpolate(chance, self.map_from, self.map_to)
        return chance

    def value(self, state: State, seat: int) -> float:
        """:meth:`chance` as a reward in [-1, 1] (the search's scale)."""
        return 2.0 * self.chance(state, seat) - 1.0


def chance_map(data: object) -> tuple[list[float], list[float]]:
    """A setup's chance map from a model's metadata: ``[points, values]``, two lists of
    the same length (two or more) of chances from 0 to 1, the points strictly rising and
    the values never falling; ``ValueError`` otherwise.

    >>> chance_map([[0.2, 0.8], [0.1, 0.9]])
    ([0.2, 0.8], [0.1, 0.9])
    >>> chance_map([[0.8, 0.2], [0.1, 0.9]])
    Traceback (most recent call last):
    ValueError: a chance map: [points, values], 2+ chances each, points rising, values not falling
    """
    problem = ("a chance map: [points, values], 2+ chances each, points rising, values not"
               " falling")
    if not isinstance(data, list) or len(data) != 2:
        raise ValueError(problem)
    points, values = _floats(data[0], problem), _floats(data[1], problem)
    if (len(points) < 2 or len(points) != len(values)
            or not all(0.0 <= v <= 1.0 for v in points + values)
            or any(points[i + 1] <= points[i] for i in range(len(points) - 1))
            or any(values[i + 1] < values[i] for i in range(len(values) - 1))):
        raise ValueError(problem)
    return points, values


def interpolate(chance: float, points: list[float], values: list[float]) -> float:
    """``chance`` through a chance map: linear between its points, its first or last value
    beyond them.

    >>> interpolate(0.5, [0.0, 1.0], [0.2, 0.6]), interpolate(0.9, [0.2, 0.8], [0.1, 0.9])
    (0.4, 0.9)
    """
    if chance <= points[0]:
        return values[0]
    last = len(points) - 1
    if chance >= points[last]:
        return values[last]
    low, high = 0, last
    while high - low > 1:
        middle = (low + high) // 2
        if points[middle] <= chance:
            low = middle
        else:
            high = middle
    share = (chance - points[low]) / (points[high] - points[low])
    return values[low] + share * (values[high] - values[low])


#: The evaluator of the last game asked for, per game name (a game object per table).
_BOUND: dict[str, Evaluator] = {}


def model_for(game: Game) -> Model | None:
    """The shipped model of ``game`` if it reads this game's observation layout (a network
    for its tensor size), else ``None``."""
    model = shipped_model(game.name)
    if model is None:
        return None
    if game.evaluation_tensor_size() not in model.tensor_sizes:
        return None
    return model


def evaluator_for(game: Game) -> Evaluator | None:
    """An :class:`Evaluator` of ``game`` on its shipped model (``None`` if no model fits)."""
    known = _BOUND.get(game.name)
    if known is not None and known.game is game:
        return known
    model = model_for(game)
    if model is None:
        return None
    bound = Evaluator(model, game)
    _BOUND[game.name] = bound
    return bound


def win_chance(state: State, seat: int) -> float | None:
    """``seat``'s chance that its side wins from ``state`` by the shipped model (``None``
    if the game has no model that fits)."""
    bound = evaluator_for(state.game)
    return None if bound is None else bound.chance(state, seat)


def check_layout(model: Model, games: Mapping[str, Game]) -> list[str]:
    """What no longer matches between ``model``'s recorded layout and ``games`` (setup key
    -> the game at that setup): one line per setup whose size or hash changed."""
    recorded = model.metadata.get("layout", {})
    problems = []
    for key, game in games.items():
        now = layout_fingerprint(game)
        then = recorded.get(key) if isinstance(recorded, dict) else None
        if then != now:
            problems.append(f"{model.game} {key}: recorded {then}, now {now}")
    return problems
