"""The Sword in the Stone: the rules (pure: nothing but ``pendragon.core`` and the stdlib).

Rules. A deck holds twenty virtue cards, four of each value 1..5 (:data:`CARDS`). Chance
deals three secret cards to each of the 2-4 knights, one at a time from seat 0. Then the
knights take turns from seat 0. On his turn a knight either

* **pulls** (``pull:V``): lays a card of value ``V`` from his hand face up on the stone,
  adding ``V`` to the stone's total; a pull may never take the total past the ``target``
  (option, default 21). The knight whose pull brings the total to *exactly* the target
  draws the sword and wins;
* **draws** (``draw``): takes a secret card from the deck (a chance node), if the deck is
  not empty and he holds fewer than five cards;
* **passes** (``pass``), only when he can neither pull nor draw.

A knight who must pass can never act again (the total only grows, the deck only shrinks,
his hand does not change), so when every knight has passed in a row the game ends in a
stalemate. Returns: the winner +1 and every other knight -1; 0 for all in a stalemate.

Action catalog (ids stable)::

    0..4    card:1 .. card:5   chance: the card dealt or drawn has this value
    5..9    pull:1 .. pull:5   lay a card of this value on the stone
    10      draw               draw a card from the deck
    11      pass               pass (only when nothing else is legal)

Observation of a seat (``observation(seat)``, JSON)::

    players, target   the table's facts
    stone             values laid on the stone, in order; total: their sum
    deck              cards left in the deck
    hand_sizes        cards in each knight's hand
    to_play           seat to act (None at a chance node or once over)
    receiving         seat about to receive a card at a chance node, else None
    passes            passes in a row so far
    winner            seat that drew the sword, else None; stalemate: bool; over: bool
    seat, hand        (a seat's view only) the viewer and his own cards, sorted
    revealed          (once over) every knight's hand

Observation tensor (22 floats in [0, 1]), seats counted from the viewer::

    0..4   own cards of value 1..5 / 4        5..9   cards of value 1..5 on the stone / 4
    10     (target - total) / target          11     cards in the deck / 20
    12..15 hand size of seat +0..+3 / 5       16..19 seat +0..+3 is to act (one-hot)
    20     passes in a row / 4                21     1 once the game is over

Version history: 1 — first version.

>>> game = SwordStoneGame({"players": 2, "seed": 5})
>>> state = game.new_initial_state()
>>> state.play_random_chance()
>>> state.current_player(), len(state.observation(0)["hand"]), state.observation(1)["hand_sizes"]
(0, 3, [3, 3])
>>> "draw" in [state.action_to_string(a) for a in state.legal_actions()]
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pendragon.core import storage
from pendragon.core.actions import ActionCatalog
from pendragon.core.api import CHANCE, TERMINAL, Game, Observation, State, winner_takes_all
from pendragon.core.errors import CorruptStateError
from pendragon.core.events import Event, Seat, Term, event
from pendragon.core.options import SEED_OPTION, OptionSpec

NAME = "sword-stone"


@dataclass(frozen=True, slots=True)
class Card:
    """A kind of virtue card: its value, its message key suffix, its copies in the deck."""

    value: int
    key: str
    copies: int

    @property
    def term(self) -> Term:
        """The card's name as an event parameter."""
        return Term(f"{NAME}.card.{self.key}")


CARDS = (
    Card(1, "faith", 4),
    Card(2, "valour", 4),
    Card(3, "honour", 4),
    Card(4, "strength", 4),
    Card(5, "destiny", 4),
)
KINDS = len(CARDS)
DECK_SIZE = sum(card.copies for card in CARDS)
#: Cards each knight is dealt at the start, and the most he may hold.
START_HAND = 3
MAX_HAND = 5
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: First ids of each action family.
CARD, PULL, DRAW, PASS = 0, KINDS, 2 * KINDS, 2 * KINDS + 1
NUM_ACTIONS = 2 * KINDS + 2
TENSOR_SIZE = 2 * KINDS + 2 + 2 * MAX_PLAYERS + 2
_FORMAT = 1


