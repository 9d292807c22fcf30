"""The card game heuristic's decisions, one policy per decision of the game: its turn
(listen, quest, accuse, Galahad; as the hidden traitor, the worst option that keeps its
cover), Morgan #1's announcement and #2's count, Vivien, the unmasked traitor's card, the
Merlins and the Knight cards (Arthur, Gawain, Percival).

:class:`SocCardDecisions` builds on the beliefs and valuation of
:class:`~pendragon.games.soc_card.heuristic_judgement.SocCardJudge`; the entry point is
:class:`~pendragon.games.soc_card.heuristic.SocCardHeuristicBot`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from mypy_extensions import mypyc_attr

from pendragon.games.soc_card.heuristic_judgement import (
    SocCardJudge,
    TraitorBelief,
    _allowed,
    _can_listen,
    _decision_seed,
    _Options,
    _posterior,
)
from pendragon.games.soc_card.heuristic_memory import PileEntry
from pendragon.games.soc_card.heuristic_values import (
    QUEST_INDEX,
    Obs,
    PileValue,
    race_value,
)
from pendragon.games.soc_card.rules.cards import (
    CARD_QUEST,
    CARDS,
    KIND,
    NUM_QUESTS,
    QUESTS,
)
from pendragon.games.soc_card.rules.common import END_SWORDS


@mypyc_attr(allow_interpreted_subclasses=True)
class SocCardDecisions(SocCardJudge):
    """One policy function per decision (``_d_<decision>``), on the judge's beliefs and
    values."""

    #: An unmasked traitor plays Tristan before his draw (issue 37 item 7; off: he passes,
    #: as before).
    traitor_tristan: ClassVar[bool] = True

    # ------------------------------------------------------------------ the turn
    def _d_turn(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if "play:tristan" in texts and obs["deck"] > 1:
            return "play:tristan"  # SCG-EXPERT-4: free knowledge, the turn goes on
        options = self._turn_options(obs, texts)
        if self._is_traitor(obs):
            return self._traitor_turn(obs, texts, options)
        values = options.values
        if not values:
            return None
        best = max(values, key=lambda k: (values[k], k != "listen"))
        accusation = self._accusation(obs, texts, options, values[best])
        if accusation is not None:
            return accusation
        if best == "listen":
            look = self._galahad(obs, texts)
            if look is not None:
                return look
        return best

    def _accusation(self, obs: Obs, texts: dict[str, int], options: _Options,
                    best: float) -> str | None:
        """Accuse the likeliest traitor when it is worth more than the best action
        (right: a white sword and one traitor fewer to flip; wrong: a black sword,
        SCG-ACCUSE-2, -3)."""
        targets = [int(t[7:]) for t in texts if t.startswith("accuse:")]
        if not targets:
            return None
        seat = int(obs["seat"])
        belief = self.belief(obs)
        target = max(targets, key=lambda s: (belief.probability(s), -s))
        chance = belief.probability(target)
        if chance < self.accuse_floor:
            return None
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        revealed = [s for s, e in enumerate(obs["seats"]) if e["loyalty"] is not None]
        share = self.white_share
        right = TraitorBelief(belief.players, seat)
        right.weights = dict(belief.weights)
        right.settle(target, True)
        wrong = TraitorBelief(belief.players, seat)
        wrong.weights = dict(belief.weights)
        wrong.settle(target, False)
        shown = [*revealed, target]
        value = (chance * race_value(white + 1, black, right.count_distribution(shown), share)
                 + (1 - chance) * race_value(white, black + 1, wrong.count_distribution(shown),
                                             share))
        # The pile is left as it is, for the next player.
        value += options.base - race_value(white, black, belief.count_distribution(revealed), share)
        if value > best + self.accuse_margin * options.slope:
            return f"accuse:{target}"
        return None

    def _galahad(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-8: look at the card of a suspect, instead of a listen."""
        looks = [int(t[8:]) for t in texts if t.startswith("galahad:")]
        if not looks or self._is_traitor(obs):
            return None
        belief = self.belief(obs)
        target = max(looks, key=lambda s: (belief.probability(s), -s))
        if belief.probability(target) >= 0.2:
            return f"galahad:{target}"
        return None

    def _traitor_turn(self, obs: Obs, texts: dict[str, int], options: _Options) -> str | None:
        """The worst option for the loyal side that does not look worse than a judgement
        call: its loss, as any player counts the pile, stays within the tolerance."""
        seat = int(obs["seat"])
        public = self._options(obs, None, self.memory.entries, self.memory.discard_seen,
                               allowed=[QUEST_INDEX[t[6:]] for t in texts
                                        if t.startswith("quest:")],
                               can_listen="listen" in texts, flips=self._flips(obs, None))
        if not public.values:
            return None
        cover = self._cover(obs)
        exposure = self.public_belief(obs).probability(seat)
        best_public = max(public.values, key=lambda k: (public.values[k], k != "listen"))
        plausible = [best_public] + [
            k for k in public.values if k != best_public and _posterior(
                exposure, self.choice_ratio(public.values, public.slope, k,
                                            self.traitor_temperature)) <= cover]
        choice = min(plausible, key=lambda k: (options.values.get(k, 1.0), k))
        accusation = self._traitor_accusation(obs, texts, options, options.values[choice])
        return accusation or choice

    def _cover(self, obs: Obs) -> float:
        """How suspected a hidden traitor lets himself become."""
        cover = self.traitor_cover
        if int(obs["swords"]["black"]) >= END_SWORDS - 2:
            cover += self.traitor_cover_late  # the end is near: harm matters more
        return cover

    def _traitor_accusation(self, obs: Obs, texts: dict[str, int], options: _Options,
                            planned: float) -> str | None:
        """A hidden traitor accuses a loyal player (a black sword, SCG-ACCUSE-2) when the
        sword ends the game, or when a suspect makes the accusation look honest."""
        targets = [int(t[7:]) for t in texts if t.startswith("accuse:")]
        if not targets:
            return None
        public = self.public_belief(obs)
        seat = int(obs["seat"])
        target = max(targets, key=lambda s: (public.probability(s), -s))
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        if black + 1 >= END_SWORDS and black + 1 >= white:
            return f"accuse:{target}"
        if public.probability(target) >= max(0.3, 1.5 * public.probability(seat)):
            flips = self._flips(obs, seat)
            value = race_value(white, black + 1, flips, self.white_share)
            value += options.base - race_value(white, black, flips, self.white_share)
            if value < planned:
                return f"accuse:{target}"
        return None

    # ------------------------------------------------------------------ Morgan #1 and #2
    def _d_announce(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-MORGAN-1: the truth, or (a traitor) the lie that hurts most when it pays."""
        hand = obs["you"]["hand"]
        if not hand:
            return None
        kind = KIND[hand[0]]
        truth = f"announce-card:{hand[0]}"  # the card's content (SCG-RULING-6)
        if not self._is_traitor(obs) or len(texts) == 1:
            return truth
        # A lie names another quest's "?" card, the commonest of a quest's cards, or a card
        # of the true quest with another value (the table counts the value it is told).
        candidates = {truth: CARD_QUEST[kind]}
        for other, name in enumerate(QUESTS):
            if other != CARD_QUEST[kind] and f"announce-card:{name}-q" in texts:
                candidates[f"announce-card:{name}-q"] = other
        own = QUESTS[CARD_QUEST[kind]]
        for value in ("q", "2", "5"):
            text = f"announce-card:{own}-{value}"
            if text in texts and text not in candidates:
                candidates[text] = CARD_QUEST[kind]
        seat = int(obs["seat"])
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        flips = self._flips(obs, seat)
        share = self.white_share
        base = race_value(white, black, flips, share)
        slope = max(1e-4, (race_value(white + 1, black, flips, share)
                           - race_value(white, black + 1, flips, share)) / 2)
        cont = base + self.continue_swords * slope
        entries = self.memory.entries
        exposure = self.public_belief(obs).probability(seat)
        scores: dict[str, float] = {}
        for text, quest in candidates.items():
            # What the next (loyal) player will believe, and do.
            believed = [*entries, PileEntry(-1, quest, seat, told=KIND[text[14:]])]
            public = self._options(obs, None, believed, self.memory.discard_seen,
                                   allowed=[quest], can_listen=_can_listen(obs),
                                   samples=4, flips=self._flips(obs, None))
            quests = public.values.get(f"quest:{QUESTS[quest]}", 0.0)
            will_quest = quests > public.values.get("listen", -1.0)
            truth_pile = [*entries, PileEntry(kind, quest, seat, told=KIND[text[14:]])]
            real = self._options(obs, seat, truth_pile, self.memory.discard_seen,
                                 allowed=[quest], can_listen=_can_listen(obs), samples=4,
                                 flips=flips)
            outcome = real.values.get(f"quest:{QUESTS[quest]}", cont) if will_quest else (
                real.values.get("listen", cont))
            if text != truth:
                others = sum(1 for e in entries if e.announced == quest and e.by != seat)
                risk = 1.0 / (1 + others)  # the share of suspicion falling on us
                outcome += (0.5 + exposure) * risk * slope * 2.0
            scores[text] = outcome
        return min(scores, key=lambda t: (scores[t], t != truth))

    def _d_count(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-MORGAN-2: say the number of cards laid since Morgan #2."""
        number = min(63, max(1, self.memory.morgan_2_count))
        return f"count:{number}"

    # ------------------------------------------------------------------ Vivien
    def _d_vivien_give(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-VIVIEN-1: a loyal drawer hands the other card to the likeliest traitor (a
        loyal card offered may turn him); a traitor to the least suspected. It reads only
        the card he holds and the table: no set-aside card is shown to him before he names
        the receiver (SCG-RULING-9)."""
        seats = [int(t[5:]) for t in texts if t.startswith("give:")]
        if not seats:
            return None
        if self._is_traitor(obs):
            public = self.public_belief(obs)
            return f"give:{min(seats, key=lambda s: (public.probability(s), s))}"
        belief = self.belief(obs)
        return f"give:{max(seats, key=lambda s: (belief.probability(s), -s))}"

    def _d_vivien_keep(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-VIVIEN-2: change sides only to join the side that is winning clearly."""
        offer = obs["you"]["offer"]
        mine = obs["you"]["loyalty"]
        if offer is None or offer == mine:
            return "keep"
        seat = int(obs["seat"])
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        loyal_wins = race_value(white, black, self._flips(obs, seat), self.white_share)
        if mine == "traitor" and loyal_wins > 0.8:
            return "swap"
        if mine == "loyal" and loyal_wins < 0.15:
            return "swap"
        return "keep"

    # ------------------------------------------------------------------ the unmasked traitor
    def _d_traitor_tristan(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-4, SCG-RULING-10: Tristan before the unmasked traitor's draw, while the
        deck holds more than his two cards: knowing the card after them, he lays the one
        that does most harm with what follows (issue 37 item 7: he used to pass)."""
        if self.traitor_tristan and "play:tristan" in texts and obs["deck"] > 2:
            return "play:tristan"
        return "pass"

    def _d_traitor_place(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-ACCUSE-4: lay the card that leaves the loyal side worst off."""
        seat = int(obs["seat"])
        scores: dict[str, float] = {}
        for text in texts:
            kind = KIND[text[6:]]
            entries = [*self.memory.entries, PileEntry(kind)]
            card = CARDS[kind]
            options = self._options(obs, seat, entries, self.memory.discard_seen,
                                    allowed=list(card.allows), can_listen=_can_listen(obs),
                                    samples=4)
            scores[text] = max(options.values.values(), default=options.base)
        return min(scores, key=lambda t: (scores[t], t))

    # ------------------------------------------------------------------ Merlins
    def _d_merlin_4(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-MERLIN-4: the token on the quest whose highest card is best removed."""
        seat = int(obs["seat"])
        traitor = self._is_traitor(obs)
        scores: dict[str, float] = {}
        for text in texts:
            quest = QUEST_INDEX[text[9:]]
            options = self._options(obs, seat, self.memory.entries, self.memory.discard_seen,
                                    allowed=[], can_listen=_can_listen(obs), samples=4,
                                    token=quest)
            scores[text] = options.values.get("listen", options.base)
        if traitor:
            return min(scores, key=lambda t: (scores[t], t))
        return max(scores, key=lambda t: (scores[t], t))

    def _merlin_6_scores(self, obs: Obs, quests: Sequence[int]) -> dict[tuple[int, int], float]:
        seat = int(obs["seat"])
        options_flips = self._flips(obs, seat)
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        scores: dict[tuple[int, int], float] = {}
        known = [e.known_to(seat) for e in self.memory.entries]
        pool = self.memory.unseen(seat, obs)
        rng = random.Random(_decision_seed(self.seed, obs, seat))
        rounds = 1 if all(k >= 0 for k in known) else self.samples
        for _ in range(rounds):
            left = list(pool)
            kinds = [k if k >= 0 else self._sample(e, left, rng, obs)
                     for k, e in zip(known, self.memory.entries, strict=True)]
            pile = PileValue(kinds)
            for quest in quests:
                for bonus in range(4):
                    w, b, lost = pile.outcome(quest, bonus)
                    v = 0.0 if lost else race_value(white + w, black + b, options_flips,
                                                    self.white_share)
                    scores[(quest, bonus)] = scores.get((quest, bonus), 0.0) + v / rounds
        return scores

    def _d_merlin_6(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-PROMO-2: the quest with the best reachable total (a traitor: the worst that
        a loyal player could also have chosen)."""
        quests = [QUEST_INDEX[t[9:]] for t in texts if t.startswith("merlin-6:")]
        scores = self._merlin_6_scores(obs, quests)
        best = {q: max(scores[(q, b)] for b in range(4)) for q in quests}
        if self._is_traitor(obs):
            top = max(best.values())
            close = [q for q in quests if best[q] >= top - 0.02]
            choice = min(close, key=lambda q: (best[q], q))
        else:
            choice = max(quests, key=lambda q: (best[q], -q))
        self.memory.merlin_6_quest[int(obs["seat"])] = choice
        return f"merlin-6:{QUESTS[choice]}"

    def _d_merlin_6_add(self, obs: Obs, texts: dict[str, int]) -> str | None:
        quest = self.memory.merlin_6_quest.get(int(obs["seat"]), -1)
        if quest < 0:  # chosen before this bot was asked: take the likeliest, the best
            every = self._merlin_6_scores(obs, range(NUM_QUESTS))
            quest = max(range(NUM_QUESTS), key=lambda q: max(every[(q, b)] for b in range(4)))
        scores = self._merlin_6_scores(obs, [quest])
        pick = min if self._is_traitor(obs) else max
        bonus = pick(range(4), key=lambda b: (scores[(quest, b)], -b))
        return f"merlin-6-add:{bonus}"

    # ------------------------------------------------------------------ Knight cards
    def _d_arthur(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-5: stop a quest that is worse than a listen (a traitor: one that would
        win, when that does not show)."""
        if "play:arthur" not in texts:
            return "pass"
        seat = int(obs["seat"])
        allowed = list(_allowed(obs))
        options = self._options(obs, seat, self.memory.entries, self.memory.discard_seen,
                                allowed=allowed, can_listen=True)
        quests = [v for k, v in options.values.items() if k.startswith("quest:")]
        if not quests:
            return "pass"
        quest = max(quests)
        listen = options.values.get("listen", options.base)
        if self._is_traitor(obs):
            exposure = self.public_belief(obs).probability(seat)
            ratio = self.choice_ratio({"quest": quest, "listen": listen}, options.slope,
                                      "listen", self.traitor_temperature)
            return "play:arthur" if quest > listen and _posterior(
                exposure, ratio) <= self._cover(obs) else "pass"
        return "play:arthur" if listen - quest > options.slope * 0.75 else "pass"

    def _d_gawain(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-6: draw three and play one, when the quest under way is not won (a
        traitor: when it is lost anyway, to make it worse). Asked again after every Gawain
        (SCG-RULING-18), it judges the pile as it lies now: a second Gawain follows the
        first while the quest is still not won, and a seat that passed answers another's
        card that lost it."""
        if "play:gawain" not in texts:
            return "pass"
        resolving = obs["resolving"]
        if not resolving:
            return "pass"
        pile = PileValue([KIND[c] for c in resolving["cards"]])
        white, _, _ = pile.outcome(QUEST_INDEX[resolving["quest"]])
        return "pass" if white > 0 else "play:gawain"

    def _d_gawain_pick(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-7: the card that makes the quest under way best (a traitor: worst;
        nobody sees the two others)."""
        resolving = obs["resolving"]
        if not resolving:
            return None
        seat = int(obs["seat"])
        quest = QUEST_INDEX[resolving["quest"]]
        cards = [KIND[c] for c in resolving["cards"]]
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        flips = self._flips(obs, seat)
        token = QUEST_INDEX[obs["you"]["merlin_4_token"]] if obs["you"][
            "merlin_4_token"] else -1
        scores: dict[str, float] = {}
        for text in texts:
            kind = KIND[text[7:]]
            w, b, lost = PileValue(cards, token).plus(kind).outcome(quest)
            scores[text] = 0.0 if lost else race_value(white + w, black + b, flips,
                                                       self.white_share)
        pick = min if self._is_traitor(obs) else max
        return pick(scores, key=lambda t: (scores[t], t))

    def _d_percival(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-9: double the white sword of an unmasked traitor (a traitor: double a
        black sword that ends the game, or his own flip at the end)."""
        if "play:percival" not in texts:
            return "pass"
        accusation = obs.get("accusation")
        if accusation is not None:  # asked before the accused's card is shown (SCG-RULING-18)
            target, black = int(accusation["target"]), int(obs["swords"]["black"])
            if self._is_traitor(obs):
                mine = target == obs["seat"]
                return "play:percival" if not mine and black + 2 >= END_SWORDS else "pass"
            return "play:percival" if self.belief(obs).probability(target) > 0.5 else "pass"
        if not self.memory.revealed_order:
            return "pass"
        shown = self.memory.revealed_order[-1]
        revealed = obs["seats"][shown]["loyalty"]
        swords = obs["swords"]
        at_end = max(swords["white"], swords["black"]) >= END_SWORDS
        if self._is_traitor(obs):
            if at_end and revealed == "traitor":
                return "play:percival"
            if not at_end and revealed == "loyal" and swords["black"] + 2 >= END_SWORDS:
                return "play:percival"
            return "pass"
        return "play:percival" if not at_end and revealed == "traitor" else "pass"
