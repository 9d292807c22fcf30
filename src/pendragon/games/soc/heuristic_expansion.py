"""The Merlin's Company part of the Shadows over Camelot heuristic (MC-* rules).

:class:`MerlinsCompanyPolicy` is a mixin of :class:`~pendragon.games.soc.heuristic.SocHeuristicBot`:
it holds the policy functions (``_d_<decision>``) of the expansion's own decisions and
scores the expansion's heroic actions, so the base-game policy stays readable.

The policies, as a loyal knight plays them:

* **Travel cards** (MC-TRAVEL-*): Charged! is paid with the cheapest pair rather than a
  black sword; Lost! is paid with a Grail card unless it is the last one and the knight is
  bound for the Grail; Ambushed! is fought when the knight's best three Fight cards make the
  fight likely to be won (the engine is on the table either way).
* **Moves** (MC-TRAVEL): the base policy's score of a move to a quest, less a travel risk
  when the knight holds no pair to pay Charged! with, plus Merlin's card at the
  destination and Sir Gareth's card on arrival (the base score is asked for through a
  re-entrancy guard, so it follows whatever the base policy does).
* **Captured knights** (MC-TRAVEL-CAPTURED): freeing one is worth almost any special card
  (a captured knight skips his turns until freed); the cheapest is spent.
* **The Merlin figure** (MC-MERLIN): his free card is always taken, first; Merlin to the
  Rescue sends him to the open quest where most knights stand (on a finished quest he does
  nothing).
* **New white cards**: "?" cards take the missing value on a war, a value that fits the
  combination on a combat quest and 5 in a siege fight (MC-W-FIGHT-ANY); Truce on a war
  about to be lost; Dispel on the worst lasting black card; Tournament and Dragon Slayer as
  life and cards; Divine Favor laid when nothing better is to be done; Call for Help from a
  war or the Grail, and answered by knights who could play there; New Hope kept to free a
  captive.
* **New knights**: Gaheris trades three cheap cards for a Merlin, Bedivere swaps a weak
  card, Caradoc turns a spare life into two cards, Lamorak pays a forced loss with two
  cards when life is short; Bors takes part in the Black Knight's face-down reward when his
  hand is smaller than the winner's would be after the winner's own share (``_d_bors_deal``).
* **Morgan's Witch 4**: a Grail card rather than a life, unless life is plentiful.
* **Progression of Evil** (:meth:`expansion_evil`, for the base ``_d_evil`` to ask first):
  Sir Geraint skips it with two cheap cards (MC-KNIGHT-GERAINT).

As the traitor it keeps to what looks like bad luck or thrift: it refuses Charged! (a black
sword) more often than not and never fights an Ambush, moves without minding the travel
risk, frees no captive, keeps Truce, Dispel, Call for Help and Merlin to the Rescue in hand
(were it to play them, they would go where they do least), does not answer Call for Help, gives
Grail cards to Morgan's Witch 4, and as Sir Bors always takes his card of the Black Knight's
reward.

The only state it keeps (``_mc_siege``) is from its own seat's observations: the siege
engines at its last heroic decision, so that a travel decision can tell Lost! from
Ambushed! (both offer ``stay``/``go``; the Ambush has added an engine).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from pendragon.bots.policy import PolicyBot

Obs = dict[str, Any]

_WARS = ("picts", "saxons")
_COMBAT = ("black-knight", "lancelot")
#: Both (a constant: mypyc cannot compile ``in`` over a tuple display with starred items).
_QUESTS = (*_WARS, *_COMBAT)
#: What the expansion's special white cards are worth keeping (the cheapest frees a
#: captive first); the base game's specials are worth 6 and a Merlin 9 (``card_worth``).
_SPECIAL_WORTH = {
    "new-hope": 1.0,
    "divine-favor": 2.0,
    "call-for-help": 2.5,
    "merlin-to-the-rescue": 3.5,
    "dragon-slayer": 4.0,
    "dispel": 5.0,
    "truce": 5.0,
    "tournament": 6.0,
}
_BASE_SPECIALS = frozenset((
    "merlin", "convocation", "fate", "heroism", "lady-of-the-lake", "messenger", "piety",
    "clairvoyance", "reinforcements",
))
#: How much a lasting black card hurts the knights (MC-W-DISPEL targets).
_DISPEL_WORTH = {
    "dark-forest": 5.0,
    "mist-of-avalon": 4.0,
    "witch-7": 4.0,
    "vivien": 3.5,
    "witch-2": 3.0,
    "mordred": 2.5,
    "witch-6": 2.0,
    "witch-5": 1.0,
}


def card_worth(card: str, hand: dict[str, int]) -> float:
    """How much a white card is worth keeping (lower is given, discarded or spent first).

    Spares of a Fight value are worth less than the first copies; a "?" card is the best
    Fight card (MC-W-FIGHT-ANY).

    >>> card_worth("fight-1", {"fight-1": 4}) < card_worth("fight-1", {"fight-1": 1})
    True
    >>> card_worth("merlin", {}) > card_worth("fight-any", {}) > card_worth("fight-5", {})
    True
    """
    if card == "merlin":
        return 9.0
    if card == "fight-any":
        return 5.5
    if card.startswith("fight-") and card[6:].isdigit():
        return 2.0 + int(card[6:]) * 0.6 - 0.4 * max(0, hand.get(card, 0) - 2)
    if card == "grail":
        return 4.0 - 0.3 * max(0, hand.get("grail", 0) - 3)
    return _SPECIAL_WORTH.get(card, 6.0)


def pick(
    texts: Iterable[str], prefix: str, key: Callable[[str], float], highest: bool = True
) -> str | None:
    """The action text starting with ``prefix`` whose argument (the text after the prefix)
    ``key`` rates highest (lowest when not ``highest``); None when there is none.

    >>> pick(["target:picts", "target:saxons", "pass"], "target:", len)
    'target:saxons'
    >>> pick(["pass"], "target:", len) is None
    True
    """
    picks = [t for t in texts if t.startswith(prefix)]
    if not picks:
        return None
    return (max if highest else min)(picks, key=lambda t: key(t[len(prefix):]))


def _cheapest(hand: dict[str, int], count: int) -> float:
    """Total worth of the ``count`` cheapest cards of ``hand``."""
    costs = sorted(card_worth(c, hand) for c, n in hand.items() for _ in range(n))
    return sum(costs[:count])


def fight_list(hand: dict[str, int]) -> list[int]:
    """Values of the Fight cards in hand, best first ("?" counts as a 5)."""
    values = [5] * hand.get("fight-any", 0)
    for v in range(5, 0, -1):
        values += [v] * hand.get(f"fight-{v}", 0)
    return values


@mypyc_attr(allow_interpreted_subclasses=True)
class MerlinsCompanyPolicy(PolicyBot[None]):
    """Policies for the decisions and heroic actions that only the expansion has: the
    root of the heuristic's classes (:class:`~pendragon.games.soc.heuristic_judgement.SocJudge`
    builds on it), and so the :class:`~pendragon.bots.base.PolicyBot` of the line (mypyc
    compiles single inheritance only)."""

    #: A move to a quest without a pair to pay Charged! (2 of 16 travel cards) risks a
    #: black sword: this much off the move's score.
    travel_no_pair: ClassVar[float] = 1.5
    #: The Merlin figure on an open quest: a free card a turn for each knight there.
    merlin_destination: ClassVar[float] = 1.5

    #: The tie-breaks' generator (seeded by :class:`SocJudge`).
    _rng: random.Random

    def __init__(self) -> None:
        #: Siege engines at each seat's last heroic decision (its own observation).
        self._mc_siege: dict[int, int] = {}
        #: Whether a heroic action is being scored by the base policy on our behalf.
        self._mc_inner = False

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _me(obs: Obs) -> dict[str, Any]:
        knight: dict[str, Any] = obs["knights"][obs["seat"]]
        return knight

    @staticmethod
    def _hand(obs: Obs) -> dict[str, int]:
        hand: dict[str, int] = obs["you"]["hand"]
        return hand

    def _is_traitor(self, obs: Obs) -> bool:
        """Whether the seat plays the traitor's branches (an instance method, not a static
        one: subclasses answer for it, and compiled code calls a static method directly)."""
        return bool(obs["you"]["loyalty"] == "traitor")

    def _quest_plan(self, obs: Obs) -> dict[str, float]:
        """The worth of going to each quest (:class:`SocJudge`)."""
        raise NotImplementedError

    def _heroic_score(self, obs: Obs, text: str, texts: dict[str, int]) -> float:
        """The base policy's score of a heroic action (:class:`SocJudge`)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ own record
    def _siege_seen(self) -> dict[int, int]:
        """Siege engines at each seat's last heroic decision (its own observation)."""
        return self._mc_siege

    # ------------------------------------------------------------------ evil phase
    def expansion_evil(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """The Progression of Evil's expansion choice, or None to let the base policy
        choose: MC-KNIGHT-GERAINT skips it with two white cards when two cheap ones are
        there (or life is short). The traitor never skips his evil, nor does Geraint left
        alone: with no other knight to move the game on, skipping every turn and drawing
        the cards back would stall it until the safety cap, a defeat (SOC-END-4). Merlin's
        free card comes first (MC-MERLIN, MC-RULING-24): a black card may yet end the quest
        and send the knight home before his heroic phase."""
        if "merlin-draw" in texts and not self._is_traitor(obs):
            return "merlin-draw"
        if "geraint-skip-evil" not in texts or self._is_traitor(obs):
            return None
        if sum(1 for k in obs["knights"] if k["status"] == "in-play") <= 1:
            return None
        me = self._me(obs)
        cost = _cheapest(self._hand(obs), 2)
        if int(me["life"]) <= 2 or (int(me["hand_size"]) >= 4 and cost <= 7.0):
            return "geraint-skip-evil"
        return None

    # ------------------------------------------------------------------ heroic phase
    def expansion_heroic_score(self, obs: Obs, text: str, texts: dict[str, int]) -> float | None:
        """Score of an expansion heroic action, or None when ``text`` is a base-game action
        (the base policy scores those). Called for the traitor too (through the base
        scoring), which plays these actions its own way."""
        if self._mc_inner:
            return None  # the base score of a move, asked for by _move_score below
        # Remember the engines now: a travel card after a move may add one (Ambushed!).
        self._siege_seen()[obs["seat"]] = int(obs["siege_engines"])
        kind, _, arg = text.partition(":")
        decks = obs["decks"]
        travel = int(decks["travel"]) + int(decks["travel_discard"]) > 0  # MC-TRAVEL
        if kind == "move" and arg != "camelot" and travel:
            return self._move_score(obs, text, texts)
        traitor = self._is_traitor(obs)
        me = self._me(obs)
        hand = self._hand(obs)
        life = int(me["life"])
        size = int(me["hand_size"])
        if kind == "merlin-draw":  # MC-MERLIN: a free card, before anything else
            return 20.0
        if kind == "gaheris-merlin":  # MC-KNIGHT-GAHERIS: 3 cards for a Merlin
            cost = _cheapest(hand, 3)
            return 0.6 if size >= 6 and cost <= 8.0 else -1.0
        if kind == "bedivere-swap":  # MC-KNIGHT-BEDIVERE: one weak card for a new one
            return 0.4 if _cheapest(hand, 1) < 3.3 else -1.0
        if kind == "caradoc-trade":  # MC-KNIGHT-CARADOC: a life for 2 cards
            spare = life >= 5 or (life == 4 and size <= 3 and int(obs["siege_engines"]) < 8)
            return 0.5 if spare and size <= 9 else -1.0
        if kind == "free":  # MC-TRAVEL-CAPTURED
            if traitor:
                return -1.0
            specials = [c for c in hand if c in _SPECIAL_WORTH or c in _BASE_SPECIALS]
            cheapest = min((card_worth(c, hand) for c in specials), default=9.0)
            return 8.0 - 0.3 * cheapest
        if kind == "special" and arg in _EXPANSION_SPECIALS:
            return self._mc_special_score(obs, arg, traitor)
        if kind == "play" and arg == "fight-any" and me["location"] == "excalibur":
            return 1.0  # the best Fight card: not for moving the sword
        return None

    def _move_score(self, obs: Obs, text: str, texts: dict[str, int]) -> float:
        """MC-TRAVEL: the base score of a move to a quest, less the travel risk it runs
        (Charged! without a pair lays a black sword), plus Merlin's card at the
        destination (MC-MERLIN) and Sir Gareth's card on arrival (MC-KNIGHT-GARETH)."""
        self._mc_inner = True
        try:
            score = self._heroic_score(obs, text, texts)
        finally:
            self._mc_inner = False
        hand = self._hand(obs)
        pair = any(
            hand.get(f"fight-{v}", 0) >= 2 for v in ("1", "2", "3", "4", "5", "any")
        )
        if not pair and not self._is_traitor(obs):
            score -= self.travel_no_pair
        destination = text[5:]
        if obs["effects"]["merlin"] == destination:
            score += self.merlin_destination
        if self._me(obs)["knight"] == "gareth":
            score += 0.5
        return score

    def _mc_special_score(self, obs: Obs, card: str, traitor: bool) -> float:
        me = self._me(obs)
        life = int(me["life"])
        size = int(me["hand_size"])
        quests = obs["quests"]
        if card == "tournament":  # MC-W-TOURNAMENT: 2 life
            score = 9.5 if life <= 2 else 4.0 if life <= 3 else 1.0 if life <= 4 else -1.0
            return score if not traitor or life <= 3 else -1.0
        if card == "dragon-slayer":  # MC-W-DRAGON-SLAYER
            if self._slayer_fight(obs):
                return 7.0
            return 4.5 - 0.3 * size
        if card == "divine-favor":  # MC-W-DIVINE-FAVOR
            return 1.0 if not traitor else -1.0
        if card == "new-hope":  # MC-W-NEW-HOPE: kept to free a captive
            return -1.0
        if traitor:
            return -1.0  # Truce, Dispel, Call for Help, Merlin to the Rescue: kept
        if card == "truce":  # MC-W-TRUCE
            return max(self._truce_worth(obs, war) for war in _WARS)
        if card == "dispel":  # MC-W-DISPEL
            best = max((self._dispel_worth(obs, k) for k in _dispel_targets(obs)), default=0.0)
            return best - 0.5
        if card == "call-for-help":  # MC-W-CALL-FOR-HELP
            location = me["location"]
            if location in _WARS:
                missing = 5 - len(set(quests[location]["white"]))
                return 0.5 + 0.8 * int(quests[location]["figures"]) + 0.3 * missing
            if location == "grail":
                return 0.5 + 0.4 * len(quests["grail"]["black"])
            return 0.0
        if card == "merlin-to-the-rescue":  # MC-W-MERLIN-RESCUE
            current = obs["effects"]["merlin"]
            here = self._merlin_worth(obs, current) if current else 0.0
            best = max(self._merlin_worth(obs, q) for q in _QUEST_KEYS)
            return best - here - 0.5
        return -1.0

    # ------------------------------------------------------------------ worths
    @staticmethod
    def _truce_worth(obs: Obs, war: str) -> float:
        board = obs["quests"][war]
        figures = int(board["figures"])
        whites = len(board["white"])
        if figures == 0:
            return -2.0
        return figures * 2.5 - whites * 1.2 - 2.0 + (3.0 if figures >= 3 else 0.0)

    @staticmethod
    def _dispel_worth(obs: Obs, card: str) -> float:
        if card == "dark-forest" and obs["quests"]["grail"]["over"]:
            return 0.0
        return _DISPEL_WORTH.get(card, 1.0)

    @staticmethod
    def _merlin_worth(obs: Obs, quest: str) -> float:
        """What the Merlin figure does for the knights on ``quest`` (MC-MERLIN): a card a
        turn for each knight on an open quest; nothing on a finished one."""
        quests = obs["quests"]
        over = {
            "excalibur": bool(quests["excalibur"]["over"]),
            "grail": bool(quests["grail"]["over"]),
            "lancelot": quests["lancelot"]["side"] == "over",
        }
        if over.get(quest, False) or quest == "camelot" or quest not in quests:
            return 0.0
        knights = quests[quest]["knights"]
        return 1.2 * len(knights)

    def _slayer_fight(self, obs: Obs) -> bool:
        me = self._me(obs)
        lance = obs["quests"]["lancelot"]
        if me["location"] != "lancelot" or lance["side"] != "dragon":
            return False
        return len(fight_list(self._hand(obs))) >= 2

    # ------------------------------------------------------------------ decisions
    def _d_travel(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-TRAVEL-LOST / -AMBUSHED / -CHARGED: the choice a travel card offers."""
        traitor = self._is_traitor(obs)
        hand = self._hand(obs)
        pairs = [t for t in texts if t.startswith(("play:", "charge-with-any:"))]
        if pairs:  # Charged!: a pair of identical Fight cards, or a black sword
            if traitor and self._rng.random() < 0.6:
                return "stay"
            # A pair made with a "?" (MC-RULING-4) spends the "?" too.
            return min(pairs, key=lambda t: card_worth(t.partition(":")[2], hand) + (
                card_worth("fight-any", hand) if t.startswith("charge") else 0.0))
        if "go" not in texts:
            return "stay"
        fights = fight_list(hand)
        siege_then = self._siege_seen().get(obs["seat"], -2)
        # Lost! offers "go" only with a Grail card; the Ambush always (SOC-RULING-25), and
        # it has just added an engine.
        ambushed = int(obs["siege_engines"]) == siege_then + 1 or not hand.get("grail", 0)
        if ambushed:  # MC-TRAVEL-AMBUSHED: fight the new engine now
            if traitor:
                return "stay"
            strength = sum(fights[:3])
            life = int(self._me(obs)["life"])
            if life <= 1:
                return "go" if strength >= 8 else "stay"
            return "go" if strength >= 6 or (strength >= 4 and life >= 4) else "stay"
        # MC-TRAVEL-LOST: a Grail card finds the way, unless it is the last one and the
        # way is to the Grail (where that card is all he could play).
        if traitor and self._rng.random() < 0.5:
            return "stay"
        plans = self._quest_plan(obs)
        bound = max(plans, key=lambda q: plans[q]) if plans else ""
        if bound == "grail" and hand.get("grail", 0) <= 1:
            return "stay"
        return "go"

    def _d_value(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-W-FIGHT-ANY, MC-RULING-4: the value of a "?" Fight card."""
        values = sorted(int(t[6:]) for t in texts if t.startswith("value:"))
        if not values:
            return None
        me = self._me(obs)
        location = me["location"]
        used = obs["turn"]["used"]
        on_quest = (
            location in _QUESTS
            and ("quest" in used or "special" in used)
            and (len(values) < 5 or location in _WARS)
            and obs["turn"]["seat"] == obs["seat"]
            and not obs["table"]["siege_fight"]["cards"]
        )
        if not on_quest:  # a siege fight or Sir Kay's extra card: the highest
            if self._is_traitor(obs):
                return f"value:{values[0]}"
            return f"value:{values[-1]}"
        hand = self._hand(obs)
        if location in _WARS:
            # The missing value no other card in hand covers, the highest first.
            uncovered = [v for v in values if not hand.get(f"fight-{v}", 0)]
            return f"value:{max(uncovered or values)}"
        board = obs["quests"][location]["white"]
        # A combat quest: match a value already played or held (to complete the pair or
        # set with the hand), the highest such; else the highest allowed.
        fitting = [v for v in values if v in board or hand.get(f"fight-{v}", 0)]
        return f"value:{max(fitting or values)}"

    def _d_lamorak(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-KNIGHT-LAMORAK: two white cards instead of a life when life is short."""
        if "lamorak-discard" not in texts:
            return "pass"
        me = self._me(obs)
        life = int(me["life"])
        size = int(me["hand_size"])
        if life <= 2 or (life == 3 and size >= 4) or (life >= 4 and size >= 8):
            return "lamorak-discard"
        return "pass"

    def _d_witch4(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-B-WITCH-4: a Grail card or a life."""
        if "play:grail" not in texts:
            return "lose-life"
        if self._is_traitor(obs):
            return "play:grail"
        life = int(self._me(obs)["life"])
        grail = obs["quests"]["grail"]
        needed = not grail["over"] and self._hand(obs).get("grail", 0) <= 2
        if life >= 5 or (life >= 4 and needed and grail["grail_cards"] >= 3):
            return "lose-life"
        return "play:grail"

    def _d_call(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-W-CALL-FOR-HELP: come (free move, no travel card) if useful there."""
        if "answer" not in texts or self._is_traitor(obs):
            return "pass"
        caller = obs["turn"]["seat"]
        if caller is None:
            return "pass"
        destination = obs["knights"][caller]["location"]
        me = self._me(obs)
        plans = self._quest_plan(obs)
        there = plans.get(destination, 0.0) if destination else 0.0
        here = plans.get(me["location"], 0.0) if me["location"] != "camelot" else 0.0
        if me["location"] in _COMBAT and here > 0:
            return "pass"  # leaving a solo quest costs its cards
        return "answer" if there > 0.5 and there >= here else "pass"

    def _d_dispel(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-W-DISPEL: the lasting black card that hurts most (least, as the traitor)."""
        return pick(texts, "choose-black:", lambda card: self._dispel_worth(obs, card),
                    highest=not self._is_traitor(obs))

    def _d_truce(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-W-TRUCE: the war closest to defeat (as the traitor: the most advanced)."""
        wars = [t for t in texts if t[7:] in _WARS and t.startswith("target:")]
        if not wars:
            return None
        if self._is_traitor(obs):
            return max(wars, key=lambda t: len(obs["quests"][t[7:]]["white"]))
        return max(wars, key=lambda t: self._truce_worth(obs, t[7:]))

    def _d_slayer(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-W-DRAGON-SLAYER: two Fight cards on the Dragon, else three white cards."""
        if "slayer:fight" in texts and self._slayer_fight(obs) and not self._is_traitor(obs):
            return "slayer:fight"
        return "slayer:draw"

    def _d_slayer_play(self, obs: Obs, texts: dict[str, int]) -> str | None:
        plays = [t for t in texts if t.startswith("play:")]
        if not plays:
            return None
        # Standard cards first (highest), the "?" card last (it fits anything).
        return max(plays, key=lambda t: int(t[11:]) if t[11:].isdigit() else 0)

    def _d_tournament(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-W-TOURNAMENT: two life (a squire only in the Squire's Challenge)."""
        return "self"

    def _d_rescue(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-W-MERLIN-RESCUE: where the Merlin figure does most (least, as the traitor)."""
        return pick(texts, "target:", lambda quest: self._merlin_worth(obs, quest),
                    highest=not self._is_traitor(obs))

    def _d_free_card(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-TRAVEL-CAPTURED, MC-RULING-7: the cheapest special card frees the captive."""
        plays = [t for t in texts if t.startswith("play:")]
        if not plays:
            return None
        hand = self._hand(obs)
        return min(plays, key=lambda t: card_worth(t[5:], hand))

    def _d_bors_deal(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """MC-KNIGHT-BORS, SOC-RULING-69: whether Sir Bors takes part in the Black Knight's
        face-down reward (2 cards to its winner and 1 to him, against all 3 to the winner).

        The traitor always takes part: a card kept from a loyal winner, one more in his own
        hand. A loyal Bors takes part when his hand is smaller than the winner's would be
        after the winner's own share (2 cards): then the deal leaves the two hands more even
        than the winner drawing all three, the rule the loyal sharing follows too (each card
        to the smaller hand, ``_d_share``). Only hand sizes are read, which are public. A
        random share's deal (SOC-RULING-77: its cards on show, ``table.offer``) he joins, loyal,
        when his hand is smaller than the smallest of the knights entitled to them.
        """
        if "volunteer" not in texts:
            return None
        if self._is_traitor(obs):
            return "volunteer"
        reward = obs["table"]["face_down_reward"]
        if reward is None:
            knights = obs["knights"]
            entitled = [int(knights[s]["hand_size"]) for s in obs["table"]["offer_to"]]
            smallest = min(entitled) if entitled else 0
            return "volunteer" if int(self._me(obs)["hand_size"]) < smallest else "pass"
        share = (int(reward["cards"]) + 1) // 2  # dealt round from the winner: 2 of 3
        winner = int(obs["knights"][int(reward["winner"])]["hand_size"]) + share
        return "volunteer" if int(self._me(obs)["hand_size"]) < winner else "pass"

    def _d_knighting(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """VAR-SQUIRES, MC-RULING-9: knight the squire with least life (he needs it most)."""
        seats = [int(t[5:]) for t in texts if t.startswith("seat:")]
        if not seats:
            return None
        if self._is_traitor(obs) and obs["seat"] in seats:
            return f"seat:{obs['seat']}"
        return f"seat:{min(seats, key=lambda s: obs['knights'][s]['life'])}"


_EXPANSION_SPECIALS = frozenset({
    "call-for-help", "dispel", "divine-favor", "dragon-slayer", "merlin-to-the-rescue",
    "new-hope", "tournament", "truce",
})
_QUEST_KEYS = ("black-knight", "lancelot", "excalibur", "grail", "picts", "saxons")


def _dispel_targets(obs: Obs) -> list[str]:
    """The lasting black cards on the table (MC-W-DISPEL)."""
    effects = obs["effects"]
    targets = [
        key for key, on in (
            ("vivien", effects["vivien"]),
            ("dark-forest", effects["dark_forest"]),
            ("mist-of-avalon", effects["mist"]),
            ("mordred", effects["mordred"] is not None),
        ) if on
    ]
    return targets + [f"witch-{n}" for n in effects["witches"]]
