"""High Card Swap: a tiny game that exercises every part of the core API.

It exists so that the runner, bots, terminal, golden tool and conformance tests can be
developed and tested without a real game. It is registered only inside tests (see the
``toy_game`` fixture in ``conftest.py``), never by the package.

Rules. A deck holds cards valued ``1..cards``. Chance deals one secret card to each seat in
turn. Then the seats decide in order, ``rounds`` times each: ``keep`` the card, or ``swap`` it
(allowed while the deck is not empty): the old card is discarded face up and chance deals a
new secret one. When every seat has decided ``rounds`` times all cards are revealed: the
highest card wins (+1), the others lose (-1); seats tied for the highest card score 0.

Actions: ``deal:V`` (chance, ``V`` in ``1..cards``), ``keep``, ``swap``.

Observation of a seat: the public table (discards, deck size, turn) and its own card; at the
end every card is revealed.

>>> game = ToyGame({"players": 2, "seed": 3})
>>> state = game.new_initial_state()
>>> state.play_random_chance()
>>> [state.action_to_string(a) for a in state.legal_actions()]
['keep', 'swap']
>>> for _ in range(4):
...     _ = state.apply_text("keep")
>>> state.is_terminal(), sorted(state.returns())
(True, [-1.0, 1.0])
"""

from __future__ import annotations

import json
import random
from typing import Any

from pendragon.core.actions import ActionCatalog
from pendragon.core.api import CHANCE, TERMINAL, Game, GameInfo, Observation, State
from pendragon.core.errors import CorruptStateError
from pendragon.core.events import Event, Seat, event
from pendragon.core.options import OptionSpec

_FORMAT = 1


