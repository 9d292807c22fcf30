"""Shadows over Camelot: the game object, its options and its declared facts."""

from __future__ import annotations

from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

import pendragon.games.soc.rules.actions as A
from pendragon.core.actions import ActionCatalog
from pendragon.core.api import Game, research_bound
from pendragon.core.errors import InvalidOptionError
from pendragon.core.options import SEED_OPTION, OptionSpec
from pendragon.core.storage import read_state
from pendragon.games.soc.rules.cards import (
    BASE_KNIGHTS,
    NUM_KNIGHTS,
    black_counts,
    white_counts,
)
from pendragon.games.soc.rules.data import T
from pendragon.games.soc.rules.engine import MAX_ROUNDS
from pendragon.games.soc.rules.state import FORMAT, FORMAT_VERSION, SocState
from pendragon.games.soc.rules.view import EVALUATION_SIZE, TENSOR_NAMES, TENSOR_SIZE

#: Steps allowed in one turn: an allowance, not a proved bound. The turn's own decisions
#: are bounded (each heroic type, the sacrifice and each once-a-turn power once), but
#: Morgan's chain drawn again after a reshuffle and a hand without limit are bounded only by
#: the game's ends (docs/rules/soc.md, "Game length"). The longest turn seen is 36 steps;
#: tests/test_game_lengths.py checks the allowance over random and adversarial play.
MAX_STEPS_PER_TURN: Final = 200
#: Set-up steps: coats of arms, loyalty, 5 cards each, contributions and their sharing.
MAX_SETUP_STEPS: Final = 8 * (1 + 1 + 5 + 1 + 1)
#: The longest game seen at each player count (steps, chance included), over every setup
#: bench/length_bound.py measures (the base game, Merlin's Company, the variants) and every
#: policy: random, the first or last legal action always, the staller (a Geraint who always
#: skips the Progression of Evil, every other choice at random), the heuristic, the stealth
#: traitor, ISMCTS (``python -m bench.length_bound --game soc``, docs/research.md "Game
#: lengths", where the sample is described). Stalling Geraints hold the table to the round
#: cap: these are games of 400 rounds.
LONGEST_SEEN: Final[dict[int, int]] = {3: 8438, 4: 11236, 5: 14045, 6: 16840, 7: 19637,
                                       8: 22434}


def length_cap(players: int) -> int:
    """The hard cap (``length_cap``) of a game of ``players`` seats: the set-up, then at most
    400 rounds (SOC-RULING-45, SOC-END-4: the engine stops after ``400 * players`` turns) of
    one turn per seat (SOC-TURN-1) of at most :data:`MAX_STEPS_PER_TURN` steps. The runner,
    the terminal and a record's replay refuse a game past it.

    Legal games reach the round cap (a Geraint who always skips the Progression of Evil,
    MC-KNIGHT-GERAINT; docs/research.md, "Game lengths"), so no cap can drop the 400 rounds.

    >>> length_cap(3), length_cap(7)
    (240072, 560072)
    """
    return MAX_SETUP_STEPS + MAX_ROUNDS * players * MAX_STEPS_PER_TURN


