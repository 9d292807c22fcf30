"""The state of Shadows over Camelot: The Card Game: flat int fields, copying, storage,
invariants and determinisation.

Every pile of rumor cards is a count vector by kind, except the few places whose order or
owner matters: the threat pile (bottom to top, with Morgan #1's face-down cards), the part of
the deck Tristan has put in order (``known``, each entry with the seats that saw it), the
discarded cards nobody else saw (``hidden_discard``) and a seat's hand of drawn cards
(``hold``: an unmasked traitor's two, Gawain's three).
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Final

from pendragon.core.api import CHANCE, TERMINAL, WORLD_FIELD, Observation, State
from pendragon.core.errors import CorruptStateError
from pendragon.core.events import Event
from pendragon.core.storage import check_playable, stored_format, whole_number, whole_numbers
from pendragon.games.soc_card.rules import engine as E, tasks as T, view
from pendragon.games.soc_card.rules.cards import (
    CARD_QUEST,
    IS_MORGAN,
    IS_QUEST,
    KNIGHT_COUNTS,
    NUM_KINDS,
    NUM_QUESTS,
    TRAITOR,
)

if TYPE_CHECKING:
    from pendragon.games.soc_card.rules.game import SocCardGame

_FORMAT: Final = 1
#: Serialized fields that are lists of ints, with their lengths (None: free length).
_INT_FIELDS: Final = (
    "white", "black", "silence", "morgan_1", "morgan_2", "merlin_4_quest", "merlin_4_by",
    "merlin_6_bonus", "flight", "hold_seat", "percival", "turn", "result", "end_reason",
    "deck_size", "discard_size", "vivien_drawer", "vivien_receiver", "last_quest", "last_token",
    "last_bonus",
)
_LIST_FIELDS: Final = (
    "deck", "known", "known_seen", "discard", "hidden_discard", "hidden_seen", "pile",
    "pile_down", "pile_by", "aside", "loyalty", "loyal_aside", "loyal_pool", "revealed",
    "accused", "knight_deck", "knights", "knights_played", "offer", "hold", "agenda",
    "last_pile", "peeks", "was_accused", "veiled",
)
#: Fields a state saved before they existed may lack (each read with its default).
_LATER_FIELDS: Final = frozenset({"was_accused", "veiled"})


class SocCardState(State["SocCardGame"]):
    """A position of Shadows over Camelot: The Card Game.

    >>> import pendragon
    >>> state = pendragon.load_game("soc-card", players=3, seed=2).new_initial_state()
    >>> state.play_random_chance()
    >>> state.legal_actions() == [state.string_to_action("listen")]
    True
    >>> _ = state.apply_text("listen")
    >>> state.play_random_chance()
    >>> state.observation(None)["pile"]["count"]
    1
    """

    def set_up(self) -> None:
        """The opening position (a state's constructor is cheap: ``State``; the game calls
        this for a new game)."""
        game = self.game
        n = game.num_players()
        self.n = n
        self.solo = n == 1
        self.expert = game.expert
        self.log: list[tuple[Event, int, Event | None]] | None = None
        self.white = self.black = 0
        self.silence = self.morgan_1 = self.morgan_2 = 0
        self.merlin_4_quest = self.merlin_4_by = -1
        self.merlin_6_bonus = 0
        self.flight = -1
        self.hold_seat = -1
        self.percival = 0
        self.turn = 0
        self.result = E.RUNNING
        self.end_reason = E.END_NONE
        self.vivien_drawer = self.vivien_receiver = -1
        self.deck: list[int] = list(game.rumor_counts)
        self.deck_size = sum(self.deck)
        self.known: list[int] = []
        self.known_seen: list[int] = []
        self.discard: list[int] = [0] * NUM_KINDS
        self.discard_size = 0
        self.hidden_discard: list[int] = []
        self.hidden_seen: list[int] = []
        self.pile: list[int] = []
        self.pile_down: list[int] = []
        self.pile_by: list[int] = []
        self.aside: list[int] = [0] * NUM_KINDS
        self.loyalty: list[int] = [-1] * n
        self.loyal_aside: list[int] = [0, 0]
        self.loyal_pool: list[int] = list(game.loyalty_deck)
        #: Per seat: 0 his card is hidden (he shows it at an end), 1 it lies face up, 2 he
        #: was accused and Vivien has hidden his card again (no card at an end: SCG-END-2,
        #: SCG-RULING-11).
        self.revealed: list[int] = [0] * n
        #: Per seat, 1 once he has made his one accusation (SCG-ACCUSE-1).
        self.accused: list[int] = [0] * n
        #: Per seat, 1 once an accusation has named him: «ci, którzy nie zostali przez nikogo
        #: oskarżeni» are the players who show their card at an end (SCG-END-2).
        self.was_accused: list[int] = [0] * n
        #: Per seat: 0, or he was the unmasked traitor when Vivien offered him a card and
        #: his next turn has not begun; his card is hidden meanwhile (SCG-RULING-9): 1 he
        #: took the new card, 2 he kept his traitor card, which his next turn shows again.
        #: That a seat is one of the two is public; which, only he knows.
        self.veiled: list[int] = [0] * n
        self.knight_deck: list[int] = list(KNIGHT_COUNTS) if game.expert else [0] * len(
            KNIGHT_COUNTS)
        self.knights: list[int] = [0] * (n * E.NUM_KNIGHTS)
        self.knights_played: list[int] = [0] * E.NUM_KNIGHTS
        self.offer: list[int] = [-1] * n
        self.hold: list[int] = []
        self.agenda: list[int] = []
        #: The threat pile just resolved, as the table saw it; shown only until the next
        #: action (SCG-RULING-8).
        self.last_quest = self.last_token = -1
        self.last_bonus = 0
        self.last_pile: list[int] = []
        #: Per seat, a bitmask of the seats whose loyalty card it has seen (Galahad) and
        #: that has not been offered a swap since (SCG-EXPERT-8).
        self.peeks: list[int] = [0] * n

    # ------------------------------------------------------------------ rules hooks
    def current_player(self) -> int:
        """The seat to decide, ``CHANCE`` or ``TERMINAL``."""
        if self.result or not self.agenda:
            return TERMINAL
        entry = self.agenda[-1]
        # Decision codes are 40 and up (tasks.py); their seat is the first argument.
        return (entry >> 8) & 0xFF if entry & 0xFF >= T.D_TURN else CHANCE

    def _legal_actions(self) -> list[int]:
        return E.legal(self)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return E.chance_outcomes(self)

    def _chance_counts(self) -> tuple[int, Sequence[int]]:
        """Every chance node draws a card from a pile kept as counts (:func:`.engine.draw`):
        the core samples and checks the drawn card from them."""
        return E.draw(self)

    def _apply(self, action: int) -> None:
        # Decision codes are 40 and up (tasks.py), as in current_player.
        code = self.agenda[-1] & 0xFF
        if code >= T.D_TURN:
            # The pile just resolved lies in view until the next player's action: then it
            # is on the discard pile, where nobody sees it (SCG-LISTEN-1, SCG-RULING-8). A
            # chance step before it (the expert variant's Morgan shuffled in, a Knight card
            # drawn) does not clear the table, nor does an answer to the reveal that
            # follows (Percival at an end reveal, SCG-RULING-22): the next player's action
            # is his turn's, an unmasked traitor's lay after his draw included.
            if code == T.D_TURN or code == T.D_TRAITOR_TRISTAN or code == T.D_PLACE:
                self.last_quest = -1
            E.decide(self, action)
        else:
            E.chance(self, action)
        E.run(self)

    def returns(self) -> list[float]:
        """SCG-END-6: loyal seats +1/-1 by the loyal result, traitors the opposite."""
        if self.result == E.RUNNING:
            return [0.0] * self.n
        loyal = 1.0 if self.result == E.LOYAL_WIN else -1.0
        return [-loyal if self.loyalty[s] == TRAITOR else loyal for s in range(self.n)]

    # ------------------------------------------------------------------ views
    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know (``None``: a spectator); layout in :mod:`.view`."""
        return view.observation(self, seat)

    def observation_tensor(self, seat: int) -> list[float]:
        """The fixed-length numeric view of ``seat`` (layout in :mod:`.view`)."""
        return view.tensor(self, seat)

    def evaluation_tensor(self, seat: int) -> list[float]:
        """What the learned evaluator reads: the observation tensor before its ``known``
        block (:data:`.view.EVALUATION_SIZE`, the layout the shipped network knows)."""
        return view.evaluation_tensor(self, seat)

    def narrate(self, action: int, viewer: int | None) -> list[Event]:
        """What ``viewer`` learns from ``action`` and everything it sets off."""
        return view.narrate(self, action, viewer)

    def action_event(self, action: int) -> Event:
        """The menu words of ``action``."""
        return view.action_event(self, action)

    def decision_event(self) -> Event:
        """What the state waits for (``soc-card.decision.<name>``)."""
        return view.decision_event(self)

    # ------------------------------------------------------------------ copies
    def clone(self) -> SocCardState:
        """An independent copy (flat lists: no deepcopy)."""
        other = self.copy_base()
        other.n = self.n
        other.solo = self.solo
        other.expert = self.expert
        other.log = None
        # Spelled out field by field: a clone is on every search step's path.
        other.white, other.black, other.silence = self.white, self.black, self.silence
        other.morgan_1 = self.morgan_1
        other.morgan_2 = self.morgan_2
        other.merlin_4_quest = self.merlin_4_quest
        other.merlin_4_by = self.merlin_4_by
        other.merlin_6_bonus = self.merlin_6_bonus
        other.flight = self.flight
        other.hold_seat, other.percival, other.turn = self.hold_seat, self.percival, self.turn
        other.result = self.result
        other.end_reason = self.end_reason
        other.deck_size = self.deck_size
        other.discard_size = self.discard_size
        other.vivien_drawer = self.vivien_drawer
        other.vivien_receiver = self.vivien_receiver
        other.deck = self.deck[:]
        other.known = self.known[:]
        other.known_seen = self.known_seen[:]
        other.discard = self.discard[:]
        other.hidden_discard = self.hidden_discard[:]
        other.hidden_seen = self.hidden_seen[:]
        other.pile = self.pile[:]
        other.pile_down = self.pile_down[:]
        other.pile_by = self.pile_by[:]
        other.aside = self.aside[:]
        other.loyalty = self.loyalty[:]
        other.loyal_aside = self.loyal_aside[:]
        other.loyal_pool = self.loyal_pool[:]
        other.revealed = self.revealed[:]
        other.accused = self.accused[:]
        other.was_accused = self.was_accused[:]
        other.veiled = self.veiled[:]
        other.knight_deck = self.knight_deck[:]
        other.knights = self.knights[:]
        other.knights_played = self.knights_played[:]
        other.offer = self.offer[:]
        other.hold = self.hold[:]
        other.agenda = self.agenda[:]
        other.last_quest = self.last_quest
        other.last_token = self.last_token
        other.last_bonus = self.last_bonus
        other.last_pile = self.last_pile[:]
        other.peeks = self.peeks[:]
        return other

    def to_dict(self) -> dict[str, Any]:
        """Every field, as JSON-able data."""
        data: dict[str, Any] = {"format": _FORMAT, "options": self.game.option_key()}
        for name in _INT_FIELDS + _LIST_FIELDS:
            value = getattr(self, name)
            data[name] = value[:] if isinstance(value, list) else value
        data.update(self.history_fields())
        return data

    def serialize(self) -> str:
        """Canonical JSON text."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, game: SocCardGame, data: Any) -> SocCardState:
        """Rebuild and validate a state; :class:`CorruptStateError` on anything impossible.

        A state saved before ``was_accused`` existed still loads: a seat whose card was
        shown or verified then counts as accused. One saved before ``veiled`` existed has
        no seat between Vivien and his next turn (rules version 2 kept no such gap).

        >>> import json
        >>> from pendragon.games.soc_card.rules.fixtures import load_state
        >>> state = load_state({"players": 3, "loyalty": ["loyal", "traitor", "loyal"],
        ...                     "revealed": [1], "swords": {"white": 3, "black": 1}})
        >>> saved = json.loads(state.serialize())
        >>> del saved["was_accused"]
        >>> state.game.deserialize_state(json.dumps(saved)).was_accused
        [0, 1, 0]
        """
        data = stored_format(data, "soc-card", _FORMAT)
        if data.get("options") != game.option_key():
            raise CorruptStateError("the state belongs to a game with other options")
        expected = set(_INT_FIELDS + _LIST_FIELDS) | {
            "format", "options", "history", "chance_count", "rng_seed"}
        given = set(data) - {WORLD_FIELD}  # a world's mark: restore_history_fields
        if not expected - _LATER_FIELDS <= given <= expected:
            raise CorruptStateError(f"fields differ: {sorted(given ^ expected)}")
        state = cls(game)
        state.set_up()
        for name in _INT_FIELDS:
            setattr(state, name, whole_number(data[name], name))
        for name in _LIST_FIELDS:
            if name == "was_accused" and name not in data:
                # Saved before the field existed, when a card once shown or verified never
                # showed at an end again: such a seat counts as accused, as it then played.
                # (Exact while some seat's card was never shown: no end has passed.)
                state.was_accused = [1 if v else 0 for v in state.revealed]
                continue
            if name == "veiled" and name not in data:
                continue  # set_up's: nobody veiled
            setattr(state, name, whole_numbers(data[name], name))
        state.restore_history_fields(data)
        state.check_invariants()
        check_playable(state)
        return state

    # ------------------------------------------------------------------ invariants
    def check_invariants(self) -> None:
        """Every card in exactly one place, counters in range, the agenda well formed."""
        fail = _Fail()
        n = self.n
        fail.unless(len(self.deck) == NUM_KINDS and len(self.discard) == NUM_KINDS
                    and len(self.aside) == NUM_KINDS, "count vectors have the wrong length")
        fail.unless(min(self.deck + self.discard + self.aside, default=0) >= 0, "negative count")
        fail.unless(self.deck_size == sum(self.deck), "deck_size disagrees with the deck")
        fail.unless(self.discard_size == sum(self.discard), "discard_size disagrees")
        places = [self.known, self.hidden_discard, self.pile, self.hold]
        fail.unless(all(0 <= k < NUM_KINDS for p in places for k in p), "unknown card kind")
        fail.unless(len(self.known) == len(self.known_seen), "known/known_seen lengths")
        fail.unless(len(self.hidden_discard) == len(self.hidden_seen), "hidden lengths")
        fail.unless(len(self.pile) == len(self.pile_down) == len(self.pile_by), "pile lengths")
        full = (1 << n) - 1
        fail.unless(all(0 <= m <= full for m in self.known_seen + self.hidden_seen),
                    "seen-by masks name unknown seats")
        fail.unless(all(d == -1 or 0 <= d < NUM_KINDS and IS_QUEST[d] for d in self.pile_down),
                    "bad announced card")
        fail.unless(all(0 <= s < n for s in self.pile_by), "bad pile layer")
        fail.unless(all(IS_QUEST[k] for k, d in zip(self.pile, self.pile_down, strict=True)
                        if d >= 0), "a face-down card that is no quest card")
        fail.unless(all(IS_MORGAN[k] for k in range(NUM_KINDS) if self.aside[k]),
                    "only Morgans are set aside")
        fail.unless(-1 <= self.flight < NUM_KINDS, "bad card in flight")
        totals = self.deck[:]
        for place in places:
            for kind in place:
                totals[kind] += 1
        for kind in range(NUM_KINDS):
            totals[kind] += self.discard[kind] + self.aside[kind]
        if self.flight >= 0:
            totals[self.flight] += 1
        if any(entry & 0xFF == T.FINISH for entry in self.agenda):
            for kind in self.last_pile:  # set aside by the Merlins of the pile being resolved
                totals[kind] += 1
        fail.unless(totals == list(self.game.rumor_counts), "rumor cards do not add up")
        fail.unless(0 <= self.hold_seat < n if self.hold else self.hold_seat == -1,
                    "a hand without a holder")
        # Loyalty.
        fail.unless(len(self.loyalty) == len(self.revealed) == len(self.accused)
                    == len(self.was_accused) == len(self.offer) == len(self.veiled) == n,
                    "per-seat lists have the wrong length")
        fail.unless(len(self.loyal_aside) == 2 and len(self.loyal_pool) == 2, "loyalty piles")
        fail.unless(min(self.loyal_aside + self.loyal_pool, default=0) >= 0, "negative loyalty")
        fail.unless(all(v in (0, 1) for v in self.accused + self.was_accused), "flags are 0/1")
        fail.unless(all(v in (0, 1, 2) for v in self.revealed), "revealed is 0, 1 or 2")
        fail.unless(all((w == 1 or r != 2) and (w == 0 or r != 0) for r, w
                        in zip(self.revealed, self.was_accused, strict=False)),
                    "an accused seat's card is face up or verified, and only his is verified")
        fail.unless(not self.solo or not any(self.was_accused), "solo accusation")
        fail.unless(all(v in (0, 1, 2) and (v == 0 or r != 1 and w >= 0)
                        and (v != 2 or w == TRAITOR) for v, r, w
                        in zip(self.veiled, self.revealed, self.loyalty, strict=False)),
                    "a veiled seat's card lies face up, or he kept no traitor card")
        low = -1 if self.loyal_pool != [0, 0] or self.solo else 0
        fail.unless(all(low <= v <= 1 for v in self.loyalty)
                    and all(-1 <= v <= 1 for v in self.offer), "bad loyalty card")
        cards = [self.loyal_aside[0] + self.loyal_pool[0], self.loyal_aside[1]
                 + self.loyal_pool[1]]
        for value in self.loyalty + self.offer:
            if value >= 0:
                cards[value] += 1
        fail.unless(cards == list(self.game.loyalty_deck), "loyalty cards do not add up")
        # Knights.
        fail.unless(len(self.knight_deck) == len(self.knights_played) == E.NUM_KNIGHTS
                    and len(self.knights) == n * E.NUM_KNIGHTS, "knight lists")
        fail.unless(min(self.knight_deck + self.knights + self.knights_played) >= 0,
                    "negative knight count")
        for knight in range(E.NUM_KNIGHTS):
            held = sum(self.knights[s * E.NUM_KNIGHTS + knight] for s in range(n))
            total = self.knight_deck[knight] + held + self.knights_played[knight]
            fail.unless(total == (KNIGHT_COUNTS[knight] if self.expert else 0),
                        "knight cards do not add up")
        # Counters.
        fail.unless(self.white >= 0 and self.black >= 0, "negative swords")
        fail.unless(all(v in (0, 1) for v in (self.silence, self.morgan_1, self.morgan_2,
                                              self.percival)), "flags are 0/1")
        fail.unless(-1 <= self.merlin_4_quest < NUM_QUESTS, "bad Merlin #4 token")
        fail.unless((self.merlin_4_quest < 0) == (self.merlin_4_by < 0)
                    and self.merlin_4_by < n, "Merlin #4 token without its chooser")
        fail.unless(0 <= self.merlin_6_bonus <= 3, "bad Merlin #6 bonus")
        fail.unless(0 <= self.turn < n, "bad turn")
        fail.unless(self.result in (E.RUNNING, E.LOYAL_WIN, E.EVIL_WIN)
                    and self.end_reason in (0, 1, 2)
                    and (self.result == E.RUNNING) == (self.end_reason == 0), "bad result")
        fail.unless(-1 <= self.vivien_drawer < n and -1 <= self.vivien_receiver < n,
                    "bad Vivien seats")
        fail.unless(-1 <= self.last_quest < NUM_QUESTS and -1 <= self.last_token < NUM_QUESTS
                    and 0 <= self.last_bonus <= 3, "bad last resolution")
        fail.unless(all(0 <= k < NUM_KINDS for k in self.last_pile), "bad last pile")
        fail.unless(len(self.peeks) == n and all(0 <= m <= full for m in self.peeks),
                    "bad Galahad knowledge")
        if self.solo:
            fail.unless(self.loyalty == [-1] and self.loyal_aside == [0, 0], "solo loyalty")
        # The agenda.
        for entry in self.agenda:
            fail.unless(isinstance(entry, int) and 0 <= entry < 1 << 24, "bad agenda entry")
            code, a, b = T.split(entry)
            fail.unless(code in T.KNOWN, f"unknown task {code}")
            fail.unless(a < max(n, NUM_QUESTS) and b < max(n, NUM_QUESTS), "bad task argument")
            if code in T.DECISIONS or code in (T.BEGIN_TURN, T.NEXT_TURN, T.AFTER_LISTEN,
                                               T.END_REVEAL, T.FLIP, T.ACCUSE_SWORDS, T.VIVIEN,
                                               T.GAWAIN_CHECK, T.PLACE_CHECK, T.C_LOYALTY,
                                               T.C_DRAW, T.C_VIVIEN, T.C_KNIGHT, T.C_TRISTAN):
                fail.unless(a < n, "a task names an unknown seat")
            if code in (T.RESOLVE, T.FINISH):
                fail.unless(a < NUM_QUESTS and b < n, "bad quest task")
            if code == T.D_MERLIN_6_ADD:
                fail.unless(b < NUM_QUESTS, "bad Merlin #6 quest")
            if code in (T.D_ARTHUR, T.D_GAWAIN):
                fail.unless(b < n, "bad quester")
            if code == T.C_DRAW:
                fail.unless(b in (0, 1), "bad draw purpose")
        for index, entry in enumerate(self.agenda):
            code, a, _b = T.split(entry)
            if code == T.D_KEEP:  # an offer, or the draw of one still to come above it
                fail.unless(self.offer[a] >= 0 or any(
                    later == T.task(T.C_VIVIEN, a) for later in self.agenda[index + 1:]),
                    "a keep-or-swap without an offer")
            if code == T.D_GIVE:
                fail.unless(n > 1, "nobody to give Vivien's card to")
        if self.agenda and self.result == E.RUNNING:
            code, a, _b = T.split(self.agenda[-1])
            fail.unless(code not in T.AUTOMATIC, "an automatic task waits on top")
            if code == T.D_ANNOUNCE:
                fail.unless(self.flight >= 0 and IS_QUEST[self.flight], "nothing to announce")
            if code == T.D_KEEP:
                fail.unless(self.offer[a] >= 0, "nothing offered")
            if code in (T.D_PLACE, T.D_GAWAIN_PICK):
                fail.unless(bool(self.hold) and self.hold_seat == a, "no hand to choose from")
            if code == T.D_GAWAIN_PICK:
                fail.unless(any(not IS_MORGAN[k] for k in self.hold), "only Morgans drawn")
            if code == T.C_VIVIEN:
                fail.unless(sum(self.loyal_aside) > 0, "no set-aside loyalty card")
            if code == T.C_LOYALTY:
                fail.unless(sum(self.loyal_pool) > 0, "no loyalty card to deal")
            if code == T.C_KNIGHT:
                fail.unless(sum(self.knight_deck) > 0, "no knight card to draw")
            if code == T.C_MORGAN_IN:
                fail.unless(sum(self.aside) > 0, "no Morgan set aside")
            if code in (T.C_ASIDE, T.C_DRAW, T.C_TRISTAN):
                fail.unless(self.deck_size > 0 and not (code == T.C_DRAW and self.known),
                            "nothing to draw")
            if code == T.C_ASIDE:
                fail.unless(any(self.deck[k] for k in range(NUM_KINDS) if IS_MORGAN[k]),
                            "no Morgan in the deck")
            if code == T.D_TURN:
                fail.unless(self.turn == a, "a turn of another seat")
        fail.unless(self.result != E.RUNNING or bool(self.agenda), "a running game waits")
        fail.unless(self.flight < 0 or bool(self.agenda) and T.split(self.agenda[-1])[0]
                    == T.D_ANNOUNCE, "a card in flight outside an announcement")
        fail.unless(all(CARD_QUEST[k] >= 0 for k in ([self.flight] if self.flight >= 0
                                                     else [])), "bad flight")

    # ------------------------------------------------------------------ determinisation
    def resample_hidden(self, seat: int, generator: random.Random) -> SocCardState:
        """A state ``seat`` cannot tell from this one (SCG-RULING-21).

        Kept: everything public (the revealed threat pile, swords, counts) and what ``seat``
        saw itself. Redealt: the other seats' loyalty and Knight cards, the set-aside loyalty
        and Morgan cards, Morgan #1's face-down cards laid by others, the unseen deck
        order, unseen discards, another seat's hand and Merlin #4's token of another seat.
        A face-down card laid by a seat loyal in the new deal is the card it announced.
        A seat that was the unmasked traitor when Vivien offered him a card, before his next
        turn (``veiled``), kept his traitor card or took the new one, at even odds, with
        the cards dealt to fit (SCG-RULING-9). The world keeps no past
        (``State.forget_past``): the real history would tell the real deal.
        """
        other = self.clone()
        other.become_world(generator)
        if self.result != E.RUNNING:
            return other
        _resample_loyalty(other, seat, generator)
        _resample_knights(other, seat, generator)
        _resample_rumors(other, seat, generator)
        if other.merlin_4_by >= 0 and other.merlin_4_by != seat:
            other.merlin_4_quest = generator.randrange(NUM_QUESTS)
        other.invalidate_cache()
        return other

    def with_traitors(self, seat: int, traitors: Collection[int],
                      generator: random.Random) -> SocCardState:
        """A state ``seat`` cannot tell from this one in which, of the seats whose loyalty
        card ``seat`` has not seen, exactly ``traitors`` hold a traitor card; the other
        unseen loyalty cards (Vivien's offers, the set-aside and undealt ones) are redealt.
        ``ValueError`` for a seat ``seat`` has seen or a deal the loyalty deck cannot make.
        The contract is :meth:`pendragon.core.api.State.with_traitors` (example: soc's
        ``SocState.with_traitors``); ``tests/test_soc_belief.py`` checks this one keeps the
        deck.
        """
        other = self.clone()
        if self.result == E.RUNNING:
            _resample_loyalty(other, seat, generator, traitors)
            other.invalidate_cache()
        elif traitors:
            raise ValueError("every loyalty card is shown once the game is over")
        return other


class _Fail:
    """Collects the first broken invariant as a :class:`CorruptStateError`."""

    def unless(self, condition: bool, message: str) -> None:
        if not condition:
            raise CorruptStateError(f"invalid soc-card state: {message}")


def _resample_loyalty(st: SocCardState, seat: int, rng: random.Random,
                      traitors: Collection[int] | None = None) -> None:
    """Redeal the loyalty cards ``seat`` has not seen (other seats', Vivien's offers, the
    set-aside and undealt cards); with ``traitors``, the unseen seats in it get traitor
    cards and the other unseen seats loyal ones, and only the rest is dealt at random.

    A veiled seat (the unmasked traitor Vivien offered a card, before his next turn:
    SCG-RULING-9) held a traitor card the table saw: he kept it (``veiled`` 2; with
    ``traitors``, he is in it) or took the new card and gave that traitor card back among
    the set-aside cards (``veiled`` 1), each at even odds, drawn alike whatever he chose.
    A veiled seat whose card ``seat`` saw since (Galahad) kept it if it is a traitor card.
    """
    if st.solo:
        if traitors:
            raise ValueError("solo play has no loyalty cards")
        return
    pool: list[int] = []
    seats: list[int] = []
    offers: list[int] = []
    veiled: list[int] = []
    seen_veiled: list[int] = []
    for s in range(st.n):
        known = st.peeks[seat] >> s & 1
        hidden = s != seat and st.revealed[s] != 1 and st.loyalty[s] >= 0
        if hidden and not known:
            pool.append(st.loyalty[s])
            if st.veiled[s]:
                veiled.append(s)
            else:
                seats.append(s)
        elif hidden and st.veiled[s]:
            seen_veiled.append(s)
        if s != seat and st.offer[s] >= 0:
            pool.append(st.offer[s])
            offers.append(s)
    for loyalty in (0, 1):
        pool += [loyalty] * (st.loyal_aside[loyalty] + st.loyal_pool[loyalty])
    wanted: set[int] | None = None if traitors is None else set(traitors)
    unseen = set(seats) | set(veiled)
    # A traitor card given back to Vivien lies among the set-aside cards or an offer.
    room = len(offers) + sum(st.loyal_aside) + sum(st.loyal_pool)
    returned = 0
    for s in seen_veiled:
        st.veiled[s] = 2 if st.loyalty[s] == TRAITOR else 1
        if st.veiled[s] == 1 and TRAITOR in pool and returned < room:
            pool.remove(TRAITOR)
            returned += 1
    for s in veiled:
        kept = rng.random() < 0.5 if wanted is None else s in wanted
        if TRAITOR in pool and (kept or returned < room):
            pool.remove(TRAITOR)
            if kept:
                st.loyalty[s] = TRAITOR
                st.veiled[s] = 2
                continue
            returned += 1
        st.veiled[s] = 1  # he took the new card, dealt like the other hidden seats'
        seats.append(s)
    rng.shuffle(pool)
    if wanted is not None:
        if not wanted <= unseen:
            raise ValueError(f"seats {sorted(wanted - unseen)} have no unseen loyalty card")
        for s in seats:
            card = 1 if s in wanted else 0
            if card not in pool:
                raise ValueError("the unseen loyalty cards cannot make that deal")
            pool.remove(card)
            st.loyalty[s] = card
    else:
        for s, card in zip(seats, pool, strict=False):
            st.loyalty[s] = card
        pool = pool[len(seats):]
    if returned:
        pool += [TRAITOR] * returned
        rng.shuffle(pool)
    for s, card in zip(offers, pool, strict=False):
        st.offer[s] = card
    rest = pool[len(offers):]
    pooled = sum(st.loyal_pool)
    st.loyal_pool = [rest[:pooled].count(0), rest[:pooled].count(1)]
    st.loyal_aside = [rest[pooled:].count(0), rest[pooled:].count(1)]


def _resample_knights(st: SocCardState, seat: int, rng: random.Random) -> None:
    if not st.expert:
        return
    k = E.NUM_KNIGHTS
    pool: list[int] = []
    sizes: list[tuple[int, int]] = []
    for s in range(st.n):
        if s == seat:
            continue
        held = st.knights[s * k : s * k + k]
        sizes.append((s, sum(held)))
        for knight, count in enumerate(held):
            pool += [knight] * count
    for knight, count in enumerate(st.knight_deck):
        pool += [knight] * count
    rng.shuffle(pool)
    for s, _size in sizes:
        st.knights[s * k : s * k + k] = [0] * k
    index = 0
    for s, size in sizes:
        for knight in pool[index : index + size]:
            st.knights[s * k + knight] += 1
        index += size
    st.knight_deck = [pool[index:].count(knight) for knight in range(k)]


def _resample_rumors(st: SocCardState, seat: int, rng: random.Random) -> None:
    """Redeal every rumor card ``seat`` has not seen among the places it cannot see."""
    bit = 1 << seat
    pool: list[int] = []
    for kind in range(NUM_KINDS):
        pool += [kind] * (st.deck[kind] + st.aside[kind])
    deck_count = st.deck_size
    aside_count = sum(st.aside)
    known_slots = [i for i, m in enumerate(st.known_seen) if not m & bit]
    hidden_slots = [i for i, m in enumerate(st.hidden_seen) if not m & bit]
    down_slots = [i for i, d in enumerate(st.pile_down) if d >= 0 and st.pile_by[i] != seat]
    hold_hidden = bool(st.hold) and st.hold_seat != seat
    flight_hidden = st.flight >= 0 and T.split(st.agenda[-1])[1] != seat
    pool += [st.known[i] for i in known_slots] + [st.hidden_discard[i] for i in hidden_slots]
    pool += [st.pile[i] for i in down_slots]
    if hold_hidden:
        pool += st.hold
    if flight_hidden:
        pool.append(st.flight)
    rng.shuffle(pool)

    def take(accept: Any) -> int:
        for index, kind in enumerate(pool):
            if accept(kind):
                return pool.pop(index)
        raise AssertionError("resampling ran out of cards")  # the real deal is one answer

    aside = [take(lambda k: IS_MORGAN[k]) for _ in range(aside_count)]
    for i in down_slots:
        told = st.pile_down[i]
        wanted = CARD_QUEST[told]
        if told in pool and (st.solo or st.loyalty[st.pile_by[i]] != TRAITOR):
            st.pile[i] = take(lambda k, t=told: k == t)  # the loyal told the truth
        elif any(IS_QUEST[k] and CARD_QUEST[k] == wanted for k in pool):
            st.pile[i] = take(lambda k, q=wanted: IS_QUEST[k] and CARD_QUEST[k] == q)
        else:
            st.pile[i] = take(lambda k: IS_QUEST[k])
    if flight_hidden:
        st.flight = take(lambda k: IS_QUEST[k])
    if hold_hidden:
        needs_choice = T.split(st.agenda[-1])[0] == T.D_GAWAIN_PICK
        size = len(st.hold)
        first = take(lambda k: not IS_MORGAN[k]) if needs_choice else pool.pop()
        st.hold = [first] + [pool.pop() for _ in range(size - 1)]
    for i in known_slots:
        st.known[i] = pool.pop()
    for i in hidden_slots:
        st.hidden_discard[i] = pool.pop()
    assert len(pool) == deck_count
    st.aside = [0] * NUM_KINDS
    for kind in aside:
        st.aside[kind] += 1
    st.deck = [0] * NUM_KINDS
    for kind in pool:
        st.deck[kind] += 1
