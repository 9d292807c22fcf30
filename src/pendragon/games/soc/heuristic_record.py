"""How the Shadows over Camelot heuristic reads the public record: the belief about the
traitors of every knight it plays (:func:`traitor_belief`, a
:class:`~pendragon.bots.belief.LoyaltyBelief` from the loyalty deck's odds, SOC-SETUP-5,
MC-LOYALTY), the public deeds it reads into it (:func:`_deed`, weighed by
:mod:`pendragon.games.soc.evidence`), and the worlds a search draws from that belief.

:class:`PublicRecord` is what the heuristic's policy
(:class:`~pendragon.games.soc.heuristic_policy.SocPolicy`) keeps of the game it plays: it
replays the real game's history on a private copy and reads only the acting seat, the
public view and the public kinds of decision, never a card drawn or a hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from mypy_extensions import mypyc_attr

from pendragon.bots.belief import LoyaltyBelief
from pendragon.core.api import State
from pendragon.games.soc.evidence import (
    AT_EXCALIBUR,
    AT_SIEGE,
    AT_SOLO_QUEST,
    Deed,
    SeatRecord,
)
from pendragon.games.soc.heuristic_cards import _POOL_WORTH, _WARS, Obs
from pendragon.games.soc.rules import actions as A


def traitor_belief(players: int, loyalty_deck: tuple[int, int],
                   seen: dict[int, bool] | None = None) -> LoyaltyBelief:
    """The prior belief about the traitors of whoever has seen the loyalty cards ``seen``
    (seat -> traitor?; a knight's own card when he has read it, none for an onlooker or
    under VAR-THREE), from the loyalty deck (``loyalty_deck``: loyal and traitor cards,
    SOC-SETUP-5, MC-LOYALTY).

    >>> belief = traitor_belief(5, (7, 1), {0: False})
    >>> round(belief.probability(1), 3), round(belief.none(), 3)
    (0.143, 0.429)
    >>> eight = traitor_belief(8, (8, 2), {0: False})  # Merlin's Company, two traitors
    >>> round(eight.count_distribution()[2], 3)
    0.583
    """
    seen = dict(seen or {})
    loyal, traitors = loyalty_deck
    for traitor in seen.values():
        loyal -= not traitor
        traitors -= traitor
    hidden = [s for s in range(players) if s not in seen]
    return LoyaltyBelief(hidden, loyal=max(0, loyal), traitors=max(0, traitors))


def _base_deck(_seats: int) -> tuple[int, int]:
    """The base game's loyalty deck, 7 loyal cards and the traitor (SOC-SETUP-5)."""
    return 7, 1


class MerlinJudge(Protocol):
    """Whoever reads the record's Merlin targets: how urgent each legal target is for the
    knights, from the public board (the policy's ``merlin_options``)."""

    def merlin_options(self, obs: Obs, texts: dict[str, int]) -> list[tuple[float, str]]:
        """(urgency, target text) of each legal Merlin target in ``texts``."""
        ...


@mypyc_attr(allow_interpreted_subclasses=True)
class PublicRecord:
    """The public record of one game as a policy follows it, and the traitor beliefs it
    feeds: :meth:`follow` reads the deeds taken since the last call, :meth:`belief` the
    belief of a seat with them weighed in. ``judge`` rates Merlin targets (a deed's
    figures)."""

    def __init__(self, judge: MerlinJudge) -> None:
        self.judge = judge
        #: Per seat: the belief and how many deeds of the record it has read.
        self._beliefs: dict[int, tuple[LoyaltyBelief, list[int]]] = {}
        #: The private copy the history is replayed on, and how many actions it has seen.
        self._replay: State | None = None
        self._seen = 0
        #: The public deeds of the record, in order (:class:`~evidence.Deed`).
        self._deeds: list[Deed] = []
        #: Per belief (seat): each other knight's record of deeds.
        self._records: dict[int, dict[int, SeatRecord]] = {}
        #: The loyalty deck of the game followed at a table of so many seats
        #: (``SocGame.loyalty_deck_for``: SOC-SETUP-5, MC-LOYALTY, VAR-MIDST).
        self._deck_for: Callable[[int], tuple[int, int]] = _base_deck

    def belief(self, obs: Obs) -> LoyaltyBelief:
        """The belief of the seat of ``obs``, with every deed of the record read so far
        weighed in and every loyalty card it sees settled."""
        seat = int(obs["seat"])
        entry = self._beliefs.get(seat)
        if entry is None:
            seen: dict[int, bool] = {}
            if obs["you"]["loyalty"] is not None:
                seen[seat] = obs["you"]["loyalty"] == "traitor"
            players = int(obs["players"])
            entry = (traitor_belief(players, self._deck_for(players), seen), [0])
            self._beliefs[seat] = entry
            self._records[seat] = {}
        belief, read = entry
        for knight in obs["knights"]:
            if knight["loyalty"] is None:
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

    def follow(self, state: State) -> None:
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
            self._records = {}
            self._beliefs.clear()
            self._deck_for = getattr(state.game, "loyalty_deck_for", _base_deck)
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
                        deed = _deed(self.judge, replay, player, decision, A.CATALOG.text(action))
                        if deed is not None:
                            self._deeds.append(deed)
            replay.apply_action(action)
            if accused >= 0:
                shown = replay.observation(None)["knights"][accused]["loyalty"]
                if shown is not None:  # SOC-ACCUSE-2: the accused's card is shown
                    self._deeds.append(Deed(player, "accused", str(shown), ()))
        self._seen = len(history)


#: Decisions whose choice every player sees and reads as evidence (evidence.py).
_READ = frozenset(("evil", "pool", "share", "war-target", "merlin", "heroic"))


def _deed(bot: MerlinJudge, state: State, seat: int, decision: str,
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


def _decision_of(state: State) -> str:
    name = getattr(state, "decision_name", None)
    return str(name()) if callable(name) else ""
