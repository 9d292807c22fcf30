"""Training the learned evaluator (issue 38): ``pendragon train GAME``.

1. **Positions.** Game ``i`` of a run has the seed ``seed * 1_000_003 + i`` (as
   ``simulate``) and a setup and a panel of bots drawn from that seed alone
   (:func:`game_plan`): the setups of :func:`setups_for` (every player count the game
   allows, each with the base options, and each variant the lobby offers turned on alone,
   the base setups weighted four times), and the bots: the heuristic on every seat, or the
   game's table bot (Shadows over Camelot's stealth traitor) on every seat, and in a share
   of games one seat played by the search bot (``ismcts``). The game is played to its end;
   then ``positions`` of its states (any state before the end, chance nodes and every
   seat's turn, so that a position after a move is as familiar as one before) are drawn
   and, at each, ``seats`` seats' observation tensors are recorded with whether that
   seat's side won (``returns[seat] > 0``). Games are independent: the data is the same
   for any number of workers and on either backend (``--workers``, ``--backend ray``,
   reusing :func:`pendragon.simulate.map_chunks`).
2. **Fit.** Two games in ten are held out (:data:`HOLD_OUT`). On the others a network
   with one hidden layer (``hidden`` ReLU units; 0: a logistic regression) is fitted by
   Adam on the log loss, seeded, in numpy (the ``rl`` extra; nothing to install for a
   model's user), one network per tensor length. On one held-out game in ten the logit's
   scale and shift are fitted (Platt), on the other the model's calibration is measured
   and written into its metadata with the Brier score and the log loss, per setup too.
   The calibration's fitting (each setup's recalibration, its chance map, the figures)
   is :mod:`pendragon.calibration_fit`'s.
3. **Out.** :class:`~pendragon.bots.evaluator.Model` as JSON with its metadata: the
   setups with their games and positions, the bots, the seed, the command, the fit's
   settings, the validation figures and each setup's observation layout
   (:func:`~pendragon.bots.evaluator.layout_fingerprint`).

The same arguments give the same model, byte for byte (the positions are a function of
the seed; numpy's generator and the fit are seeded; a test checks it with a tiny run).
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pendragon.bots import make_bot
from pendragon.bots.base import Bot
from pendragon.bots.evaluator import (
    Model,
    Network,
    layout_fingerprint,
    setup_features,
    setup_key,
    setup_names,
    sigmoid,
)
from pendragon.bots.ismcts import DEFAULT_CONFIDENCE, ISMCTSBot
from pendragon.calibration_fit import (
    CHANCE_MAPS,
    ISOTONIC_BLOCK,
    apply_setup_calibrations,
    calibration,
    fit_chance_maps,
    fit_setup_calibrations,
    numpy_module,
    platt,
    rounded,
)
from pendragon.core import registry, rng
from pendragon.core.api import Game, State
from pendragon.core.errors import InvalidOptionError, UnknownOptionError
from pendragon.core.plugins import plugin_for
from pendragon.runner import bot_seed, play_game
from pendragon.simulate import SEED_STRIDE, map_chunks

if TYPE_CHECKING:  # numpy is the training's optional dependency
    from numpy.typing import NDArray

#: One game in this many calibrates the fit's logit, and another one in as many measures
#: it (neither is fitted on).
HOLD_OUT = 10
#: One calibration game (``--calibration-games``) in this many measures its setup's
#: recalibration rather than fitting it.
CALIBRATION_MEASURE = 5
#: A setup's weight at its base options, against 1 for each variant turned on alone.
BASE_WEIGHT = 4
#: Keeps a game's plan (setup, bots, positions) apart from its seat bots' streams.
_PLAN_STREAM = 0x7EA1


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """What to train: ``games`` games of ``game`` over the setups at ``players`` (all the
    game's counts when ``None``), ``positions`` states a game, ``seats`` seats a state."""

    game: str
    players: tuple[int, ...] | None = None
    games: int = 2000
    seed: int = 0
    workers: int = 1
    backend: str = "process"
    ray_address: str | None = None
    positions: int = 8
    seats: int = 2
    #: Decisions a game (a seat to act with two or more legal actions) recorded besides,
    #: from the deciding seat: the positions the coach and a review read. A setup's own
    #: recalibration is fitted on these where there are any.
    decisions: int = 0
    #: The games whose decisions fit each setup's own calibration: "heuristic" (games of
    #: the heuristic, one search seat maybe) or "all" (the table bot's games too; a setup
    #: with ``calibration_games`` keeps to the heuristic's).
    setup_calibration_games: str = "heuristic"
    hidden: int = 32
    epochs: int = 12
    #: Share of games with one seat played by the search bot.
    search_share: float = 0.1
    #: Share of the rest with the game's table bot (when it has its own) on every seat.
    table_share: float = 0.3
    #: Extra options on every setup (``--option``).
    options: Mapping[str, Any] = field(default_factory=dict)
    #: Games played besides, at each base setup of ``calibration_players``, by the
    #: heuristic (one search seat in ``search_share`` of them), only to fit and measure
    #: those setups' own calibration (:func:`calibration_plans`); never fitted on.
    calibration_games: int = 0
    #: The player counts whose base setups get ``calibration_games`` (``None``: every
    #: count trained).
    calibration_players: tuple[int, ...] | None = None
    #: "platt": a setup's own calibration is a scale and shift of the logit; "isotonic":
    #: a setup with calibration games also gets a monotone map of its chance fitted on
    #: them (:func:`~pendragon.calibration_fit.isotonic_map`), where the logistic's shape
    #: does not fit; "anchored": that map with its ends drawn on to 0 and 1
    #: (:func:`~pendragon.calibration_fit.anchored`).
    calibration_map: str = "platt"
    #: An anchored map's tails: the weight of their slope's ridge toward 1
    #: (:func:`~pendragon.calibration_fit.tail_slope`; 0, none, as the maps before it).
    tail_prior: float = 0.0
    #: The chance that a decision of a training game (not a calibration game) is played
    #: at random, uniformly among its legal actions, instead of by its bot; the position
    #: right after is recorded from the mover's view (kind 4). The coach reads every move
    #: of a decision, and a model that never saw the moves the bots seldom make (the card
    #: game's heuristic accuses wrongly in one accusation of a hundred) reads them
    #: blind: it took a loyal seat shown loyal for a gain worth a black sword.
    explore: float = 0.0


def setups_for(game_name: str, players: Sequence[int] | None = None,
               options: Mapping[str, Any] | None = None) -> list[tuple[dict[str, Any], int]]:
    """The setups a training run covers, each with its weight: at every player count
    (``players``, or every count the game allows), the base options (weight
    :data:`BASE_WEIGHT`), then each option a table may set, turned on alone (weight 1): a
    true/false option set true, each other choice of a choice option. A setup the game
    refuses (eight knights without Merlin's Company) is left out; one that only loads with
    it (eight knights) comes in.

    >>> [opts["players"] for opts, w in setups_for("soc-card", [3]) if w == BASE_WEIGHT]
    [3]
    >>> sorted(k for opts, _ in setups_for("soc-card", [3]) for k in opts if k != "players")
    ['knights_relief', 'promos']
    """
    cls = registry.game_class(game_name)
    given = dict(options or {})
    variants: list[dict[str, Any]] = []
    for spec in cls.option_specs:
        if spec.name in ("players", "seed") or not spec.remote or spec.name in given:
            continue
        if spec.type is bool:
            variants.append({spec.name: True})
        elif spec.choices is not None:
            variants += [{spec.name: choice} for choice in spec.choices if choice != spec.default]
    if players:
        counts = list(players)
    else:  # every count the game allows with some option (eight knights: an expansion)
        counts = sorted({c for v in [{}, *variants]
                         for c in cls.supported_player_counts({**given, **v})})
    found: list[tuple[dict[str, Any], int]] = []
    for count in counts:
        base = _loads(cls, {**given, "players": count})
        for variant, weight in [({}, BASE_WEIGHT)] + [(v, 1) for v in variants]:
            chosen = {**given, **variant, "players": count}
            if _loads(cls, chosen):
                # A count only a variant allows (eight knights with Merlin's Company):
                # that variant is its base, weighted as one.
                found.append((chosen, weight if base else BASE_WEIGHT))
    if not found:
        raise ValueError(f"{game_name}: no setup loads at players {counts}")
    return found


def _loads(cls: type[Game], options: Mapping[str, Any]) -> bool:
    try:
        cls({**options, "seed": 0})
    except (InvalidOptionError, UnknownOptionError, ValueError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class GamePlan:
    """What game ``index`` of a run is: its seed, options, bots and what it records."""

    index: int
    seed: int
    options: dict[str, Any]
    bots: tuple[str, ...]


def game_plan(config: TrainConfig, setups: Sequence[tuple[dict[str, Any], int]],
              index: int) -> GamePlan:
    """Game ``index``'s setup and bots, drawn from the run's seed and the index alone."""
    seed = config.seed * SEED_STRIDE + index
    draw = random.Random(rng.mix(seed, _PLAN_STREAM))
    options = dict(draw.choices([s for s, _ in setups], [w for _, w in setups])[0])
    seats = int(options["players"])
    plugin = plugin_for(config.game)
    table = plugin.table_bot if plugin is not None and plugin.table_bot else "heuristic"
    roll = draw.random()
    if roll < config.search_share:
        names = ["heuristic"] * seats
        names[draw.randrange(seats)] = "ismcts"
    elif table != "heuristic" and roll < config.search_share + config.table_share:
        names = [table] * seats
    else:
        names = ["heuristic"] * seats
    return GamePlan(index, seed, options, tuple(names))


def calibration_plans(config: TrainConfig,
                      setups: Sequence[tuple[dict[str, Any], int]]) -> list[GamePlan]:
    """The calibration games of a run: ``config.calibration_games`` games at each base
    setup (weight :data:`BASE_WEIGHT`) of ``config.calibration_players``, in the order
    given (every count trained, in the setups' order, when ``None``), indexed on from the
    run's last game (game ``games + j`` has the seed ``seed * 1_000_003 + games + j``:
    the run's own seeds, never a bench's; so a count added after the others leaves their
    games, and what was fitted on them, as they were), the heuristic on every seat but, in
    ``search_share`` of them, one seat of the search bot, drawn from the seed alone (as
    :func:`game_plan`). They are the games a bench or the lobby's default table is: what
    a setup's own recalibration is fitted to.

    >>> config = TrainConfig("soc-card", (3, 5), games=40, calibration_games=2,
    ...                      calibration_players=(5,), search_share=0.0)
    >>> [(p.index, p.options["players"], p.bots) for p in calibration_plans(
    ...     config, setups_for("soc-card", [3, 5]))]  # doctest: +NORMALIZE_WHITESPACE
    [(40, 5, ('heuristic', 'heuristic', 'heuristic', 'heuristic', 'heuristic')),
     (41, 5, ('heuristic', 'heuristic', 'heuristic', 'heuristic', 'heuristic'))]
    >>> config = TrainConfig("soc-card", (3, 5), games=40, calibration_games=2,
    ...                      calibration_players=(5, 3), search_share=0.0)
    >>> [(p.index, p.options["players"]) for p in calibration_plans(
    ...     config, setups_for("soc-card", [3, 5]))]
    [(40, 5), (41, 5), (42, 3), (43, 3)]
    """
    if not config.calibration_games:
        return []
    wanted = config.calibration_players
    bases = [options for options, weight in setups if weight == BASE_WEIGHT
             and (wanted is None or int(options["players"]) in wanted)]
    if wanted is not None:  # in the order asked: the counts first asked keep their games
        bases.sort(key=lambda options: wanted.index(int(options["players"])))
    if not bases:
        raise ValueError(f"--calibration-players {wanted}: no base setup at those counts")
    plans: list[GamePlan] = []
    index = config.games
    for options in bases:
        for _ in range(config.calibration_games):
            seed = config.seed * SEED_STRIDE + index
            draw = random.Random(rng.mix(seed, _PLAN_STREAM))
            seats = int(options["players"])
            names = ["heuristic"] * seats
            if draw.random() < config.search_share:
                names[draw.randrange(seats)] = "ismcts"
            plans.append(GamePlan(index, seed, dict(options), tuple(names)))
            index += 1
    return plans


@dataclass(frozen=True, slots=True)
class Positions:
    """Recorded positions of some games: one row each (``tensor + setup features``), the
    label (the seat's side won), the game's index and setup key, and the games' plans."""

    rows: list[Any]
    labels: list[int]
    games: list[int]
    setups: list[str]
    plans: list[GamePlan]
    #: 1 for a row at a decision of its seat (``TrainConfig.decisions``) in a game of the
    #: heuristic (and maybe one search seat), 2 at a decision in a game of the table bot,
    #: 3 at a decision in a calibration game (:func:`calibration_plans`), 4 right after a
    #: random move (``TrainConfig.explore``), else 0.
    kinds: list[int] = field(default_factory=list)


def play_positions(config: TrainConfig, setups: Sequence[tuple[dict[str, Any], int]],
                   indices: Sequence[int]) -> Positions:
    """Play games ``indices`` of the run and record their positions (one worker's chunk)."""
    return play_plans(config, [game_plan(config, setups, index) for index in indices])


#: The overrule test of the training's search seats: the generic one (2 standard errors),
#: which the shipped models were made with, whatever test a game's own search has taken
#: since (Shadows over Camelot's 1 without a traitor, ``SocHeuristicBot.search_confidence``):
#: a model's command makes the same file after its game's search is tuned.
TRAINING_CONFIDENCE = DEFAULT_CONFIDENCE


def training_bot(name: str, seed: int, game: str) -> Bot:
    """A training game's bot of kind ``name``: :func:`~pendragon.bots.make_bot`'s, but
    the search seat asks :data:`TRAINING_CONFIDENCE` standard errors.

    >>> training_bot("ismcts", 3, "soc").confidence
    2.0
    >>> training_bot("heuristic", 3, "soc")
    HeuristicBot(seed=3)
    """
    if name == "ismcts":
        return ISMCTSBot(seed, confidence=TRAINING_CONFIDENCE)
    return make_bot(name, seed, game)


def play_plans(config: TrainConfig, plans: Sequence[GamePlan],
               calibrating: bool = False) -> Positions:
    """Play the games ``plans`` and record their positions; ``calibrating``: calibration
    games (:func:`calibration_plans`), which record their ``config.decisions`` decisions
    only (kind 3)."""
    rows: list[list[float]] = []
    labels: list[int] = []
    games: list[int] = []
    keys: list[str] = []
    kinds: list[int] = []
    names = setup_names(registry.game_class(config.game))
    for plan in plans:
        index = plan.index
        game = registry.load_game(config.game, **{**plan.options, "seed": plan.seed})
        bots = [training_bot(name, bot_seed(plan.seed, seat), config.game)
                for seat, name in enumerate(plan.bots)]
        # The random moves of an exploring game: history index -> mover.
        explored: dict[int, int] = {}
        final = play_game(game, bots, deviate=None if calibrating or not config.explore
                          else explorer(config.explore, plan.seed, explored))
        history = final.history()
        returns = final.returns()
        draw = random.Random(rng.mix(plan.seed, _PLAN_STREAM + 1))
        chosen = [] if calibrating else sorted(
            draw.sample(range(len(history)), min(config.positions, len(history))))
        seats = game.num_players()
        setup = setup_features(game, names)
        key = setup_key(game)
        state = game.new_initial_state()
        at = 0
        for wanted in chosen:
            while at < wanted:
                state.apply_action(history[at])
                at += 1
            for seat in draw.sample(range(seats), min(config.seats, seats)):
                rows.append(state.evaluation_tensor(seat) + setup)
                labels.append(1 if returns[seat] > 0 else 0)
                games.append(index)
                keys.append(key)
                kinds.append(0)
        if config.decisions:
            table_game = any(name not in ("heuristic", "ismcts") for name in plan.bots)
            kind = 3 if calibrating else 2 if table_game else 1
            state = game.new_initial_state()
            found: list[tuple[int, list[float]]] = []
            for action in history:
                player = state.current_player()
                if player >= 0 and len(state.legal_actions()) > 1:
                    found.append((player, state.evaluation_tensor(player)))
                state.apply_action(action)
            for pick in sorted(draw.sample(range(len(found)),
                                           min(config.decisions, len(found)))):
                player, tensor = found[pick]
                rows.append(tensor + setup)
                labels.append(1 if returns[player] > 0 else 0)
                games.append(index)
                keys.append(key)
                kinds.append(kind)
        if explored:  # each random move's mover, reading the position right after it
            state = game.new_initial_state()
            for at, action in enumerate(history):
                state.apply_action(action)
                mover = explored.get(at)
                if mover is not None:
                    rows.append(state.evaluation_tensor(mover) + setup)
                    labels.append(1 if returns[mover] > 0 else 0)
                    games.append(index)
                    keys.append(key)
                    kinds.append(4)
    return Positions(rows, labels, games, keys, list(plans), kinds)


def explorer(explore: float, game_seed: int, moves: dict[int, int]
             ) -> Callable[[State, int], int | None]:
    """The random moves of a training game of seed ``game_seed``
    (:func:`~pendragon.runner.play_game`'s ``deviate``): each decision with two or more
    legal actions is, with chance ``explore``, played uniformly at random, its history
    index and mover noted in ``moves``; the draws are the game's own stream.

    >>> import pendragon
    >>> from pendragon.runner import play_game
    >>> game = pendragon.load_game("grail-cup", players=3, seed=2)
    >>> moves: dict[int, int] = {}
    >>> final = play_game(game, [pendragon.bots.make_bot("heuristic", s, "grail-cup")
    ...                          for s in range(3)], deviate=explorer(0.3, 2, moves))
    >>> len(moves) > 0 and all(0 <= seat < 3 for seat in moves.values())
    True
    """
    draw = random.Random(rng.mix(game_seed, _PLAN_STREAM + 2))

    def deviate(state: State, seat: int) -> int | None:
        legal = state.legal_actions()
        if len(legal) > 1 and draw.random() < explore:
            moves[state.version] = seat
            return draw.choice(legal)
        return None

    return deviate


def play_calibration(config: TrainConfig, plans: Sequence[GamePlan],
                     report: Callable[[Positions], None] | None = None) -> list[Positions]:
    """The calibration games ``plans`` played in chunks on the run's workers or Ray
    (:func:`play_plans`, their decisions only), the parts in the plans' order."""
    if not plans:
        return []
    step = max(1, min(25, len(plans) // (max(1, config.workers) * 8) or 1))
    return map_chunks(play_plans, [(config, plans[start:start + step], True)
                                   for start in range(0, len(plans), step)],
                      workers=config.workers, backend=config.backend,
                      ray_address=config.ray_address, on_progress=report)


def generate(config: TrainConfig,
             on_progress: Callable[[int], None] | None = None) -> Positions:
    """Every game of the run, on ``config.workers`` local processes or Ray."""
    setups = setups_for(config.game, config.players, config.options)
    size = max(1, min(25, config.games // (max(1, config.workers) * 8) or 1))
    chunks = [list(range(start, min(config.games, start + size)))
              for start in range(0, config.games, size)]
    arguments: list[tuple[Any, ...]] = [(config, setups, chunk) for chunk in chunks]
    report = None if on_progress is None else (lambda part: on_progress(len(part.plans)))
    parts = map_chunks(play_positions, arguments, workers=config.workers,
                       backend=config.backend, ray_address=config.ray_address,
                       on_progress=report)
    parts += play_calibration(config, calibration_plans(config, setups), report)
    np = numpy_module()
    merged = Positions([], [], [], [], [], [])
    for part in parts:  # in the chunks' order: the same data for any worker count
        # Kept as 32-bit rows: a run's positions would not fit in memory as Python floats.
        merged.rows.extend(np.asarray(row, dtype=np.float32) for row in part.rows)
        merged.labels.extend(part.labels)
        merged.games.extend(part.games)
        merged.setups.extend(part.setups)
        merged.plans.extend(part.plans)
        merged.kinds.extend(part.kinds)
    return merged


# ---------------------------------------------------------------------- fitting
def fit_network(x: NDArray[Any], y: NDArray[Any], hidden: int, epochs: int,
                seed: int) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], float]:
    """Fit ``sigmoid(relu(x W + b) v + c)`` (``hidden`` 0: ``sigmoid(x W + c)``) to the
    labels ``y`` by Adam on the mean log loss with a little weight decay, mini-batches of
    256 in an order drawn from ``seed``. Returns ``W`` (inputs x hidden), ``b``, ``v``,
    ``c``."""
    np = numpy_module()
    generator = np.random.default_rng(seed)
    inputs = x.shape[1]
    units = max(1, hidden)
    w = generator.normal(0.0, math.sqrt(2.0 / inputs), (inputs, units))
    b = np.zeros(units)
    v = generator.normal(0.0, math.sqrt(1.0 / units), units) if hidden else np.ones(1)
    c = float(math.log(max(1e-6, y.mean()) / max(1e-6, 1 - y.mean())))
    params = [w, b, v, np.array([c])]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    rate, beta1, beta2, decay = 0.003, 0.9, 0.999, 1e-5
    step = 0
    count = len(y)
    for epoch in range(epochs):
        order = generator.permutation(count)
        learning = rate * (0.5 ** (epoch / max(1, epochs / 3)))
        for start in range(0, count, 256):
            batch = order[start:start + 256]
            xb, yb = x[batch], y[batch]
            if hidden:
                pre = xb @ params[0] + params[1]
                act = np.maximum(pre, 0.0)
                z = act @ params[2] + params[3][0]
            else:
                z = xb @ params[0][:, 0] + params[3][0]
            p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
            dz = (p - yb) / len(yb)
            if hidden:
                gv = act.T @ dz
                da = np.outer(dz, params[2]) * (pre > 0)
                grads = [xb.T @ da, da.sum(axis=0), gv, np.array([dz.sum()])]
            else:
                grads = [(xb.T @ dz)[:, None], np.zeros(units), np.zeros(1),
                         np.array([dz.sum()])]
            step += 1
            for k, (param, grad) in enumerate(zip(params, grads, strict=True)):
                if k in (0, 2):
                    grad = grad + decay * param
                first[k] = beta1 * first[k] + (1 - beta1) * grad
                second[k] = beta2 * second[k] + (1 - beta2) * grad * grad
                corrected = first[k] / (1 - beta1 ** step)
                scaled = second[k] / (1 - beta2 ** step)
                param -= learning * corrected / (np.sqrt(scaled) + 1e-8)
    return params[0], params[1], params[2], float(params[3][0])


def network_logits(x: NDArray[Any], w: NDArray[Any], b: NDArray[Any], v: NDArray[Any],
                   c: float, hidden: int) -> NDArray[Any]:
    """The fitted network's (uncalibrated) logits of ``x``."""
    np = numpy_module()
    found: NDArray[Any] = (np.maximum(x @ w + b, 0.0) @ v + c if hidden
                           else x @ w[:, 0] + c)
    return found


def train(config: TrainConfig, command: str = "",
          on_progress: Callable[[int], None] | None = None) -> Model:
    """Generate the positions, fit, calibrate, measure: the model with its metadata. One
    network per tensor length (Grail Cup's grows with the seats), each fitted on its rows."""
    np = numpy_module()
    data = generate(config, on_progress)
    lengths = sorted({len(row) for row in data.rows})
    networks: list[Network] = []
    measured: list[float] = []
    labels: list[int] = []
    keys: list[str] = []
    recalibrated: dict[str, list[float]] = {}
    #: Setup key -> the decisions its recalibration was fitted on.
    fitted_on: dict[str, int] = {}
    #: Setup key -> its isotonic chance map ([points, values]).
    chance_maps: dict[str, list[list[float]]] = {}
    #: Setup key -> the calibration measured on its measuring calibration games.
    extra_checks: dict[str, dict[str, float]] = {}
    measured_kinds: list[int] = []
    for length in lengths:
        picked = [i for i, row in enumerate(data.rows) if len(row) == length]
        x = np.asarray([data.rows[i] for i in picked], dtype=np.float32)
        y = np.asarray([data.labels[i] for i in picked], dtype=np.float64)
        kind_of = np.asarray([data.kinds[i] for i in picked])
        # The calibration games' decisions (kind 3): never fitted on; of those games one
        # in CALIBRATION_MEASURE measures, the others fit their setup's recalibration.
        extra = kind_of == 3
        offset = np.asarray([data.games[i] for i in picked]) - config.games
        extra_measure = extra & (offset % CALIBRATION_MEASURE == CALIBRATION_MEASURE - 1)
        extra_fit = extra & ~extra_measure
        # Held out by game, counted within this tensor length's games of the run: the 1st,
        # 11th, 21st... calibrate, the 6th, 16th... measure.
        rank = {index: r for r, index in enumerate(sorted(
            {data.games[i] for i in picked if data.kinds[i] != 3}))}
        ranks = np.asarray([rank.get(data.games[i], 1) for i in picked])
        calib = (ranks % HOLD_OUT == 0) & ~extra
        measure = (ranks % HOLD_OUT == HOLD_OUT // 2) & ~extra
        held = calib | measure | extra
        if not held.any() or held.all() or not calib.any() or not measure.any():
            raise ValueError(f"too few games of tensor length {length} to hold some out: "
                             "train on more games (--games)")
        w, b, v, c = fit_network(x[~held], y[~held], config.hidden, config.epochs,
                                 config.seed + length)
        scale, shift = platt(network_logits(x[calib], w, b, v, c, config.hidden), y[calib])
        # Every row's calibrated logit (before its setup's own recalibration).
        zall = network_logits(x, w, b, v, c, config.hidden) * scale + shift
        setup_of = np.asarray([data.setups[i] for i in picked])
        # Each setup's own recalibration, fitted at the seat's decisions where the run
        # recorded some (what the coach reads), in the held-out calibration games of the
        # heuristic and the search (the panels the bars and bench/evaluator.py
        # measure; the table bot's traitors win more often) and in the setup's calibration
        # games.
        wanted = (1,) if config.setup_calibration_games == "heuristic" else (1, 2)
        at_decision = np.isin(kind_of, wanted)
        everywhere = np.ones(len(picked), dtype=bool)
        basis = at_decision if config.decisions else everywhere
        fitting = (calib & basis) | extra_fit
        # A setup given calibration games keeps to games like them (the heuristic's and the
        # search's), whatever --setup-calibration-games says for the others.
        like_extra = (calib & (np.isin(kind_of, (1,)) if config.decisions else everywhere)
                      | extra_fit)
        with_games = set(setup_of[extra_fit].tolist())
        found, fitted = fit_setup_calibrations(zall, y, setup_of, fitting, like_extra,
                                               with_games)
        recalibrated.update(found)
        fitted_on.update(fitted)
        apply_setup_calibrations(zall, setup_of, found)
        chance = 1.0 / (1.0 + np.exp(-np.clip(zall, -30, 30)))
        if config.calibration_map in CHANCE_MAPS:
            # A setup with calibration games: its recalibrated chance mapped through what
            # its fitting decisions say comes true.
            chance_maps.update(fit_chance_maps(chance, y, setup_of, like_extra, with_games,
                                               config.calibration_map, config.tail_prior))
        measured += [float(q) for q in chance[measure]]
        labels += [int(q) for q in y[measure]]
        measured_kinds += [int(q) for q in at_decision[measure]]
        keys += [data.setups[i] for i, m in zip(picked, measure, strict=True) if m]
        for key in sorted(set(setup_of[extra_measure].tolist())):
            mine = extra_measure & (setup_of == key)
            extra_checks[key] = rounded(calibration([float(q) for q in chance[mine]],
                                                     [int(q) for q in y[mine]]))
        if config.hidden:
            networks.append(Network([[float(q) for q in row] for row in w],
                                    [float(q) for q in b], [float(q) for q in v], c,
                                    scale, shift))
        else:
            networks.append(Network([[float(row[0])] for row in w], [], [], c, scale, shift))
    per_setup = {}
    per_setup_decisions = {}
    for key in sorted(set(keys)):
        chosen = [i for i, k in enumerate(keys) if k == key]
        per_setup[key] = rounded(calibration([measured[i] for i in chosen],
                                              [labels[i] for i in chosen]))
        chosen = [i for i in chosen if measured_kinds[i]]
        if chosen:
            per_setup_decisions[key] = rounded(calibration([measured[i] for i in chosen],
                                                            [labels[i] for i in chosen]))
    setups: dict[str, dict[str, Any]] = {}
    extra_games: Counter[str] = Counter()
    for plan in data.plans:
        game = registry.load_game(config.game, **{**plan.options, "seed": 0})
        if plan.index >= config.games:  # a calibration game: counted apart
            extra_games[setup_key(game)] += 1
            continue
        key = setup_key(game)
        entry = setups.setdefault(key, {"options": plan.options, "games": 0, "positions": 0,
                                        "layout": None})
        entry["games"] += 1
        if entry["layout"] is None:
            entry["layout"] = layout_fingerprint(game)
    for key, kind in zip(data.setups, data.kinds, strict=True):
        if kind != 3:
            setups[key]["positions"] += 1
    bots = Counter(name for plan in data.plans if plan.index < config.games
                   for name in plan.bots)
    metadata: dict[str, Any] = {
        "game": config.game, "seed": config.seed, "command": command,
        # The rules its games were played under: a model's games are those rules' games.
        "rules_version": registry.game_class(config.game).rules_version, "games": config.games,
        "positions": sum(1 for k in data.kinds if k != 3),
        "positions_per_game": config.positions, "seats_per_position": config.seats,
        "held_out": f"of each tensor length's games, one in {HOLD_OUT} calibrates and "
                    f"another one in {HOLD_OUT} measures",
        "bots": dict(sorted(bots.items())),
        "bot_mix": {"search_share": config.search_share, "table_share": config.table_share},
        "fit": {"hidden": config.hidden, "epochs": config.epochs, "optimizer": "adam",
                "numpy": str(np.__version__)},
        "validation": {"all": rounded(calibration(measured, labels)), "setups": per_setup},
        "validation_at_decisions": {"all": rounded(calibration(
            [m for m, k in zip(measured, measured_kinds, strict=True) if k],
            [q for q, k in zip(labels, measured_kinds, strict=True) if k])),
            "setups": per_setup_decisions},
        "decisions_per_game": config.decisions,
        "setup_calibration_basis": (
            "each setup's held-out calibration games' decisions, in games of the heuristic"
            " (and one search seat), not of the table bot" if config.setup_calibration_games
            == "heuristic" else "each setup's held-out calibration games' decisions, in"
            " every game") + ("; a setup with calibration games: its calibration games'"
                              " decisions and its held-out games' of the heuristic"
                              if config.calibration_games else "")
        + "; validation_at_decisions measures the same kind of position in the measuring"
          " games",
        "setup_calibration": dict(sorted(recalibrated.items())),
        "setups": {key: {"options": dict(e["options"]), "games": e["games"],
                         "positions": e["positions"]}
                   for key, e in sorted(setups.items())},
        "layout": {key: e["layout"] for key, e in sorted(setups.items())},
    }
    if config.explore:
        metadata["explore"] = {
            "chance": config.explore,
            "positions": sum(1 for k in data.kinds if k == 4),
            "about": "each decision of a training game (not a calibration game) played at"
                     " random with this chance; the position right after, from the mover's"
                     " view, recorded and fitted on"}
    if config.calibration_games:
        metadata["calibration_games"] = {
            "per_setup": config.calibration_games,
            "players": list(config.calibration_players or ()) or "all",
            "bots": dict(sorted(Counter(name for plan in data.plans
                                        if plan.index >= config.games
                                        for name in plan.bots).items())),
            "about": f"games of the heuristic (one search seat in search_share of them) at"
                     f" these base setups, played besides and never fitted on: one in"
                     f" {CALIBRATION_MEASURE} measures (validation), the others fit the"
                     f" setup's own calibration with its held-out calibration games'"
                     f" decisions (fitted_on: decisions)",
            "setups": {key: {"games": count, "fitted_on": fitted_on.get(key, 0)}
                       for key, count in sorted(extra_games.items())},
            "validation": dict(sorted(extra_checks.items())),
        }
    if config.calibration_map in CHANCE_MAPS:
        metadata["setup_chance_map"] = dict(sorted(chance_maps.items()))
        metadata["setup_chance_map_basis"] = (
            f"after the setup's own calibration, an isotonic regression of what came true on"
            f" its calibration games' fitting decisions, in blocks of {ISOTONIC_BLOCK} or"
            f" more: [mean chance of each block, its observed rate], read between them"
            + ("; its ends drawn on to (0, 0) and (1, 1)"
               if config.calibration_map == "anchored" else "")
            + (f", their slope's ridge toward 1 weighing {config.tail_prior}"
               if config.calibration_map == "anchored" and config.tail_prior else ""))
    # Rounded as the file stores it, so that the model returned is the model written.
    names = setup_names(registry.game_class(config.game))
    return Model(config.game, names, networks, metadata)


def remap(config: TrainConfig, base: Model, command: str = "",
          on_progress: Callable[[int], None] | None = None) -> Model:
    """``base`` with the chance maps of the base setups of ``config.calibration_players``
    fitted again (``config.calibration_map``) on ``config.calibration_games`` new games
    each (:func:`calibration_plans` of ``config``'s seed; give a seed the base model was
    not trained with): its networks, its setups' own recalibrations and every other
    setup's map as they were. One game in :data:`CALIBRATION_MEASURE` measures the new
    map (the setup's ``calibration_games`` validation, what a review reports); the run is
    added to the metadata's ``remaps``. A map of a few thousand games is mostly its
    blocks' noise where the readings sit mid-range (the card game, issue 38).
    """
    if config.calibration_map not in CHANCE_MAPS:
        raise ValueError(f"--remap fits a chance map: --calibration-map one of "
                         f"{', '.join(CHANCE_MAPS)}")
    if not config.calibration_games or not config.decisions:
        raise ValueError("--remap plays --calibration-games games and reads --decisions "
                         "decisions of each: give both")
    if base.game != config.game:
        raise ValueError(f"the base model is {base.game}'s, not {config.game}'s")
    np = numpy_module()
    plans = calibration_plans(config, setups_for(config.game, config.players,
                                                 config.options))
    report = None if on_progress is None else (lambda part: on_progress(len(part.plans)))
    parts = play_calibration(config, plans, report)
    recalibrations = base.metadata.get("setup_calibration", {})
    chances: list[float] = []
    labels: list[int] = []
    games: list[int] = []
    keys: list[str] = []
    for part in parts:  # in the chunks' order: the same maps for any worker count
        for row, label, index, key in zip(part.rows, part.labels, part.games, part.setups,
                                          strict=True):
            network = base.networks.get(len(row))
            if network is None:
                raise ValueError(f"the base model has no network for {len(row)} inputs: "
                                 "train it again (pendragon train)")
            scale, shift = recalibrations.get(key, (1.0, 0.0))
            chances.append(sigmoid(scale * network.logit(row) + shift))
            labels.append(label)
            games.append(index)
            keys.append(key)
    chance = np.asarray(chances, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    setup_of = np.asarray(keys)
    offset = np.asarray(games) - config.games
    measure = offset % CALIBRATION_MEASURE == CALIBRATION_MEASURE - 1
    wanted = set(keys)
    maps = fit_chance_maps(chance, y, setup_of, ~measure, wanted, config.calibration_map,
                           config.tail_prior)
    metadata = json.loads(json.dumps(base.metadata))  # a copy, the base left as it was
    metadata.setdefault("setup_chance_map", {}).update(maps)
    validation = metadata.setdefault("calibration_games", {}).setdefault("validation", {})
    found: dict[str, dict[str, Any]] = {}
    for key in sorted(wanted):
        mine = setup_of == key
        checked = measure & mine
        figures = rounded(calibration([float(q) for q in chance[checked]],
                                      [int(q) for q in y[checked]]))
        if key in maps:
            validation[key] = figures
        found[key] = {"games": len({g for g, k in zip(games, keys, strict=True) if k == key}),
                      "fitted_on": int((~measure & mine).sum()), "validation": figures,
                      "mapped": key in maps}
    metadata.setdefault("remaps", []).append({
        "command": command, "seed": config.seed,
        "rules_version": registry.game_class(config.game).rules_version,
        "map": config.calibration_map,
        "tail_prior": config.tail_prior, "decisions_per_game": config.decisions,
        "search_share": config.search_share,
        "setups": found,
        "about": f"each setup's chance map fitted again on new calibration games of the"
                 f" heuristic (one search seat in search_share of them): one in"
                 f" {CALIBRATION_MEASURE} measures (validation), the others fit it; the"
                 f" networks and the setups' own recalibrations are the base model's"})
    return Model(base.game, list(base.setup_names),
                 [base.networks[size] for size in sorted(base.networks)], metadata)


def write_model(model: Model, path: str | Path) -> Path:
    """Write ``model`` as JSON (one weight row a line, so that a diff stays readable)."""
    target = Path(path)
    data = model.to_json()
    networks = data.pop("networks")
    head = json.dumps(data, indent=1, sort_keys=True)
    parts = []
    for network in networks:
        rows = network.pop("weights")
        text = json.dumps(network, sort_keys=True)
        body = ",\n".join(json.dumps(row, separators=(",", ":")) for row in rows)
        parts.append(text[:-1] + ', "weights": [\n' + body + "\n ]}")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(head[:-2] + ',\n "networks": [\n' + ",\n".join(parts) + "\n ]\n}\n",
                      "utf-8")
    return target


def default_out(game_name: str) -> Path:
    """Where the shipped model of ``game_name`` lives in this source tree."""
    plugin = plugin_for(game_name)
    if plugin is None or plugin.package is None:
        raise ValueError(f"{game_name!r}: not a game with a package to ship a model in")
    package = plugin.package.split(".")
    return Path(__file__).resolve().parents[1].joinpath(*package, "evaluator.json")
