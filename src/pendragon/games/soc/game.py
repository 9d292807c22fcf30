"""Shadows over Camelot: the game object, its options and its declared facts."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from pendragon.core.actions import ActionCatalog
from pendragon.core.api import Game, GameInfo
from pendragon.core.errors import CorruptStateError
from pendragon.core.options import OptionSpec
from pendragon.core.registry import register_game
from pendragon.games.soc import actions as A
from pendragon.games.soc.cards import (
    BASE_KNIGHTS,
    GRAIL_CARD,
    HEROISM,
    MERLIN,
    NUM_BLACK,
    NUM_WHITE,
    black_counts,
    white_counts,
)
from pendragon.games.soc.data import T
from pendragon.games.soc.engine import MAX_ROUNDS
from pendragon.games.soc.state import SocState
from pendragon.games.soc.view import TENSOR_SIZE

#: Upper bound of steps in one turn: two heroic actions with their longest sub-decisions
#: (a Convocation answered by 7 and 7 cards shared, Morgan's chain of 3 cards each with a
#: round of Merlin pledges, Excalibur and Grail offers, reward sharing) stays far below it.
MAX_STEPS_PER_TURN = 200
#: Set-up steps: coats of arms, loyalty, 5 cards each, contributions and their sharing.
MAX_SETUP_STEPS = 7 * (1 + 1 + 5 + 1 + 1)


@register_game
class SocGame(Game):
    """Shadows over Camelot (base game).

    >>> import pendragon
    >>> game = pendragon.load_game("soc", players=4, seed=3)
    >>> game.num_players(), game.info.min_players, game.info.max_players
    (4, 3, 7)
    >>> pendragon.load_game("soc", players=8)
    Traceback (most recent call last):
    ...
    pendragon.core.errors.InvalidOptionError: option 'players' must be between 3 and 7, got 8
    """

    name: ClassVar[str] = "soc"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", int, 5, "number of knights (3-7)", minimum=3, maximum=7),
        OptionSpec("seed", int, None, "seed of the game's chance stream", nullable=True),
        OptionSpec(
            "share",
            str,
            "choice",
            "how revealed cards are shared: 'choice' (one knight gives each card) or 'random'",
            choices=("choice", "random"),
        ),
    )

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self._players = int(self.options["players"])  # type: ignore[arg-type]
        self.random_share = self.options["share"] == "random"
        #: Whether loyalty cards lie face up (a game without a traitor).
        self.open_loyalty = False
        #: (loyal, traitor) cards in the loyalty deck (SOC-SETUP-5).
        self.loyalty_deck = (7, 1)
        #: Coats of arms dealt at random (SOC-SETUP-2).
        self.knight_pool: tuple[int, ...] = BASE_KNIGHTS
        self.white_total = white_counts(expansion=False)
        self.black_total = black_counts(expansion=False)
        self._info = GameInfo(
            name=self.name,
            long_name="Shadows over Camelot",
            min_players=3,
            max_players=7,
            num_distinct_actions=A.NUM_ACTIONS,
            # Every turn adds at least one step and the game stops after MAX_ROUNDS rounds
            # (SOC-RULING-45), so the length is bounded by this product.
            max_game_length=MAX_SETUP_STEPS + MAX_ROUNDS * 7 * MAX_STEPS_PER_TURN,
            # Returns are +1 (won) or -1 (lost) for every seat; 0 only mid-game.
            min_utility=-1.0,
            max_utility=1.0,
            observation_tensor_size=TENSOR_SIZE,
        )

    @property
    def info(self) -> GameInfo:
        return self._info

    @property
    def catalog(self) -> ActionCatalog:
        return A.CATALOG

    def num_players(self) -> int:
        return self._players

    def new_initial_state(self) -> SocState:
        """The deal: coats of arms, loyalty, a Merlin and 5 white cards each (SOC-SETUP-*)."""
        state: SocState = object.__new__(SocState)
        SocState.__init__(state, self)
        state._init_data(self._players, self.white_total[:], self.black_total[:])
        tasks: list[tuple[int, int, int, int]] = []
        n = self._players
        tasks += [(T.C_KNIGHT, s, 0, 0) for s in range(n)]
        tasks += [(T.C_LOYALTY, s, 0, 0) for s in range(n)]
        # SOC-SETUP-4: a Merlin each first, then the rest is shuffled and 5 dealt to each.
        tasks += [(T.SETUP_MERLIN, s, 0, 0) for s in range(n)]
        for s in range(n):
            tasks += [(T.C_WHITE, s, 0, 0)] * 5
        tasks.append((T.SETUP_CONTRIB, 0, 0, 0))
        state.push_all(tasks)
        state._run()
        return state

    def deserialize_state(self, text: str) -> SocState:
        if not isinstance(text, str):
            raise CorruptStateError("serialized state must be text")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CorruptStateError(f"serialized state is not valid JSON: {error}") from None
        return SocState.from_dict(self, data)


_ = (GRAIL_CARD, HEROISM, MERLIN, NUM_BLACK, NUM_WHITE)
