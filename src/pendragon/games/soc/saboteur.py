"""The open traitors of Shadows over Camelot: the panel's saboteur and the heuristic
traitor's open play (issue 18), and with them every traitor branch of the heuristic.

:class:`SaboteurTraitor` harms openly from the first turn; :class:`OpenTraitor` is the
play :class:`~pendragon.games.soc.heuristic.SocHeuristicBot` hands a traitor seat's
decisions to (open from the first turn, as measured strongest). Both build on the loyal
policy (:class:`~pendragon.games.soc.heuristic_policy.SocPolicy`), which a loyal seat
plays. They live apart from :mod:`pendragon.games.soc.traitors` (the panel and its
matrix, which re-exports them) so that the heuristic can load them without the simulator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from mypy_extensions import mypyc_attr

from pendragon.games.soc.heuristic_cards import _WARS, Obs, _black_harm, seat_by_hand
from pendragon.games.soc.heuristic_expansion import pick
from pendragon.games.soc.heuristic_policy import SocPolicy

__all__ = ["OpenTraitor", "SaboteurTraitor"]


# ---------------------------------------------------------------------- the saboteur
#: What an unknown black card about to be drawn is worth to the saboteur (known ones: the
#: heuristic's harm table, ``heuristic._black_harm``).
_UNKNOWN_BLACK_HARM = 4.0
#: Siege engines that end the game (SOC-END-1).
_LAST_ENGINE = 12


@mypyc_attr(allow_interpreted_subclasses=True)
class SaboteurTraitor(SocPolicy):
    """A traitor who harms openly from the first turn (a loyal seat plays the heuristic).

    * **Progression of Evil** (SOC-EVIL-1): never a life while a black card or an engine
      is on offer; draws a black card or adds a siege engine, whichever hurts more
      (:meth:`evil_choice`); the same choice on an unmasked traitor's turn
      (SOC-TRAITOR-2).
    * **Never helps**: plays no white card on a quest, never fights a siege, pledges no
      Merlin, passes on Sir Kay, the Grail, Excalibur and Morgan's volunteers, plays no
      special card but Fate.
    * **Black cards' worst effects**: a Pict or Saxon card goes to the war nearest to loss;
      the black card it chooses to come first (Clairvoyance, the Armor) is the worst, the
      one it sends to the bottom (Percival) the mildest.
    * **Rewards to itself**: every shared card it gives goes to its own hand (SOC-RULING-1).
    * **Accuses a loyal knight** as soon as accusations are open (SOC-ACCUSE-1) and a white
      sword is there to turn black (SOC-ACCUSE-3): the knight with most life, then most
      cards.
    * **Reveals early when that pays** (SOC-W-FATE, SOC-RULING-28): plays Fate to reveal
      when the other knights would discard at least 1.5 cards each on average, or at its
      last two lives.

    >>> import pendragon
    >>> from pendragon.runner import play_game
    >>> game = pendragon.load_game("soc", players=5, seed=2)
    >>> play_game(game, [SaboteurTraitor(seed=s) for s in range(5)]).is_terminal()
    True
    """

    #: Reveal with Fate when the others would discard this many cards each on average.
    reveal_discards: ClassVar[float] = 1.5
    #: ...or at this much life or less.
    reveal_life: ClassVar[int] = 2

    def __repr__(self) -> str:
        return f"SaboteurTraitor(seed={self.seed!r})"

    # ------------------------------------------------------------------ evil
    @staticmethod
    def siege_harm(siege: int) -> float:
        """How much one more siege engine hurts the knights with ``siege`` at Camelot:
        little early, more as the 12th nears, the game itself at 11 (SOC-END-1).

        >>> harm = SaboteurTraitor.siege_harm
        >>> harm(11) > harm(9) > harm(2)
        True
        """
        if siege + 1 >= _LAST_ENGINE:
            return 100.0
        return 1.5 + max(0, siege - 5) * 1.0

    @staticmethod
    def draw_harm(obs: Obs) -> float:
        """How much drawing the top black card hurts: its harm when the seat knows it
        (Percival's peek, Clairvoyance), else an average card's; more with 5 or more black
        swords (a quest lost then may end the game, SOC-END-1)."""
        known = obs["you"]["black_deck_known"]
        top = next((str(k["card"]) for k in known
                    if k.get("from") == "top" and k.get("depth") == 0 and "card" in k), None)
        harm = _black_harm(top) if top is not None else _UNKNOWN_BLACK_HARM
        return harm + (1.5 if int(obs["round_table"]["black"]) >= 5 else 0.0)

    def evil_choice(self, obs: Obs, texts: Mapping[str, int]) -> str | None:
        """``draw-black`` or ``add-siege``, whichever hurts more (a life only if neither is
        legal); None when neither is offered."""
        draw = "draw-black" in texts
        siege = "add-siege" in texts
        if draw and siege:
            engines = int(obs["siege_engines"])
            return "add-siege" if self.siege_harm(engines) > self.draw_harm(obs) else "draw-black"
        if draw:
            return "draw-black"
        if siege:
            return "add-siege"
        return None

    def _d_evil(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if not self._is_traitor(obs):
            return super()._d_evil(obs, texts)
        if "peek" in texts and not obs["you"]["black_deck_known"]:
            return "peek"  # Percival: know the card before choosing (SOC-KNIGHT-PERCIVAL)
        return self.evil_choice(obs, texts) or super()._d_evil(obs, texts)

    def _d_traitor_evil(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self.evil_choice(obs, texts) or super()._d_traitor_evil(obs, texts)

    # ------------------------------------------------------------------ black cards
    def _d_war_target(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if not self._is_traitor(obs):
            return super()._d_war_target(obs, texts)
        wars = [w for w in _WARS if f"target:{w}" in texts]
        if not wars:
            return None
        quests = obs["quests"]
        # The war nearest to loss: most figures, then fewest white cards on it.
        return "target:" + max(
            wars, key=lambda w: (int(quests[w]["figures"]), -len(quests[w]["white"])))

    def _d_clairv(self, obs: Obs, texts: dict[str, int]) -> str | None:
        # The card chosen first comes first (the Armor asks the same: _d_armor).
        if not self._is_traitor(obs):
            return super()._d_clairv(obs, texts)
        return pick(texts, "choose-black:", _black_harm, highest=True)

    def _d_perc_bottom(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if not self._is_traitor(obs):
            return super()._d_perc_bottom(obs, texts)
        return pick(texts, "choose-black:", _black_harm, highest=False)  # the mildest

    def _d_merlin(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """A traitor's Merlin target: the least urgent one for the knights;
        the heuristic's own open traitor (:class:`OpenTraitor`, which follows no record)
        the second most urgent, a plausible one."""
        if not self._is_traitor(obs):
            return super()._d_merlin(obs, texts)
        options = self.merlin_options(obs, texts)
        if not options:
            return None
        ranked = sorted(options, reverse=True)
        # What was left of the hiding traitor's ``exposed_at`` (issue 29): the seat counted
        # as seen by the table exactly when it followed the public record.
        return ranked[-1][1] if self.track_beliefs else ranked[min(1, len(ranked) - 1)][1]

    # ------------------------------------------------------------------ never helps
    def _d_share(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if not self._is_traitor(obs):
            return super()._d_share(obs, texts)
        mine = f"seat:{obs['seat']}"
        if mine in texts:
            return mine
        # Not entitled itself: the knight who has most already (where a card helps least).
        return seat_by_hand(obs, texts, most=True)

    def _d_pool(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "pass" if self._is_traitor(obs) and "pass" in texts else super()._d_pool(obs, texts)

    def _d_siege(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "done" if self._is_traitor(obs) and "done" in texts else super()._d_siege(obs, texts)

    def _d_kay(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "pass" if self._is_traitor(obs) and "pass" in texts else super()._d_kay(obs, texts)

    def _d_volunteer(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if self._is_traitor(obs) and "pass" in texts:
            return "pass"
        return super()._d_volunteer(obs, texts)

    def _d_grail(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "pass" if self._is_traitor(obs) and "pass" in texts else super()._d_grail(obs, texts)

    def _d_excal(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "pass" if self._is_traitor(obs) and "pass" in texts else super()._d_excal(obs, texts)

    def _d_heroism(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if not self._is_traitor(obs):
            return super()._d_heroism(obs, texts)
        # Heroism adds a sword of the side that wins the quest (SOC-RULING-11): the quest
        # the knights are likeliest to lose.
        quests = obs["quests"]

        def hope(text: str) -> float:
            key = text[7:]
            if key == "grail":
                return float(quests["grail"]["grail_cards"]) - len(quests["grail"]["black"])
            if key in _WARS:
                return float(len(quests[key]["white"])) - float(quests[key]["figures"])
            return 0.0

        targets = [t for t in texts if t.startswith("target:")]
        return min(targets, key=hope) if targets else None

    # ------------------------------------------------------------------ reveal
    def reveal_pays(self, obs: Obs) -> bool:
        """Whether revealing with Fate now pays (SOC-RULING-28): the others would discard
        many cards, or its life is nearly gone (a dead hidden traitor flips nothing)."""
        seat = int(obs["seat"])
        me = obs["knights"][seat]
        others = [k for k in obs["knights"]
                  if k["seat"] != seat and k["status"] == "in-play"]
        discards = sum(min(2, int(k["hand_size"])) for k in others)
        return int(me["life"]) <= self.reveal_life or (
            bool(others) and discards >= self.reveal_discards * len(others))

    def _d_fate(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if self._is_traitor(obs) and "fate:reveal" in texts:
            return "fate:reveal"  # played as loyal it would give every knight a card
        return super()._d_fate(obs, texts)

    # ------------------------------------------------------------------ heroic phase
    def _heroic_scorer(self, obs: Obs) -> Callable[[Obs, str, dict[str, int]], float]:
        if self._is_traitor(obs):
            return self._traitor_heroic_score
        return super()._heroic_scorer(obs)

    def _traitor_heroic_score(self, obs: Obs, text: str, texts: dict[str, int]) -> float:
        kind, _, arg = text.partition(":")
        me = obs["knights"][obs["seat"]]
        if kind == "accuse":
            # SOC-ACCUSE-3: only worth it with a white sword to turn black.
            if int(obs["round_table"]["white"]) == 0:
                return -2.0
            target = obs["knights"][int(arg)]
            if target["loyalty"] == "traitor":
                return -5.0  # a known fellow traitor (Merlin's Company's second traitor)
            return 50.0 + 0.5 * int(target["life"]) + 0.05 * int(target["hand_size"])
        if kind == "special":
            if arg == "fate" and self.reveal_pays(obs):
                return 30.0
            return -2.0  # every other special card would help the knights
        if kind == "play":
            return -4.0  # never a white card on a quest
        if kind in ("fight-siege", "sacrifice"):
            return -4.0
        if kind == "heal":
            return 9.0 if int(me["life"]) <= 1 else -1.0
        # Otherwise as a loyal knight, with a taste for solo quests it can fail quietly.
        score = self._heroic_score(obs, text, texts)
        if kind == "move" and arg in ("black-knight", "lancelot"):
            score += 1.5
        return score


@mypyc_attr(allow_interpreted_subclasses=True)
class OpenTraitor(SaboteurTraitor):
    """The heuristic traitor's open play (``SocHeuristicBot`` hands its decisions to it
    once it harms openly): the saboteur's, but its evil is always a siege engine while one
    can be added (SOC-EVIL-3, SOC-TRAITOR-2), never a black card. The black cards bring
    engines of their own once Excalibur is won (SOC-QUEST-6), and the siege is what the
    loyal knights defend worst: on paired seeds against the heuristic loyal knights, loyal
    wins 0 of 176 against 12 of 176 for the saboteur (seed 12; 7 of 176 when it adds
    engines from 5 and draws below).

    >>> OpenTraitor(1).evil_choice({"siege_engines": 0}, {"draw-black": 1, "add-siege": 2})
    'add-siege'
    """

    def __repr__(self) -> str:
        return f"OpenTraitor(seed={self.seed!r})"

    def evil_choice(self, obs: Obs, texts: Mapping[str, int]) -> str | None:
        """A siege engine whenever one can be added, else the saboteur's choice."""
        return "add-siege" if "add-siege" in texts else super().evil_choice(obs, texts)
