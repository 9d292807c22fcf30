"""Shadows over Camelot: The Card Game — the game object, its options and declared facts.

Options: ``players`` (1-7; 1 is the solo game), ``seed``, ``knights_relief`` (the expert
variant), ``promos`` (Morgan #8 and Merlin #6). Rules reference: ``docs/rules/soc-card.md``.
The action catalog is documented in :mod:`.actions`, the observation layout in :mod:`.view`.

Version history: 1 — first version (rumor deck data format 1, environment version 1).
Environment version 2: the observation tensor ends with the ``known`` block (the seat's
Merlin #4 token, Galahad's looks, Tristan's order), which the learned evaluator does not
read (:data:`.view.EVALUATION_SIZE`). Rules versions: ``docs/rules/soc-card.md``, "Rules
versions".
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from pendragon.core.actions import ActionCatalog
from pendragon.core.api import Game, research_bound
from pendragon.core.options import SEED_OPTION, OptionSpec
from pendragon.core.storage import read_json
from pendragon.games.soc_card.rules import actions as A, engine as E, tasks as T
from pendragon.games.soc_card.rules.cards import MORGAN_KINDS, MORGANS_IN_DECK, deck_counts
from pendragon.games.soc_card.rules.state import SocCardState
from pendragon.games.soc_card.rules.view import EVALUATION_SIZE, TENSOR_NAMES, TENSOR_SIZE

#: Sword layings in one game, with room to spare: at most 13 happen. Every quest or
#: accusation lays one sword or more and is followed by an end check; a sword turned at an
#: end stays on the table, so the swords never become fewer; and a check with 13 swords or
#: more always decides (white at 7 or more outnumbers black, or black has 7 and as many;
#: otherwise black has 7 and more than white). So play goes on (SCG-END-5) only with 12
#: swords or fewer, however many ends passed and swords turned before (a card Vivien hid
#: again shows at the next end: SCG-END-2, SCG-RULING-11), and the 13th laying ends the game.
MAX_LAYINGS: Final = 26
#: Turns between two layings: each adds a rumor card to the pile (at most every card of the
#: game) or is a Galahad look, or a quest that Arthur turned into a listen.
MAX_TURNS_BETWEEN: Final = 64 + 1 + 3
#: Steps of one turn: decision, draw, announcement, count, Vivien's five steps, Merlin
#: #4/#6, Tristan's look through at most 64 cards, and a quest's questions and draws.
MAX_STEPS_PER_TURN: Final = 200
#: Steps before the first turn (the deal of the loyalty cards and the set-up's draws).
MAX_SETUP_STEPS: Final = 20
#: The longest game seen at each player count (steps, chance included), over every setup
#: (Knights' relief, promos) and every policy: random, the first or last legal action always,
#: the heuristic, the stealth traitor, ISMCTS (``python -m bench.length_bound --game
#: soc-card``, docs/research.md "Game lengths", where the sample is described; under rules
#: version 4; at 3 players one of ``bench.lengths``' 200 heuristic games).
LONGEST_SEEN: Final[dict[int, int]] = {1: 387, 2: 409, 3: 353, 4: 352, 5: 353, 6: 380, 7: 415}


def length_cap() -> int:
    """The hard cap (``length_cap``) of every game, whatever the seats: at most
    :data:`MAX_LAYINGS` sword layings (SCG-END-5), each preceded by at most
    :data:`MAX_TURNS_BETWEEN` turns, of at most :data:`MAX_STEPS_PER_TURN` steps, after the
    set-up (docs/rules/soc-card.md, "Game length"). The runner, the terminal and a record's
    replay refuse a game past it.

    >>> length_cap()
    367220
    """
    return (MAX_LAYINGS + 1) * MAX_TURNS_BETWEEN * MAX_STEPS_PER_TURN + MAX_SETUP_STEPS


# A variant may subclass the game in Python (a compiled class allows it only if told).
@mypyc_attr(allow_interpreted_subclasses=True)
class SocCardGame(Game):
    """Shadows over Camelot: The Card Game (1 to 7 players).

    >>> import pendragon
    >>> game = pendragon.load_game("soc-card", players=5, seed=1)
    >>> game.num_players(), game.loyalty_deck, sum(game.rumor_counts)
    (5, (6, 1), 62)
    >>> pendragon.load_game("soc-card", players=7).loyalty_deck
    (7, 2)
    >>> pendragon.load_game("soc-card", players=1).loyalty_deck
    (0, 0)
    """

    name: ClassVar[str] = "soc-card"
    #: Raised with every change that replays a record differently (docs/rules/soc-card.md,
    #: "Rules versions").
    rules_version: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", int, 4, "number of players (1 = solo, SCG-SOLO-1)", minimum=1,
                   maximum=7),
        SEED_OPTION,
        OptionSpec("knights_relief", bool, False,
                   "expert variant Knights' relief: Knight cards, Morgans return (SCG-EXPERT-*)"),
        OptionSpec("promos", bool, False,
                   "promo cards Morgan #8 and Merlin #6 join the rumor deck (SCG-PROMO-*)"),
    )

    @property
    def catalog(self) -> ActionCatalog:
        """The action catalog (the same whatever the options)."""
        return A.CATALOG

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self._players = self.num_players()
        #: Knights' relief (SCG-EXPERT-1).
        self.expert = bool(self.options["knights_relief"])
        self.promos = bool(self.options["promos"])
        n = self._players
        #: (loyal, traitor) cards in play (SCG-SETUP-1, SCG-SOLO-1).
        self.loyalty_deck: tuple[int, int] = (0, 0) if n == 1 else (7, 2) if n == 7 else (
            n + 1, 1)
        #: Every rumor card of the game by kind, Morgans included (SCG-COMP-2, SCG-PROMO-*).
        self.rumor_counts: tuple[int, ...] = tuple(deck_counts(promos=(self.promos,
                                                                       self.promos)))
        self.morgans_aside = sum(self.rumor_counts[k] for k in MORGAN_KINDS) - MORGANS_IN_DECK
        self.declare_info(
            "Shadows over Camelot: The Card Game",
            # Research bound measured, hard cap from the rules (docs/research.md).
            max_game_length=research_bound(LONGEST_SEEN, n),
            length_cap=length_cap(),
            # Returns are +1 or -1 for every seat at the end (the default utilities); 0
            # only mid-game.
            observation_tensor_size=TENSOR_SIZE,
        )

    def option_key(self) -> list[Any]:
        """The options a serialized state must agree with."""
        return [self._players, self.expert, self.promos]

    def observation_tensor_names(self) -> list[str]:
        """Every tensor element's name, from the writer's blocks (:data:`.view.TENSOR_BLOCKS`)."""
        return list(TENSOR_NAMES)

    def evaluation_tensor_size(self) -> int:
        """Length of the evaluator's view: the tensor before its ``known`` block
        (:data:`.view.EVALUATION_SIZE`)."""
        return EVALUATION_SIZE

    def new_initial_state(self) -> SocCardState:
        """Before the deal: loyalty cards (SCG-SETUP-2), then Morgans aside (SCG-SETUP-3)."""
        state = SocCardState(self)
        state.set_up()
        agenda = [T.task(T.BEGIN_TURN, 0)]
        agenda += [T.task(T.C_ASIDE)] * self.morgans_aside
        if self._players > 1:
            agenda += [T.task(T.C_LOYALTY, s) for s in reversed(range(self._players))]
        state.agenda = agenda
        E.run(state)
        return state

    def deserialize_state(self, text: str) -> SocCardState:
        """Rebuild a state from :meth:`SocCardState.serialize`, validating everything."""
        return SocCardState.from_dict(self, read_json(text))
