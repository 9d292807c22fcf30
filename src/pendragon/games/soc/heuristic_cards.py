"""What the Shadows over Camelot heuristic knows of the cards: the worth of a black card
to the Merlins (:data:`_POOL_WORTH`) and its harm when played (:func:`_black_harm`), the
combinations of the combat quests (:func:`_best_combo`), Fight card values, and which
knight a seat choice names by hand size (:func:`seat_by_hand`).

Pure functions of observations and action texts, shared by the heuristic's decisions, its
reading of the public record and the open traitors (:mod:`pendragon.games.soc.saboteur`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

Obs = dict[str, Any]

#: Black cards worth three Merlins (SOC-BLACK-4), by how much we want them gone.
_POOL_WORTH = {
    "morgan-3": 3.0,
    "morgan-4": 2.5,
    "mist-of-avalon": 2.5,
    "vivien": 1.5,
    "morgan-1": 2.0,
    "desolation": 1.5,
    "dark-forest": 1.2,
    "mordred": 1.5,
    "guinevere": 1.0,
    "morgan-2": 0.8,
    "morgan-5": 0.8,
    # Morgan's witches (Merlin's Company, MC-B-WITCH-1 to MC-B-WITCH-7).
    "witch-7": 2.0,
    "witch-3": 2.0,
    "witch-4": 1.5,
    "witch-2": 1.2,
    "witch-6": 1.0,
    "witch-5": 0.5,
}
#: Harm of a black card when played (for Clairvoyance, the Armor and Percival's peek).
_BLACK_HARM = {
    "morgan-3": 9, "morgan-4": 8, "mist-of-avalon": 8, "morgan-1": 7, "desolation": 6,
    "vivien": 6, "mordred": 6, "dark-forest": 5, "guinevere": 5, "morgan-2": 4, "morgan-5": 4,
    "despair": 4, "excalibur": 3, "picts": 3, "saxons": 3, "mercenaries": 3,
    "black-knight-7": 4, "lancelot-7": 4, "black-knight-5": 3, "lancelot-5": 3,
    "black-knight-3": 2, "lancelot-3": 2, "black-knight-1": 1, "lancelot-1": 1,
    "witch-7": 7, "witch-3": 7, "witch-4": 6, "witch-2": 5, "witch-6": 4, "witch-5": 3,
    "witch-1": 2,
}
_WARS = ("picts", "saxons")

#: Combinations of the combat quests as (strength, values needed): two pairs of different
#: values (SOC-BK-1), a full house (SOC-LANCELOT-1), three different triples (SOC-DRAGON-1).
_BK_COMBOS = tuple(sorted(
    ((2 * a + 2 * b, {a: 2, b: 2}) for a in range(1, 6) for b in range(a + 1, 6)),
    key=lambda c: -c[0]))
_LANCELOT_COMBOS = tuple(sorted(
    ((3 * a + 2 * b, {a: 3, b: 2}) for a in range(1, 6) for b in range(1, 6) if a != b),
    key=lambda c: -c[0]))
_DRAGON_COMBOS = tuple(sorted(
    ((3 * (a + b + c), {a: 3, b: 3, c: 3})
     for a in range(1, 6) for b in range(a + 1, 6) for c in range(b + 1, 6)),
    key=lambda c: -c[0]))
_COMBO_SETS = (_BK_COMBOS, _LANCELOT_COMBOS, _DRAGON_COMBOS)
#: Mean value of a Black Knight card (5x1, 3x3, 2x5, 1x7) and of a Lancelot card (4x1,
#: 3x3, 3x5, 1x7), SOC-B-BLACKKNIGHT, SOC-B-LANCELOT.
_BK_AVERAGE = 31 / 11
_LANCELOT_AVERAGE = 35 / 11
#: Black cards of one combat quest arriving per turn of ours (about 3.3 black cards a
#: round at 5 knights, 11 of the 76 for each combat quest).
_COMBAT_ARRIVALS = 0.48


def _best_combo(
    combos: tuple[tuple[int, dict[int, int]], ...], placed: Sequence[int],
    fights: dict[int, int], solo: bool = True,
) -> tuple[int, int, int] | None:
    """(strength, cards still to play, cards of them the hand holds) of the strongest
    combination holding ``placed`` that the hand completes (``solo``), or that the hand
    helps with most (a group quest: the Dragon).

    >>> _best_combo(_BK_COMBOS, [5], {1: 0, 2: 0, 3: 2, 4: 0, 5: 1})
    (16, 3, 3)
    """
    held = tuple(fights.get(v, 0) for v in range(1, 6))
    return _best_combo_cached(_COMBO_SETS.index(combos), tuple(sorted(placed)), held, solo)


@functools.lru_cache(maxsize=1 << 16)
def _best_combo_cached(
    which: int, placed: tuple[int, ...], held: tuple[int, ...], solo: bool
) -> tuple[int, int, int] | None:
    """:func:`_best_combo` on hashable arguments (rollouts ask the same questions often)."""
    counts: dict[int, int] = {}
    for v in placed:
        counts[v] = counts.get(v, 0) + 1
    best: tuple[int, int, int] | None = None
    best_key: tuple[int, int] | None = None
    for strength, need in _COMBO_SETS[which]:
        if any(need.get(v, 0) < c for v, c in counts.items()):
            continue
        missing = {v: n - counts.get(v, 0) for v, n in need.items()}
        supply = sum(min(held[v - 1], m) for v, m in missing.items())
        total = sum(missing.values())
        if solo and supply < total:
            continue
        key = (supply, strength)
        if best_key is None or key > best_key:
            best, best_key = (strength, total, supply), key
    return best


def _fight_values(hand: dict[str, int]) -> dict[int, int]:
    return {v: hand.get(f"fight-{v}", 0) for v in range(1, 6)}



def _fight_play_value(text: str) -> int:
    """The value of a ``play:fight-N`` action, with a "?" card (``play:fight-any``) as 6:
    a key above every printed card (it fights as a 5, the value asked for it next)."""
    return int(text[11:]) if text[11:].isdigit() else 6


def _fight_card(value: int) -> str:
    return "fight-any" if value == 6 else f"fight-{value}"


def _black_harm(card: str) -> float:
    """How much a black card hurts the knights when played (``_BLACK_HARM``; 3 if unlisted)."""
    return _BLACK_HARM.get(card, 3)


def _siege_engines_of(card: str, obs: Obs) -> int:
    """Siege engines the black ``card`` adds when played: Morgan's two (SOC-B-MORGAN-4),
    or one for a card whose quest is over (SOC-BLACK-3, SOC-QUEST-6)."""
    quests = obs["quests"]
    if card == "morgan-4":
        return 2
    if card == "excalibur":
        return 1 if quests["excalibur"]["over"] else 0
    if card in ("despair", "desolation", "dark-forest"):
        return 1 if quests["grail"]["over"] else 0
    if card.startswith("lancelot"):
        return 1 if quests["lancelot"]["side"] == "over" else 0
    return 0


def seat_by_hand(obs: Obs, texts: dict[str, int], most: bool) -> str | None:
    """The ``seat:N`` choice naming the knight with the fewest cards in hand (``most``: the
    most; the first of equals); None when ``texts`` names no seat.

    >>> obs = {"knights": [{"hand_size": 3}, {"hand_size": 1}, {"hand_size": 5}]}
    >>> seat_by_hand(obs, {"seat:0": 1, "seat:1": 2, "seat:2": 3}, most=False)
    'seat:1'
    >>> seat_by_hand(obs, {"seat:0": 1, "seat:2": 3}, most=True), seat_by_hand(obs, {}, True)
    ('seat:2', None)
    """
    seats = [int(t[5:]) for t in texts if t.startswith("seat:")]
    if not seats:
        return None
    knights = obs["knights"]
    return f"seat:{(max if most else min)(seats, key=lambda s: int(knights[s]['hand_size']))}"
