"""The Shadows over Camelot heuristic's decisions: :class:`SocPolicy`, one small policy
function per decision of the agenda (``_d_evil``, ``_d_pool``, ``_d_share``...), as a
loyal knight plays them. The heroic phase scores every legal action by
:class:`~pendragon.games.soc.heuristic_judgement.SocJudge`'s scores and plays the best.

It reads only ``state.observation(seat)`` and the legal actions' text forms. The traitor's
play is elsewhere: the open traitors (:mod:`pendragon.games.soc.saboteur`) override the
decisions they play otherwise, and the heuristic bot
(:class:`~pendragon.games.soc.heuristic.SocHeuristicBot`) hands a traitor seat to one.
The unmasked traitor's own decisions (``_d_traitor_target``, ``_d_traitor_evil``) are here
so that every decision of the agenda has a policy.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from mypy_extensions import mypyc_attr

from pendragon.core.api import State
from pendragon.games.soc.heuristic_cards import (
    _BLACK_HARM,
    _POOL_WORTH,
    _WARS,
    Obs,
    _black_harm,
    _fight_card,
    _fight_play_value,
    _siege_engines_of,
    seat_by_hand,
)
from pendragon.games.soc.heuristic_expansion import (
    card_worth,
    pick,
)
from pendragon.games.soc.heuristic_judgement import SocJudge
from pendragon.games.soc.rules import actions as A


@mypyc_attr(allow_interpreted_subclasses=True)
class SocPolicy(SocJudge):
    """The heuristic's policy for one seat at a time, as a loyal knight (the bot is meant
    to play one game; create a new one per game)."""

    # ------------------------------------------------------------------ entry point
    def decide(self, state: State, seat: int, legal: Sequence[int], seen: None) -> int:
        """The action for ``seat`` (after :class:`~pendragon.bots.base.PolicyBot`'s start:
        not a chance node, not a forced move)."""
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
        best = min(seats, key=lambda s: (knights[s]["hand_size"], self._rng.random()))
        return f"seat:{best}"

    def _d_evil(self, obs: Obs, texts: dict[str, int]) -> str | None:
        expansion = self.expansion_evil(obs, texts)
        if expansion is not None:
            return expansion
        me = self._me(obs)
        siege = obs["siege_engines"]
        if "peek" in texts and not obs["you"]["black_deck_known"]:
            return "peek"
        known = obs["you"]["black_deck_known"]
        top_harm = next(
            (_black_harm(k["card"]) for k in known
             if k["from"] == "top" and k["depth"] == 0),
            None,
        )
        life = me["life"]
        # Once quests are over their black cards turn into siege engines, so near the
        # 12th engine life is the cheapest evil.
        life_floor = self.evil_life - (1 if siege >= 8 else 0) - (1 if siege >= 10 else 0)
        if self._life_coming(obs):
            life_floor -= self.life_coming_discount
        if life >= max(2, life_floor) and "lose-life" in texts:
            return "lose-life"
        if top_harm is not None and top_harm <= 2:
            return "draw-black"
        if siege <= self.evil_siege and "add-siege" in texts:
            return "add-siege"
        if top_harm is not None and top_harm >= 6 and siege <= 9:
            return "add-siege"
        return "draw-black"

    @staticmethod
    def _life_coming(obs: Obs) -> bool:
        """Whether this knight stands on a quest about to be won, a life for each knight
        present (SOC-WAR-3, SOC-EXCALIBUR-2): no more cards missing than knights there."""
        location = obs["knights"][obs["seat"]]["location"]
        if location == "excalibur":
            excal = obs["quests"]["excalibur"]
            return 5 - int(excal["position"]) <= len(excal["knights"])
        if location not in _WARS:
            return False
        war = obs["quests"][location]
        missing = 5 - len(set(war["white"]))
        return missing <= min(2, len(war["knights"])) and war["figures"] <= 2

    def _d_face(self, obs: Obs, texts: dict[str, int]) -> str | None:
        me = self._me(obs)
        # SOC-RULING-67: a 12th card would forbid the Round Table's draw of 2 (SOC-CAMELOT-2)
        if "face-down-no-card" in texts and me["location"] == "camelot" \
                and me["hand_size"] == 11:
            return "face-down-no-card"
        return "face-down"  # one more white card; only the drawer knows the card

    def _d_pool(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if "pledge-merlin" not in texts:
            return "pass"
        card = next((c.get("card") for c in obs["table"]["black_in_play"] if "card" in c), None)
        worth = _POOL_WORTH.get(str(card), 0.0)
        return "pledge-merlin" if worth >= self.pool_threshold else "pass"

    def _d_merlin(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self._merlin_target(obs, texts)[0]

    def _d_siege(self, obs: Obs, texts: dict[str, int]) -> str | None:
        total = sum(obs["table"]["siege_fight"]["cards"])
        plays = [t for t in texts if t.startswith("play:fight")]
        target = self.siege_target + (1 if obs["siege_engines"] >= 10 else 0)
        if total >= target or not plays:
            return "done"
        # The cheapest set of Fight cards that reaches the target; the strongest if none does.
        hand = self._hand(obs)
        # A "?" card counts as a 5 (MC-W-FIGHT-ANY); its value is asked for next.
        values = sorted((_fight_play_value(t) for t in plays), reverse=True)
        pool = [v for v in values for _ in range(min(3, hand.get(_fight_card(v), 0)))]
        best: tuple[float, int] | None = None
        for size in (1, 2, 3):
            for combo in itertools.combinations(pool, size):
                if total + sum(min(v, 5) for v in combo) < target:
                    continue
                cost = sum(card_worth(_fight_card(v), hand) for v in combo)
                if best is None or cost < best[0]:
                    best = (cost, max(combo))
            if best is not None:
                break
        value = best[1] if best is not None else values[0]
        return f"play:{_fight_card(value)}"

    def _d_kay(self, obs: Obs, texts: dict[str, int]) -> str | None:
        plays = [t for t in texts if t.startswith("play:fight")]
        return max(plays) if plays else "pass"

    def _d_convoke(self, obs: Obs, texts: dict[str, int]) -> str | None:
        me = self._me(obs)
        if me["location"] in ("camelot", None) or me["hand_size"] <= 2:
            return "answer"
        return "pass"

    def _d_volunteer(self, obs: Obs, texts: dict[str, int]) -> str | None:
        me = self._me(obs)
        card = next((c.get("card") for c in obs["table"]["black_in_play"] if "card" in c), "")
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
        return "fate:loyal"  # a card for every knight (the traitors reveal in saboteur.py)

    def _d_grail(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "drink-grail"

    def _d_excal(self, obs: Obs, texts: dict[str, int]) -> str | None:
        card = str(next((c.get("card") for c in obs["table"]["black_in_play"] if "card" in c), ""))
        if _BLACK_HARM.get(card, 0) >= 8:
            return "sacrifice-excalibur"
        # Near the 12th engine, cancel a card that would bring another (SOC-QUEST-6).
        engines = _siege_engines_of(card, obs)
        if engines and obs["siege_engines"] + engines >= self.excal_cancel_siege:
            return "sacrifice-excalibur"
        return "pass"

    def _d_clairv(self, obs: Obs, texts: dict[str, int]) -> str | None:
        # The card chosen first ends on top: the least harmful for the knights.
        return pick(texts, "choose-black:", _black_harm, highest=False)

    def _d_armor(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self._d_clairv(obs, texts)

    def _d_perc_bottom(self, obs: Obs, texts: dict[str, int]) -> str | None:
        # The card sent to the bottom of the deck: the most harmful for the knights.
        return pick(texts, "choose-black:", _black_harm, highest=True)

    def _d_msg_target(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return seat_by_hand(obs, texts, most=False)

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

    # The unmasked traitor's decisions (SOC-TRAITOR-2), asked only of a traitor seat: the
    # heuristic bot hands such a seat to the open traitor, which overrides the evil.
    def _d_traitor_target(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return seat_by_hand(obs, texts, most=True)

    def _d_traitor_evil(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "add-siege" if obs["siege_engines"] >= 9 or self._rng.random() < 0.4 else (
            "draw-black")


    # ------------------------------------------------------------------ heroic phase
    def _d_heroic(self, obs: Obs, texts: dict[str, int]) -> str | None:
        score = self._heroic_scorer(obs)
        scored: list[tuple[float, str]] = []
        for text in texts:
            scored.append((score(obs, text, texts) + self._rng.random() * 1e-3, text))
        return max(scored)[1]

    def _heroic_scorer(self, obs: Obs) -> Callable[[Obs, str, dict[str, int]], float]:
        """How this policy scores the heroic actions of the seat of ``obs``: as the loyal
        knight (:meth:`_heroic_score`); the open traitors score a traitor seat's their way."""
        return self._heroic_score
