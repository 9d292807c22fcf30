"""What the Shadows over Camelot heuristic knows and believes, and how it values a heroic
action: :class:`SocJudge`, the base of its policy
(:class:`~pendragon.games.soc.heuristic_policy.SocPolicy`).

It holds the tuned parameters and the bot's state, the belief about the traitors (followed
from the public record, :mod:`pendragon.games.soc.heuristic_record`; a search draws its
worlds from it, ``sample_world``), the urgency of each Merlin target, the plan of what the
seat could do on each quest (wars, the Grail, Excalibur, the combat quests by combination)
and the score of each heroic action (moves, quest cards, siege fights, special cards,
accusations).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from pendragon.bots.belief import LoyaltyBelief
from pendragon.core.api import State
from pendragon.games.soc.heuristic_cards import (
    _BK_AVERAGE,
    _BK_COMBOS,
    _COMBAT_ARRIVALS,
    _DRAGON_COMBOS,
    _LANCELOT_AVERAGE,
    _LANCELOT_COMBOS,
    _WARS,
    Obs,
    _best_combo,
    _fight_values,
)
from pendragon.games.soc.heuristic_expansion import (
    MerlinsCompanyPolicy,
    card_worth,
    fight_list,
)
from pendragon.games.soc.heuristic_record import PublicRecord

#: The quests where a knight plays Fight cards, and the targets of a Merlin from the board
#: (module constants: mypyc cannot compile a starred item in a tuple display inside a test
#: or a loop).
_FIGHT_SITES = ("black-knight", "lancelot", *_WARS)
_MERLIN_TARGETS = ("siege", "black-knight", "lancelot", "grail", *_WARS)


@mypyc_attr(allow_interpreted_subclasses=True)
class SocJudge(MerlinsCompanyPolicy):
    """The heuristic's parameters, state, belief and valuation of heroic actions
    (``track_beliefs``: follow the public record; off for search rollouts)."""

    #: Progression of Evil: lose a life from this much life, add engines up to this many.
    evil_life: ClassVar[int] = 4
    evil_siege: ClassVar[int] = 0
    #: ...one life lower on a war about to be won (its life is coming).
    life_coming_discount: ClassVar[int] = 1
    #: Heroic phase: sacrifice a life for a second action from this much life; fight
    #: siege engines from this many.
    sacrifice_life: ClassVar[int] = 5
    #: Weight of the Excalibur quest when choosing where to go.
    excal_weight: ClassVar[float] = 1.2
    #: Weight of the Grail quest when choosing where to go. Low: holding the Grail against
    #: Despair cost about 15 actions a game for a quest the knights won 7 games in 100;
    #: left to evil it is lost (3 black swords, SOC-GRAIL-4), which brings the end of the
    #: game nearer while the wars win it (44% -> 67% loyal wins). A knight who can finish
    #: it (seven Grail cards between his hand and the board) still goes.
    grail_weight: ClassVar[float] = 0.2
    #: Worth of each other knight already on a war (a war won gives each knight present a
    #: life, SOC-WAR-3: the lives that pay the Progression of Evil).
    war_company: ClassVar[float] = 2.0
    #: Worth of drawing white cards at Camelot with an empty hand (less per card held).
    draw_base: ClassVar[float] = 5.0
    #: Solo combat quests: worth of going with a combination expected to win by
    #: ``combat_margin`` or more. The Dragon: worth of each card the hand can add to its
    #: triples; at 0 only the black cards piled on it (0.5 each) draw a knight holding
    #: fitting cards there, rarely (pushing the Dragon to its end turns its black cards
    #: into siege engines, SOC-QUEST-6, and measured worse).
    combat_base: ClassVar[float] = 2.5
    combat_margin: ClassVar[float] = 2.0
    dragon_weight: ClassVar[float] = 0.0
    #: Extra urgency of a Merlin on a quest one black card from defeat.
    merlin_quest_bonus: ClassVar[float] = 1.0
    #: Pledge a Merlin against special black cards worth at least this (see _POOL_WORTH).
    pool_threshold: ClassVar[float] = 2.0
    siege_fight_from: ClassVar[int] = 8
    #: Fight a siege engine with at least this total (it wins when above the d8 roll).
    siege_target: ClassVar[int] = 7
    #: Go back to Camelot to fight from this many siege engines.
    siege_return: ClassVar[int] = 11
    #: The owner sacrifices Excalibur against a card that would bring this many engines.
    excal_cancel_siege: ClassVar[int] = 11

    #: The margin the hidden traitor's end-of-game flip costs (two white swords turned
    #: black, SOC-TRAITOR-3), the harm an unmasked traitor does per sword still to come,
    #: and the least expected gain an accusation must promise.
    flip_worth: ClassVar[float] = 4.0
    unmasked_harm: ClassVar[float] = 0.3
    accuse_margin: ClassVar[float] = 0.5

    def __init__(self, seed: int | None = None, track_beliefs: bool = True) -> None:
        super().__init__()
        self.seed = seed
        self.track_beliefs = track_beliefs
        self._rng = random.Random(seed)
        #: The public record of the game followed, and the traitor beliefs it feeds.
        self._record = PublicRecord(self)
        #: The quest plan of the observation being decided on (computed once a decision).
        self._plans: tuple[Obs, dict[str, float]] | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    # ------------------------------------------------------------------ belief
    def belief(self, obs: Obs) -> LoyaltyBelief:
        """The traitor belief of the seat of ``obs``, with every deed of the public record
        read so far weighed in and every loyalty card it sees settled."""
        return self._record.belief(obs)

    def _follow_record(self, state: State) -> None:
        """Read the public deeds taken since the last call (:meth:`PublicRecord.follow`)."""
        self._record.follow(state)

    def sample_world(self, state: State, seat: int, generator: random.Random) -> State:
        """A world ``seat`` cannot tell from ``state`` for a search, its traitors drawn
        from this seat's belief (:class:`~pendragon.bots.base.WorldSampler`) instead of
        dealt uniformly; the cards are redealt as ``resample_hidden`` does."""
        world = state.resample_hidden(seat, generator)
        if not self.track_beliefs:
            return world
        obs = state.observation(seat)
        try:
            self._follow_record(state)
        except ValueError:
            return world
        hidden = {k["seat"] for k in obs["knights"] if k["loyalty"] is None}
        if obs["you"]["loyalty"] is not None:
            hidden.discard(seat)
        traitors = self.belief(obs).sample(generator) & hidden
        try:
            return world.with_traitors(seat, traitors, generator)
        except ValueError:  # a deal the loyalty deck cannot make: keep the uniform one
            return world


    # ------------------------------------------------------------------ Merlin targets
    def _merlin_target(self, obs: Obs, texts: dict[str, int]) -> tuple[str | None, float]:
        """The most urgent Merlin target and how urgent it is."""
        options = self.merlin_options(obs, texts)
        if not options:
            return None, 0.0
        best = max(options)
        return best[1], best[0]

    def merlin_options(self, obs: Obs, texts: dict[str, int]) -> list[tuple[float, str]]:
        """How urgent each legal Merlin target is for the knights, from the public board."""
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
        return options

    # ------------------------------------------------------------------ quest plans
    def _quest_plan(self, obs: Obs) -> dict[str, float]:
        """How much this seat could do on each quest it may go to or stay on (0: nothing)."""
        if self._plans is not None and self._plans[0] is obs:
            return self._plans[1]
        plans = self._plan_quests(obs)
        self._plans = (obs, plans)
        return plans

    def _plan_quests(self, obs: Obs) -> dict[str, float]:
        hand = self._hand(obs)
        fights = _fight_values(hand)
        quests = obs["quests"]
        seat = obs["seat"]
        plans: dict[str, float] = {}
        for war in _WARS:
            played = quests[war]["white"]
            needed = {1, 2, 3, 4, 5} - set(played)
            if quests[war]["mordred"] and played.count(5) < 2 and 5 in played:
                needed.add(5)
            mine = sum(1 for v in needed if fights[v] > 0)
            if mine:
                others = len([k for k in quests[war]["knights"] if k != seat])
                finish = 3.0 if mine >= len(needed) else 0.0
                plans[war] = (mine * (1.0 + 0.6 * quests[war]["figures"]) + finish
                              + self.war_company * others)
        grail = quests["grail"]
        if not grail["over"] and not grail["dark_forest"] and hand.get("grail", 0):
            blacks = len(grail["black"])
            plans["grail"] = self.grail_weight * hand["grail"] * (1.5 + 0.3 * blacks) + (
                4.0 if hand["grail"] + grail["grail_cards"] >= 7 else 0.0)
        excal = quests["excalibur"]
        if not excal["over"]:
            # Any white card moves the sword: the cheapest two swords of the game, and a
            # life for every knight there when it comes home (SOC-EXCALIBUR-2).
            spare = sum(c for k, c in hand.items() if card_worth(k, hand) < 6.0)
            steps = 5 - excal["position"]
            if spare:
                plans["excalibur"] = min(spare, steps) * self.excal_weight * (
                    1.0 + 0.25 * max(0, -excal["position"])) + (
                    3.0 if spare + len(excal["knights"]) >= steps else 0.0)
        bk = quests["black-knight"]
        if not bk["knights"] or bk["knights"] == [seat]:
            value = self._combat_plan(bk, fights, _BK_COMBOS, spots=4, average=_BK_AVERAGE)
            if value is not None:
                plans["black-knight"] = value
        lance = quests["lancelot"]
        if lance["side"] == "lancelot" and (not lance["knights"] or lance["knights"] == [seat]):
            value = self._combat_plan(lance, fights, _LANCELOT_COMBOS, spots=5,
                                      average=_LANCELOT_AVERAGE)
            if value is not None:
                plans["lancelot"] = value + 1.0  # and the Armor
        elif lance["side"] == "dragon":
            group = _best_combo(_DRAGON_COMBOS, lance["white"], fights, solo=False)
            supply = group[2] if group else 0
            if supply:
                plans["lancelot"] = self.dragon_weight * supply + 0.5 * len(lance["black"])
        return plans

    def _combat_plan(
        self, quest: dict[str, Any], fights: dict[int, int],
        combos: tuple[tuple[int, dict[int, int]], ...], spots: int, average: float,
    ) -> float | None:
        """Worth of a solo combat quest (SOC-BK-1, SOC-LANCELOT-1) for this hand: the
        strongest combination the hand completes against the black total expected by the
        time it is complete (known cards, hidden ones at the average, arrivals meanwhile)."""
        best = _best_combo(combos, quest["white"], fights)
        if best is None:
            return None
        strength, missing, _held = best
        black = quest["black"]
        known = sum(int(c.get("value", average)) if "value" in c else average for c in black)
        arrivals = _COMBAT_ARRIVALS * (missing + 1)
        if len(black) + arrivals >= spots:
            return None  # evil would fill the quest first
        margin = strength - known - arrivals * average
        if margin < self.combat_margin:
            return None
        return self.combat_base + 0.3 * min(margin, 10.0) + 0.3 * len(quest["white"])

    def _best_play(self, obs: Obs, plays: list[str]) -> str | None:
        """The Fight card to play where we stand: the one that keeps the strongest
        combination in reach (combat quests) or a needed value we hold most of (wars)."""
        me = self._me(obs)
        location = me["location"]
        fights = _fight_values(self._hand(obs))
        quests = obs["quests"]
        values = [int(t[11:]) for t in plays if t.startswith("play:fight-") and t[11:].isdigit()]
        if not values or location not in _FIGHT_SITES:
            return None
        if location in _WARS:
            return f"play:fight-{max(values, key=lambda v: (fights[v], v))}"
        quest = quests[location]
        if location == "black-knight":
            combos = _BK_COMBOS
        elif quest["side"] == "lancelot":
            combos = _LANCELOT_COMBOS
        else:
            combos = _DRAGON_COMBOS
        solo = combos is not _DRAGON_COMBOS  # the Dragon is a group quest
        scored: list[tuple[float, int]] = []
        for v in values:
            rest = dict(fights)
            rest[v] -= 1
            best = _best_combo(combos, [*quest["white"], v], rest, solo=solo)
            scored.append((best[0] if best else -1.0, v))
        return f"play:fight-{max(scored)[1]}"

    def _heroic_score(self, obs: Obs, text: str, texts: dict[str, int]) -> float:
        expansion = self.expansion_heroic_score(obs, text, texts)
        if expansion is not None:
            return expansion
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
        if kind in ("heal", "heal-with-any"):
            # With "?" cards (MC-RULING-4) a little less: they are the best Fight cards.
            spent = 0.5 if kind == "heal-with-any" else 0.0
            return (20.0 if life <= 2 else (3.0 if life <= 3 else -0.5)) - spent
        if kind == "accuse":
            return self._accuse_score(obs, int(arg))
        if kind == "play":
            # A quest action on the quest we stand on.
            if location in _FIGHT_SITES:
                best = self._best_play(obs, [t for t in texts if t.startswith("play:")])
                return 6.0 if text == best else 5.5
            if location == "excalibur":
                behind = max(0, -int(obs["quests"]["excalibur"]["position"]))
                return 4.0 - card_worth(arg, hand) * 0.3 + behind * 0.5
            return 6.0
        if kind == "draw-white":
            size = int(me["hand_size"])
            return self.draw_base - 0.4 * size + (
                1.0 if left == 1 and not obs["turn"]["used"] else 0.0)
        if kind == "fight-siege":
            strength = self._siege_strength(hand)
            if strength == 0 or (life <= 1 and strength < 8):
                return -1.0  # a fight without Fight cards is legal, but lost (SOC-RULING-25)
            if strength < 5 and siege < 10:
                return -1.0
            urgent = max(0, siege - 8) * 2.0
            return (siege - self.siege_fight_from) * 0.9 + (strength - 5) * 0.3 + urgent
        if kind == "move":
            plans = self._quest_plan(obs)
            if arg == "camelot":
                here = plans.get(location, 0.0) if location else 0.0
                # (not ``urgent``: that name is a float above, and compiled code keeps its type)
                defend = siege >= self.siege_return and self._siege_strength(hand) >= (
                    6 if siege < 10 else 3)
                if defend:
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
        """Total of the best Fight cards up to 3 cards ("?" counts as a 5)."""
        return sum(fight_list(hand)[:3])

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
        every = {f"target:{k}": 0 for k in _MERLIN_TARGETS}
        if obs["siege_engines"] == 0:
            del every["target:siege"]
        target, score = self._merlin_target(obs, every)
        return target, score - 1.5

    def _accuse_score(self, obs: Obs, target: int) -> float:
        """Worth of accusing ``target``, in the swords' margin (white minus black).

        Right (probability ``p``): a white sword (SOC-ACCUSE-2) and no end-of-game flip of
        two white swords (SOC-TRAITOR-3: a margin of 4), less the harm the unmasked traitor
        does on each of his turns left (SOC-TRAITOR-2). Wrong: a white sword turns black
        (SOC-ACCUSE-3: a margin of 2).
        """
        rt = obs["round_table"]
        swords = rt["white"] + rt["black"]
        p = self.belief(obs).probability(target)
        right = 1.0 + self.flip_worth - self.unmasked_harm * max(0, 12 - swords)
        wrong = 2.0 if rt["white"] > 0 else 0.0
        gain = p * right - (1.0 - p) * wrong
        return 4.0 * gain if gain > self.accuse_margin else -2.0
