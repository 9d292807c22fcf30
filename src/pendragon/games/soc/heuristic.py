"""A rule-based Shadows over Camelot player: a sensible loyal knight or a credible traitor.

The policy reads only ``state.observation(seat)`` and the legal actions with their text
forms (``play:fight-5``, ``move:grail``...). Each decision of the agenda (``evil``,
``heroic``, ``pool``, ``share``...) has its own small policy function; the heroic phase
scores every legal action and plays the best.

Loyal knights keep a belief about the traitor (:func:`traitor_belief`, a
:class:`~pendragon.bots.belief.LoyaltyBelief`): a probability for every set of traitors,
"no traitor" and, with Merlin's Company, two traitors included, starting from the loyalty
deck's real odds (SOC-SETUP-5) and updated from the other knights' public deeds, each
weighed by a family of loyal and traitor policies (:mod:`pendragon.games.soc.evidence`),
with a shown loyalty card as a certainty. They accuse the most suspected knight once
accusations are open (SOC-ACCUSE-1) and the belief is strong, and a search drawing worlds
from this policy (``sample_world``) deals the traitor cards from the same belief.

The heuristic traitor harms openly from the first turn (issue 18: hiding measured weaker
on paired seeds): it hands its decisions to :class:`~pendragon.games.soc.saboteur.OpenTraitor`,
whose evil is always a siege engine. Its hiding branches remain for ``exposed_at`` above
0: it then pays evil, shares rewards, pledges Merlins and picks targets as the loyal
heuristic does, harms where nobody can see (the cards it plays or keeps, the quests it lets
fail), takes the decisive siege engine, and goes open once unmasked or once the table's
public evidence gives it ``exposed_at``.

>>> import pendragon
>>> from pendragon.runner import play_game
>>> game = pendragon.load_game("soc", players=3, seed=5, no_traitor=True)
>>> final = play_game(game, [SocHeuristicBot(seed=s) for s in range(3)])
>>> final.is_terminal()
True
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence
from typing import Any

from pendragon.bots.base import to_act
from pendragon.bots.belief import LoyaltyBelief
from pendragon.core.api import CHANCE, State
from pendragon.games.soc.evidence import (
    AT_EXCALIBUR,
    AT_SIEGE,
    AT_SOLO_QUEST,
    Deed,
    SeatRecord,
)
from pendragon.games.soc.heuristic_expansion import (
    MerlinsCompanyPolicy,
    card_worth,
    fight_list,
    pick,
)
from pendragon.games.soc.rules import actions as A

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


def traitor_belief(players: int, loyalty_deck: tuple[int, int],
                   seen: dict[int, bool] | None = None) -> LoyaltyBelief:
    """The prior belief about the traitors of whoever has seen the loyalty cards ``seen``
    (seat -> traitor?; a knight's own card when he has read it, none for an onlooker or
    under VAR-THREE), from the loyalty deck (``loyalty_deck``: loyal and traitor cards,
    SOC-SETUP-5, MC-LOYALTY).

    >>> belief = traitor_belief(5, (7, 1), {0: False})
    >>> round(belief.probability(1), 3), round(belief.none(), 3)
    (0.143, 0.429)
    >>> eight = traitor_belief(8, (7, 2), {0: False})  # Merlin's Company, two traitors
    >>> round(eight.count_distribution()[2], 3)
    0.75
    """
    seen = dict(seen or {})
    loyal, traitors = loyalty_deck
    for traitor in seen.values():
        loyal -= not traitor
        traitors -= traitor
    hidden = [s for s in range(players) if s not in seen]
    return LoyaltyBelief(hidden, loyal=max(0, loyal), traitors=max(0, traitors))


class SocHeuristicBot(MerlinsCompanyPolicy):
    """Hand-written Shadows over Camelot policy for one seat at a time.

    ``track_beliefs`` turns on the traitor belief, which follows the public record of the
    game being played (turn it off for rollouts inside a search, where it would only cost
    time). The bot is meant to play one game; create a new one per game.
    """

    #: Progression of Evil: lose a life from this much life, add engines up to this many.
    evil_life = 4
    evil_siege = 0
    #: ...one life lower on a war about to be won (its life is coming).
    life_coming_discount = 1
    #: Heroic phase: sacrifice a life for a second action from this much life; fight
    #: siege engines from this many.
    sacrifice_life = 5
    #: Weight of the Excalibur quest when choosing where to go.
    excal_weight = 1.2
    #: Weight of the Grail quest when choosing where to go. Low: holding the Grail against
    #: Despair cost about 15 actions a game for a quest the knights won 7 games in 100;
    #: left to evil it is lost (3 black swords, SOC-GRAIL-4), which brings the end of the
    #: game nearer while the wars win it (44% -> 67% loyal wins). A knight who can finish
    #: it (seven Grail cards between his hand and the board) still goes.
    grail_weight = 0.2
    #: Worth of each other knight already on a war (a war won gives each knight present a
    #: life, SOC-WAR-3: the lives that pay the Progression of Evil).
    war_company = 2.0
    #: Worth of drawing white cards at Camelot with an empty hand (less per card held).
    draw_base = 5.0
    #: Solo combat quests: worth of going with a combination expected to win by
    #: ``combat_margin`` or more. The Dragon: worth of each card the hand can add to its
    #: triples; at 0 only the black cards piled on it (0.5 each) draw a knight holding
    #: fitting cards there, rarely (pushing the Dragon to its end turns its black cards
    #: into siege engines, SOC-QUEST-6, and measured worse).
    combat_base = 2.5
    combat_margin = 2.0
    dragon_weight = 0.0
    #: Extra urgency of a Merlin on a quest one black card from defeat.
    merlin_quest_bonus = 1.0
    #: Pledge a Merlin against special black cards worth at least this (see _POOL_WORTH).
    pool_threshold = 2.0
    siege_fight_from = 8
    #: Fight a siege engine with at least this total (it wins when above the d8 roll).
    siege_target = 7
    #: Go back to Camelot to fight from this many siege engines.
    siege_return = 11
    #: The owner sacrifices Excalibur against a card that would bring this many engines.
    excal_cancel_siege = 11

    #: The margin the hidden traitor's end-of-game flip costs (two white swords turned
    #: black, SOC-TRAITOR-3), the harm an unmasked traitor does per sword still to come,
    #: and the least expected gain an accusation must promise.
    flip_worth = 4.0
    unmasked_harm = 0.3
    accuse_margin = 0.5
    #: The heuristic traitor stops hiding once the table's public evidence gives it this
    #: probability of being the traitor. At 0 it never hides: hiding measured weaker than
    #: open harm (issue 18; docs/bots.md "Traitor panel").
    exposed_at = 0.0
    #: Once unmasked or exposed, the traitor plays the open harm of
    #: ``saboteur.OpenTraitor`` instead of its hidden branches.
    open_sabotage = True

    __slots__ = (
        "seed", "track_beliefs", "_rng", "_beliefs", "_replay", "_seen", "_deeds", "_plans",
        "_deck", "_shown", "_open", "_records",
    )

    def __init__(self, seed: int | None = None, track_beliefs: bool = True) -> None:
        self.seed = seed
        self.track_beliefs = track_beliefs
        self._rng = random.Random(seed)
        #: Per seat (``-1``: an onlooker's, the public belief): the belief and how many
        #: deeds of the record it has read.
        self._beliefs: dict[int, tuple[LoyaltyBelief, list[int]]] = {}
        self._replay: State | None = None
        self._seen = 0
        #: The public deeds of the record, in order (:class:`~evidence.Deed`).
        self._deeds: list[Deed] = []
        #: Seats whose loyalty card an accusation showed to everyone (SOC-ACCUSE-2).
        self._shown: set[int] = set()
        #: The open policy, once this traitor goes open (:meth:`_saboteur`).
        self._open: SocHeuristicBot | None = None
        #: Per belief (seat, -1 the onlooker's): each other knight's record of deeds.
        self._records: dict[int, dict[int, SeatRecord]] = {}
        if self.open_sabotage:
            _open_traitor_class()  # the module's first import, out of any decision's time
        #: The loyalty deck of the game followed (SOC-SETUP-5).
        self._deck: tuple[int, int] = (7, 1)
        #: The quest plan of the observation being decided on (computed once a decision).
        self._plans: tuple[Obs, dict[str, float]] | None = None

    def __repr__(self) -> str:
        return f"SocHeuristicBot(seed={self.seed!r})"

    # ------------------------------------------------------------------ entry point
    def step(self, state: State) -> int:
        """The action for the seat to act in ``state``."""
        seat, legal = to_act(state)
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
        if self.open_sabotage and self._is_traitor(obs) and self._goes_open(obs):
            return self._saboteur().choose(obs, legal)
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

    def _goes_open(self, obs: Obs) -> bool:
        """Whether the (traitor) seat of ``obs`` now harms openly: once unmasked
        (SOC-TRAITOR-1), or once the table's public evidence points at it
        (:meth:`_exposed`): hiding has nothing left to buy."""
        if self.exposed_at <= 0.0:
            return True  # open from the first turn (rollouts too, without a belief)
        return self._me(obs)["status"] == "unmasked" or self._exposed(obs)

    def _saboteur(self) -> SocHeuristicBot:
        """The open policy (``saboteur.OpenTraitor``: the saboteur's, its evil always a
        siege engine) this traitor plays once it goes open; built on first use, without a
        belief of its own."""
        if self._open is None:
            self._open = _open_traitor_class()(self.seed, track_beliefs=False)
        return self._open

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

    def belief(self, obs: Obs, onlooker: bool = False) -> LoyaltyBelief:
        """The belief of the seat of ``obs`` (``onlooker``: of someone who sees only the
        public record, how suspect the table finds each knight), with every deed of the
        record read so far weighed in and every shown loyalty card settled."""
        seat = -1 if onlooker else int(obs["seat"])
        entry = self._beliefs.get(seat)
        if entry is None:
            seen: dict[int, bool] = {}
            if not onlooker and obs["you"]["loyalty"] is not None:
                seen[seat] = obs["you"]["loyalty"] == "traitor"
            entry = (traitor_belief(int(obs["players"]), self._deck, seen), [0])
            self._beliefs[seat] = entry
            self._records[seat] = {}
        belief, read = entry
        for knight in obs["knights"]:
            if knight["loyalty"] is None:
                continue
            if onlooker and knight["seat"] == obs["seat"] and not self._public_card(
                    obs, knight["seat"]):
                # The seat's own card shows in its own observation; an onlooker sees it
                # only once public (unmasked, accused, or the game over).
                continue
            belief.settle(knight["seat"], knight["loyalty"] == "traitor")
        records = self._records.setdefault(seat, {})
        for deed in self._deeds[read[0]:]:
            if deed.seat == seat:
                continue
            # The knight's whole record under each policy (evidence.SeatRecord): weigh
            # by how much this deed changed its ratio.
            record = records.setdefault(deed.seat, SeatRecord())
            before = record.ratio()
            record.add(deed)
            belief.weigh(deed.seat, record.ratio() / before)
        read[0] = len(self._deeds)
        return belief

    def _public_card(self, obs: Obs, seat: int) -> bool:
        """Whether ``seat``'s loyalty card is public (SOC-ACCUSE-2, SOC-TRAITOR-1, the end
        of the game), read from the public view and the record followed."""
        knight = obs["knights"][seat]
        return (knight["status"] == "unmasked" or obs["status"] != "running"
                or seat in self._shown)

    def suspicion(self, obs: Obs) -> float:
        """How strongly the public record points at the seat of ``obs`` (an onlooker's
        probability that it is a traitor)."""
        return self.belief(obs, onlooker=True).probability(int(obs["seat"]))

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

    # ------------------------------------------------------------------ public record
    def _follow_record(self, state: State) -> None:
        """Read the public deeds taken since the last call (evil choices, pledges, shared
        rewards, targets, accusations and their outcome) by replaying the history on a
        private copy of the initial state.

        Only the acting seat, the public view and the public kinds of decisions are read
        (never a card drawn or a hand), so the evidence is what any player at the table saw.
        A world of a search (``State.resample_hidden``) has no past: the record read so far
        stands, and nothing is added.
        """
        if state.is_world():
            return
        history = state.history()
        if self._replay is None or self._seen > len(history):
            self._replay = state.game.new_initial_state()
            self._seen = 0
            self._deeds = []
            self._shown = set()
            self._records = {}
            self._beliefs.clear()
            deck = getattr(state.game, "loyalty_deck", None)
            if deck is not None:
                self._deck = (int(deck[0]), int(deck[1]))
        replay = self._replay
        for action in history[self._seen:]:
            if replay.is_table_operation(action):  # a player joining or leaving
                replay.apply_table_operation(action)
                continue
            player = replay.current_player()
            accused = -1
            if player >= 0:
                if A.ACCUSE <= action < A.ACCUSE + A.MAX_SEATS:
                    accused = action - A.ACCUSE
                else:
                    decision = _decision_of(replay)
                    if decision in _READ:
                        deed = _deed(self, replay, player, decision, A.CATALOG.text(action))
                        if deed is not None:
                            self._deeds.append(deed)
            replay.apply_action(action)
            if accused >= 0:
                shown = replay.observation(None)["knights"][accused]["loyalty"]
                if shown is not None:  # SOC-ACCUSE-2: the accused's card is shown
                    self._deeds.append(Deed(player, "accused", str(shown), ()))
                    self._shown.add(accused)
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
        if self._is_traitor(obs) and self._exposed(obs):
            return f"seat:{obs['seat']}" if obs["seat"] in seats else None
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
        if self._is_traitor(obs):
            # The siege engine that brings the end near is worth showing oneself for;
            # otherwise pay as a loyal knight would (any other way is a tell), unless the
            # table suspects this knight already.
            if siege >= 10 and "add-siege" in texts:
                return "add-siege"
            if self._exposed(obs):
                return "add-siege" if siege >= 8 and "add-siege" in texts else "draw-black"
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
        return "face-down"  # one more white card; only the drawer knows the card

    def _d_pool(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if "pledge-merlin" not in texts:
            return "pass"
        card = next((c.get("card") for c in obs["table"]["black_in_play"] if "card" in c), None)
        worth = _POOL_WORTH.get(str(card), 0.0)
        if self._is_traitor(obs):
            # Pledge only where a loyal knight surely would (not to look like a traitor).
            return "pledge-merlin" if worth >= 2.5 and not self._exposed(obs) else "pass"
        return "pledge-merlin" if worth >= self.pool_threshold else "pass"

    def _d_merlin(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self._merlin_target(obs, texts)[0]

    def _merlin_target(self, obs: Obs, texts: dict[str, int]) -> tuple[str | None, float]:
        """The best Merlin target and how urgent it is (a traitor: a plausible one, the
        second most urgent, unless it no longer hides)."""
        options = self.merlin_options(obs, texts)
        if not options:
            return None, 0.0
        ranked = sorted(options, reverse=True)
        if self._is_traitor(obs):
            if self._exposed(obs):
                return ranked[-1][1], ranked[-1][0]
            return ranked[min(1, len(ranked) - 1)][1], ranked[min(1, len(ranked) - 1)][0]
        return ranked[0][1], ranked[0][0]

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

    def _d_siege(self, obs: Obs, texts: dict[str, int]) -> str | None:
        total = sum(obs["table"]["siege_fight"]["cards"])
        plays = [t for t in texts if t.startswith("play:fight")]
        if self._is_traitor(obs):
            return min(plays, key=lambda t: card_worth(t[5:], self._hand(obs))) if (
                total == 0 and plays) else "done"
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
        if self._is_traitor(obs) and self._exposed(obs):
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
        return me["life"] <= 1 or self._exposed(obs) or (
            cards >= 2 * len(others) and swords >= 6 and accusers >= 2)

    def _exposed(self, obs: Obs) -> bool:
        """Whether the public record already points at this (traitor) knight."""
        return self.track_beliefs and self.suspicion(obs) >= self.exposed_at

    def _d_grail(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return "pass" if self._is_traitor(obs) else "drink-grail"

    def _d_excal(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if self._is_traitor(obs):
            return "pass"
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
        return pick(texts, "choose-black:", _black_harm, highest=self._is_traitor(obs))

    def _d_armor(self, obs: Obs, texts: dict[str, int]) -> str | None:
        return self._d_clairv(obs, texts)

    def _d_perc_bottom(self, obs: Obs, texts: dict[str, int]) -> str | None:
        # The card sent to the bottom of the deck: the most harmful for the knights.
        return pick(texts, "choose-black:", _black_harm, highest=not self._is_traitor(obs))

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
        if not values or location not in ("black-knight", "lancelot", *_WARS):
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
        if kind == "heal":
            return 20.0 if life <= 2 else (3.0 if life <= 3 else -0.5)
        if kind == "accuse":
            return self._accuse_score(obs, int(arg))
        if kind == "play":
            # A quest action on the quest we stand on.
            if location in ("black-knight", "lancelot", *_WARS):
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
        every = {f"target:{k}": 0 for k in ("siege", "black-knight", "lancelot", "grail", *_WARS)}
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

    def _traitor_heroic_score(self, obs: Obs, text: str, texts: dict[str, int]) -> float:
        me = self._me(obs)
        kind, _, arg = text.partition(":")
        rt = obs["round_table"]
        if kind == "accuse":
            # A loyal knight accused turns a white sword black (SOC-ACCUSE-3): best when a
            # white sword is there to turn, before the knights unmask the accuser, and on
            # the knight the others trust most (the one with most life: the least suspect).
            swords = rt["white"] + rt["black"]
            if rt["white"] == 0 or not (self._exposed(obs) or swords >= 10):
                return -2.0  # a wrong accusation shows the accuser up (evidence.py)
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
            strong = self._siege_strength(self._hand(obs)) > 0  # no empty-handed fight
            return 0.5 if strong and obs["siege_engines"] >= 9 else -1.0
        # Otherwise act like a loyal knight, with a taste for solo quests it can fail quietly.
        score = self._heroic_score(obs, text, texts)
        if kind == "move" and arg in ("black-knight", "lancelot"):
            score += 1.5
        if kind == "play" and me["location"] in ("black-knight", "lancelot"):
            score -= 4.0  # stay, play nothing, let evil fill the quest
        return score


#: Decisions whose choice every player sees and reads as evidence (evidence.py).
_READ = frozenset(("evil", "pool", "share", "war-target", "merlin", "heroic"))


def _deed(bot: SocHeuristicBot, state: State, seat: int, decision: str,
          choice: str) -> Deed | None:
    """The public deed of ``seat`` choosing ``choice`` at ``decision`` in ``state``, with
    the public figures its evidence depends on (``None``: the choice tells nothing)."""
    public = state.observation(None)
    knight = public["knights"][seat]
    if decision == "heroic":
        return _heroic_deed(public, seat, choice)
    if decision == "evil":
        return Deed(seat, decision, choice, (knight["life"], public["siege_engines"]))
    if decision == "pool":
        card = next((c.get("card") for c in public["table"]["black_in_play"] if "card" in c),
                    None)
        return Deed(seat, decision, choice,
                    (_POOL_WORTH.get(str(card), 0.0), knight["hand_size"] + (
                        1 if choice == "pledge-merlin" else 0)))
    texts = [A.CATALOG.text(a) for a in state.legal_actions()]
    if decision == "share":
        seats = [int(t[5:]) for t in texts if t.startswith("seat:")]
        if len(seats) < 2 or seat not in seats:
            return None
        hands = public["knights"]
        fewest = knight["hand_size"] <= min(hands[s]["hand_size"] for s in seats if s != seat)
        return Deed(seat, decision, "self" if choice == f"seat:{seat}" else "other",
                    (float(fewest), float(len(seats))))
    if decision == "war-target":
        wars = [t[7:] for t in texts if t.startswith("target:") and t[7:] in _WARS]
        figures = {w: public["quests"][w]["figures"] for w in wars}
        if len(figures) < 2 or len(set(figures.values())) < 2 or choice[7:] not in figures:
            return None
        nearer = figures[choice[7:]] == max(figures.values())
        return Deed(seat, decision, "nearer-defeat" if nearer else "further", ())
    if decision == "merlin":
        options = bot.merlin_options(public, dict.fromkeys(texts, 0))
        if len(options) < 2 or choice not in {t for _, t in options}:
            return None
        ranked = [t for _, t in sorted(options, key=lambda o: (-o[0], o[1]))]
        where = "best" if choice == ranked[0] else "worst" if choice == ranked[-1] else "other"
        return Deed(seat, decision, where, (float(len(ranked)),))
    return None


def _heroic_deed(public: Obs, seat: int, choice: str) -> Deed | None:
    """The first heroic action of ``seat``'s turn where standing still tells (evidence.py
    ``_heroic``): on Excalibur while it is open, on a solo combat quest, at Camelot with 9
    or more engines and 3 or more cards; ``None`` elsewhere or after the first action."""
    if public["turn"]["used"] or public["turn"]["seat"] != seat:
        return None
    knight = public["knights"][seat]
    location = knight["location"]
    quests = public["quests"]
    kind = choice.partition(":")[0]
    if location == "camelot":
        if int(public["siege_engines"]) < 9 or int(knight["hand_size"]) < 3:
            return None
        return Deed(seat, "heroic", "play" if kind == "fight-siege" else "other",
                    (AT_SIEGE,))
    if int(knight["hand_size"]) < 1:
        return None
    if location == "excalibur" and not quests["excalibur"]["over"]:
        where = AT_EXCALIBUR
    elif location == "black-knight" or (
            location == "lancelot" and quests["lancelot"]["side"] == "lancelot"):
        where = AT_SOLO_QUEST
    else:
        return None
    verdict = "play" if kind == "play" else "move" if kind == "move" else "other"
    return Deed(seat, "heroic", verdict, (where,))


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


def _decision_of(state: State) -> str:
    name = getattr(state, "decision_name", None)
    return str(name()) if callable(name) else ""


def _open_traitor_class() -> type[SocHeuristicBot]:
    """``saboteur.OpenTraitor``, imported late: that module builds on this one."""
    from pendragon.games.soc.saboteur import OpenTraitor

    return OpenTraitor


def rollout_bot(seed: int | None) -> SocHeuristicBot:
    """The heuristic without belief tracking: the fast policy of search rollouts."""
    return SocHeuristicBot(seed, track_beliefs=False)