class ToyGame(Game):
    """The High Card Swap game (2-3 players)."""

    name = "toy"
    #: The state class (tests swap in deliberately broken subclasses).
    state_class: type[ToyState]
    option_specs = (
        OptionSpec("players", int, 2, minimum=2, maximum=3, help="number of seats"),
        OptionSpec("seed", int, None, nullable=True, help="seed of the chance stream"),
        OptionSpec("cards", int, 6, minimum=4, maximum=9, help="cards in the deck (1..N)"),
        OptionSpec("rounds", int, 2, minimum=1, maximum=3, help="decisions of each seat"),
    )

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self.players = int(self.options["players"] or 2)
        self.cards = int(self.options["cards"] or 6)
        self.rounds = int(self.options["rounds"] or 2)
        self._catalog = ActionCatalog(
            [f"deal:{v}" for v in range(1, self.cards + 1)] + ["keep", "swap"]
        )
        self.keep = self.cards
        self.swap = self.cards + 1
        self._info = GameInfo(
            name="toy",
            long_name="High Card Swap",
            min_players=2,
            max_players=3,
            num_distinct_actions=self.cards + 2,
            # One deal per seat, then each decision is at most a swap plus its deal.
            max_game_length=self.players + 2 * self.players * self.rounds,
            min_utility=-1.0,
            max_utility=1.0,
            observation_tensor_size=2 * self.cards + self.players + 2,
        )

    @property
    def info(self) -> GameInfo:
        """The declared facts."""
        return self._info

    @property
    def catalog(self) -> ActionCatalog:
        """``deal:1..deal:N``, ``keep``, ``swap``."""
        return self._catalog

    def num_players(self) -> int:
        """Seats in this game."""
        return self.players

    def new_initial_state(self) -> ToyState:
        """Dealing to seat 0."""
        return self.state_class(self)

    def deserialize_state(self, text: str) -> ToyState:
        """Rebuild a state from :meth:`ToyState.serialize`."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as error:
            raise CorruptStateError(f"not JSON: {error}") from None
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise CorruptStateError("not a toy state")
        if data.get("options") != [self.players, self.cards, self.rounds]:
            raise CorruptStateError("state of a game with other options")
        state = self.state_class(self)
        try:
            state.hands = [None if h is None else int(h) for h in data["hands"]]
            state.discards = [int(d) for d in data["discards"]]
            state.turn = int(data["turn"])
            state.deal_to = None if data["deal_to"] is None else int(data["deal_to"])
            state.dealt_at = [int(i) for i in data["dealt_at"]]
            state._history = [int(a) for a in data["history"]]
            state._chance_count = int(data["chance_count"])
            state._rng_seed = int(data["rng_seed"])
        except (KeyError, TypeError, ValueError) as error:
            raise CorruptStateError(f"bad toy state: {error!r}") from None
        state.check_invariants()
        return state


class ToyState(State):
    """A position of High Card Swap."""

    __slots__ = ("hands", "discards", "turn", "deal_to", "dealt_at")

    game: ToyGame

    def __init__(self, game: ToyGame) -> None:
        super().__init__(game)
        self.hands: list[int | None] = [None] * game.players
        self.discards: list[int] = []
        self.turn = 0  # decisions made so far
        self.deal_to: int | None = 0  # seat waiting for a card
        self.dealt_at: list[int] = [-1] * game.players  # history index of each hand's deal

    # ------------------------------------------------------------------ rules
    def deck(self) -> list[int]:
        """Cards neither held nor discarded."""
        used = set(self.discards) | {h for h in self.hands if h is not None}
        return [v for v in range(1, self.game.cards + 1) if v not in used]

    def current_player(self) -> int:
        """Chance while a seat waits for a card, then the seats in turn."""
        if self.deal_to is not None:
            return CHANCE
        if self.turn >= self.game.players * self.game.rounds:
            return TERMINAL
        return self.turn % self.game.players

    def _legal_actions(self) -> list[int]:
        if self.deck():
            return [self.game.keep, self.game.swap]
        return [self.game.keep]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        deck = self.deck()
        return [(v - 1, 1.0 / len(deck)) for v in deck]

    def _apply(self, action: int) -> None:
        if self.deal_to is not None:
            seat = self.deal_to
            self.hands[seat] = action + 1
            self.dealt_at[seat] = len(self._history) - 1
            missing = [p for p, h in enumerate(self.hands) if h is None]
            self.deal_to = missing[0] if missing else None
            return
        seat = self.current_player()
        if action == self.game.swap:
            card = self.hands[seat]
            assert card is not None
            self.discards.append(card)
            self.hands[seat] = None
            self.deal_to = seat
        self.turn += 1

    def returns(self) -> list[float]:
        """+1 for the single highest card, 0 for a shared highest, -1 otherwise."""
        if not self.is_terminal():
            return [0.0] * self.game.players
        cards = [h or 0 for h in self.hands]
        best = max(cards)
        winners = cards.count(best)
        return [(1.0 if winners == 1 else 0.0) if c == best else -1.0 for c in cards]

    # ------------------------------------------------------------------ views
    def observation(self, seat: int | None) -> Observation:
        """Public table plus ``seat``'s own card; every card once the game is over."""
        player = self.current_player()
        view: Observation = {
            "players": self.game.players,
            "to_play": {CHANCE: "chance", TERMINAL: "nobody"}.get(player, f"seat {player}"),
            "decisions_left": self.game.players * self.game.rounds - self.turn,
            "deck_size": len(self.deck()),
            "discards": list(self.discards),
        }
        if seat is not None:
            view["seat"] = seat
            view["my_card"] = self.hands[seat]
        if player == TERMINAL:
            view["revealed"] = list(self.hands)
            view["returns"] = self.returns()
        return view

    def observation_tensor(self, seat: int) -> list[float]:
        """Own card one-hot, discards, seat to play one-hot, progress, terminal flag."""
        cards = self.game.cards
        tensor = [0.0] * (2 * cards + self.game.players + 2)
        own = self.hands[seat]
        if own is not None:
            tensor[own - 1] = 1.0
        for card in self.discards:
            tensor[cards + card - 1] = 1.0
        player = self.current_player()
        if player >= 0:
            tensor[2 * cards + player] = 1.0
        tensor[-2] = self.turn / (self.game.players * self.game.rounds)
        tensor[-1] = 1.0 if player == TERMINAL else 0.0
        return tensor

    def narrate(self, action: int, viewer: int | None) -> list[Event]:
        """A deal's value only to its receiver; keep and swap (and the discard) are public."""
        if self.deal_to is not None:
            if viewer == self.deal_to:
                return [event("toy.log.dealt-known", seat=Seat(self.deal_to), value=action + 1)]
            return [event("toy.log.dealt", seat=Seat(self.deal_to))]
        seat = self.current_player()
        if action == self.game.swap:
            return [event("toy.log.swap", seat=Seat(seat), value=self.hands[seat] or 0)]
        return [event("toy.log.keep", seat=Seat(seat))]

    def action_event(self, action: int) -> Event:
        """``toy.action.keep`` / ``toy.action.swap`` (deals: ``toy.action.deal``)."""
        if action < self.game.cards:
            return event("toy.action.deal", value=action + 1)
        return event("toy.action." + ("swap" if action == self.game.swap else "keep"))

    # ------------------------------------------------------------------ copies
    def clone(self) -> ToyState:
        """An independent copy."""
        other = type(self)(self.game)
        other.hands = list(self.hands)
        other.discards = list(self.discards)
        other.turn = self.turn
        other.deal_to = self.deal_to
        other.dealt_at = list(self.dealt_at)
        other._history = list(self._history)
        other._chance_count = self._chance_count
        other._rng_seed = self._rng_seed
        return other

    def serialize(self) -> str:
        """Canonical JSON."""
        return json.dumps(
            {
                "format": _FORMAT,
                "options": [self.game.players, self.game.cards, self.game.rounds],
                "hands": self.hands,
                "discards": self.discards,
                "turn": self.turn,
                "deal_to": self.deal_to,
                "dealt_at": self.dealt_at,
                "history": self._history,
                "chance_count": self._chance_count,
                "rng_seed": self._rng_seed,
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    def resample_hidden(self, seat: int, generator: random.Random) -> ToyState:
        """Redeal the other seats' cards among the cards ``seat`` has not seen.

        The deals in the history are rewritten to match, so the history still replays to
        the new state; the chance stream gets a fresh seed.
        """
        other = self.clone()
        other._rng_seed = generator.getrandbits(64)
        if self.is_terminal():
            return other  # every card is public
        others = [p for p, h in enumerate(self.hands) if p != seat and h is not None]
        pool = [h for p in others if (h := self.hands[p]) is not None] + self.deck()
        generator.shuffle(pool)
        for p, card in zip(others, pool, strict=False):
            other.hands[p] = card
            other._history[self.dealt_at[p]] = card - 1
        return other

    def check_invariants(self) -> None:
        """Every card in at most one place; counters in range (the conformance hook)."""
        held = [h for h in self.hands if h is not None]
        if len(set(held + self.discards)) != len(held) + len(self.discards):
            raise CorruptStateError("a card is in two places")
        if not all(1 <= c <= self.game.cards for c in held + self.discards):
            raise CorruptStateError("a card outside the deck")
        if not 0 <= self.turn <= self.game.players * self.game.rounds:
            raise CorruptStateError("turn out of range")


ToyGame.state_class = ToyState
