"""Fitting the learned evaluator's calibration (issue 38), apart from the training pipeline
(:mod:`pendragon.training`), which calls it once the network is fitted:

* :func:`platt`: the scale and shift of a logit (the network's own calibration, and each
  setup's recalibration, :func:`fit_setup_calibrations`, pulled toward none by a ridge);
* :func:`isotonic_map`: a monotone map of a setup's chance to what comes true, fitted on its
  calibration games (:func:`fit_chance_maps`; ``--calibration-map isotonic`` or
  ``anchored``), read by :func:`pendragon.bots.evaluator.interpolate`;
* :func:`calibration`: the figures a model's metadata reports (calibration error, Brier
  score, log loss).

numpy is the training's optional dependency (the ``rl`` extra): nothing here is needed to
load or read a model.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pendragon.bots.evaluator import sigmoid

if TYPE_CHECKING:  # numpy is the training's optional dependency
    from numpy.typing import NDArray

#: A setup with at least this many calibration positions gets its own recalibration of the
#: model's logit (``setup_calibration`` in the metadata), pulled toward none by a ridge of
#: this weight (in positions' curvature: a few dozen decisive positions' worth).
SETUP_CALIBRATION_MIN = 150
SETUP_CALIBRATION_PRIOR = 10.0
#: Positions a block of a setup's isotonic chance map holds at least.
ISOTONIC_BLOCK = 300
#: The chance maps ``--calibration-map`` may ask for: "isotonic" (flat beyond its first and
#: last block) and "anchored" (the same blocks, its ends drawn on to 0 and 1).
CHANCE_MAPS = ("isotonic", "anchored")


def numpy_module() -> Any:
    """numpy, or a clear error naming the extra that installs it."""
    try:
        import numpy
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise RuntimeError("training needs numpy: pip install 'pendragon[rl]'") from error
    return numpy


def platt(z: NDArray[Any], y: NDArray[Any], prior: float = 0.0) -> tuple[float, float]:
    """Scale and shift of the logits ``z`` that minimise the log loss on ``y`` (Newton),
    with ``prior`` a ridge pulling them toward (1, 0), the logits as they are (a setup's
    recalibration on its few held-out games)."""
    np = numpy_module()
    a, s = 1.0, 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(a * z + s, -30, 30)))
        g = np.array([((p - y) * z).sum() + prior * (a - 1.0), (p - y).sum() + prior * s])
        weight = p * (1 - p)
        h = np.array([[(weight * z * z).sum(), (weight * z).sum()],
                      [(weight * z).sum(), weight.sum()]]) + (1e-6 + prior) * np.eye(2)
        da, ds = np.linalg.solve(h, g)
        a, s = a - float(da), s - float(ds)
        if abs(da) + abs(ds) < 1e-9:
            break
    return a, s


def fit_setup_calibrations(z: NDArray[Any], y: NDArray[Any], setup_of: NDArray[Any],
                           fitting: NDArray[Any], like_extra: NDArray[Any],
                           with_games: set[str]) -> tuple[dict[str, list[float]], dict[str, int]]:
    """Each setup's own recalibration of the logits ``z`` (:func:`platt` with the ridge
    :data:`SETUP_CALIBRATION_PRIOR`), fitted on its rows of ``fitting`` (a setup in
    ``with_games``, given calibration games: of ``like_extra``, games like them) where it
    has :data:`SETUP_CALIBRATION_MIN` or more. Returns setup key -> ``[scale, shift]``
    (rounded as the file stores them) and setup key -> the rows each was fitted on."""
    recalibrated: dict[str, list[float]] = {}
    fitted_on: dict[str, int] = {}
    for key in sorted(set(setup_of[fitting].tolist())):
        mine = (like_extra if key in with_games else fitting) & (setup_of == key)
        if int(mine.sum()) >= SETUP_CALIBRATION_MIN:
            pair = platt(z[mine], y[mine], SETUP_CALIBRATION_PRIOR)
            recalibrated[key] = [round(pair[0], 6), round(pair[1], 6)]
            fitted_on[key] = int(mine.sum())
    return recalibrated, fitted_on


def apply_setup_calibrations(z: NDArray[Any], setup_of: NDArray[Any],
                             recalibrated: Mapping[str, list[float]]) -> None:
    """Apply each setup's recalibration to its rows of the logits ``z`` (in place)."""
    for key, fitted in recalibrated.items():
        mine = setup_of == key
        z[mine] = z[mine] * fitted[0] + fitted[1]


