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
proof: each ratio lies between about 0.3 and 7. Hard facts (a loyalty card shown after an
accusation, a traitor unmasked by Fate) are not evidence but certainties, and the belief
(:class:`pendragon.bots.belief.LoyaltyBelief`) settles them. The table of what each deed is
worth is in ``docs/bots.md``.

>>> round(likelihood_ratio(Deed(1, "evil", "draw-black", (3, 2))), 2)  # 3 life, 2 engines
1.3
>>> round(likelihood_ratio(Deed(1, "evil", "add-siege", (5, 10))), 2)  # the 11th engine
4.3
>>> round(likelihood_ratio(Deed(1, "accused", "loyal", ())), 1)  # accused a loyal knight
6.0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

#: Loyal policies a knight may follow, with the weight of each in the mixture.
LOYAL_FAMILY: tuple[tuple[str, float], ...] = (
    ("heuristic", 0.4), ("cautious", 0.2), ("bold", 0.2), ("noisy", 0.2),
)
#: Traitor policies, likewise ("stealth" plays as the loyal mixture does).
TRAITOR_FAMILY: tuple[tuple[str, float], ...] = (
    ("stealth", 0.3), ("heuristic-traitor", 0.35), ("saboteur", 0.2), ("random", 0.15),
)

#: Accusations: a loyal knight accuses on evidence and is rarely wrong; a wrong accusation
#: turns a white sword black (SOC-ACCUSE-3), a traitor's gain. Ratios for the accuser once
#: the accused's card is shown (SOC-ACCUSE-2).
ACCUSED_LOYAL_RATIO = 6.0
ACCUSED_TRAITOR_RATIO = 0.1


@dataclass(frozen=True, slots=True)
class Deed:
    """A public decision: who took it, the decision (the agenda's name), the choice (its
    action text, or for ``accused`` the loyalty the accused turned out to have) and the
    public figures it was taken on (see :func:`context_of`)."""

    seat: int
    decision: str
    choice: str
    context: tuple[float, ...]


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


_MODELS: dict[str, Callable[..., Dist]] = {
    "evil": _evil, "pool": _pool, "share": _share, "war-target": _war_target,
    "merlin": _merlin_target,
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
