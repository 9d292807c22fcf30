"""Counter-based deterministic randomness.

A state never holds a mutable random generator: it holds a 64-bit seed and a counter of
chance events. Outcome ``k`` of a chance node is drawn from ``mix(seed, counter)``, so cloning
a state copies two integers and replaying the same seed and actions gives the same game.

>>> uniform(7, 0) == uniform(7, 0)
True
>>> 0.0 <= uniform(7, 1) < 1.0
True
>>> pick_weighted(7, 3, [(10, 0.5), (11, 0.5)]) in (10, 11)
True
>>> weighted(20, [3, 0, 1])
[(20, 0.75), (22, 0.25)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import i64

_MASK: Final = (1 << 64) - 1
_HIGH_BIT: Final = 1 << 63
#: The mixer's odd multipliers, and the same bits read as signed 64-bit integers (``i64``).
_GOLDEN: Final = 0x9E3779B97F4A7C15
_M1: Final = 0xBF58476D1CE4E5B9
_M2: Final = 0x94D049BB133111EB
_GOLDEN_I64: Final[i64] = _GOLDEN - (1 << 64)
_M1_I64: Final[i64] = _M1 - (1 << 64)
_M2_I64: Final[i64] = _M2 - (1 << 64)


def mix(seed: int, counter: int) -> int:
    """SplitMix64 finaliser of ``seed`` and ``counter``: a well-spread 64-bit integer."""
    if _NATIVE:
        return int(_mix_native(seed, counter)) & _MASK
    return _mix_reference(seed, counter)


def _mix_reference(seed: int, counter: int) -> int:
    """:func:`mix` in Python's unbounded ints, each step reduced modulo 2**64."""
    z = (seed * _GOLDEN + (counter + 1) * _M1) & _MASK
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


def uniform(seed: int, counter: int) -> float:
    """A float in ``[0, 1)`` determined by ``seed`` and ``counter``."""
    if _NATIVE:
        # The top 53 bits, shifted in without a sign: (z >> 11) & (2**53 - 1).
        return float((_mix_native(seed, counter) >> 11) & 0x1FFFFFFFFFFFFF) * (1.0 / (1 << 53))
    return (_mix_reference(seed, counter) >> 11) * (1.0 / (1 << 53))


def _mix_native(seed: int, counter: int) -> i64:
    """:func:`mix` in machine words: the same bits, read as a signed 64-bit integer.

    Compiled, ``i64`` arithmetic wraps modulo 2**64 (the build passes ``-fwrapv``), which is
    what SplitMix64 means; Python ints never wrap, so the pure build uses the masked form in
    :func:`mix` (``_NATIVE`` says which runs; a test holds the two to the same bits). A right
    shift of an ``i64`` copies the sign bit, so each shift is masked to the bits a 64-bit
    unsigned shift keeps. Compiled, this avoids the arbitrary-precision arithmetic that the
    masked form costs (about 0.8 µs a draw against 0.05 µs).
    """
    z: i64 = _word(seed) * _GOLDEN_I64 + (_word(counter) + 1) * _M1_I64
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * _M1_I64
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _M2_I64
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


def _word(value: int) -> i64:
    """``value`` modulo 2**64, as the signed 64-bit integer with the same bits."""
    if 0 <= value < _HIGH_BIT:  # (states' counters and most seeds: no big-int arithmetic)
        return i64(value)
    value &= _MASK
    return i64(value - (1 << 64)) if value >= _HIGH_BIT else i64(value)


def _i64_wraps() -> bool:
    """Whether ``i64`` arithmetic wraps here (compiled) rather than growing (pure Python)."""
    big: i64 = i64(1 << 62)
    return big * 4 == 0


#: True when this module runs compiled, where :func:`_mix_native` gives :func:`mix`'s bits.
_NATIVE: Final = _i64_wraps()


def pick_weighted(seed: int, counter: int, outcomes: Sequence[tuple[int, float]]) -> int:
    """Choose one action of ``outcomes`` (``(action, probability)`` pairs) deterministically."""
    return pick_at(uniform(seed, counter), outcomes)


def pick_at(u: float, outcomes: Sequence[tuple[int, float]]) -> int:
    """The outcome whose cumulative probability interval holds ``u`` (in ``[0, 1)``).

    >>> pick_at(0.7, [(10, 0.5), (11, 0.5)])
    11
    """
    acc = 0.0
    for action, probability in outcomes:
        acc += probability
        if u < acc:
            return action
    return outcomes[-1][0]


def normalize_seed(seed: int) -> int:
    """Map any integer seed to the 64-bit range used inside states.

    >>> normalize_seed(-1) == (1 << 64) - 1
    True
    """
    return seed & _MASK


def weighted(base: int, counts: Sequence[int]) -> list[tuple[int, float]]:
    """The outcomes of a draw from a pile kept as counts: ``base + i`` with probability
    ``counts[i] / sum(counts)``, for every kind ``i`` left (``counts[i] > 0``)."""
    total = 0
    for count in counts:
        total += count
    outcomes: list[tuple[int, float]] = []
    for kind, count in enumerate(counts):
        if count > 0:
            outcomes.append((base + kind, count / total))
    return outcomes


def pick_count(base: int, counts: Sequence[int], u: float) -> int:
    """The outcome ``pick_at(u, weighted(base, counts))`` picks, without listing the
    outcomes (a random playout draws a card at every other step, and a list of boxed floats
    is most of what the draw costs).

    The probabilities are the same quotients, added in the same order, so ``u`` lands in
    the same interval, the rounding of the float sums included.

    >>> counts = [3, 0, 1, 2]
    >>> [pick_count(10, counts, k / 40) for k in range(40)] == [
    ...     pick_at(k / 40, weighted(10, counts)) for k in range(40)]
    True
    >>> pick_count(10, [0, 4, 0], 0.99)
    11
    """
    total = 0
    for count in counts:
        total += count
    acc = 0.0
    last = 0
    for kind, count in enumerate(counts):
        if count > 0:
            if count == total:  # the only outcome (pick_at returns it whatever ``u``)
                return base + kind
            acc += count / total
            if u < acc:
                return base + kind
            last = kind
    return base + last  # the sum fell short of 1 by rounding: the last outcome, as pick_at
