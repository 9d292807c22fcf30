"""What a careful Shadows over Camelot player reads into the other knights' public deeds.

Every public decision a knight takes (how he pays the Progression of Evil, whether he
pledges a Merlin, whom he gives a shared reward, which war or quest he sends a figure or a
Merlin to, whom he accuses and whether the accused turned out loyal) is evidence about his
loyalty. Its weight is a likelihood ratio ``P(deed | traitor) / P(deed | loyal)``, and both
probabilities come from a *family* of policies, not from one bot's exact rules:

* a loyal knight may be the heuristic (``SocHeuristicBot``), a *cautious* player who keeps
  his life and pays evil with black cards, a *bold* one who pays with life down to 2, or a
  *noisy* one who picks at random (weights :data:`LOYAL_FAMILY`);
* a traitor may be *stealthy* (plays exactly as a loyal knight: the loyal mixture), the
  heuristic traitor, an open *saboteur*, or random (weights :data:`TRAITOR_FAMILY`).

Because a stealthy traitor and a noisy loyal knight are in the families, no single deed is
proof: each ratio lies between about 0.3 and 7 (12 for a wrong accusation). A knight's
deeds are read together as one record (:class:`SeatRecord`): he follows one policy for
the whole game. Hard facts (a loyalty card shown after an
accusation, a traitor unmasked by Fate) are not evidence but certainties, and the belief
(:class:`pendragon.bots.belief.LoyaltyBelief`) settles them. The table of what each deed is
worth is in ``docs/bots.md``.

>>> round(likelihood_ratio(Deed(1, "evil", "draw-black", (3, 2))), 2)  # 3 life, 2 engines
1.3
>>> round(likelihood_ratio(Deed(1, "evil", "add-siege", (5, 10))), 2)  # the 11th engine
4.3
>>> round(likelihood_ratio(Deed(1, "accused", "loyal", ())), 1)  # accused a loyal knight
12.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import astuple, dataclass
from typing import Any

from mypy_extensions import mypyc_attr

#: Loyal policies a knight may follow, with the weight of each in the mixture.
LOYAL_FAMILY: tuple[tuple[str, float], ...] = (
    ("heuristic", 0.4), ("cautious", 0.2), ("bold", 0.2), ("noisy", 0.2),
)
#: Traitor policies, likewise ("stealth" plays as the loyal mixture does).
TRAITOR_FAMILY: tuple[tuple[str, float], ...] = (
    ("stealth", 0.3), ("heuristic-traitor", 0.35), ("saboteur", 0.2), ("random", 0.15),
)

#: Accusations: how often each policy accuses a loyal knight in a game. A loyal knight
#: accuses on evidence and is rarely wrong (the heuristic: no wrong accusation in 130
#: games of the panel, issue 18); a wrong accusation turns a white sword black
#: (SOC-ACCUSE-3), a traitor's gain, and an open traitor makes one as soon as he can.
ACCUSE_WRONG: dict[str, float] = {
    "heuristic": 0.01, "cautious": 0.01, "bold": 0.05, "noisy": 0.15,
    "heuristic-traitor": 0.9, "saboteur": 0.9, "random": 0.3,
}


def _accused_loyal_ratio() -> float:
    """P(accuses a loyal knight | traitor) / P(... | loyal) under the two families
    (about 12; it was 6 before issue 18's panel, and the stealth traitor's wrong
    accusations then went unread: 11% unmasked, 66% with this ratio, 300 games)."""
    loyal = sum(w * ACCUSE_WRONG[p] for p, w in LOYAL_FAMILY)
    traitor = sum(w * (loyal if p == "stealth" else ACCUSE_WRONG[p])
                  for p, w in TRAITOR_FAMILY)
    return traitor / loyal


#: Ratios for the accuser once the accused's card is shown (SOC-ACCUSE-2).
ACCUSED_LOYAL_RATIO = _accused_loyal_ratio()
ACCUSED_TRAITOR_RATIO = 0.1


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class Deed:
    """A public decision: who took it, the decision (the agenda's name), the choice (its
    action text, or for ``accused`` the loyalty the accused turned out to have) and the
    public figures it was taken on (see :func:`context_of`)."""

    seat: int
    decision: str
    choice: str
    context: tuple[float, ...]

    def __reduce__(self) -> tuple[type[Deed], tuple[Any, ...]]:
        """Pickled by its constructor (a compiled frozen dataclass cannot set its fields
        back one by one, as unpickling does)."""
        return Deed, astuple(self)


Dist = Mapping[str, float]


# ---------------------------------------------------------------------- the Progression of Evil
def _evil(policy: str, life: float, siege: float) -> Dist:
    """How each policy pays the Progression of Evil (SOC-EVIL-1) at ``life``, ``siege``."""
    floor = 4 - (siege >= 8) - (siege >= 10)
    late = siege >= 10
    if policy == "heuristic":
        if life >= max(2, floor):
            return {"lose-life": 0.85, "draw-black": 0.1, "add-siege": 0.05}
        if life >= max(2, floor - 1):  # a war about to be won gives a life back
            return {"lose-life": 0.4, "draw-black": 0.45, "add-siege": 0.15}
        return {"lose-life": 0.03, "draw-black": 0.9 if late else 0.72,
                "add-siege": 0.07 if late else 0.25}
    if policy in ("cautious", "heuristic-traitor"):
        if policy == "heuristic-traitor" and late:
            return {"lose-life": 0.1, "draw-black": 0.2, "add-siege": 0.7}
        if life >= floor + 1:
            return {"lose-life": 0.8, "draw-black": 0.15, "add-siege": 0.05}
        return {"lose-life": 0.05, "draw-black": 0.9 if late else 0.7,
                "add-siege": 0.05 if late else 0.25}
    if policy == "bold":
        if life >= 2:
            return {"lose-life": 0.85, "draw-black": 0.1, "add-siege": 0.05}
        return {"lose-life": 0.02, "draw-black": 0.75, "add-siege": 0.23}
    if policy == "saboteur":
        if siege >= 9:
            return {"lose-life": 0.04, "draw-black": 0.3, "add-siege": 0.66}
        return {"lose-life": 0.04, "draw-black": 0.56, "add-siege": 0.4}
    return {"lose-life": 1 / 3, "draw-black": 1 / 3, "add-siege": 1 / 3}  # noisy, random


# ---------------------------------------------------------------------- Merlin's pool
def _pool(policy: str, worth: float, hand: float) -> Dist:
    """Pledge a Merlin against a special black card (SOC-BLACK-4)? Every knight is asked,
    holder or not (SOC-RULING-19): only a holder can pledge."""
    holds = 1.0 - 0.89 ** max(0.0, hand)
    pledge = {
        "heuristic": 0.9 if worth >= 2 else 0.1,
        "cautious": 0.8 if worth >= 1.5 else 0.1,
        "bold": 0.8 if worth >= 2.5 else 0.2,
        "heuristic-traitor": 0.6 if worth >= 3 else 0.1,
        "saboteur": 0.02,
    }.get(policy, 0.5)
    return {"pledge-merlin": holds * pledge, "pass": 1.0 - holds * pledge}


# ---------------------------------------------------------------------- shared rewards
def _share(policy: str, fewest: float, candidates: float) -> Dist:
    """Whom a knight gives a shared reward (SOC-QUEST-5): ``fewest`` is 1 when his own hand
    is (one of) the smallest of those who may receive, 0 otherwise."""
    uniform = 1.0 / max(1.0, candidates)
    own = {
        "heuristic": 0.8 if fewest else 0.05,
        "cautious": 0.8 if fewest else 0.05,
        "bold": 0.7 if fewest else 0.1,
        "heuristic-traitor": 0.8 if fewest else 0.15,
        "saboteur": 0.9,
    }.get(policy, uniform)
    return {"self": own, "other": 1.0 - own}


# ---------------------------------------------------------------------- targets
def _war_target(policy: str, *_: float) -> Dist:
    """Which war gets a Pict or Saxon figure: the one nearer defeat harms the knights."""
    harm = {"saboteur": 0.9, "heuristic-traitor": 0.5, "random": 0.5, "noisy": 0.5}
    weaker = harm.get(policy, 0.1)
    return {"nearer-defeat": weaker, "further": 1.0 - weaker}


def _merlin_target(policy: str, options: float) -> Dist:
    """Where a knight sends a Merlin: the target a loyal knight would find most urgent,
    the least urgent, or another (``options`` targets in all)."""
    k = max(2.0, options)
    if policy in ("noisy", "random"):
        return {"best": 1 / k, "worst": 1 / k, "other": (k - 2) / k}
    best, worst = {"saboteur": (0.1, 0.8), "heuristic-traitor": (0.3, 0.1)}.get(
        policy, (0.8, 0.05))
    if k <= 2:
        return {"best": best / (best + worst), "worst": worst / (best + worst), "other": 0.0}
    return {"best": best, "worst": worst, "other": 1.0 - best - worst}


#: Where a knight's first heroic action of a turn is read (:func:`_heroic`).
AT_EXCALIBUR, AT_SOLO_QUEST, AT_SIEGE = 0.0, 1.0, 2.0


def _heroic(policy: str, where: float) -> Dist:
    """A knight's first heroic action of his turn (SOC-HERO-1), where standing still tells:
    on Excalibur while it is open (``AT_EXCALIBUR``: any white card moves the sword), on a
    solo combat quest he went to (``AT_SOLO_QUEST``: the Black Knight or Lancelot,
    SOC-BK-1), at Camelot with 9 or more engines and 3 or more cards (``AT_SIEGE``:
    fighting an engine, SOC-SIEGE-1). Choices: ``play`` (the quest's action: a card, or a
    siege fight), ``move`` (leaving) or ``other`` (heal, a special card, drawing...)."""
    if where == AT_SIEGE:
        fight = {"heuristic": 0.35, "cautious": 0.45, "bold": 0.3,
                 "heuristic-traitor": 0.05, "saboteur": 0.01}.get(policy, 0.3)
        return {"play": fight, "other": 1.0 - fight}
    if policy in ("noisy", "random"):
        return {"play": 1 / 3, "move": 1 / 3, "other": 1 / 3}
    if where == AT_EXCALIBUR:
        play, move = {"heuristic-traitor": (0.25, 0.45), "saboteur": (0.02, 0.6)}.get(
            policy, (0.85, 0.02))
    else:
        play, move = {"heuristic-traitor": (0.25, 0.35), "saboteur": (0.02, 0.5)}.get(
            policy, (0.8, 0.1))
    return {"play": play, "move": move, "other": 1.0 - play - move}


_MODELS: dict[str, Callable[..., Dist]] = {
    "evil": _evil, "pool": _pool, "share": _share, "war-target": _war_target,
    "merlin": _merlin_target, "heroic": _heroic,
}


def _mixture(family: tuple[tuple[str, float], ...], model: Callable[..., Dist],
             deed: Deed) -> float:
    total = 0.0
    for policy, weight in family:
        if policy == "stealth":
            total += weight * _mixture(LOYAL_FAMILY, model, deed)
        else:
            total += weight * model(policy, *deed.context).get(deed.choice, 0.0)
    return total


@mypyc_attr(allow_interpreted_subclasses=True)
class SeatRecord:
    """Everything one knight's public deeds say, read as a *whole history*: a knight
    follows one policy for the game, so the chance of his record under each policy of the
    families is the product over his deeds, and the families mix those products (not each
    deed on its own). A record a stealthy traitor could have made as well as a loyal knight
    then keeps a ratio of at least the stealth weight (0.3): a long loyal-looking record
    never proves a knight loyal, where multiplying per-deed ratios (each below 1) would.

    >>> record = SeatRecord()
    >>> for _ in range(40):
    ...     record.add(Deed(1, "heroic", "play", (AT_EXCALIBUR,)))
    >>> 0.3 <= record.ratio() < 0.31
    True
    >>> record.add(Deed(1, "accused", "loyal", ()))  # a wrong accusation: x12
    >>> round(record.ratio(), 1)
    3.6
    """

    def __init__(self) -> None:
        #: Log-probability of the record under each named policy of the two families.
        self._logs: dict[str, float] = dict.fromkeys(_POLICIES, 0.0)
        #: Product of the ratios read deed by deed (accusations and their outcome).
        self._hard = 1.0

    def add(self, deed: Deed) -> None:
        """Read one more deed of this knight."""
        if deed.decision == "accused":
            self._hard *= likelihood_ratio(deed)
            return
        model = _MODELS.get(deed.decision)
        if model is None:
            return
        for policy in _POLICIES:
            chance = model(policy, *deed.context).get(deed.choice, 0.0)
            self._logs[policy] += math.log(max(chance, 1e-6))

    def ratio(self) -> float:
        """``P(record | traitor) / P(record | loyal)`` under the two families."""
        top = max(self._logs.values())
        scaled = {p: math.exp(v - top) for p, v in self._logs.items()}
        loyal = sum(w * scaled[p] for p, w in LOYAL_FAMILY)
        traitor = sum(w * (loyal if p == "stealth" else scaled[p]) for p, w in TRAITOR_FAMILY)
        return self._hard * (traitor / loyal if loyal > 0.0 else 10.0)


#: Every named policy of the two families (the stealth traitor is the loyal mixture).
_POLICIES = tuple(p for p, _ in LOYAL_FAMILY + TRAITOR_FAMILY if p != "stealth")


def likelihood_ratio(deed: Deed) -> float:
    """``P(deed | traitor) / P(deed | loyal)`` under the two families (1.0: no evidence)."""
    if deed.decision == "accused":
        return ACCUSED_LOYAL_RATIO if deed.choice == "loyal" else ACCUSED_TRAITOR_RATIO
    model = _MODELS.get(deed.decision)
    if model is None:
        return 1.0
    loyal = _mixture(LOYAL_FAMILY, model, deed)
    traitor = _mixture(TRAITOR_FAMILY, model, deed)
    if loyal <= 0.0:
        return 1.0 if traitor <= 0.0 else 10.0
    return traitor / loyal