def fit_chance_maps(chance: NDArray[Any], y: NDArray[Any], setup_of: NDArray[Any],
                    fitting: NDArray[Any], with_games: set[str],
                    kind: str = "isotonic", prior: float = 0.0
                    ) -> dict[str, list[list[float]]]:
    """Each setup of ``with_games``' chance map (``kind`` of :data:`CHANCE_MAPS`; an
    anchored map's tails with the ridge ``prior``, :func:`tail_slope`), fitted on its rows
    of ``fitting`` where it has two blocks' worth or more; then every row of that setup's
    ``chance`` read through its map (in place, as the evaluator reads it)."""
    if kind not in CHANCE_MAPS:
        raise ValueError(f"a chance map is one of {', '.join(CHANCE_MAPS)}, got {kind!r}")
    np = numpy_module()
    maps: dict[str, list[list[float]]] = {}
    for key in sorted(with_games):
        mine = fitting & (setup_of == key)
        if int(mine.sum()) < 2 * ISOTONIC_BLOCK:
            continue
        found = isotonic_map([float(q) for q in chance[mine]], [int(q) for q in y[mine]],
                             ISOTONIC_BLOCK)
        if kind == "anchored":
            found = anchored(found, [float(q) for q in chance[mine]],
                             [int(q) for q in y[mine]], ISOTONIC_BLOCK, prior)
        if len(found[0]) < 2:
            continue
        maps[key] = found
        rows = setup_of == key
        chance[rows] = np.interp(chance[rows], found[0], found[1])
    return maps


def isotonic_map(chances: Sequence[float], labels: Sequence[int],
                 block: int = ISOTONIC_BLOCK) -> list[list[float]]:
    """A monotone map of ``chances`` to what comes true (isotonic regression, pool
    adjacent violators), its blocks pooled further until each holds ``block`` positions:
    ``[points, values]``, each block's mean chance and its observed rate (kept within
    0.005 of 0 and 1), rounded to 4 places, as :func:`~pendragon.bots.evaluator.chance_map`
    reads it.

    >>> isotonic_map([0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9], [0, 0, 1, 0, 1, 0, 1, 1], 2)
    [[0.15, 0.5, 0.85], [0.005, 0.5, 0.995]]
    """
    pairs = sorted(zip(chances, labels, strict=True))
    blocks: list[list[float]] = []  # [wins, count, sum of chances]
    for chance, won in pairs:
        blocks.append([float(won), 1.0, float(chance)])
        while len(blocks) > 1 and (blocks[-2][0] * blocks[-1][1]
                                   >= blocks[-1][0] * blocks[-2][1]):
            last = blocks.pop()
            blocks[-1] = [a + b for a, b in zip(blocks[-1], last, strict=True)]
    pooled: list[list[float]] = []
    for entry in blocks:
        if pooled and pooled[-1][1] < block:
            pooled[-1] = [a + b for a, b in zip(pooled[-1], entry, strict=True)]
        else:
            pooled.append(entry)
    while len(pooled) > 1 and pooled[-1][1] < block:
        last = pooled.pop()
        pooled[-1] = [a + b for a, b in zip(pooled[-1], last, strict=True)]
    points: list[float] = []
    values: list[float] = []
    for wins, count, total in pooled:
        point = round(total / count, 4)
        if points and point <= points[-1]:
            continue  # (two blocks with one mean chance at 4 places: the first stands)
        points.append(point)
        values.append(round(min(0.995, max(0.005, wins / count)), 4))
    return [points, values]


def anchored(found: list[list[float]], chances: Sequence[float], labels: Sequence[int],
             block: int = ISOTONIC_BLOCK, prior: float = 0.0) -> list[list[float]]:
    """An isotonic map (``found``, fitted on ``chances`` and ``labels``) whose ends go on
    toward 0 and 1 rather than stopping flat at the end blocks' rates (issue 38: a card-game
    position below the lowest block read 30.6%, whatever the model said). Beyond its first
    (last) point the map follows a logistic tail through that point, ``logit(value) =
    logit(end value) + slope * (logit(chance) - logit(end point))``, its slope fitted
    (:func:`tail_slope`, with the ridge ``prior``) on the ``2 * block`` lowest (highest)
    chances, so that the tail keeps what those positions came true as; the tail is written
    as points every half logit down to (0, 0) (up to (1, 1)). Monotone and continuous;
    between the blocks it is the map as it was.

    >>> found = anchored([[0.25, 0.75], [0.3, 0.7]], [0.1, 0.25, 0.75, 0.9], [0, 0, 1, 1], 1)
    >>> found[0][:2], found[1][:2], found[0][-1], found[1][-1]
    ([0.0, 0.0001], [0.0, 0.0], 1.0, 1.0)
    >>> all(b > a for a, b in zip(found[0], found[0][1:]))
    True
    """
    points, values = list(found[0]), list(found[1])
    if len(points) < 2:
        return [points, values]
    ordered = sorted(zip(chances, labels, strict=True))
    low, high = ordered[:2 * block], ordered[-2 * block:]
    below = _tail(points[0], values[0], tail_slope(points[0], values[0], low, prior), -1)
    above = _tail(points[-1], values[-1], tail_slope(points[-1], values[-1], high, prior), 1)
    lows = [(c, v) for c, v in below if c < points[0]]
    highs = [(c, v) for c, v in above if c > points[-1]]
    return [[0.0] + [c for c, _ in lows] + points + [c for c, _ in highs] + [1.0],
            [0.0] + [v for _, v in lows] + values + [v for _, v in highs] + [1.0]]


