"""A rule-based Shadows over Camelot player: a sensible loyal knight or a credible traitor.

The policy reads only ``state.observation(seat)`` and the legal actions with their text
forms (``play:fight-5``, ``move:grail``...). Each decision of the agenda (``evil``,
``heroic``, ``pool``, ``share``...) has its own small policy function; the heroic phase
scores every legal action and plays the best.

Loyal knights keep a belief about the traitor (:class:`TraitorBelief`): a probability per
seat, starting from the loyalty deck (8 cards for n seats, so there may be no traitor) and
updated from the public record (evil choices, Merlin pledges, accusations), and accuse the
most suspected knight once accusations are open (SOC-ACCUSE-1) and the belief is strong.

>>> import pendragon
>>> from pendragon.runner import play_game
>>> game = pendragon.load_game("soc", players=3, seed=5, no_traitor=True)
>>> final = play_game(game, [SocHeuristicBot(seed=s) for s in range(3)])
>>> final.is_terminal()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pendragon.core.api import CHANCE, State
from pendragon.games.soc import actions as A

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
}
#: Harm of a black card when played (for Clairvoyance, the Armor and Percival's peek).
_BLACK_HARM = {
    "morgan-3": 9, "morgan-4": 8, "mist-of-avalon": 8, "morgan-1": 7, "desolation": 6,
    "vivien": 6, "mordred": 6, "dark-forest": 5, "guinevere": 5, "morgan-2": 4, "morgan-5": 4,
    "despair": 4, "excalibur": 3, "picts": 3, "saxons": 3, "mercenaries": 3,
    "black-knight-7": 4, "lancelot-7": 4, "black-knight-5": 3, "lancelot-5": 3,
    "black-knight-3": 2, "lancelot-3": 2, "black-knight-1": 1, "lancelot-1": 1,
}
_WARS = ("picts", "saxons")


def _fight_values(hand: dict[str, int]) -> dict[int, int]:
    return {v: hand.get(f"fight-{v}", 0) for v in range(1, 6)}


def card_worth(card: str, hand: dict[str, int]) -> float:
    """How much a white card is worth keeping (lower is given, discarded or spent first)."""
    if card == "merlin":
        return 9.0
    if card.startswith("fight-"):
        value = int(card[6:]) if card[6:].isdigit() else 3
        # Spares of a value are worth less than the first copy.
        return 2.0 + value * 0.6 - 0.4 * max(0, hand.get(card, 0) - 2)
    if card == "grail":
        return 4.0 - 0.3 * max(0, hand.get("grail", 0) - 3)
    return 6.0  # the other special cards


class TraitorBelief:
    """A loyal seat's probability that each other seat is the traitor, or that none is.

    Likelihood ratios multiply the odds of each seat from the public record; a revealed
    loyalty settles a seat. The prior follows SOC-SETUP-5: 8 loyalty cards, one traitor.

    >>> belief = TraitorBelief(players=5, me=0)
    >>> round(belief.probability(1), 3)
    0.143
    >>> round(belief.none_probability(), 3)
    0.429
    >>> belief.observe(1, 4.0)
    >>> belief.most_suspected()[0]
    1
    """

    __slots__ = ("players", "me", "weights", "settled", "read")

    def __init__(self, players: int, me: int, loyalty_cards: int = 8) -> None:
        self.players = players
        self.me = me
        # Unnormalised weights: seat s traitor, and (last slot) nobody is.
        share = 1.0 / (loyalty_cards - 1)
        self.weights = [0.0 if s == me else share for s in range(players)]
        self.weights.append(max(0.0, 1.0 - share * (players - 1)))
        self.settled: set[int] = set()
        #: How many events of the public record have been read into the belief.
        self.read = 0

    def observe(self, seat: int, likelihood_ratio: float) -> None:
        """Evidence about ``seat``: P(event | traitor) / P(event | loyal)."""
        if seat == self.me or seat in self.settled:
            return
        self.weights[seat] *= likelihood_ratio

    def settle(self, seat: int, traitor: bool) -> None:
        """``seat``'s loyalty is known."""
        if seat in self.settled:
            return
        self.settled.add(seat)
        if traitor:
            self.weights = [0.0] * len(self.weights)
            self.weights[seat] = 1.0
        else:
            self.weights[seat] = 0.0

    def probability(self, seat: int) -> float:
        """P(``seat`` is the traitor)."""
        total = sum(self.weights)
        return self.weights[seat] / total if total > 0 else 0.0

    def none_probability(self) -> float:
        """P(there is no traitor at the table)."""
        total = sum(self.weights)
        return self.weights[-1] / total if total > 0 else 1.0

    def most_suspected(self) -> tuple[int, float]:
        """The most suspected seat and its probability."""
        seat = max(range(self.players), key=lambda s: self.weights[s])
        return seat, self.probability(seat)


