"""Grail Cup: the game object, its options and its declared facts.

Returns: a competitive race. The first knight on the finish wins (+1); every other seat
gets -1 (GC-END-2). There are no draws: the game ends the moment one knight arrives.

Action catalog (:mod:`.actions`, 266 ids, fixed whatever the options): ``keep:<ally>``,
``pass:left|right``, ``curse:<ally>``, ``name:<seat>``, ``look:<space>``,
``place:<clover>``, ``move:1..6``, ``dragon:<space>``, ``spear:yes|no``, ``target:<seat>``
and the chance outcomes ``ally:<ally>``, ``clover:<clover>``, ``die:seal|thief|spear``.
Every choice is one atomic decision; chance nodes list their outcomes with probabilities.

Observation (:mod:`.view`): the public race (knights' spaces and spears, race order, the
dragon, spear supply, round, first player, direction, allies set aside face up, called and
revealed, curse, Squire's named knight, Merlin's looked spaces, the token in play, public
tallies of turned tokens and die rolls, who revealed what last round, the track) and, for
a seat, ``you``: its hand, the packet while it drafts, every packet it drafted from this
round, and the clover tokens it knows. The tensor is every entry in [0, 1].

Version history: 1 — first version (standard track reconstructed, GC-RULING-1).
2 — issue 28: the clover tokens are physical (laid at set-up and after each turn, a chance
step seen by nobody: task ``lay``, GC-RULING-15); the Sorceress curses before her landing;
Merlin is asked every placement; two numbers on most start spaces (GC-RULING-1, -21); the
``track`` option names a shipped track, ``track_file`` a local file. The waiting-task block
of the tensor has 35 entries (was 36). Environment version 3 (``grail_cup_v3``): the tensor
ends with the ``clover_among`` block, the tokens a seat remembers among spaces Merlin
rearranged (GC-RULING-11), which the learned evaluator does not read. Rules versions:
``docs/rules/grail-cup.md``, "Rules versions" (3: GC-RULING-10, -12, -19).

>>> import pendragon
>>> game = pendragon.load_game("grail-cup", players=5, seed=2)
>>> game.num_players(), game.info.min_players, game.info.max_players, len(game.track)
(5, 2, 8, 56)
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(state.sample_chance() if state.is_chance_node()
...                        else state.legal_actions()[0])
>>> sorted(state.returns())
[-1.0, -1.0, -1.0, -1.0, 1.0]
>>> pendragon.load_game("grail-cup", track_file="/no/such/file")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pendragon.games.grail_cup.rules.track.TrackError: cannot read track file '/no/such/file': ...
>>> pendragon.load_game("grail-cup", track="/etc/passwd")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pendragon.core.errors.InvalidOptionError: option 'track' must be one of 'standard', got ...
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from pendragon.core.actions import ActionCatalog
from pendragon.core.api import Game, research_bound
from pendragon.core.options import SEED_OPTION, OptionSpec
from pendragon.core.storage import read_state
from pendragon.games.grail_cup.rules import actions as A
from pendragon.games.grail_cup.rules.data import MAX_ROUNDS
from pendragon.games.grail_cup.rules.state import FORMAT, FORMAT_VERSION, GrailCupState
from pendragon.games.grail_cup.rules.track import SHIPPED, Track, track_for
from pendragon.games.grail_cup.rules.view import EVALUATION_SIZE, tensor_names, tensor_size

#: Bound on steps in one round, on any track: the deal and the draft, and per called ally
#: a handful of decisions plus at most CHAIN_CAP clover links of a few steps each
#: (docs/rules/grail-cup.md, "Game length").
MAX_STEPS_PER_ROUND: Final = 1000
#: Set-up steps: one deal per seat.
MAX_SETUP_STEPS: Final = 8
#: The longest game seen on the standard track at each player count (steps, chance
#: included), over every policy: random, the first or last legal action always, the
#: heuristic, ISMCTS (``python -m bench.length_bound --game grail-cup``, docs/research.md
#: "Game lengths", where the sample is described; measured again under rules version 3).
LONGEST_SEEN: Final[dict[int, int]] = {2: 266, 3: 299, 4: 299, 5: 310, 6: 309, 7: 360, 8: 377}


def max_length(players: int, shipped: bool) -> int:
    """The research bound of a game of ``players`` seats (``max_game_length``, where the
    research environments truncate): on a shipped track the
    :func:`~pendragon.core.api.research_bound` of the longest game seen (a measurement a
    legal game may pass: a knight can be pushed back, so no rule forces a pace;
    docs/research.md); on a track file, which was never measured, the hard cap
    (:func:`length_cap`).

    >>> max_length(4, True) == research_bound(LONGEST_SEEN, 4)
    True
    >>> max_length(4, False)
    60008
    """
    if not shipped:
        return length_cap()
    return research_bound(LONGEST_SEEN, players)


def length_cap() -> int:
    """The hard cap (``length_cap``) of every game, on any track: the deal, then at most 60
    rounds (GC-RULING-13) of at most :data:`MAX_STEPS_PER_ROUND` steps
    (docs/rules/grail-cup.md, "Game length"). The runner, the terminal and a record's
    replay refuse a game past it.

    >>> length_cap()
    60008
    """
    return MAX_SETUP_STEPS + MAX_ROUNDS * MAX_STEPS_PER_ROUND


# A variant may subclass the game in Python (a compiled class allows it only if told).
@mypyc_attr(allow_interpreted_subclasses=True)
class GrailCupGame(Game):
    """Grail Cup for 2-8 players on the standard or a loaded track.

    >>> game = GrailCupGame({"players": 3, "seed": 1})
    >>> game.num_distinct_actions(), game.info.observation_tensor_size
    (266, 680)
    >>> game.catalog.text(game.catalog.parse("spear:yes"))
    'spear:yes'
    """

    name: ClassVar[str] = "grail-cup"
    #: Raised with every change that replays a record differently (docs/rules/grail-cup.md,
    #: "Rules versions").
    rules_version: ClassVar[int] = 3
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "players", int, 4,
            "number of knights: 3-8 by the rules; 2 is the project's own variant, not the"
            " rulebook's (GC-RULING-3)",
            minimum=2, maximum=8,
        ),
        SEED_OPTION,
        # A name, never a path: a remote client may choose among the shipped tracks only
        # (issue 27). ``None`` (a table stored before the choice existed) is the standard.
        OptionSpec(
            "track", str, "standard", "a track shipped with the game (GC-RULING-1)",
            choices=tuple(SHIPPED), nullable=True,
        ),
        OptionSpec(
            "track_file", str, None,
            "path of a track file on this machine, instead of a shipped track (local only)",
            nullable=True, remote=False,
        ),
    )

    @property
    def catalog(self) -> ActionCatalog:
        """The action catalog (the same whatever the options)."""
        return A.CATALOG

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        name, path = self.options["track"], self.options["track_file"]
        #: The board (GC-TRACK-1): a shipped one (the standard by default) or a loaded file.
        self.track: Track = track_for(
            None if name is None else str(name), None if path is None else str(path)
        )
        self.declare_info(
            "Grail Cup",
            # A measured research bound on the shipped tracks, the rules' hard cap
            # (docs/research.md, "Game lengths").
            max_game_length=max_length(self.num_players(), path is None),
            length_cap=length_cap(),
            # +1 for the winner, -1 for the others (the default utilities); 0 only while
            # the race runs.
            observation_tensor_size=tensor_size(self.num_players(), len(self.track)),
        )

    def observation_tensor_names(self) -> list[str]:
        """Every tensor element's name, from the writer's blocks (:func:`.view.tensor_names`)."""
        return tensor_names(self.num_players(), len(self.track))

    def evaluation_tensor_size(self) -> int:
        """Length of the evaluator's view: one at every table (:data:`.view.EVALUATION_SIZE`)."""
        return EVALUATION_SIZE

    def new_initial_state(self) -> GrailCupState:
        """The state before the deal of start spaces (a chance node)."""
        state = GrailCupState(self)
        state.set_up()
        return state

    def deserialize_state(self, text: str) -> GrailCupState:
        """Rebuild a state from :meth:`GrailCupState.serialize`."""
        return read_state(self, text, "Grail Cup", FORMAT, FORMAT_VERSION,
                          GrailCupState._from_dict)