def _logit(p: float) -> float:
    p = min(1.0 - 1e-9, max(1e-9, p))
    return math.log(p / (1.0 - p))


#: A weight for the tail slope's ridge toward 1 (:func:`tail_slope`, ``--tail-prior``): a
#: prior slope of 1 give or take 0.5, the network's own scale, which a map's end rows move
#: only as far as they tell. The card game's 5-player rows refitted on 20,000 games (issue
#: 38) sit within a logit of their end point, which fixes a slope to about 0.4 either way:
#: alone they fitted the clamp's 0.1, a tail that read 10% at a chance of 0.5%. The
#: default is none (0), as every map before it was fitted.
TAIL_PRIOR = 4.0


def tail_slope(point: float, value: float, rows: Sequence[tuple[float, int]],
               prior: float = 0.0) -> float:
    """The slope ``a`` (kept within 0.1 and 4) of ``logit(q) = logit(value) + a *
    (logit(chance) - logit(point))`` that fits ``rows`` (chance, won) best in log loss
    with a ridge of weight ``prior`` toward 1 (Newton): how fast what comes true moves
    with the model's chance at a map's end, as far as its rows tell.

    >>> rows = [(0.1, 0), (0.2, 0), (0.3, 1), (0.4, 1)] * 5
    >>> round(tail_slope(0.3, 0.3, rows), 2), round(tail_slope(0.3, 0.3, rows, TAIL_PRIOR), 2)
    (4.0, 1.5)
    >>> round(tail_slope(0.3, 0.3, rows * 20, TAIL_PRIOR), 2)  # more rows tell more
    4.0
    """
    base = _logit(value)
    gaps = [_logit(c) - _logit(point) for c, _ in rows]
    a = 1.0
    for _ in range(50):
        grad, hess = prior * (a - 1.0), prior
        for gap, (_, won) in zip(gaps, rows, strict=True):
            q = sigmoid(base + a * gap)
            grad += (q - won) * gap
            hess += q * (1.0 - q) * gap * gap
        if hess <= 1e-12:
            break
        step = grad / hess
        a = min(4.0, max(0.1, a - step))
        if abs(step) < 1e-9:
            break
    return a


def _tail(point: float, value: float, slope: float, side: int) -> list[tuple[float, float]]:
    """The tail's points every half logit from ``point`` toward 0 (``side`` -1) or 1 (+1),
    rounded to 4 places as a map stores them, strictly moving away from ``point``."""
    found: list[tuple[float, float]] = []
    start, base = _logit(point), _logit(value)
    last = point
    for k in range(1, 41):
        chance = round(sigmoid(start + side * 0.5 * k), 4)
        if chance <= 0.0 or chance >= 1.0:
            break
        if (chance - last) * side <= 0:
            continue
        found.append((chance, round(sigmoid(base + side * 0.5 * k * slope), 4)))
        last = chance
    return sorted(found)


def calibration(probabilities: Sequence[float], labels: Sequence[int]) -> dict[str, float]:
    """Calibration error (the count-weighted gap between mean estimate and observed rate
    over tenths, as ``bench/calibration.py``), Brier score and log loss.

    >>> calibration([0.05, 0.95, 0.92], [0, 1, 0])["calibration_error"] > 0.3
    True
    """
    buckets: dict[int, list[tuple[float, int]]] = {}
    for p, won in zip(probabilities, labels, strict=True):
        buckets.setdefault(min(9, int(p * 10)), []).append((p, won))
    count = len(labels)
    gap = sum(abs(sum(p for p, _ in inside) - sum(w for _, w in inside))
              for inside in buckets.values())
    brier = sum((p - w) ** 2 for p, w in zip(probabilities, labels, strict=True))
    loss = -sum(math.log(max(1e-12, p if w else 1 - p))
                for p, w in zip(probabilities, labels, strict=True))
    return {"calibration_error": gap / count if count else 0.0,
            "brier": brier / count if count else 0.0,
            "log_loss": loss / count if count else 0.0, "positions": float(count)}


def rounded(figures: Mapping[str, float]) -> dict[str, float]:
    """:func:`calibration`'s figures as a model's metadata stores them."""
    return {k: (int(v) if k == "positions" else round(v, 4)) for k, v in figures.items()}