class SwordStoneGame(Game):
    """The Sword in the Stone (2-4 knights)."""

    name = NAME
    option_specs = (
        OptionSpec("players", int, 2, "number of knights", minimum=MIN_PLAYERS,
                   maximum=MAX_PLAYERS),
        SEED_OPTION,
        OptionSpec("target", int, 21, "the stone's total that frees the sword", minimum=10,
                   maximum=40),
    )
    catalog = ActionCatalog(
        [f"card:{c.value}" for c in CARDS] + [f"pull:{c.value}" for c in CARDS] + ["draw", "pass"]
    )

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self.players = self.num_players()
        self.target = int(self.options["target"] or 21)
        self.declare_info(
            "The Sword in the Stone",
            # Every card leaves the deck once (a chance action), is pulled at most once and
            # drawn at most once; between two such decisions at most players-1 passes
            # (players passes in a row end the game).
            max_game_length=DECK_SIZE + 2 * DECK_SIZE + (2 * DECK_SIZE + 1) * self.players,
            # The winner +1, the others -1 (the default utilities); a stalemate 0 for all.
            observation_tensor_size=TENSOR_SIZE,
        )

    def new_initial_state(self) -> SwordStoneState:
        """The opening deal, to seat 0 first."""
        return SwordStoneState(self)

    def deserialize_state(self, text: str) -> SwordStoneState:
        """Rebuild a state from :meth:`SwordStoneState.serialize`."""
        data = storage.stored_format(storage.read_json(text), NAME, _FORMAT)
        if data.get("options") != [self.players, self.target]:
            raise CorruptStateError("a state of a game with other options")
        state = SwordStoneState(self)
        with storage.reading("sword-stone state"):
            state.hands = [storage.whole_numbers(hand, "hands") for hand in data["hands"]]
            state.deck = storage.whole_numbers(data["deck"], "deck")
            state.stone = storage.whole_numbers(data["stone"], "stone")
            for name in ("turn", "deal_to", "to_deal", "passes", "winner"):
                setattr(state, name, storage.whole_number(data[name], name))
            state.over = bool(data["over"])
            state.restore_history_fields(data)
        state.check_invariants()
        storage.check_playable(state)
        return state