class SocHeuristicBot:
    """Hand-written Shadows over Camelot policy for one seat at a time.

    ``track_beliefs`` turns on the traitor belief, which follows the public record of the
    game being played (turn it off for rollouts inside a search, where it would only cost
    time). The bot is meant to play one game; create a new one per game.
    """

    #: Progression of Evil: lose a life from this much life, add engines up to this many.
    evil_life = 4
    evil_siege = 0
    #: ...one less once Excalibur and the Grail are over (their black cards become engines).
    late_life_discount = 0
    #: Heroic phase: sacrifice a life for a second action from this much life; fight
    #: siege engines from this many.
    sacrifice_life = 5
    #: Weight of the Excalibur quest when choosing where to go.
    excal_weight = 1.2
    #: Weights of the Black Knight and the Dragon when choosing where to go.
    bk_base = -6.0
    dragon_weight = 0.0
    #: Extra urgency of a Merlin on a quest one black card from defeat.
    merlin_quest_bonus = 1.0
    #: Pledge a Merlin against special black cards worth at least this (see _POOL_WORTH).
    pool_threshold = 1.0
    siege_fight_from = 4
    #: Go back to Camelot to fight from this many siege engines.
    siege_return = 8

    __slots__ = ("seed", "track_beliefs", "_rng", "_beliefs", "_replay", "_seen", "_log")

    def __init__(self, seed: int | None = None, track_beliefs: bool = True) -> None:
        self.seed = seed
        self.track_beliefs = track_beliefs
        self._rng = random.Random(seed)
        self._beliefs: dict[int, TraitorBelief] = {}
        self._replay: State | None = None
        self._seen = 0
        #: Public events (seat, action id, siege engines and the seat's life then).
        self._log: list[tuple[int, int, int, int]] = []

    def __repr__(self) -> str:
        return f"SocHeuristicBot(seed={self.seed!r})"

    # ------------------------------------------------------------------ entry point
    def step(self, state: State) -> int:
        """The action for the seat to act in ``state``."""
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over")
        seat = state.current_player()
        if seat == CHANCE:
            return state.sample_chance()
        if len(legal) == 1:
            return legal[0]
        obs = state.observation(seat)
        if self.track_beliefs:
            try:
                self._follow_record(state)
            except ValueError:
                # A history this bot cannot replay (a state resumed from elsewhere): play
                # on without the record rather than fail the game.
                self.track_beliefs = False
        return self.choose(obs, legal)

    def choose(self, obs: Obs, legal: Sequence[int]) -> int:
        """The policy proper: the observation of the seat to act and its legal actions."""
        texts = {A.CATALOG.text(a): a for a in legal}
        decision = obs["waiting"]["decision"]
        handler = getattr(self, "_d_" + decision.replace("-", "_"), None)
        if handler is not None:
            choice: str | None = handler(obs, texts)
            if choice is not None and choice in texts:
                return texts[choice]
        return self._fallback(obs, texts)

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _me(obs: Obs) -> dict[str, Any]:
        knight: dict[str, Any] = obs["knights"][obs["seat"]]
        return knight

    @staticmethod
    def _hand(obs: Obs) -> dict[str, int]:
        hand: dict[str, int] = obs["you"]["hand"]
        return hand

    @staticmethod
    def _is_traitor(obs: Obs) -> bool:
        return bool(obs["you"]["loyalty"] == "traitor")

    def _fallback(self, obs: Obs, texts: dict[str, int]) -> int:
        hand = self._hand(obs)
        for avoid in ("end-turn", "pass", "done", "face-down"):
            if avoid in texts:
                return texts[avoid]
        plays = [t for t in texts if t.startswith("play:")]
        if plays:
            return texts[min(plays, key=lambda t: card_worth(t[5:], hand))]
        safe = [a for t, a in texts.items() if not t.startswith(("accuse:", "sacrifice"))]
        pool = safe or list(texts.values())
        return pool[self._rng.randrange(len(pool))]

    def belief(self, obs: Obs) -> TraitorBelief:
        """This seat's belief (created on first use)."""
        seat = obs["seat"]
        belief = self._beliefs.get(seat)
        if belief is None:
            belief = TraitorBelief(obs["players"], seat)
            self._beliefs[seat] = belief
        for knight in obs["knights"]:
            if knight["loyalty"] is not None and knight["seat"] != seat:
                belief.settle(knight["seat"], knight["loyalty"] == "traitor")
        return belief

    # ------------------------------------------------------------------ public record
    def _follow_record(self, state: State) -> None:
        """Read the public decisions taken since the last call (evil choices, pledges,
        accusations) by replaying the history on a private copy of the initial state.

        Only the acting seat and the public kinds of decisions are read (never a card drawn
        or a hand), so the evidence is what any player at the table saw.
        """
        history = state.history()
        if self._replay is None or self._seen > len(history):
            self._replay = state.game.new_initial_state()
            self._seen = 0
            self._log = []
        replay = self._replay
        public = (A.DRAW_BLACK, A.ADD_SIEGE, A.LOSE_LIFE, A.PLEDGE_MERLIN, A.FATE_REVEAL)
        for action in history[self._seen:]:
            if replay.is_table_operation(action):  # a player joining or leaving
                replay.apply_table_operation(action)
                continue
            player = replay.current_player()
            if player >= 0 and (action in public or A.ACCUSE <= action < A.ACCUSE + 8):
                public_view = replay.observation(None)
                siege = int(public_view["siege_engines"])
                life = int(public_view["knights"][player]["life"])
                self._log.append((player, action, siege, life))
            elif player >= 0 and action == A.PASS and _decision_of(replay) == "pool":
                self._log.append((player, action, 0, 0))
            replay.apply_action(action)
        self._seen = len(history)

    # ------------------------------------------------------------------ decisions
    def _d_contrib(self, obs: Obs, texts: dict[str, int]) -> str | None:
        hand = self._hand(obs)
        plays = [t for t in texts if t.startswith("play:")]
        if not plays:
            return None
        return min(plays, key=lambda t: card_worth(t[5:], hand))

    def _d_share(self, obs: Obs, texts: dict[str, int]) -> str | None:
        seats = [int(t[5:]) for t in texts if t.startswith("seat:")]
        if not seats:
            return None
        knights = obs["knights"]
        if self._is_traitor(obs) and self._rng.random() < 0.5:
            return f"seat:{obs['seat']}" if obs["seat"] in seats else None
        best = min(seats, key=lambda s: (knights[s]["hand_size"], self._rng.random()))
        return f"seat:{best}"

    def _d_evil(self, obs: Obs, texts: dict[str, int]) -> str | None:
        me = self._me(obs)
        siege = obs["siege_engines"]
        if "peek" in texts and not obs["you"]["black_deck_known"]:
            return "peek"
        if self._is_traitor(obs):
            # Harm that looks like bad luck: black cards, siege engines once they matter;
            # with life to spare, pay like a loyal knight would, to look like one.
            if siege >= 10 and "add-siege" in texts:
                return "add-siege"
            if me["life"] >= 5 and "lose-life" in texts:
                return "lose-life"
            if me["life"] >= 4 and "lose-life" in texts and self._rng.random() < 0.5:
                return "lose-life"  # now and then, exactly what a loyal knight would do
            return "draw-black"
        known = obs["you"]["black_deck_known"]
        top_harm = next(
            (_BLACK_HARM.get(k["card"], 3) for k in known
             if k["from"] == "top" and k["depth"] == 0),
            None,
        )
        life = me["life"]
        # Once quests are over their black cards turn into siege engines, so near the
        # 12th engine life is the cheapest evil.
        life_floor = self.evil_life - (1 if siege >= 8 else 0) - (1 if siege >= 10 else 0)
        quests = obs["quests"]
        if quests["excalibur"]["over"] and quests["grail"]["over"]:
            life_floor -= self.late_life_discount
        if life >= max(2, life_floor) and "lose-life" in texts:
            return "lose-life"
        if top_harm is not None and top_harm <= 2:
            return "draw-black"
        if siege <= self.evil_siege and "add-siege" in texts:
            return "add-siege"
        if top_harm is not None and top_harm >= 6 and siege <= 9:
            return "add-siege"
        return "draw-black"

    def _d_face(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "face-down"  # one more white card; only the drawer knows the card

    def _d_pool(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if "pledge-merlin" not in texts:
            return "pass"
        card = next((c.get("card") for c in obs["table"]["black_in_play"] if "card" in c), None)
        worth = _POOL_WORTH.get(str(card), 0.0)
        if self._is_traitor(obs):
            # Pledge now and then for show, when the pool looks unlikely to reach three.
            return "pledge-merlin" if worth < 1.0 and self._rng.random() < 0.3 else "pass"
        return "pledge-merlin" if worth >= self.pool_threshold else "pass"

    def _d_merlin(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self._merlin_target(obs, texts)[0]

    def _merlin_target(self, obs: Obs, texts: dict[str, int]) -> tuple[str | None, float]:
        """The best Merlin target and how urgent it is."""
        quests = obs["quests"]
        options: list[tuple[float, str]] = []
        siege = obs["siege_engines"]
        if "target:siege" in texts:
            options.append((max(0.0, siege - 5) * 1.2 + max(0, siege - 8) * 2.0, "target:siege"))
        for war in _WARS:
            if f"target:{war}" in texts:
                options.append((quests[war]["figures"] * 1.3 - 1.0, f"target:{war}"))
        # A quest one black card from defeat is worth a Merlin (SOC-RULING-18 targets).
        if "target:black-knight" in texts:
            blacks = len(quests["black-knight"]["black"])
            options.append((blacks * 1.0 - 1.0 + (self.merlin_quest_bonus if blacks >= 3 else 0.0),
                            "target:black-knight"))
        if "target:lancelot" in texts:
            blacks = len(quests["lancelot"]["black"])
            options.append((blacks * 0.8 - 1.0 + (self.merlin_quest_bonus if blacks >= 4 else 0.0),
                            "target:lancelot"))
        if "target:grail" in texts:
            blacks = len(quests["grail"]["black"])
            bonus = self.merlin_quest_bonus if blacks >= 5 else 0.0
            options.append((blacks * 0.9 - 2.0 + bonus, "target:grail"))
        if not options:
            return None, 0.0
        score, target = max(options)
        if self._is_traitor(obs):
            score, target = min(options)
        return target, score

    def _d_siege(self, obs: Obs, texts: dict[str, int]) -> str | None:
        total = sum(obs["table"]["siege_fight"]["cards"])
        plays = [t for t in texts if t.startswith("play:fight")]
        if self._is_traitor(obs):
            return min(plays, key=lambda t: card_worth(t[5:], self._hand(obs))) if (
                total == 0 and plays) else "done"
        if total >= 7 or not plays:
            return "done"
        return max(plays, key=lambda t: int(t[11:]) if t[11:].isdigit() else 3)

    def _d_kay(self, obs: Obs, texts: dict[str, int]) -> str | None:
        plays = [t for t in texts if t.startswith("play:fight")]
        if self._is_traitor(obs) or not plays:
            return "pass"
        return max(plays)

    def _d_convoke(self, obs: Obs, texts: dict[str, int]) -> str | None:
        me = self._me(obs)
        if me["location"] in ("camelot", None) or me["hand_size"] <= 2:
            return "answer"
        return "pass"

    def _d_volunteer(self, obs: Obs, texts: dict[str, int]) -> str | None:
        me = self._me(obs)
        card = next((c.get("card") for c in obs["table"]["black_in_play"] if "card" in c), "")
        if self._is_traitor(obs):
            return "pass"
        if card == "morgan-5":
            return "volunteer" if me["life"] >= 5 else "pass"
        return "volunteer" if me["hand_size"] >= 9 else "pass"

    def _d_discard(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self._d_contrib(obs, texts)

    def _d_war_target(self, obs: Obs, texts: dict[str, int]) -> str | None:
        quests = obs["quests"]
        wars = [w for w in _WARS if f"target:{w}" in texts]
        if not wars:
            return None
        if self._is_traitor(obs):
            return f"target:{max(wars, key=lambda w: quests[w]['figures'])}"
        return f"target:{min(wars, key=lambda w: quests[w]['figures'])}"

    def _d_heroism(self, obs: Obs, texts: dict[str, int]) -> str | None:
        quests = obs["quests"]
        best: tuple[float, str] | None = None
        for text in texts:
            if not text.startswith("target:"):
                continue
            key = text[7:]
            if key == "grail":
                score = quests["grail"]["grail_cards"] - len(quests["grail"]["black"]) * 0.5
            elif key in _WARS:
                score = len(quests[key]["white"]) - quests[key]["figures"]
            else:
                score = 0.0
            if best is None or score > best[0]:
                best = (score, text)
        return best[1] if best else None

    def _d_piety(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "self" if self._me(obs)["life"] <= 3 else "others"

    def _d_reinf(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "self"

    def _d_fate(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if "fate:reveal" in texts and self._traitor_should_reveal(obs):
            return "fate:reveal"
        return "fate:loyal"

    def _traitor_should_reveal(self, obs: Obs) -> bool:
        """Reveal when a hidden traitor's end-of-game flip is unlikely to happen (he is
        about to die, or loyal knights may accuse) and the knights hold many cards."""
        me = self._me(obs)
        others = [
            k for k in obs["knights"] if k["seat"] != obs["seat"] and k["status"] == "in-play"
        ]
        cards = sum(min(2, k["hand_size"]) for k in others)
        swords = obs["round_table"]["white"] + obs["round_table"]["black"]
        accusers = sum(1 for k in others if not k["accusation_used"])
        return me["life"] <= 1 or (cards >= 2 * len(others) and swords >= 6 and accusers >= 2)

    def _d_grail(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "pass" if self._is_traitor(obs) else "drink-grail"

    def _d_excal(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if self._is_traitor(obs):
            return "pass"
        card = next((c.get("card") for c in obs["table"]["black_in_play"] if "card" in c), "")
        return "sacrifice-excalibur" if _BLACK_HARM.get(str(card), 0) >= 8 else "pass"

    def _d_clairv(self, obs: Obs, texts: dict[str, int]) -> str | None:
        picks = [t for t in texts if t.startswith("choose-black:")]
        if not picks:
            return None
        # The card chosen first ends on top: the least harmful for the knights.
        traitor = self._is_traitor(obs)
        return (max if traitor else min)(picks, key=lambda t: _BLACK_HARM.get(t[13:], 3))

    def _d_armor(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self._d_clairv(obs, texts)

    def _d_perc_bottom(self, obs: Obs, texts: dict[str, int]) -> str | None:
        picks = [t for t in texts if t.startswith("choose-black:")]
        if not picks:
            return None
        traitor = self._is_traitor(obs)
        return (min if traitor else max)(picks, key=lambda t: _BLACK_HARM.get(t[13:], 3))

    def _d_msg_target(self, obs: Obs, texts: dict[str, int]) -> str | None:
        seats = [int(t[5:]) for t in texts if t.startswith("seat:")]
        if not seats:
            return None
        return f"seat:{min(seats, key=lambda s: obs['knights'][s]['hand_size'])}"

    def _d_msg_card(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if obs["table"]["held_count"] >= 1 and "done" in texts:
            return "done"
        return self._d_contrib(obs, texts) or "done"

    def _d_arthur_target(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self._d_msg_target(obs, texts)

    def _d_arthur_card(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self._d_contrib(obs, texts)

    def _d_arthur_return(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self._d_contrib(obs, texts)

    def _d_traitor_target(self, obs: Obs, texts: dict[str, int]) -> str | None:
        seats = [int(t[5:]) for t in texts if t.startswith("seat:")]
        if not seats:
            return None
        return f"seat:{max(seats, key=lambda s: obs['knights'][s]['hand_size'])}"

    def _d_traitor_evil(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "add-siege" if obs["siege_engines"] >= 9 or self._rng.random() < 0.4 else (
            "draw-black")

    # ------------------------------------------------------------------ heroic phase
    def _d_heroic(self, obs: Obs, texts: dict[str, int]) -> str | None:
        traitor = self._is_traitor(obs)
        scored: list[tuple[float, str]] = []
        for text in texts:
            score = (
                self._traitor_heroic_score(obs, text, texts)
                if traitor
                else self._heroic_score(obs, text, texts)
            )
            scored.append((score + self._rng.random() * 1e-3, text))
        return max(scored)[1]

    def _quest_plan(self, obs: Obs) -> dict[str, float]:
        """How much this seat could do on each quest it may go to (0: nothing)."""
        hand = self._hand(obs)
        fights = _fight_values(hand)
        quests = obs["quests"]
        plans: dict[str, float] = {}
        for war in _WARS:
            played = quests[war]["white"]
            needed = {1, 2, 3, 4, 5} - set(played)
            if quests[war]["mordred"] and played.count(5) < 2 and 5 in played:
                needed.add(5)
            mine = sum(1 for v in needed if fights[v] > 0)
            if mine:
                others = len(quests[war]["knights"])
                finish = 3.0 if mine >= len(needed) else 0.0
                plans[war] = mine * (1.0 + 0.6 * quests[war]["figures"]) + finish + 0.5 * others
        grail = quests["grail"]
        if not grail["over"] and not grail["dark_forest"] and hand.get("grail", 0):
            blacks = len(grail["black"])
            plans["grail"] = hand["grail"] * (1.5 + 0.3 * blacks) + (
                4.0 if hand["grail"] + grail["grail_cards"] >= 7 else 0.0)
        excal = quests["excalibur"]
        if not excal["over"]:
            # Any white card moves the sword: the cheapest two swords of the game.
            spare = sum(c for k, c in hand.items() if card_worth(k, hand) < 6.0)
            steps = 5 - excal["position"]
            if spare:
                plans["excalibur"] = min(spare, steps) * self.excal_weight * (
                    1.0 + 0.25 * max(0, -excal["position"])) + (
                    3.0 if spare + len(excal["knights"]) >= steps else 0.0)
        pairs = sorted((v for v in range(1, 6) if fights[v] >= 2), reverse=True)
        bk = quests["black-knight"]
        if len(pairs) >= 2 and not bk["knights"]:
            strength = 2 * (pairs[0] + pairs[1])
            blacks = len(bk["black"])
            plans["black-knight"] = self.bk_base + (strength - 9) * 0.4 + blacks * 1.2
        lance = quests["lancelot"]
        if lance["side"] == "lancelot" and not lance["knights"]:
            triples = [v for v in range(1, 6) if fights[v] >= 3]
            doubles = [v for v in range(1, 6) if fights[v] >= 2]
            if triples and any(d != triples[-1] for d in doubles):
                plans["lancelot"] = 4.0 + len(lance["black"]) * 0.5
        elif lance["side"] == "dragon":
            played = lance["white"]
            values = {v for v in played}
            fits = sum(
                min(fights[v], 3 - played.count(v))
                for v in range(1, 6)
                if fights[v] and (v in values or len(values) < 3)
            )
            if fits >= 2:
                plans["lancelot"] = self.dragon_weight * fits + 0.5 * len(lance["black"])
        return plans

    def _heroic_score(self, obs: Obs, text: str, texts: dict[str, int]) -> float:
        me = self._me(obs)
        hand = self._hand(obs)
        life = int(me["life"])
        location = me["location"]
        siege = int(obs["siege_engines"])
        left = int(obs["turn"]["actions_left"])
        kind, _, arg = text.partition(":")
        if kind == "end-turn":
            return 0.0
        if kind == "sacrifice":
            # A second action costs a life: only with life to spare and something to do.
            plans = self._quest_plan(obs)
            if life >= self.sacrifice_life or (life >= 4 and siege >= 9):
                if location == "camelot" and plans and max(plans.values()) >= 3:
                    return 1.0
                if location == "camelot" and siege >= 8 and self._siege_strength(hand) >= 6:
                    return 1.0
            return -1.0
        if kind == "heal":
            return 9.0 if life <= 2 else (3.0 if life <= 3 else -0.5)
        if kind == "accuse":
            return self._accuse_score(obs, int(arg))
        if kind == "play":
            # A quest action on the quest we stand on.
            if location == "excalibur":
                behind = max(0, -int(obs["quests"]["excalibur"]["position"]))
                return 4.0 - card_worth(arg, hand) * 0.3 + behind * 0.5
            return 6.0
        if kind == "draw-white":
            size = int(me["hand_size"])
            return 5.0 - 0.4 * size + (1.0 if left == 1 and not obs["turn"]["used"] else 0.0)
        if kind == "fight-siege":
            strength = self._siege_strength(hand)
            if life <= 1 and strength < 8:
                return -1.0
            if strength < 5 and siege < 10:
                return -1.0
            urgent = max(0, siege - 8) * 2.0
            return (siege - self.siege_fight_from) * 0.9 + (strength - 5) * 0.3 + urgent
        if kind == "move":
            plans = self._quest_plan(obs)
            if arg == "camelot":
                here = plans.get(location, 0.0) if location else 0.0
                urgent = siege >= self.siege_return and self._siege_strength(hand) >= (
                    6 if siege < 10 else 3)
                if urgent:
                    return 2.0 + (siege - self.siege_return + 1) * 1.5
                return 2.0 if here <= 0.5 else -1.0
            if location != "camelot" and plans.get(location, 0.0) > 0:
                return -1.0  # still useful where we stand
            return plans.get(arg, -2.0) * 0.8 - (1.0 if life <= 1 else 0.0)
        if kind == "special":
            return self._special_score(obs, arg, texts)
        return -3.0

    @staticmethod
    def _siege_strength(hand: dict[str, int]) -> int:
        """Total of the best fight cards up to 3 cards."""
        values: list[int] = []
        for v in range(5, 0, -1):
            values += [v] * hand.get(f"fight-{v}", 0)
        return sum(values[:3])

    def _special_score(self, obs: Obs, card: str, texts: dict[str, int]) -> float:
        me = self._me(obs)
        if card == "merlin":
            if obs["effects"]["vivien"]:
                return -5.0
            _target, urgency = self._merlin_target_from_board(obs)
            return urgency
        if card == "lady-of-the-lake":
            excal = obs["quests"]["excalibur"]
            if not excal["over"]:
                return 3.0 + max(0, -int(excal["position"]))
            return 3.0 if me["life"] <= 3 else -1.0
        if card == "piety":
            return 4.0 if me["life"] <= 2 else 0.5
        if card == "reinforcements":
            return 3.5 - 0.3 * int(me["hand_size"])
        if card == "fate":
            return 1.5
        if card == "heroism":
            quests = obs["quests"]
            good = quests["grail"]["grail_cards"] >= 4 or any(
                len(quests[w]["white"]) >= 3 for w in _WARS)
            return 2.0 if good else -1.0
        return -2.0

    def _merlin_target_from_board(self, obs: Obs) -> tuple[str | None, float]:
        every = {f"target:{k}": 0 for k in ("siege", "black-knight", "lancelot", "grail", *_WARS)}
        if obs["siege_engines"] == 0:
            del every["target:siege"]
        target, score = self._merlin_target(obs, every)
        return target, score - 1.5

    def _accuse_score(self, obs: Obs, target: int) -> float:
        belief = self._update_from_log(obs)
        p = belief.probability(target)
        # Right: +1 white sword and no end flip (3 swords); wrong: one white turns black.
        gain = p * 3.0 - (1.0 - p) * 2.0
        return gain * 4.0 if p >= 0.5 else -2.0

    def _update_from_log(self, obs: Obs) -> TraitorBelief:
        """The belief with every public event read so far taken into account."""
        belief = self.belief(obs)
        for seat, action, siege, life in self._log[belief.read:]:
            belief.observe(seat, _likelihood_ratio(action, siege, life))
        belief.read = len(self._log)
        return belief

    def _traitor_heroic_score(self, obs: Obs, text: str, texts: dict[str, int]) -> float:
        me = self._me(obs)
        kind, _, arg = text.partition(":")
        rt = obs["round_table"]
        if kind == "accuse":
            # A loyal knight accused turns a white sword black (SOC-ACCUSE-3): best when a
            # white sword is there to turn, before the knights unmask the accuser, and on
            # the knight the others trust most (the one with most life: the least suspect).
            if rt["white"] == 0:
                return -2.0
            swords = rt["white"] + rt["black"]
            target = obs["knights"][int(arg)]
            return 5.0 + 0.1 * int(target["life"]) + (1.0 if swords >= 9 else 0.0)
        if kind == "special" and arg == "fate":
            return 8.0 if self._traitor_should_reveal(obs) else -1.0
        if kind == "sacrifice":
            return -1.0
        if kind == "heal":
            return 9.0 if me["life"] <= 1 else -1.0
        if kind == "play" and me["location"] == "excalibur":
            return -0.5  # would help the knights
        if kind == "fight-siege":
            return -1.0 if obs["siege_engines"] < 9 else 0.5
        # Otherwise act like a loyal knight, with a taste for solo quests it can fail quietly.
        score = self._heroic_score(obs, text, texts)
        if kind == "move" and arg in ("black-knight", "lancelot"):
            score += 1.5
        if kind == "play" and me["location"] in ("black-knight", "lancelot"):
            score -= 4.0  # stay, play nothing, let evil fill the quest
        return score


def _likelihood_ratio(action: int, siege: int, life: int) -> float:
    """P(public event | traitor) / P(event | loyal), for the events of the record.

    A loyal knight with life to spare pays evil with it and keeps black cards off the
    quests; a traitor prefers the black cards (they harm where it is hard to see), pays
    with life only when it has plenty, and pledges Merlins sparingly.
    """
    floor = 4 - (1 if siege >= 8 else 0) - (1 if siege >= 10 else 0)
    if action == A.DRAW_BLACK:
        return 3.0 if floor <= life < 5 else 1.0
    if action == A.LOSE_LIFE:
        return 0.25 if life < 5 else 1.0
    if action == A.ADD_SIEGE:
        return 2.0 if siege >= 10 else 0.7
    if action == A.PLEDGE_MERLIN:
        return 0.4
    if action == A.PASS:
        return 1.1
    if A.ACCUSE <= action < A.ACCUSE + 8:
        return 1.5
    return 1.0


def _decision_of(state: State) -> str:
    name = getattr(state, "decision_name", None)
    return str(name()) if callable(name) else ""
