"""The game-agnostic API every game implements.

A :class:`Game` is an immutable description (rules + options); a :class:`State` is one
position of it. The shape follows OpenSpiel: a state is at a decision node of one seat, at a
chance node, or terminal; actions are integers from a fixed catalog; chance is explicit.

The base :class:`State` implements everything that is the same for all games once —
validation of actions, the action history and version, deterministic chance sampling, the
legal-action mask — and leaves the rules to a handful of ``_``-prefixed methods.

>>> import pendragon
>>> game = pendragon.load_game("soc", players=3, seed=1)
>>> state = game.new_initial_state()
>>> state.current_player() == pendragon.CHANCE
True
>>> round(sum(p for _, p in state.chance_outcomes()), 9)
1.0
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

from pendragon.core import rng
from pendragon.core.actions import ActionCatalog
from pendragon.core.errors import (
    CorruptStateError,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
    NotChanceNodeError,
    UnknownOptionError,
)
from pendragon.core.events import Event
from pendragon.core.options import OptionSpec, OptionValue, resolve_options
from pendragon.core.storage import whole_number, whole_numbers

#: ``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``).
CHANCE: Final = -1
#: ``current_player()`` once the game is over (OpenSpiel's ``kTerminalPlayerId``).
TERMINAL: Final = -4
#: What the history of a world drawn by :meth:`State.resample_hidden` holds in place of each
#: action played before the draw: how many actions were played is public (the version), which
#: ones is not. An id of the catalog, so a world still serialises as any state does.
UNKNOWN_PAST: Final = 0
#: The key :meth:`State.history_fields` adds (``true``) for a world drawn by
#: :meth:`State.resample_hidden`; a state reached by play has no such key, so its stored
#: text is the same as before worlds were marked (issue 41 item 3).
WORLD_FIELD: Final = "world"
#: A game's research bound is this many times the longest game seen (docs/research.md,
#: "Game lengths"): :func:`research_bound`.
LENGTH_MARGIN: Final = 3

Observation = dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Facts about a game declared up front (OpenSpiel's ``GameInfo``).

    Two length figures (issue 40 item 6, docs/research.md "Game lengths"):
    ``max_game_length`` is the research bound, what OpenSpiel is told and where the research
    environments truncate a game (it may be measured: a legal game can go past it);
    ``length_cap`` is the hard cap, derived from the rules, that no legal game passes (a
    record, the runner and the terminal refuse a game past it as a rules bug). A
    ``length_cap`` of 0 declares none beyond the research bound: :meth:`Game.length_cap`
    is never below ``max_game_length``.
    """

    name: str
    long_name: str
    min_players: int
    max_players: int
    num_distinct_actions: int
    max_game_length: int
    min_utility: float
    max_utility: float
    observation_tensor_size: int
    length_cap: int = 0


def research_bound(longest_seen: Mapping[int, int], players: int) -> int:
    """The research bound of a game of ``players`` seats (``max_game_length``, where the
    research environments truncate): :data:`LENGTH_MARGIN` times ``longest_seen[players]``,
    the longest game a game's measurements saw (a figure a legal game may pass;
    docs/research.md, "Game lengths").

    >>> research_bound({3: 100, 4: 120}, 4)
    360
    """
    return LENGTH_MARGIN * longest_seen[players]


def winner_takes_all(winner: int, players: int) -> list[float]:
    """The returns of a race or a duel: +1 for ``winner``, -1 for every other seat; 0 for
    all while there is none (``winner < 0``: the game runs, or it ended in a stalemate).

    >>> winner_takes_all(2, 3), winner_takes_all(-1, 2)
    ([-1.0, -1.0, 1.0], [0.0, 0.0])
    """
    if winner < 0:
        return [0.0] * players
    return [1.0 if seat == winner else -1.0 for seat in range(players)]


@dataclass(frozen=True, slots=True)
class PublicRecord:
    """One step of the public record: its index in the history, who acted (``None``:
    chance or a table operation) and the events every spectator saw."""

    index: int
    actor: int | None
    events: tuple[Event, ...]