class SwordStoneState(State):
    """A position: hands and deck as count vectors by value, the stone as a list."""

    __slots__ = ("hands", "deck", "stone", "turn", "deal_to", "to_deal", "passes", "winner",
                 "over")

    game: SwordStoneGame

    def __init__(self, game: SwordStoneGame) -> None:
        super().__init__(game)
        self.hands = [[0] * KINDS for _ in range(game.players)]
        self.deck = [card.copies for card in CARDS]
        self.stone: list[int] = []
        self.turn = 0  # seat whose turn it is (or resumes after a chance node)
        self.deal_to = 0  # seat receiving a card at a chance node, -1: none
        self.to_deal = START_HAND * game.players  # cards of the opening deal still to come
        self.passes = 0
        self.winner = -1
        self.over = False

    # ------------------------------------------------------------------ rules
    def total(self) -> int:
        """The stone's total."""
        return sum(self.stone)

    def current_player(self) -> int:
        """Chance while a card is dealt, then the knight whose turn it is."""
        if self.over:
            return TERMINAL
        return CHANCE if self.deal_to >= 0 else self.turn

    def _legal_actions(self) -> list[int]:
        hand = self.hands[self.turn]
        room = self.game.target - self.total()
        legal = [PULL + k for k in range(KINDS) if hand[k] and CARDS[k].value <= room]
        if sum(self.deck) and sum(hand) < MAX_HAND:
            legal.append(DRAW)
        return legal or [PASS]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        left = sum(self.deck)
        return [(CARD + k, n / left) for k, n in enumerate(self.deck) if n]

    def _apply(self, action: int) -> None:
        if self.deal_to >= 0:
            self.deck[action - CARD] -= 1
            self.hands[self.deal_to][action - CARD] += 1
            if self.to_deal:
                self.to_deal -= 1
                self.deal_to = (self.deal_to + 1) % self.game.players if self.to_deal else -1
            else:
                self.deal_to = -1
                self._next_turn()
        elif action == DRAW:
            self.passes = 0
            self.deal_to = self.turn
        elif action == PASS:
            self.passes += 1
            if self.passes == self.game.players:
                self.over = True
            else:
                self._next_turn()
        else:
            self.passes = 0
            self.hands[self.turn][action - PULL] -= 1
            self.stone.append(CARDS[action - PULL].value)
            if self.total() == self.game.target:
                self.winner, self.over = self.turn, True
            else:
                self._next_turn()

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.game.players

    def returns(self) -> list[float]:
        """+1 for the knight who drew the sword, -1 for the others; 0 otherwise."""
        return winner_takes_all(self.winner, self.game.players)

    # ------------------------------------------------------------------ views
    def _values(self, seat: int) -> list[int]:
        return [c.value for c, n in zip(CARDS, self.hands[seat], strict=True) for _ in range(n)]

    def observation(self, seat: int | None) -> Observation:
        """The public table; ``seat``'s own hand; every hand once the game is over."""
        player = self.current_player()
        view: Observation = {
            "players": self.game.players,
            "target": self.game.target,
            "stone": list(self.stone),
            "total": self.total(),
            "deck": sum(self.deck),
            "hand_sizes": [sum(hand) for hand in self.hands],
            "to_play": player if player >= 0 else None,
            "receiving": self.deal_to if self.deal_to >= 0 else None,
            "passes": self.passes,
            "winner": self.winner if self.winner >= 0 else None,
            "stalemate": self.over and self.winner < 0,
            "over": self.over,
        }
        if seat is not None:
            view["seat"] = seat
            view["hand"] = self._values(seat)
        if self.over:
            view["revealed"] = [self._values(s) for s in range(self.game.players)]
        return view

    def observation_tensor(self, seat: int) -> list[float]:
        """The layout of the module docstring."""
        players = self.game.players
        tensor = [0.0] * TENSOR_SIZE
        for k in range(KINDS):
            tensor[k] = self.hands[seat][k] / CARDS[k].copies
            tensor[KINDS + k] = self.stone.count(CARDS[k].value) / CARDS[k].copies
        tensor[10] = (self.game.target - self.total()) / self.game.target
        tensor[11] = sum(self.deck) / DECK_SIZE
        player = self.current_player()
        for offset in range(players):
            other = (seat + offset) % players
            tensor[12 + offset] = sum(self.hands[other]) / MAX_HAND
            tensor[16 + offset] = 1.0 if player == other else 0.0
        tensor[20] = self.passes / MAX_PLAYERS
        tensor[21] = 1.0 if self.over else 0.0
        return tensor

    def narrate(self, action: int, viewer: int | None) -> list[Event]:
        """A dealt card's value only to its receiver; pulls, draws and passes are public."""
        key = f"{NAME}.log"
        if self.over:
            return [event(f"{key}.over")]
        if self.deal_to >= 0:
            seat = Seat(self.deal_to)
            if viewer == self.deal_to:
                return [event(f"{key}.dealt-known", seat=seat, card=CARDS[action - CARD].term)]
            return [event(f"{key}.dealt", seat=seat)]
        seat = Seat(self.turn)
        if action == DRAW:
            return [event(f"{key}.draw", seat=seat)]
        if action == PASS:
            ends = self.passes + 1 == self.game.players
            return [event(f"{key}.pass", seat=seat)] + ([event(f"{key}.stalemate")] if ends else [])
        card = CARDS[action - PULL]
        total = self.total() + card.value
        events = [event(f"{key}.pull", seat=seat, card=card.term, total=total)]
        if total == self.game.target:
            events.append(event(f"{key}.sword", seat=seat))
        return events

    def action_event(self, action: int) -> Event:
        """``Pull with Honour (3)``, ``Draw a card``, ``Pass``; a chance outcome: its card."""
        if action == DRAW:
            return event(f"{NAME}.action.draw")
        if action == PASS:
            return event(f"{NAME}.action.pass")
        if action >= PULL:
            return event(f"{NAME}.action.pull", card=CARDS[action - PULL].term)
        return event(f"{NAME}.action.card", card=CARDS[action - CARD].term)

    def decision_event(self) -> Event:
        """``sword-stone.decision.turn`` (``deal`` at a chance node, ``over`` at the end)."""
        player = self.current_player()
        name = {TERMINAL: "over", CHANCE: "deal"}.get(player, "turn")
        return event(f"{NAME}.decision.{name}")

    # ------------------------------------------------------------------ copies
    def clone(self) -> SwordStoneState:
        """An independent copy."""
        other = self.copy_base()
        other.hands = [list(hand) for hand in self.hands]
        other.deck = list(self.deck)
        other.stone = list(self.stone)
        other.turn, other.deal_to, other.to_deal = self.turn, self.deal_to, self.to_deal
        other.passes, other.winner, other.over = self.passes, self.winner, self.over
        return other

    def serialize(self) -> str:
        """Canonical JSON (the chance stream's seed included: it never reaches a client)."""
        return json.dumps(
            {
                "format": _FORMAT,
                "options": [self.game.players, self.game.target],
                "hands": self.hands,
                "deck": self.deck,
                "stone": self.stone,
                "turn": self.turn,
                "deal_to": self.deal_to,
                "to_deal": self.to_deal,
                "passes": self.passes,
                "winner": self.winner,
                "over": self.over,
                **self.history_fields(),
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    def resample_hidden(self, seat: int, generator: random.Random) -> SwordStoneState:
        """Redeal the other knights' hands (same sizes) from their cards and the deck."""
        other = self.clone()
        other.become_world(generator)  # reseeded; no past (it would tell the real deal)
        if self.over:
            return other  # every hand is revealed
        others = [s for s in range(self.game.players) if s != seat]
        pool = [k for k, n in enumerate(self.deck) for _ in range(n)]
        pool += [k for s in others for k, n in enumerate(self.hands[s]) for _ in range(n)]
        generator.shuffle(pool)
        other.deck = [0] * KINDS
        for s in others:
            size = sum(self.hands[s])
            other.hands[s] = [0] * KINDS
            for k in pool[:size]:
                other.hands[s][k] += 1
            pool = pool[size:]
        for k in pool:
            other.deck[k] += 1
        return other

    def check_invariants(self) -> None:
        """Every card in exactly one place; counters within their ranges."""
        players = self.game.players
        if len(self.hands) != players or any(len(h) != KINDS for h in [*self.hands, self.deck]):
            raise CorruptStateError("hands or deck of the wrong shape")
        for k, card in enumerate(CARDS):
            counts = [self.deck[k], *(hand[k] for hand in self.hands)]
            if min(counts) < 0 or sum(counts) + self.stone.count(card.value) != card.copies:
                raise CorruptStateError(f"the {card.key} cards do not add up")
        if any(sum(hand) > MAX_HAND for hand in self.hands):
            raise CorruptStateError("a hand holds more than five cards")
        if self.total() > self.game.target or (self.total() == self.game.target) != (
            self.winner >= 0
        ):
            raise CorruptStateError("the stone's total disagrees with the winner")
        if not (0 <= self.turn < players and -1 <= self.deal_to < players
                and 0 <= self.to_deal <= START_HAND * players and 0 <= self.passes <= players
                and -1 <= self.winner < players):
            raise CorruptStateError("a counter is out of range")
        if self.over != (self.winner >= 0 or self.passes == players):
            raise CorruptStateError("the end of the game disagrees with its cause")
        if self.deal_to >= 0 and (self.over or not sum(self.deck)):
            raise CorruptStateError("a card is dealt from an empty deck or after the end")
        if self.to_deal and (self.deal_to < 0 or self.stone or self.turn or sum(
            sum(hand) for hand in self.hands
        ) != START_HAND * players - self.to_deal):
            raise CorruptStateError("the opening deal is not where its count says")
