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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

_MASK: Final = (1 << 64) - 1


def mix(seed: int, counter: int) -> int:
    """SplitMix64 finaliser of ``seed`` and ``counter``: a well-spread 64-bit integer."""
    z = (seed * 0x9E3779B97F4A7C15 + (counter + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def uniform(seed: int, counter: int) -> float:
    """A float in ``[0, 1)`` determined by ``seed`` and ``counter``."""
    return (mix(seed, counter) >> 11) * (1.0 / (1 << 53))


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
