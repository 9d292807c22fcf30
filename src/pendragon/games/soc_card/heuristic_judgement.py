"""How the card game heuristic judges a position: who is likely the traitor and what each
option is worth to the loyal side.

:class:`SocCardJudge` is the base of
:class:`~pendragon.games.soc_card.heuristic.SocCardHeuristicBot`: its parameters and
state, the traitor beliefs it keeps from watched turns (:class:`TraitorBelief`, weighed
through :meth:`SocCardJudge.choice_ratio`: every player's choice judged by the same model)
and the valuation of a turn's options (quest now, listen one card ahead) by sampling the
cards it cannot see. The decisions that use them are in
:mod:`pendragon.games.soc_card.heuristic_decisions`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from mypy_extensions import mypyc_attr

from pendragon.bots.belief import LoyaltyBelief
from pendragon.bots.policy import PolicyBot
from pendragon.core.api import State
from pendragon.games.soc_card.heuristic_memory import PileEntry, TableMemory, TurnSeen
from pendragon.games.soc_card.heuristic_values import (
    _ALL_QUEST_KINDS,
    _MORGAN_KINDS,
    _QUEST_KINDS_OF,
    QUEST_INDEX,
    Obs,
    PileValue,
    _RaceLookup,
    race_value,
)
from pendragon.games.soc_card.rules.actions import CATALOG
from pendragon.games.soc_card.rules.cards import (
    CARDS,
    IS_QUEST,
    KIND,
    MERLIN,
    MERLIN_4,
    MERLIN_6,
    MORGAN,
    NUM_KINDS,
    NUM_QUESTS,
    QUESTS,
    VIVIEN,
)


# ---------------------------------------------------------------------- belief
@mypyc_attr(allow_interpreted_subclasses=True)
class TraitorBelief(LoyaltyBelief):
    """A seat's belief about who holds a traitor card (or none): a weight for every set of
    traitors among the other seats (:class:`~pendragon.bots.belief.LoyaltyBelief`), from the
    loyalty deck (SCG-SETUP-1: with 2 to 6 players one traitor card among ``players + 2``;
    at 7, two among 9; two cards set aside).

    >>> belief = TraitorBelief(players=5, seat=0)
    >>> round(belief.probability(1), 3), round(belief.none(), 3)  # 1/6 each, 2/6 no traitor
    (0.167, 0.333)
    >>> belief.at_least_one_of((3,))  # a lie only seat 3 could have told
    >>> round(belief.probability(3), 3)
    0.976
    """

    def __init__(self, players: int, seat: int | None, traitors: int | None = None) -> None:
        self.players = players
        self.seat = seat
        deck = traitors if traitors is not None else 2 if players == 7 else 1
        others = [s for s in range(players) if s != seat]
        super().__init__(others, loyal=len(others) + 2 - deck, traitors=deck)


# ---------------------------------------------------------------------- the bot
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class _Options:
    """Values of a turn's options for the loyal side (probability to win)."""

    values: dict[str, float]
    slope: float
    base: float