S = TypeVar("S", bound="State[Any]")


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """An immutable game with its options. Create states with :meth:`new_initial_state`.

    A game declares, besides its rules: :attr:`name`, :attr:`option_specs` (with a
    ``players`` option, which :meth:`num_players` reads), :attr:`catalog` (a class
    attribute when the catalog is the same whatever the options, as it should be) and its
    facts (:meth:`declare_info` in ``__init__``, which fills in what the class already
    says). Each of :attr:`info`, :attr:`catalog` and :meth:`num_players` may be overridden.

    >>> from pendragon.core.options import OptionSpec
    >>> class Coin(Game):
    ...     name = "coin"
    ...     option_specs = (OptionSpec("players", int, 2, minimum=1, maximum=2),
    ...                     OptionSpec("seed", int, None, nullable=True))
    ...     catalog = ActionCatalog(["heads", "tails"])
    ...     def __init__(self, options: Mapping[str, Any]) -> None:
    ...         super().__init__(options)
    ...         self.declare_info("Toss a coin", max_game_length=1, observation_tensor_size=1)
    ...     def new_initial_state(self) -> State: raise NotImplementedError
    ...     def deserialize_state(self, text: str) -> State: raise NotImplementedError
    >>> coin = Coin({"players": 1})
    >>> coin.num_players(), coin.num_distinct_actions(), coin.info.max_players
    (1, 2, 2)
    >>> coin.info.long_name, coin.info.min_utility, coin.info.max_utility
    ('Toss a coin', -1.0, 1.0)
    >>> coin.max_game_length(), coin.length_cap()  # research bound, hard cap (the same)
    (1, 1)
    """

    #: Registry name, e.g. ``"soc"``.
    name: ClassVar[str]
    #: Options accepted by ``load_game`` (``players`` and ``seed`` among them).
    option_specs: ClassVar[tuple[OptionSpec, ...]]
    #: The version of the rules as this code plays them, from 1: a game raises it whenever
    #: a change makes a recorded sequence of actions mean another game (a rule, an action's
    #: legality or its text). Records and stored tables carry it, so a game played under
    #: other rules is refused by name rather than replayed into a different game
    #: (``pendragon.records``; ``python -m pendragon.tools.golden --write`` refuses to
    #: rewrite a playthrough whose actions changed under the same version).
    rules_version: ClassVar[int] = 1
    _info: GameInfo

    def __init__(self, options: Mapping[str, Any]) -> None:
        resolved = resolve_options(self.option_specs, options)
        seed = resolved.get("seed")
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
            resolved["seed"] = seed
        self.options: dict[str, OptionValue] = resolved
        self.seed: int = rng.normalize_seed(int(seed))
        # The catalog's size once declared (0: not yet): every applied action is checked
        # against it, and a native field costs less than the ``info`` property's lookup.
        self._action_count = 0

    def declare_info(
        self,
        long_name: str,
        *,
        max_game_length: int,
        observation_tensor_size: int,
        min_utility: float | None = None,
        max_utility: float | None = None,
        min_players: int | None = None,
        max_players: int | None = None,
        length_cap: int | None = None,
    ) -> None:
        """Declare the game's facts (:attr:`info`), once, in ``__init__``.

        The name is the class's, the action count the catalog's size and the player counts
        the ``players`` option's range unless given (an option may narrow them); utilities
        default to -1 (lost) and +1 (won). ``max_game_length`` is the research bound and
        ``length_cap`` the hard cap (by default the same figure; never below it: see
        :class:`GameInfo`). Each bound deserves a one-line justification where the game
        calls this.
        """
        # The utilities' defaults are written as None, not as floats: a compiled float
        # default is lost (read as 0.0) when an interpreted subclass of a compiled game
        # calls this through its glue.
        if min_utility is None:
            min_utility = -1.0
        if max_utility is None:
            max_utility = 1.0
        if length_cap is None:
            length_cap = max_game_length
        if length_cap < max_game_length:
            raise ValueError(f"the hard cap {length_cap} is below the research bound "
                             f"{max_game_length}: a legal game would be refused")
        spec = next((s for s in self.option_specs if s.name == "players"), None)
        if min_players is None:
            min_players = spec.minimum if spec is not None and spec.minimum is not None else (
                self.num_players())
        if max_players is None:
            max_players = spec.maximum if spec is not None and spec.maximum is not None else (
                self.num_players())
        self._info = GameInfo(
            name=self.name,
            long_name=long_name,
            min_players=min_players,
            max_players=max_players,
            num_distinct_actions=len(self.catalog),
            max_game_length=max_game_length,
            min_utility=min_utility,
            max_utility=max_utility,
            observation_tensor_size=observation_tensor_size,
            length_cap=length_cap,
        )
        self._action_count = self._info.num_distinct_actions

    @property
    def info(self) -> GameInfo:
        """The game's declared facts (players, action count, bounds): :meth:`declare_info`."""
        try:
            return self._info
        except AttributeError:
            raise NotImplementedError(
                f"{type(self).__name__} declares no facts: call declare_info() in __init__"
            ) from None

    @property
    @abstractmethod
    def catalog(self) -> ActionCatalog:
        """The fixed action catalog (a class attribute ``catalog = ActionCatalog(...)``
        provides it)."""

    def num_players(self) -> int:
        """Seats in this game: the ``players`` option (a game without one overrides this)."""
        players = self.options.get("players")
        if isinstance(players, bool) or not isinstance(players, int):
            raise NotImplementedError(f"{type(self).__name__} has no players option")
        return players

    def observation_tensor_names(self) -> list[str]:
        """The name of every element of :meth:`State.observation_tensor`, in order: as many
        as ``info.observation_tensor_size`` (issue 40 item 3).

        A game names its elements from the description its tensor writer is laid out by
        (:mod:`pendragon.core.tensor_names`); this default, for a game that names none,
        numbers them (``x0``, ``x1``, ...).
        """
        return [f"x{index}" for index in range(self.info.observation_tensor_size)]

    def evaluation_tensor_size(self) -> int:
        """Length of :meth:`State.evaluation_tensor`: the observation tensor's, unless the
        game gives its learned evaluator a view of its own (Grail Cup's, seat-relative)."""
        return self.info.observation_tensor_size

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before any action (usually a chance node dealing the cards)."""

    @abstractmethod
    def deserialize_state(self, text: str) -> State:
        """Rebuild a state from :meth:`State.serialize`; ``CorruptStateError`` on bad text."""

    @classmethod
    def supported_player_counts(cls, options: Mapping[str, Any] | None = None) -> list[int]:
        """Player counts at which this game loads with ``options`` (other options default).

        The ``players`` option's declared range may be wider than a given set of options
        allows (an expansion adding a seat, a variant for three players only).

        >>> import pendragon
        >>> pendragon.game_class("soc").supported_player_counts()
        [3, 4, 5, 6, 7]
        >>> pendragon.game_class("soc").supported_player_counts({"expansion": "merlins-company"})
        [3, 4, 5, 6, 7, 8]
        """
        given = dict(options or {})
        given.pop("players", None)
        spec = next((s for s in cls.option_specs if s.name == "players"), None)
        if spec is None:
            return [cls({**given, "seed": 0}).num_players()]
        low = spec.minimum if spec.minimum is not None else int(spec.default or 1)
        high = spec.maximum if spec.maximum is not None else low
        counts = []
        for players in range(low, high + 1):
            try:
                cls({**given, "players": players, "seed": 0})
            except (InvalidOptionError, UnknownOptionError):
                continue
            counts.append(players)
        return counts

    def num_distinct_actions(self) -> int:
        """Size of the action catalog: every action id is below it."""
        return self._action_count or self.info.num_distinct_actions

    def max_game_length(self) -> int:
        """The research bound on the number of actions (chance included): OpenSpiel's
        ``max_game_length``, where the research environments truncate a game. It may be a
        measured figure that a legal game passes; :meth:`length_cap` is the hard cap."""
        return self.info.max_game_length

    def length_cap(self) -> int:
        """The hard cap on the number of actions (chance included) that no legal game
        passes: a record, the runner and the terminal refuse a game past it as a rules bug.
        Never below :meth:`max_game_length` (the research bound, which may be measured).
        """
        return max(self.info.length_cap, self.info.max_game_length)

    def __reduce__(self) -> tuple[Any, tuple[type[Game], dict[str, Any]]]:
        """A game pickles as its class and options (it is rebuilt from them: a compiled game
        pickles no other way)."""
        return _unpickle_game, (type(self), dict(self.options))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.options.items() if k != "seed")
        return f"{type(self).__name__}({shown})"


@mypyc_attr(native_class=False)
class NoHistoryError(RuntimeError):
    """``history()`` or ``public_history()`` asked of a world drawn by
    :meth:`State.resample_hidden`: a world has no past of its own (a programming error of
    the caller, which should follow the real game or its own observations instead)."""


#: The game class of a state class (``SocState`` is ``State[SocGame]``).
GameT = TypeVar("GameT", bound=Game, default=Game, covariant=True)


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC, Generic[GameT]):
    """One position of a game. Mutated only by :meth:`apply_action`.

    A state's constructor is cheap (it sets the base fields and nothing else): the game's
    :meth:`Game.new_initial_state` sets up a new game, and a compiled game's ``clone``
    starts from ``type(self)(self.game)`` (a compiled class has no bare allocator).
    """

    game: GameT

    def __init__(self, game: GameT) -> None:
        self.game = game
        self._history: list[int] = []
        self._chance_count = 0
        # A world drawn by ``resample_hidden`` for a seat's search (``forget_past``), never a
        # position reached by play: carried by ``copy_base`` (every game's ``clone``) and by
        # the stored text (``history_fields``).
        self._world = False
        # The chance stream's seed; ``resample_hidden`` replaces it so that a search bot
        # cannot learn the real future from a determinised state.
        self._rng_seed = game.seed
        self._legal_at = -1
        self._legal: list[int] = []
        self._outcomes: list[tuple[int, float]] = []

    # ----------------------------------------------------------------- rules hooks
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """Legal ids of the seat to act (only called at decision nodes)."""

    @abstractmethod
    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """Outcomes and probabilities (only called at chance nodes)."""

    def _chance_counts(self) -> tuple[int, Sequence[int]] | None:
        """For the rules: ``(base, counts)`` where this chance node draws from a pile kept
        as counts (outcome ``base + i`` weighted by ``counts[i]``, the cards of kind ``i``
        left), its :meth:`_chance_outcomes` being ``rng.weighted(base, counts)``; ``None``
        (the default) where only the list says what may happen. Sampling and checking a
        drawn card then read the counts, and no list of outcomes is built."""
        return None

    def _sample_chance_at(self, u: float) -> int:
        """The outcome that ``u`` (in ``[0, 1)``) picks at this chance node: the one whose
        interval of cumulative probability, in :meth:`_chance_outcomes`' order, holds it
        (:func:`rng.pick_at`; from the pile's counts where :meth:`_chance_counts` gives
        them, the same outcome for every ``u``)."""
        pile = self._chance_counts()
        if pile is not None:
            return rng.pick_count(pile[0], pile[1], u)
        self._cached_legal()
        return rng.pick_at(u, self._outcomes)

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Per-seat result: +1 won, -1 lost, 0 while the game runs."""

    @abstractmethod
    def observation(self, seat: int | None) -> Observation:
        """JSON-serialisable view of ``seat`` (``None``: a spectator)."""

    @abstractmethod
    def observation_tensor(self, seat: int) -> list[float]:
        """Fixed-length numeric view of ``seat`` for learning agents."""

    def evaluation_tensor(self, seat: int) -> list[float]:
        """What a learned evaluator (:mod:`pendragon.bots.evaluator`) reads of ``seat``'s
        view: its :meth:`observation_tensor`, or a game's function of that tensor alone (a
        reordering or summary of it, never more), as long as
        :meth:`Game.evaluation_tensor_size` says."""
        return self.observation_tensor(seat)

    @abstractmethod
    def clone(self: S) -> S:
        """An independent copy."""

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-compatible data, which the default :meth:`serialize` writes
        (a game that serialises otherwise overrides :meth:`serialize` instead)."""
        raise NotImplementedError(f"{type(self).__name__} defines neither to_dict nor serialize")

    def serialize(self) -> str:
        """Text that :meth:`Game.deserialize_state` turns back into an equal state: by
        default :meth:`to_dict` as compact JSON."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @abstractmethod
    def resample_hidden(self: S, seat: int, generator: random.Random) -> S:
        """A *world*: a new state that ``seat`` cannot tell apart from this one, for search.

        Its ``observation(seat)`` and its legal actions for ``seat`` equal this state's;
        what ``seat`` cannot see is redealt and the chance stream reseeded.

        **A world has no past.** The actions that led here would carry the real hidden
        cards (the true deal, the true draws), and a world made of redealt cards has no
        history of its own that replays to it. So a world keeps its version (how many
        actions were played is public) but not the actions: implementations end with
        :meth:`forget_past`, :meth:`is_world` tells a world, and its :meth:`history` and
        :meth:`public_history` raise :class:`NoHistoryError`. Actions applied to a world
        (a search's rollout) go on from there. A bot that needs memory of the game builds
        it from what its seat saw in the real game (its observations, the public record)
        and carries it into a world; it never replays a world.

        >>> import pendragon, random
        >>> state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
        >>> state.play_random_chance()
        >>> world = state.resample_hidden(0, random.Random(2))
        >>> world.is_world(), state.is_world(), world.version == state.version
        (True, False, True)
        >>> world.history()  # doctest: +IGNORE_EXCEPTION_DETAIL
        Traceback (most recent call last):
        pendragon.core.api.NoHistoryError: a world drawn by resample_hidden has no history
        """

    def copy_base(self: S) -> S:
        """A new state of this state's class (from its cheap constructor) with this base
        class's fields copied (the game, the history, the chance stream) and no cached legal
        actions: where a game's :meth:`clone` starts before it copies its own fields.

        >>> import pendragon
        >>> state = pendragon.load_game("grail-cup", players=3, seed=4).new_initial_state()
        >>> state.play_random_chance()
        >>> copy = state.copy_base()
        >>> copy.history() == state.history() and copy.history() is not state._history
        True
        """
        new = type(self)(self.game)
        new._history = self._history.copy()
        new._chance_count = self._chance_count
        new._rng_seed = self._rng_seed
        new._world = self._world
        return new

    def __copy__(self: S) -> S:
        """``copy.copy`` and ``copy.deepcopy`` are :meth:`clone` (a compiled state has no
        ``__dict__`` for them to copy)."""
        return self.clone()

    def __deepcopy__(self: S, memo: dict[int, Any]) -> S:
        return self.clone()

    def __reduce__(self) -> tuple[Any, tuple[Game, str]]:
        """A state pickles as its game and its serialized text, read back by the checked
        :meth:`Game.deserialize_state` (a compiled state pickles no other way by default).
        The web server's own worker processes take a trusted fast path instead
        (``pendragon.web.limits.dumps_sharing``: the fields as they are, unchecked).

        >>> import pickle, pendragon
        >>> state = pendragon.load_game("grail-cup", players=3, seed=4).new_initial_state()
        >>> pickle.loads(pickle.dumps(state)).serialize() == state.serialize()
        True
        """
        return _unpickle_state, (self.game, self.serialize())

    def history_fields(self) -> dict[str, Any]:
        """This base class's fields as JSON data, for a game's :meth:`serialize`:
        ``history``, ``chance_count`` and ``rng_seed`` (the seed never reaches a client:
        only a server stores states), and :data:`WORLD_FIELD` (``true``) for a world only.
        :meth:`restore_history_fields` reads them back."""
        fields: dict[str, Any] = {
            "history": self._history.copy(),
            "chance_count": self._chance_count,
            "rng_seed": self._rng_seed,
        }
        if self._world:
            fields[WORLD_FIELD] = True
        return fields

    def restore_history_fields(self, data: Mapping[str, Any]) -> None:
        """Set the fields of :meth:`history_fields` from stored ``data``, checked:
        :class:`~pendragon.core.errors.CorruptStateError` for a missing field, an action
        outside the catalog, a chance stream out of range or a world mark other than
        ``true`` (a world stays a world: a stored world never reads back as a real game).

        >>> import pendragon
        >>> state = pendragon.load_game("grail-cup", players=3, seed=4).new_initial_state()
        >>> state.restore_history_fields({"history": [], "chance_count": -1, "rng_seed": 5})
        Traceback (most recent call last):
        ...
        pendragon.core.errors.CorruptStateError: the chance stream is out of range
        """
        try:
            history = whole_numbers(data["history"], "history")
            chance_count = whole_number(data["chance_count"], "chance_count")
            rng_seed = whole_number(data["rng_seed"], "rng_seed")
        except KeyError as error:
            raise CorruptStateError(f"the state has no {error.args[0]}") from None
        world = WORLD_FIELD in data
        if world and data[WORLD_FIELD] is not True:
            raise CorruptStateError(f"{WORLD_FIELD} must be true where present")
        if not 0 <= rng_seed < 1 << 64 or chance_count < 0:
            raise CorruptStateError("the chance stream is out of range")
        size = self.game.num_distinct_actions()
        if any(not 0 <= action < size for action in history):
            raise CorruptStateError("the history holds an action outside the catalog")
        if chance_count > len(history):  # (a chance event is an action of the history)
            raise CorruptStateError("the chance stream is out of range")
        self._history = history
        self._chance_count = chance_count
        self._rng_seed = rng_seed
        self._world = world
        self.invalidate_cache()

    def forget_past(self) -> None:
        """Make this state a world without a past (:meth:`resample_hidden` ends with it): every
        action played so far becomes :data:`UNKNOWN_PAST` and the state is marked a world
        (its own field, which clones and serialised copies keep). The chance count stays (how
        many chance events happened is public). Only for states drawn for search."""
        self._history = [UNKNOWN_PAST] * len(self._history)
        self._world = True
        self.invalidate_cache()

    def become_world(self, generator: random.Random) -> None:
        """Make this fresh copy a world for :meth:`resample_hidden`: its chance stream
        reseeded from ``generator`` (one draw: the real future cannot be read from it) and
        its past forgotten (:meth:`forget_past`). A game calls it where its draws from
        ``generator`` place it: before or after it redeals what the seat cannot see."""
        self._rng_seed = generator.getrandbits(64)
        self.forget_past()

    def is_world(self) -> bool:
        """Whether this state is a world drawn by :meth:`resample_hidden` (no past), rather
        than a position reached by play."""
        return self._world

    def with_traitors(self: S, seat: int, traitors: Collection[int],
                      generator: random.Random) -> S:
        """For games with hidden loyalty: a state ``seat`` cannot tell from this one in
        which, of the seats whose loyalty ``seat`` has not seen, exactly ``traitors`` are
        traitors (the loyalty cards nobody holds are redealt with ``generator``).

        Search bots draw ``traitors`` from a belief and call this on a
        :meth:`resample_hidden` world, so their worlds follow the evidence instead of a
        uniform deal. ``ValueError`` for a seat ``seat`` has seen or a deal the loyalty deck
        cannot make; games without hidden loyalty raise ``NotImplementedError``.
        """
        raise NotImplementedError(f"{self.game.name} has no hidden loyalty")

    @abstractmethod
    def narrate(self, action: int, viewer: int | None) -> list[Event]:
        """What ``viewer`` may learn of ``action`` (call it before applying the action).

        Events (:mod:`pendragon.core.events`) naming who acts ("Seat 2 draws a white card",
        "You draw Fight 5" are two renderings of the same event key with different
        parameters), never revealing more than ``viewer`` is entitled to see.
        """

    @abstractmethod
    def action_event(self, action: int) -> Event:
        """The words of a legal ``action`` for the seat about to choose it (its menu entry)."""

    def decision_event(self) -> Event:
        """What the state awaits, as an event the interfaces word ("pledge a Merlin?").

        The default names no decision; games name theirs.
        """
        player = self.current_player()
        if player == TERMINAL:
            return Event("core.decision.over")
        if player == CHANCE:
            return Event("core.decision.chance")
        return Event("core.decision.choose")

    def describe_action(self, action: int, viewer: int | None) -> str:
        """:meth:`narrate` in English words, one sentence per event (logs, tests)."""
        from pendragon.i18n import catalog

        english = catalog("en")
        return " ".join(english.render(e, viewer=viewer) for e in self.narrate(action, viewer))

    def observations(self, seats: Sequence[int | None]) -> list[Observation]:
        """``observation(seat)`` for each of ``seats`` (a server's push to every watcher).

        Games may share the work between seats; the result equals the one-by-one calls.
        """
        return [self.observation(seat) for seat in seats]

    def public_history(self) -> list[PublicRecord]:
        """What everyone saw, in order: each action's actor and its spectators' events.

        Rebuilt by replaying the history from the initial state; a world drawn by
        :meth:`resample_hidden` has no past, and raises :class:`NoHistoryError`.

        >>> import pendragon
        >>> state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
        >>> state.play_random_chance()
        >>> first = state.public_history()[0]
        >>> first.actor is None, first.events[0].key
        (True, 'soc.log.dealt-knight')
        """
        replay = self.game.new_initial_state()
        records = []
        for index, action in enumerate(self.history()):
            player = replay.current_player()
            events = tuple(replay.narrate(action, None))
            records.append(PublicRecord(index, player if player >= 0 else None, events))
            replay.replay([action])
        return records

    def is_table_operation(self, action: int) -> bool:
        """Whether ``action`` is a table operation (e.g. a player joining), not a move."""
        return False

    def apply_table_operation(self, action: int) -> None:
        """Apply a table operation: outside the turn, never in ``legal_actions()``, but
        recorded in the history so that a replay reproduces it."""
        raise IllegalActionError(f"{action!r} is not a table operation of this game")

    def replay(self, actions: Sequence[int]) -> None:
        """Apply a recorded history (:meth:`apply_recorded` for each action)."""
        for action in actions:
            self.apply_recorded(action)

    def apply_recorded(self, action: int) -> None:
        """Apply one action of a recorded history: a move with ``apply_action``, a table
        operation (a player joining mid-game) with ``apply_table_operation``."""
        if self.is_table_operation(action):
            self.apply_table_operation(action)
        else:
            self.apply_action(action)

    def seat_count(self) -> int:
        """How many seats the game has now (a game may seat a newcomer mid-game): the
        length of :meth:`returns`, which a game that keeps the count may answer faster."""
        return len(self.returns())

    # ----------------------------------------------------------------- shared API
    def legal_actions(self) -> list[int]:
        """Legal action ids: a seat's choices, or the outcomes at a chance node."""
        return list(self._cached_legal())

    def _cached_legal(self) -> list[int]:
        # Bots list the legal actions and apply_action checks them again: compute once
        # per position. The version only goes up, so it identifies the position.
        if self._legal_at != len(self._history):
            self._list_legal(self.current_player())
        return self._legal

    def _list_legal(self, player: int) -> None:
        """List this position's legal actions (``player``: :meth:`current_player`)."""
        if player == TERMINAL:
            self._legal = []
        elif player == CHANCE:
            outcomes = self._chance_outcomes()
            legal: list[int] = []
            for outcome in outcomes:  # (a loop mypyc keeps native; no tuple unpacking)
                legal.append(outcome[0])
            self._outcomes = outcomes
            self._legal = legal
        else:
            self._legal = self._legal_actions()
        self._legal_at = len(self._history)

    def keep_legal(self, actions: list[int]) -> None:
        """For the rules: ``actions`` are this position's legal actions, already listed (a
        game that checks whether a decision has a choice before it stops there hands the
        list over, and :meth:`legal_actions` does not list it again)."""
        self._legal = actions
        self._legal_at = len(self._history)

    def invalidate_cache(self) -> None:
        """Forget cached legal actions (after editing a state's fields directly)."""
        self._legal_at = -1

    def legal_actions_mask(self) -> list[int]:
        """1 at every legal id, 0 elsewhere; length ``num_distinct_actions``."""
        mask = [0] * self.game.num_distinct_actions()
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` may be applied now (never raises).

        Not a hook: :meth:`apply_action` asks the same question without it. What a game
        defines is what is legal: :meth:`_legal_actions`, :meth:`_chance_outcomes` and
        :meth:`_chance_counts`."""
        return self._allows(self.current_player(), action)

    def _allows(self, player: int, action: int) -> bool:
        """:meth:`is_legal`, ``player`` being :meth:`current_player` (asked once a step)."""
        if self._legal_at != len(self._history):
            if player == CHANCE:
                pile = self._chance_counts()
                if pile is not None:  # a card of a kind left in the pile: no list needed
                    kind = action - pile[0]
                    return 0 <= kind < len(pile[1]) and pile[1][kind] > 0
            self._list_legal(player)
        # A loop of int comparisons, which mypyc compiles natively (``in`` and ``any()``
        # over a generator compare Python objects).
        for legal in self._legal:  # noqa: SIM110
            if legal == action:
                return True
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, ``(action, probability)`` pairs summing to 1."""
        if self.current_player() != CHANCE:
            raise NotChanceNodeError("chance_outcomes() called where a player decides")
        self._cached_legal()
        return list(self._outcomes)

    def is_chance_node(self) -> bool:
        """Whether chance acts next."""
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.current_player() == TERMINAL

    def apply_action(self, action: object) -> None:
        """Apply ``action``; raise without changing anything if it is not legal now.

        (``action`` is typed ``object`` because anything may arrive from a client, and a
        compiled ``int`` parameter would take ``True`` for 1 before it could be refused.)"""
        if isinstance(action, bool) or not isinstance(action, int):
            raise MalformedActionError(f"{action!r} is not an action id")
        if not 0 <= action < self.game.num_distinct_actions():
            raise MalformedActionError(
                f"{action} is outside the catalog (0..{self.game.num_distinct_actions() - 1})"
            )
        player = self.current_player()
        if player == TERMINAL:
            raise GameOverError("the game is over; no action can be applied")
        if not self._allows(player, action):
            raise IllegalActionError(
                f"{self.game.catalog.text(action)!r} is not legal now"
                f" ({self.decision_summary()})"
            )
        if player == CHANCE:
            self._chance_count += 1
        self._history.append(action)
        self._apply(action)

    def apply_text(self, text: str) -> int:
        """Parse ``text`` and apply it; returns the action id."""
        action = self.string_to_action(text)
        self.apply_action(action)
        return action

    def sample_chance(self) -> int:
        """The chance outcome this state's own seeded stream picks (deterministic)."""
        if self.current_player() != CHANCE:
            raise NotChanceNodeError("sample_chance() called where a player decides")
        return self._sample_chance_at(rng.uniform(self._seed(), self._chance_count))

    def _seed(self) -> int:
        return self._rng_seed

    def history(self) -> list[int]:
        """Every action applied so far, chance outcomes included.

        A world drawn by :meth:`resample_hidden` has none: :class:`NoHistoryError`.
        """
        if self.is_world():
            raise NoHistoryError(
                "a world drawn by resample_hidden has no history (its past would be the"
                " real game's); follow the real game or the seat's observations instead")
        return list(self._history)

    @property
    def version(self) -> int:
        """A number that goes up with every applied action (stale-move detection)."""
        return len(self._history)

    def action_to_string(self, action: int) -> str:
        """Stable text of ``action`` (round-trips through :meth:`string_to_action`)."""
        return self.game.catalog.text(action)

    def string_to_action(self, text: str) -> int:
        """The action id named by ``text``."""
        return self.game.catalog.parse(text)

    def decision_summary(self) -> str:
        """A short description of what the state is waiting for."""
        player = self.current_player()
        if player == TERMINAL:
            return "game over"
        if player == CHANCE:
            return "waiting for chance"
        return f"waiting for seat {player}"

    def play_random_chance(self) -> None:
        """Resolve chance nodes with the state's own stream until a seat must decide."""
        while self.current_player() == CHANCE:
            self.apply_action(self.sample_chance())


def _unpickle_state(game: Game, text: str) -> State:
    return game.deserialize_state(text)


def _unpickle_game(cls: type[Game], options: dict[str, Any]) -> Game:
    return cls(options)


def legal_texts(state: State) -> Sequence[str]:
    """Text forms of the legal actions (handy in tests and the terminal)."""
    return [state.action_to_string(a) for a in state.legal_actions()]