# A variant may subclass the game in Python (a compiled class allows it only if told).
@mypyc_attr(allow_interpreted_subclasses=True)
class SocGame(Game):
    """Shadows over Camelot (base game).

    >>> import pendragon
    >>> game = pendragon.load_game("soc", players=4, seed=3)
    >>> game.num_players(), game.info.min_players, game.info.max_players
    (4, 3, 7)
    >>> pendragon.load_game("soc", players=8)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pendragon.core.errors.InvalidOptionError: 8 players need the Merlin's Company expansion ...
    >>> pendragon.load_game("soc", players=8, expansion="merlins-company").loyalty_deck
    (8, 2)
    """

    name: ClassVar[str] = "soc"
    #: Raised with every change that replays a record differently (docs/rules/soc.md,
    #: "Rules versions").
    rules_version: ClassVar[int] = 6
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "players", int, 5, "number of knights (3-7; 8 with the expansion)", minimum=3,
            maximum=8,
        ),
        SEED_OPTION,
        OptionSpec(
            "share",
            str,
            "choice",
            "how revealed cards are shared: 'choice' (one knight gives each card) or 'random'"
            " (shuffled and dealt face down round the table, SOC-RULING-77)",
            choices=("choice", "random"),
        ),
        OptionSpec(
            "expansion",
            str,
            None,
            "'merlins-company' adds knights 8-15, travel cards, Merlin and new cards (MC-*)",
            choices=(None, "merlins-company"),
            nullable=True,
        ),
        OptionSpec(
            "played_black",
            str,
            "auto",
            "the played-black-cards rule: a black card for a finished quest leaves the game"
            " after its siege engine; 'auto' (on with the expansion), 'on' or 'off'"
            " (MC-PLAYED-BLACK)",
            choices=("auto", "on", "off"),
        ),
        OptionSpec("squires", bool, False, "Squire's Challenge: start as squires (VAR-SQUIRES)"),
        OptionSpec("squires_hard", bool, False, "squires start with 3 life (VAR-SQUIRES)"),
        OptionSpec(
            "squires_cards", int, 5,
            "white cards a squire starts with besides the Merlin; fewer is harder (VAR-SQUIRES)",
            minimum=0, maximum=5,
        ),
        OptionSpec(
            "traitor_in_our_midst", bool, False,
            "as many loyal cards as players, plus the traitor(s) (VAR-MIDST)",
        ),
        OptionSpec("no_traitor", bool, False, "all loyal, loyalty face up (VAR-NO-TRAITOR)"),
        OptionSpec(
            "three_brave_knights", bool, False,
            "3 players: no one sees his own loyalty before 6 swords (VAR-THREE)",
        ),
    )
    @property
    def catalog(self) -> ActionCatalog:
        """The action catalog (the same whatever the options)."""
        return A.CATALOG

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        n = self.num_players()
        self.random_share = self.options["share"] == "random"
        self.expansion = self.options["expansion"] == "merlins-company"
        #: MC-PLAYED-BLACK, an optional rule of its own (000: "Правило отыгранных чёрных
        #: карт"), on by default with the expansion.
        played_black = self.options["played_black"]
        self.played_black = played_black == "on" or (played_black == "auto" and self.expansion)
        self.squires = bool(self.options["squires"])
        self.squires_hard = bool(self.options["squires_hard"])
        squires_cards = int(self.options["squires_cards"])  # type: ignore[arg-type]
        self.three_brave_knights = bool(self.options["three_brave_knights"])
        no_traitor = bool(self.options["no_traitor"])
        midst = bool(self.options["traitor_in_our_midst"])
        self._check_combination(n, no_traitor, midst, squires_cards)
        #: Whether loyalty cards lie face up (a game without a traitor, VAR-NO-TRAITOR).
        self.open_loyalty = no_traitor
        #: A second traitor card is in play only with 7-8 players and the expansion (MC-LOYALTY).
        traitors = 2 if self.expansion and n >= 7 else 1
        #: (loyal, traitor) cards in the loyalty deck (SOC-SETUP-5, VAR-MIDST): the base
        #: game's 7 loyal cards, the expansion's new deck 8 (MC-RULING-16, -21). Without a
        #: traitor the traitor cards are taken out and the loyal cards stay (VAR-NO-TRAITOR:
        #: a newcomer still gets one, VAR-JOIN).
        loyal = 8 if self.expansion else 7
        self.loyalty_deck = ((loyal, 0) if no_traitor else (n, traitors) if midst
                             else (loyal, traitors))
        #: VAR-MIDST: the deck holds a loyal card a player, so it grows with each newcomer.
        self.midst = midst
        #: Coats of arms dealt at random (SOC-SETUP-2, MC-KNIGHTS).
        self.knight_pool: tuple[int, ...] = (
            tuple(range(NUM_KNIGHTS)) if self.expansion else BASE_KNIGHTS
        )
        #: Life and white cards (besides the Merlin) each knight starts with: the harder
        #: Squire's Challenge takes a life, or cards, or both (VAR-SQUIRES, MC-RULING-12).
        self.start_life = 3 if self.squires_hard else 4
        self.start_cards = squires_cards
        self.white_total = white_counts(expansion=self.expansion)
        self.black_total = black_counts(expansion=self.expansion)
        self.declare_info(
            "Shadows over Camelot",
            # At least 3 (the players option's minimum); VAR-THREE is the 3-player rule, the
            # base game seats up to 7 and the expansion 8 (MC-SETUP-1).
            max_players=3 if self.three_brave_knights else 8 if self.expansion else 7,
            # A measured research bound; the hard cap from the round cap (SOC-RULING-45)
            # and the steps of a turn (docs/research.md, "Game lengths").
            max_game_length=research_bound(LONGEST_SEEN, n),
            length_cap=length_cap(n),
            # Returns are +1 (won) or -1 (lost) for every seat (the default utilities); 0
            # only mid-game.
            observation_tensor_size=TENSOR_SIZE,
        )

    def loyalty_deck_for(self, seats: int) -> tuple[int, int]:
        """(loyal, traitor) cards in the loyalty deck at a table of ``seats``: the game's
        :attr:`loyalty_deck`, but under VAR-MIDST «pouze tolik loajálních karet věrnosti,
        kolik je hráčů» (as many loyal cards as there are players), a newcomer's too
        (VAR-JOIN, MC-RULING-26), so one card always stays undealt.

        >>> import pendragon
        >>> game = pendragon.load_game("soc", players=4, traitor_in_our_midst=True)
        >>> game.loyalty_deck_for(4), game.loyalty_deck_for(5)
        ((4, 1), (5, 1))
        """
        loyal, traitors = self.loyalty_deck
        return (seats, traitors) if self.midst else (loyal, traitors)

    def _check_combination(self, n: int, no_traitor: bool, midst: bool,
                           squires_cards: int) -> None:
        """Refuse option sets no table of ``n`` could play, with the reason."""
        if n == 8 and self.options["expansion"] is None:
            raise InvalidOptionError(
                '8 players need the Merlin\'s Company expansion (expansion="merlins-company");'
                " the base game seats 3 to 7"
            )
        if self.squires_hard and not self.squires:
            raise InvalidOptionError("squires_hard is a harder Squire's Challenge: set squires too")
        if squires_cards != 5 and not self.squires:
            raise InvalidOptionError("squires_cards is for the Squire's Challenge: set squires too")
        if no_traitor and midst:
            raise InvalidOptionError(
                "no_traitor and traitor_in_our_midst contradict each other: choose one"
            )
        if self.three_brave_knights and n != 3:
            raise InvalidOptionError(
                f"three_brave_knights is the 3-player rule; this table has {n}"
            )
        if self.three_brave_knights and no_traitor:
            raise InvalidOptionError(
                "three_brave_knights hides loyalty cards, no_traitor lays them face up: choose one"
            )

    def observation_tensor_names(self) -> list[str]:
        """Every tensor element's name, from the writer's blocks (:data:`.view.TENSOR_BLOCKS`)."""
        return list(TENSOR_NAMES)

    def evaluation_tensor_size(self) -> int:
        """Length of the learned evaluator's view (:data:`.view.EVALUATION_SIZE`): the
        observation tensor before its ``known`` block, the layout the shipped network reads
        (:meth:`SocState.evaluation_tensor`)."""
        return EVALUATION_SIZE

    def new_initial_state(self) -> SocState:
        """The deal: coats of arms, loyalty, a Merlin and 5 white cards each (SOC-SETUP-*)."""
        state = SocState(self)
        n = self.num_players()
        state._init_data(n, self.white_total[:], self.black_total[:])
        tasks: list[tuple[int, int, int, int]] = []
        state.life = [self.start_life] * n  # VAR-SQUIRES: 3 in the hard variant
        if not self.squires:  # squires start without a coat of arms (VAR-SQUIRES)
            tasks += [(T.C_KNIGHT, s, 0, 0) for s in range(n)]
        tasks += [(T.C_LOYALTY, s, 0, 0) for s in range(n)]
        # SOC-SETUP-4: a Merlin each first, then the rest is shuffled and 5 dealt to each.
        tasks += [(T.SETUP_MERLIN, s, 0, 0) for s in range(n)]
        for s in range(n):
            tasks += [(T.C_WHITE, s, 0, 0)] * self.start_cards
        tasks.append((T.SETUP_CONTRIB, 0, 0, 0))
        state.push_all(tasks)
        state._run()
        return state

    def deserialize_state(self, text: str) -> SocState:
        """Rebuild a state from :meth:`SocState.serialize`, checking every field."""
        return read_state(self, text, "Shadows over Camelot", FORMAT, FORMAT_VERSION,
                          SocState._from_dict)