@mypyc_attr(allow_interpreted_subclasses=True)
class SocCardJudge(PolicyBot[Obs]):
    """The parameters, state, beliefs and valuation of the card game heuristic (see
    :class:`~pendragon.games.soc_card.heuristic.SocCardHeuristicBot` for the arguments)."""

    #: Each coming sword is white with this probability (the race model).
    white_share: ClassVar[float] = 0.55
    #: Worth, in swords, of a pile left for the next player to listen on (a small loss:
    #: piles that grow bust their secondary quests).
    continue_swords: ClassVar[float] = -0.5
    #: Accuse when the accusation is worth this much more than the best other action.
    accuse_margin: ClassVar[float] = 0.0
    #: Least P(traitor) for an accusation, whatever the race says.
    accuse_floor: ClassVar[float] = 0.45
    #: Evidence of a watched turn. A loyal player picks an option with probability
    #: softmax(value in swords / turn_temperature); a traitor plays like him, except that
    #: with probability turn_harm he picks by softmax(-value / turn_temperature). The
    #: likelihood ratio is bounded to [1 - turn_harm, turn_cap].
    turn_temperature: ClassVar[float] = 0.35
    turn_harm: ClassVar[float] = 0.25
    turn_cap: ClassVar[float] = 8.0
    #: The temperature a traitor assumes the table judges it by (its cover).
    traitor_temperature: ClassVar[float] = 0.5
    #: A hidden traitor harms only while a spectator's P(he is the traitor) stays under
    #: this after his move (loyal players accuse from accuse_floor).
    traitor_cover: ClassVar[float] = 0.3
    #: ...and this much more once black swords are near the end.
    traitor_cover_late: ClassVar[float] = 0.25
    #: Chance that a seat known to be a traitor lies in an announcement.
    lie_rate: ClassVar[float] = 0.6
    #: Take a face-down card (Morgan #1) to be the very card its layer named, value and
    #: all, unless he is a proven liar (issue 37 item 7; off: only its quest, as before).
    use_told: ClassVar[bool] = True
    #: Where a search's rollout stops (``search_leaf``), a traitor still hidden is later
    #: unmasked with this probability (a white sword, SCG-ACCUSE-2), else turns a sword at
    #: the end (SCG-END-2): the heuristic unmasks 92% of traitors (docs/bots.md).
    search_unmask: ClassVar[float] = 0.85

    def __init__(self, seed: int | None = None, follow_table: bool = True,
                 track_beliefs: bool = True, samples: int = 10, quick: bool = False,
                 follow_public: bool = False) -> None:
        self.seed = seed
        self.follow_public = follow_public
        self.quick = quick
        self.track_beliefs = track_beliefs
        self.samples = samples
        self._rng = random.Random(seed)
        self.memory = TableMemory()
        self._replay: State | None = None
        self._history: list[int] = []
        self._game: object | None = None
        self._direct = not follow_table
        self._view: int | None = None
        self._beliefs: dict[int, TraitorBelief] = {}
        self._read: dict[int, int] = {}
        self._public: TraitorBelief | None = None
        self._public_read = 0

    # ------------------------------------------------------------------ who is who
    @staticmethod
    def _is_traitor(obs: Obs) -> bool:
        return bool(obs["you"]["loyalty"] == "traitor")

    def belief(self, obs: Obs) -> TraitorBelief:
        """The traitor belief of the seat of ``obs``, brought up to date."""
        seat = int(obs["seat"])
        belief = self._beliefs.get(seat)
        if belief is None:
            belief = TraitorBelief(int(obs["players"]), seat)
            self._beliefs[seat] = belief
            self._read[seat] = 0
        self._weigh(belief, seat, obs, self._read[seat])
        self._read[seat] = len(self.memory.evidence)
        for other, entry in enumerate(obs["seats"]):
            if other != seat and entry["loyalty"] is not None:
                belief.settle(other, entry["loyalty"] == "traitor")
        # (The keys are strings: a loop variable of its own, since compiled code types
        # ``other`` as the int of the loop above and refused the string.)
        for key, loyalty in obs["you"]["known_loyalties"].items():
            if int(key) != seat:
                belief.settle(int(key), loyalty == "traitor")
        return belief

    def public_belief(self, obs: Obs) -> TraitorBelief:
        """What a spectator would believe from the public evidence alone."""
        if self._public is None:
            self._public = TraitorBelief(int(obs["players"]), None)
            self._public_read = 0
        self._weigh(self._public, None, obs, self._public_read)
        self._public_read = len(self.memory.evidence)
        for other, entry in enumerate(obs["seats"]):
            if entry["loyalty"] is not None:
                self._public.settle(other, entry["loyalty"] == "traitor")
        return self._public

    def _weigh(self, belief: TraitorBelief, seat: int | None, obs: Obs, start: int) -> None:
        revealed = [s for s, e in enumerate(obs["seats"]) if e["loyalty"] is not None]
        for evidence in self.memory.evidence[start:]:
            if evidence.kind == "lie":
                suspects = [s for s in evidence.seats if s != seat
                            and obs["seats"][s]["loyalty"] != "loyal"]
                if suspects:
                    belief.at_least_one_of(suspects)
            elif evidence.kind == "vivien":
                belief.soften(0.25)
            elif not self.track_beliefs:
                continue
            elif evidence.kind == "turn" and evidence.turn is not None:
                if evidence.turn.seat != seat:
                    ratio = self._turn_ratio(evidence.turn, seat,
                                             belief.count_distribution(revealed))
                    if ratio != 1.0:
                        belief.weigh(evidence.turn.seat, ratio)
            elif evidence.kind == "accused" and evidence.seats[0] != seat:
                # A loyal player accuses on evidence: accusing a seat nobody suspected is
                # a traitor's way to a black sword (SCG-ACCUSE-2).
                accuser, target = evidence.seats
                if target == seat:
                    belief.weigh(accuser, 2.0)  # loyal players err too
                else:
                    belief.weigh(accuser, 4.0 if belief.probability(target) < 0.3 else 1.5)
            elif evidence.kind == "arthur" and evidence.turn is not None:
                if evidence.seats[0] != seat:
                    ratio = self._arthur_ratio(evidence.turn, seat,
                                               belief.count_distribution(revealed))
                    belief.weigh(evidence.seats[0], ratio)
            elif evidence.kind == "gawain" and evidence.before is not None:
                if evidence.seats[0] != seat and self._was_won(evidence.before):
                    belief.weigh(evidence.seats[0], 3.0)

    def _arthur_ratio(self, seen: TurnSeen, seat: int | None, flips: Sequence[float]) -> float:
        """Evidence of an Arthur played (SCG-EXPERT-5): stopping a quest worth more than a
        listen is a traitor's move."""
        if not _allowed(seen.before):
            return 1.0  # no quest was open: nothing stopped (the valuation is skipped)
        options = self._options(seen.before, seat, seen.entries, seen.discard_seen,
                                allowed=_allowed(seen.before), can_listen=True, samples=2,
                                flips=flips)
        quests = [v for k, v in options.values.items() if k.startswith("quest:")]
        if not quests or "listen" not in options.values:
            return 1.0
        return self.choice_ratio({"quest": max(quests), "listen": options.values["listen"]},
                                 options.slope, "listen")

    def _was_won(self, before: Obs) -> bool:
        resolving = before.get("resolving")
        if not resolving:
            return False
        pile = PileValue([KIND[c] for c in resolving["cards"]])
        return pile.outcome(QUEST_INDEX[resolving["quest"]])[0] > 0

    def _turn_ratio(self, turn: TurnSeen, seat: int | None, flips: Sequence[float]) -> float:
        """How much likelier a watched turn is from a traitor than from a loyal player."""
        if turn.action not in ("listen", "quest"):
            return 1.0
        before = turn.before
        allowed = _allowed(before)
        can_listen = _can_listen(before)
        if len(allowed) + (1 if can_listen else 0) < 2:
            # One option (a new pile can only be listened to): no choice to weigh, and the
            # valuation, which would find one value, is skipped (issue 40 item 5; it draws
            # from no shared generator, so skipping it changes nothing else).
            return 1.0
        options = self._options(before, seat, turn.entries, turn.discard_seen,
                                allowed=allowed, can_listen=can_listen,
                                samples=max(2, self.samples // 2), flips=flips)
        if len(options.values) < 2:
            return 1.0
        if turn.action == "listen":
            chosen = "listen"
        elif turn.quest >= 0:
            chosen = f"quest:{QUESTS[turn.quest]}"
        else:
            quests = [k for k in options.values if k.startswith("quest:")]
            if not quests:
                return 1.0
            chosen = max(quests, key=lambda k: options.values[k])
        if chosen not in options.values:
            return 1.0
        return self.choice_ratio(options.values, options.slope, chosen)

    def choice_ratio(self, values: dict[str, float], slope: float, chosen: str,
                     temperature: float | None = None) -> float:
        """P(``chosen`` | traitor) / P(``chosen`` | loyal) for options worth ``values``.

        >>> bot = SocCardJudge(seed=0)
        >>> round(bot.choice_ratio({"listen": 0.5, "quest:picts": 0.4}, 0.05, "quest:picts"), 2)
        8.0
        >>> round(bot.choice_ratio({"listen": 0.5, "quest:picts": 0.4}, 0.05, "listen"), 2)
        0.75
        """
        temperature = temperature or self.turn_temperature
        scaled = {k: v / max(slope, 1e-6) for k, v in values.items()}
        top, low = max(scaled.values()), min(scaled.values())
        loyal = {k: math.exp((v - top) / temperature) for k, v in scaled.items()}
        harm = {k: math.exp((low - v) / temperature) for k, v in scaled.items()}
        p_loyal = loyal[chosen] / sum(loyal.values())
        p_harm = harm[chosen] / sum(harm.values())
        ratio = (1 - self.turn_harm) + self.turn_harm * p_harm / max(p_loyal, 1e-12)
        return min(self.turn_cap, ratio)

    def _flips(self, obs: Obs, seat: int | None) -> list[float]:
        """P(0, 1, 2 traitors still hidden at the end), as ``seat`` sees it."""
        if obs["solo"]:
            return [1.0, 0.0, 0.0]
        revealed = [s for s, e in enumerate(obs["seats"]) if e["loyalty"] is not None]
        if seat is None:
            return self.public_belief(obs).count_distribution(revealed)
        if self._is_traitor(obs):
            mine = 0 if seat in revealed else 1
            if int(obs["players"]) == 7:
                # The other traitor card lies with another seat or aside.
                other = TraitorBelief(7, seat, traitors=1).count_distribution(revealed)
                return [other[0], other[1], 0.0] if not mine else [0.0, other[0], other[1]]
            return [1.0 - mine, float(mine), 0.0]
        return self.belief(obs).count_distribution(revealed)

    # ------------------------------------------------------------------ valuation
    def _options(
        self, obs: Obs, seat: int | None, entries: Sequence[PileEntry],
        discard_seen: Sequence[int], allowed: Sequence[int], can_listen: bool,
        samples: int | None = None, flips: Sequence[float] | None = None,
        token: int | None = None,
    ) -> _Options:
        """The value (loyal side's chance to win) of each quest now and of a listen."""
        memory = self.memory
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        if flips is None:
            flips = self._flips(obs, seat) if seat is not None else [1.0, 0.0, 0.0]
        share = self.white_share
        slope = max(1e-4, (race_value(white + 1, black, flips, share)
                           - race_value(white, black + 1, flips, share)) / 2)
        pool = memory.unseen(seat, obs, entries, discard_seen)
        you = obs.get("you") if seat is not None and obs.get("seat") == seat else None
        if token is None:
            token = -1
            if you is not None and you.get("merlin_4_token"):
                token = QUEST_INDEX[you["merlin_4_token"]]
            elif obs["merlin_4_token"]:
                token = -2  # somebody else's, unknown
        next_card = KIND[you["deck_seen"][0]] if you is not None and you["deck_seen"] else -1
        known: list[int] = []
        hidden: list[PileEntry] = []
        for entry in entries:
            kind = entry.known_to(seat)
            if kind >= 0:
                known.append(kind)
            else:
                hidden.append(entry)
        rounds = 1 if not hidden and token != -2 else (samples or self.samples)
        # Seeded only where a sample is drawn (seeding from text hashes it: issue 40 item 5);
        # with nothing hidden nothing is drawn, and the unused generator is never read.
        sampling = bool(hidden) or token == -2
        rng = random.Random(_decision_seed(self.seed, obs, seat)) if sampling else _UNUSED_RNG
        morgans_aside = int(obs["morgans_aside"])
        values: dict[str, float] = {}
        totals: dict[str, float] = {}

        going_on = self.continue_swords * slope
        valuer = _Valuer(_RaceLookup(flips, share), white, black, going_on)

        cont = 0.0
        keys = [f"quest:{QUESTS[quest]}" for quest in allowed]
        # Samples that complete the pile alike are valued once (the same numbers, added in
        # the same order: issue 40 item 5); the random draws are made as before.
        seen: dict[tuple[int, ...], tuple[float, list[float], float]] = {}
        for _ in range(rounds):
            left = list(pool)
            sampled: list[int] = []
            for entry in hidden:
                sampled.append(self._sample(entry, left, rng, obs))
            used = token if token != -2 else rng.randrange(NUM_QUESTS)
            sample_key = (used, *sorted(sampled))
            found = seen.get(sample_key)
            if found is None:
                pile = PileValue(known + sampled, used)
                outcomes = [valuer.value(pile.outcome(quest)) for quest in allowed]
                listen = 0.0
                if can_listen:
                    deck = _deck_weights(left, morgans_aside, obs, self.memory)
                    listen = self._listen_value(pile, deck, next_card, valuer, self.quick)
                found = (valuer.later(pile), outcomes, listen)
                seen[sample_key] = found
            cont += found[0] / rounds
            for index, key in enumerate(keys):
                totals[key] = totals.get(key, 0.0) + found[1][index]
            if can_listen:
                totals["listen"] = totals.get("listen", 0.0) + found[2]
        for key, total in totals.items():
            values[key] = total / rounds
        return _Options(values, slope, cont)

    def _sample(self, entry: PileEntry, pool: list[int], rng: random.Random, obs: Obs) -> int:
        """A card for a pile entry the seat cannot see, taken out of ``pool``."""
        if entry.announced >= 0:
            liar = entry.by in self.memory.proven
            if liar and rng.random() < self.lie_rate:
                candidates: Sequence[int] = _ALL_QUEST_KINDS
            elif not liar and self.use_told and entry.told >= 0 and pool[entry.told] > 0:
                # SCG-RULING-6: a loyal layer names the card he holds, value and all; only a
                # traitor lies, and one not proven a liar is taken at his word (issue 37
                # item 7: the value announced was ignored).
                pool[entry.told] -= 1
                return entry.told
            else:
                candidates = _QUEST_KINDS_OF[entry.announced]
        else:
            candidates = range(NUM_KINDS)
        weights = [pool[k] for k in candidates]
        total = sum(weights)
        if total <= 0:
            kind = candidates[0] if entry.announced < 0 else _QUEST_KINDS_OF[entry.announced][0]
            return kind
        pick = rng.random() * total
        for kind, weight in zip(candidates, weights, strict=True):
            pick -= weight
            if pick < 0 and weight > 0:
                pool[kind] -= 1
                return kind
        kind = next(k for k, w in zip(candidates, weights, strict=True) if w > 0)
        pool[kind] -= 1
        return kind

    @staticmethod
    def _listen_value(pile: PileValue, deck: list[float], next_card: int, valuer: _Valuer,
                      quick: bool) -> float:
        """Expected value after a listen: the next player quests on what the new card
        opens, if that beats going on (``quick``: a card that opens no quest is taken to
        leave the pile as it is)."""
        # Plain loops rather than generators and max() over them: this runs for every
        # sample of every decision of a search's rollouts, and compiled loops stay native.
        items: list[tuple[int, float]] = []
        if next_card >= 0:
            items.append((next_card, 1.0))
        else:
            total = sum(deck)
            if total <= 0:
                return valuer.later(pile)
            for k, w in enumerate(deck):
                if w > 0:
                    items.append((k, w / total))
        expected = 0.0
        unchanged = valuer.later(pile) if quick else 0.0
        combined = 8 in pile.morgans  # SCG-PROMO-1: the quick path does not cover it
        same = 0.0
        have_same = False
        for kind, chance in items:
            card = CARDS[kind]
            if quick and not card.allows and kind != MERLIN_6:
                expected += chance * unchanged
                continue
            if IS_QUEST[kind] and not combined:
                # A quest card opens its own quest (SCG-RULING-4): what ``pile.plus(kind)``
                # would give, without building it.
                result, busted_black, busted_count = pile.quest_card_look(kind)
                best = valuer.value(result)
                expected += chance * max(valuer.later_counts(busted_black, busted_count,
                                                             pile.morgans), best)
                continue
            if _NO_EFFECT[kind] or kind == MERLIN_4 and pile.token < 0:
                # It changes no value nor any busted quest: the pile going on is worth what
                # it was (``pile.plus(kind)`` would be valued the same, issue 40 item 5).
                if not have_same:
                    same = valuer.later(pile)
                    have_same = True
                expected += chance * same
                continue
            bigger = pile.plus(kind)
            if kind == MERLIN_6:
                best = -math.inf
                for q in range(NUM_QUESTS):
                    for bonus in range(4):
                        best = max(best, valuer.value(bigger.outcome(q, bonus)))
                expected += chance * best
            elif card.allows:
                best = -math.inf
                for q in card.allows:
                    best = max(best, valuer.value(bigger.outcome(q)))
                expected += chance * max(valuer.later(bigger), best)
            else:
                expected += chance * valuer.later(bigger)
        return expected

    def _turn_options(self, obs: Obs, texts: dict[str, int]) -> _Options:
        seat = int(obs["seat"])
        allowed = [QUEST_INDEX[t[6:]] for t in texts if t.startswith("quest:")]
        return self._options(obs, seat, self.memory.entries, self.memory.discard_seen,
                             allowed=allowed, can_listen="listen" in texts)


# ---------------------------------------------------------------------- helpers
#: Cards that open no quest and whose addition changes no quest's value or the Morgans that
#: :meth:`_Valuer.later` reads (Vivien, Morgan #1 and #2 without a symbol, Merlin #5; Merlin
#: #4 too while no token is known): a listen drawing one leaves the pile's worth as it was.
_NO_EFFECT = tuple(
    not c.allows and (c.kind == VIVIEN or c.kind == MORGAN and c.number in (1, 2)
                      or c.kind == MERLIN and c.number == 5)
    for c in CARDS
)

#: The generator of a valuation that draws no sample (``_options``): never read.
_UNUSED_RNG = random.Random(0)


class _Valuer:
    """One decision's value of an outcome and of a pile that goes on (the loyal side's
    chance, :func:`race_value`). A class rather than closures (issue 40 item 5): compiled,
    its methods are native calls where a closure was a call through Python."""

    def __init__(self, race: _RaceLookup, white: int, black: int, going_on: float) -> None:
        self.race = race
        self.white = white
        self.black = black
        self.going_on = going_on

    def value(self, result: tuple[int, int, bool]) -> float:
        """The chance after an outcome ``(white, black, evil wins at once)``."""
        white_won, black_won, lost = result
        if lost:
            return 0.0
        return self.race(self.white + white_won, self.black + black_won)

    def later(self, pile: PileValue) -> float:
        """The pile goes on: the quests already past 13 will lay their swords, and under
        Morgan #7 going on a busted one loses at once (SCG-MORGAN-7)."""
        return self.later_counts(pile.busted(), pile.busted_quests(), pile.morgans)

    def later_counts(self, busted_black: int, busted: int, morgans: frozenset[int]) -> float:
        """:meth:`later` from a pile's busted swords and quests and its Morgans."""
        value = self.race(self.white, self.black + busted_black) + self.going_on
        if busted and 7 in morgans:
            value *= 1.0 - busted / NUM_QUESTS
        return value


def _posterior(prior: float, ratio: float) -> float:
    """P(traitor) after evidence ``ratio`` times likelier from a traitor."""
    return prior * ratio / (prior * ratio + 1 - prior) if 0 < prior < 1 else prior


def _text(action: int) -> str:
    return CATALOG.text(action)


def _allowed(obs: Obs) -> tuple[int, ...]:
    """The quests the top card of the pile allows (SCG-QUEST-1, SCG-RULING-13)."""
    if not _can_listen(obs):
        return tuple(range(NUM_QUESTS))
    top = obs["pile"]["top"]
    if top is None:
        return ()
    if top.get("face_down"):
        return (QUEST_INDEX[top["announced"]],)
    return CARDS[KIND[top["card"]]].allows


def _can_listen(obs: Obs) -> bool:
    return bool(obs["deck"] or obs["discard"])


def _deck_weights(pool: Sequence[int], morgans_aside: int, obs: Obs,
                  memory: TableMemory) -> list[float]:
    """How likely each kind is to be the next card drawn: the unseen cards, with the set-aside
    Morgans taken out of the Morgans (SCG-SETUP-3); from the discard pile when the deck is
    empty (SCG-QUEST-10)."""
    if obs["deck"] == 0:
        seen = [float(c) for c in memory.discard_seen]
        hidden = max(0, int(obs["discard"]) - int(sum(memory.discard_seen)))
        if hidden and sum(pool):
            share = hidden / sum(pool)
            seen = [s + share * p for s, p in zip(seen, pool, strict=True)]
        return seen
    weights = [float(c) for c in pool]
    morgans = sum(pool[k] for k in _MORGAN_KINDS)
    if morgans:
        keep = max(0, morgans - morgans_aside) / morgans
        for kind in _MORGAN_KINDS:
            weights[kind] *= keep
    return weights


def _decision_seed(seed: int | None, obs: Obs, seat: int | None) -> str:
    """A seed for one decision's samples: the same for the same position and bot."""
    return (f"{seed}:{seat}:{obs['turn']}:{obs['swords']['white']}:{obs['swords']['black']}:"
            f"{obs['pile']['count']}:{obs['deck']}:{obs['discard']}:{obs['decision']}")
