"""A panel of Shadows over Camelot traitor policies, and the loyal x traitor matrix.

Issue 18 asks the loyal knights to hold up against a traitor they cannot read, not only
against the heuristic's own traitor. The panel is four ways to play the traitor's seat:

``heuristic``
    :class:`~pendragon.games.soc.heuristic.SocHeuristicBot` as it plays the traitor.
``stealth``
    :class:`StealthTraitor`: plays exactly as the loyal heuristic does (the loyal branches
    of every decision run for it) until a *decisive moment* (:meth:`StealthTraitor.is_decisive`:
    9 siege engines, 5 black swords, 10 swords on the Round Table, or its own last life),
    then plays as the heuristic traitor for the rest of the game. It reveals itself with
    Fate (SOC-W-FATE) when the heuristic traitor would.
``saboteur``
    :class:`SaboteurTraitor`: harms openly from the first turn (defined, with the heuristic
    traitor's open play :class:`OpenTraitor`, in :mod:`pendragon.games.soc.saboteur`).
``random``
    :class:`RandomTraitor`: uniformly random legal actions, seeded.

:class:`~pendragon.bots.base.RoleBot` (re-exported here) puts a loyal policy and a traitor
policy on one seat and asks, at each decision, the one that matches the loyalty card the seat
sees in its own observation (a seat that does not know its card yet, as in the
three-brave-knights variant, plays loyal). :func:`traitor_panel` plays the matrix of loyal
policies (any :func:`~pendragon.bots.make_bot` name) against panel traitors on paired
seeds: every cell plays the same game seeds with the same bot seeds on every seat.

>>> import pendragon
>>> from pendragon.runner import play_game, bot_seed
>>> game = pendragon.load_game("soc", players=5, seed=3)
>>> bots = panel_bots("heuristic", "saboteur", game.seed, 5)
>>> play_game(game, bots).is_terminal()
True
>>> sorted(TRAITOR_PANEL)
['heuristic', 'random', 'saboteur', 'stealth']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import pendragon
from pendragon.bots import check_bot, make_bot
from pendragon.bots.base import Bot, RoleBot
from pendragon.bots.random_bot import RandomBot
from pendragon.core.api import CHANCE, Game
from pendragon.games.soc.heuristic import Obs, SocHeuristicBot
from pendragon.games.soc.saboteur import OpenTraitor, SaboteurTraitor
from pendragon.games.soc.stats import soc_stats
from pendragon.runner import bot_seed, play_game
from pendragon.simulate import game_seed, wilson_interval

__all__ = [
    "TRAITOR_PANEL",
    "PanelCell",
    "PanelGame",
    "PanelMatrix",
    "OpenTraitor",
    "PanelRate",
    "RandomTraitor",
    "RoleBot",
    "SaboteurTraitor",
    "StealthTraitor",
    "panel_bots",
    "traitor_dealt",
    "traitor_panel",
]


def _is_dealt_traitor(obs: Obs) -> bool:
    """Whether the observing seat holds the traitor card (its own observation)."""
    return bool(obs["you"]["loyalty"] == "traitor")


# ---------------------------------------------------------------------- the stealth traitor
class StealthTraitor(SocHeuristicBot):
    """The loyal heuristic's play until a decisive moment, then the heuristic traitor's.

    While stealthy, :meth:`_is_traitor` answers False, so every decision runs the loyal
    branches of :class:`~pendragon.games.soc.heuristic.SocHeuristicBot`: it pays evil as a
    loyal knight does, contributes, pledges Merlins, fights sieges and follows the same
    traitor belief of the public record. Its accusations are therefore the loyal policy's:
    made only when the public record makes a knight at least even odds to be the traitor,
    the accusation any loyal knight in its seat would make on the same evidence. In the
    base game it knows every other knight is loyal, so such an accusation always turns a
    white sword black (SOC-ACCUSE-3), yet it shows nothing a loyal knight would not.

    The decisive moment (:meth:`is_decisive`), after which it plays the heuristic traitor
    for good: the game is near its end and the traitor's harm now tips it, or its hidden
    flip is about to be lost.

    * ``siege_engines >= 9``: three more engines lose the game (SOC-END-1), and the traitor
      can add one every turn (SOC-EVIL-3);
    * ``black swords >= 5``: two more black swords lose it at once (SOC-END-1);
    * ``swords >= 10`` on the Round Table: the last quests decide the count, where the
      hidden traitor's flip of two white swords (SOC-TRAITOR-3) also falls;
    * its own ``life <= 1``: a hidden traitor who dies flips nothing (SOC-TRAITOR-3);
    * it is unmasked (accused, SOC-ACCUSE-2, or revealed, SOC-W-FATE): nothing to hide.

    The Fate card's choice (:meth:`_d_fate`) is always the heuristic traitor's: the stealth
    traitor reveals itself exactly when that policy would, and a reveal is decisive too.
    A Fate played while stealthy is played because the loyal policy plays it (a card for
    every knight).

    The moment comes once and stays, whatever happens after:

    >>> bot = StealthTraitor(seed=1)
    >>> knight = {"life": 4, "status": "hidden"}
    >>> obs = {"seat": 2, "siege_engines": 4, "round_table": {"white": 3, "black": 1},
    ...        "knights": [knight, knight, knight]}
    >>> bot.is_decisive(obs)
    False
    >>> obs["siege_engines"] = 9
    >>> bot.is_decisive(obs)
    True
    >>> obs["siege_engines"] = 2
    >>> bot.is_decisive(obs)
    True
    """

    #: The decisive moment's thresholds (see the class docstring).
    decisive_siege = 9
    decisive_black = 5
    decisive_swords = 10
    decisive_life = 1

    # No __slots__ in the bots built on the compiled ones: pickling a compiled base keeps
    # a Python subclass's own attributes through its __dict__ only.

    def __init__(self, seed: int | None = None, track_beliefs: bool = True) -> None:
        super().__init__(seed, track_beliefs)
        #: Seats whose decisive moment has come (it lasts for the rest of the game).
        self._flipped: set[int] = set()

    def __repr__(self) -> str:
        return f"StealthTraitor(seed={self.seed!r})"

    def is_decisive(self, obs: Obs) -> bool:
        """Whether the decisive moment has come for the observing traitor (and stays)."""
        seat = int(obs["seat"])
        if seat in self._flipped:
            return True
        me = obs["knights"][seat]
        table = obs["round_table"]
        swords = int(table["white"]) + int(table["black"])
        decisive = (
            int(obs["siege_engines"]) >= self.decisive_siege
            or int(table["black"]) >= self.decisive_black
            or swords >= self.decisive_swords
            or int(me["life"]) <= self.decisive_life
            or me["status"] == "unmasked"
        )
        if decisive:
            self._flipped.add(seat)
        return decisive

    # The base declares a staticmethod; an instance method answers for it (unused-ignore:
    # the base may become an instance method).
    def _is_traitor(self, obs: Obs) -> bool:  # type: ignore[override, unused-ignore]
        """A traitor seat plays the traitor's branches only from its decisive moment."""
        return _is_dealt_traitor(obs) and self.is_decisive(obs)

    def _d_fate(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """Reveal (SOC-W-FATE) exactly when the heuristic traitor would
        (:class:`OpenTraitor`: whenever it may); the reveal is decisive."""
        if "fate:reveal" in texts and _is_dealt_traitor(obs):
            self._flipped.add(int(obs["seat"]))
            return "fate:reveal"
        return super()._d_fate(obs, texts)


# ---------------------------------------------------------------------- the random traitor
class RandomTraitor(RandomBot):
    """The traitor's seat plays uniformly random legal actions (seeded, as
    :class:`~pendragon.bots.random_bot.RandomBot`)."""

    def __repr__(self) -> str:
        return f"RandomTraitor(seed={self.seed!r})"


# ---------------------------------------------------------------------- the panel
def _heuristic_traitor(seed: int | None) -> Bot:
    return SocHeuristicBot(seed)


def _stealth_traitor(seed: int | None) -> Bot:
    return StealthTraitor(seed)


def _saboteur_traitor(seed: int | None) -> Bot:
    return SaboteurTraitor(seed)


def _random_traitor(seed: int | None) -> Bot:
    return RandomTraitor(seed)


#: The traitor policies of the panel, by name: factories taking a seed.
TRAITOR_PANEL: dict[str, Callable[[int | None], Bot]] = {
    "heuristic": _heuristic_traitor,
    "stealth": _stealth_traitor,
    "saboteur": _saboteur_traitor,
    "random": _random_traitor,
}


def check_names(loyal: Sequence[str], traitors: Sequence[str]) -> None:
    """Raise ``ValueError`` naming the first unknown loyal bot or panel traitor.

    >>> check_names(["heuristic"], ["stealth", "cunning"])
    Traceback (most recent call last):
    ...
    ValueError: unknown traitor policy 'cunning'; the panel: heuristic, stealth, saboteur, random
    """
    if not loyal:
        raise ValueError("at least one loyal policy is needed")
    if not traitors:
        raise ValueError("at least one traitor policy of the panel is needed")
    for name in loyal:
        check_bot(name, "soc")
    for name in traitors:
        if name not in TRAITOR_PANEL:
            raise ValueError(
                f"unknown traitor policy {name!r}; the panel: {', '.join(TRAITOR_PANEL)}")
    for kind, names in (("loyal policy", loyal), ("traitor policy", traitors)):
        twice = sorted({n for n in names if list(names).count(n) > 1})
        if twice:
            raise ValueError(f"{kind} {twice[0]!r} named twice")


def panel_bots(loyal: str, traitor: str, seed: int, players: int) -> list[Bot]:
    """One :class:`RoleBot` per seat for the game seeded ``seed``: the loyal bot ``loyal``
    (a :func:`~pendragon.bots.make_bot` name) and the panel traitor ``traitor``, both
    seeded ``runner.bot_seed(seed, seat)`` as ``pendragon simulate`` seeds its bots."""
    check_names([loyal], [traitor])
    return [
        RoleBot(make_bot(loyal, bot_seed(seed, s), "soc"),
                TRAITOR_PANEL[traitor](bot_seed(seed, s)))
        for s in range(players)
    ]


def traitor_dealt(game: Game) -> bool:
    """Whether the loyalty deal of ``game`` holds a traitor (SOC-SETUP-5).

    The set-up's chance outcomes come from the game's own seeded stream, so the game played
    afterwards from the same seed deals the same cards. This reads the true state: it is
    for the harness, never for a bot.
    """
    state = game.new_initial_state()
    while not state.is_terminal() and state.current_player() == CHANCE:
        state.apply_action(state.sample_chance())
    return any(state.observation(s)["you"]["loyalty"] == "traitor"
               for s in range(game.num_players()))


# ---------------------------------------------------------------------- the matrix
@dataclass(frozen=True, slots=True)
class PanelGame:
    """The figures of one game of the matrix (``traitor`` None: no traitor was dealt, the
    game the reference row counts)."""

    loyal: str
    traitor: str | None
    index: int
    seed: int
    traitor_present: bool
    loyal_win: bool
    #: A loyal knight accused the traitor (SOC-ACCUSE-2).
    unmasked_by_accusation: bool
    #: The traitor was unmasked by an accusation or revealed himself (SOC-W-FATE).
    traitor_unmasked: bool
    #: A loyal knight accused a loyal knight (SOC-ACCUSE-3).
    false_accusation: bool


@dataclass(frozen=True, slots=True)
class PanelRate:
    """A rate with its Wilson 95% interval (:func:`~pendragon.simulate.wilson_interval`)."""

    count: int
    games: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, flags: Sequence[bool]) -> PanelRate:
        """The rate of True among ``flags``.

        >>> PanelRate.of([True, False, False, False]).rate
        0.25
        """
        count = sum(1 for f in flags if f)
        low, high = wilson_interval(count, len(flags))
        return cls(count, len(flags), count / len(flags) if flags else 0.0, low, high)

    def text(self) -> str:
        """``"41% [30-52]"``; ``"—"`` without games.

        >>> PanelRate.of([True, False]).text()
        '50% [9-91]'
        """
        if not self.games:
            return "—"
        return f"{self.rate:.0%} [{self.low * 100:.0f}-{self.high * 100:.0f}]"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {"count": self.count, "games": self.games, "rate": self.rate,
                "ci95": [self.low, self.high]}


@dataclass(frozen=True, slots=True)
class PanelCell:
    """One cell of the matrix: loyal policy ``loyal`` against panel traitor ``traitor``
    (``None``: the reference cell of the games in which no traitor was dealt).

    ``games`` counts the games of the cell (with a traitor dealt, for a traitor column);
    the rates are over them. In the reference cell ``traitor_unmasked`` has no games.
    """

    loyal: str
    traitor: str | None
    games: int
    loyal_win: PanelRate
    traitor_unmasked: PanelRate
    false_accusation: PanelRate
    #: The traitor unmasked by an accusation or by his own Fate reveal.
    traitor_unmasked_any: PanelRate
    #: The traitor's side won (over the games with a traitor dealt).
    traitor_win: PanelRate

    @classmethod
    def of(cls, loyal: str, traitor: str | None, records: Sequence[PanelGame]) -> PanelCell:
        """The cell's rates over ``records``."""
        present = [r for r in records if r.traitor_present]
        return cls(
            loyal, traitor, len(records),
            PanelRate.of([r.loyal_win for r in records]),
            PanelRate.of([r.unmasked_by_accusation for r in present]),
            PanelRate.of([r.false_accusation for r in records]),
            PanelRate.of([r.traitor_unmasked for r in present]),
            PanelRate.of([not r.loyal_win for r in present]),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "loyal": self.loyal, "traitor": self.traitor, "games": self.games,
            "loyal_win": self.loyal_win.to_dict(),
            "traitor_win": self.traitor_win.to_dict(),
            "traitor_unmasked": self.traitor_unmasked.to_dict(),
            "traitor_unmasked_any": self.traitor_unmasked_any.to_dict(),
            "false_accusation": self.false_accusation.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class PanelMatrix:
    """The loyal-policy x traitor-policy matrix of :func:`traitor_panel`."""

    players: int
    #: Game seeds played per cell (``seed * 1_000_003 + i`` for i below it).
    games: int
    seed: int
    options: dict[str, Any]
    loyal: tuple[str, ...]
    traitors: tuple[str, ...]
    cells: tuple[PanelCell, ...]
    #: Per loyal policy, the games of the same seeds in which no traitor was dealt.
    reference: tuple[PanelCell, ...]
    records: tuple[PanelGame, ...]

    def cell(self, loyal: str, traitor: str | None) -> PanelCell:
        """The cell of ``loyal`` against ``traitor`` (None: the reference cell)."""
        cells = self.cells if traitor is not None else self.reference
        for cell in cells:
            if cell.loyal == loyal and cell.traitor == traitor:
                return cell
        raise KeyError(f"no cell for loyal {loyal!r} against traitor {traitor!r}")

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (without the per-game records)."""
        return {
            "game": "soc", "players": self.players, "games_per_cell": self.games,
            "seed": self.seed, "options": self.options, "loyal": list(self.loyal),
            "traitors": list(self.traitors),
            "cells": [c.to_dict() for c in self.cells],
            "no_traitor_dealt": [c.to_dict() for c in self.reference],
        }


#: One game to play: (loyal bot name, panel traitor name or None, game index).
_Unit = tuple[str, str | None, int]


def _play_units(
    units: Sequence[_Unit], players: int, options: Mapping[str, Any], seed: int
) -> list[PanelGame]:
    """Play ``units`` one after the other (a worker's share; everything is rebuilt from
    names and numbers, so it runs in any process)."""
    records = []
    for loyal, traitor, index in units:
        seed_i = game_seed(seed, index)
        game = pendragon.load_game("soc", **{**options, "players": players, "seed": seed_i})
        # No traitor dealt: the traitor policy never acts; any name does.
        bots = panel_bots(loyal, traitor or "heuristic", seed_i, players)
        figures = soc_stats(play_game(game, bots))
        present = bool(figures["traitor_present"])
        if present != (traitor is not None):
            raise RuntimeError(f"game {index}: the loyalty deal differs from the set-up's")
        records.append(PanelGame(
            loyal=loyal, traitor=traitor, index=index, seed=seed_i,
            traitor_present=present,
            loyal_win=bool(figures["loyal_win"]),
            unmasked_by_accusation=int(figures["loyal_accusations_correct"]) > 0,
            traitor_unmasked=bool(figures["traitor_unmasked"]),
            false_accusation=int(figures["loyal_accusations"])
            > int(figures["loyal_accusations_correct"]),
        ))
    return records


def _chunks(units: list[_Unit], size: int) -> Iterator[list[_Unit]]:
    for start in range(0, len(units), size):
        yield units[start:start + size]


def traitor_panel(
    players: int = 5,
    games: int = 100,
    loyal: Sequence[str] = ("heuristic",),
    traitors: Sequence[str] = tuple(TRAITOR_PANEL),
    seed: int = 0,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> PanelMatrix:
    """Play the loyal x traitor matrix with the traitor deck (``no_traitor=False``).

    Every cell plays game seeds ``game_seed(seed, i)`` for ``i < games`` with the bots
    seeded ``bot_seed(game seed, seat)``: paired across cells. A cell counts the games in
    which a traitor was dealt; the games without one are the same in every traitor column
    (the traitor policy never acts), so they are played once per loyal policy and make the
    reference cell. ``options`` adds game options (``expansion``...). Raises
    ``ValueError`` for an unknown name, a bad count or game options the game refuses,
    before any game is played. ``on_progress(n)`` is called as ``n`` more games finish.

    >>> matrix = traitor_panel(players=5, games=3, traitors=["random"], seed=2)
    >>> [(c.loyal, c.traitor) for c in matrix.cells]
    [('heuristic', 'random')]
    """
    check_names(loyal, traitors)
    if games < 1 or workers < 1:
        raise ValueError("games and workers must be at least 1")
    extra = dict(options or {})
    for key in ("players", "seed", "no_traitor"):
        if key in extra:
            raise ValueError(f"option {key!r} is set by the traitor panel itself")
    extra["no_traitor"] = False
    dealt = [traitor_dealt(pendragon.load_game(
        "soc", **{**extra, "players": players, "seed": game_seed(seed, i)}))
        for i in range(games)]
    units: list[_Unit] = []
    for name in loyal:
        for index in range(games):
            if dealt[index]:
                units += [(name, traitor, index) for traitor in traitors]
            else:
                units.append((name, None, index))
    size = max(1, min(25, len(units) // (workers * 8) or 1))
    chunks = list(_chunks(units, size))
    records: list[PanelGame] = []
    if workers <= 1:
        for chunk in chunks:
            records += _play_units(chunk, players, extra, seed)
            if on_progress is not None:
                on_progress(len(chunk))
    else:
        count = len(chunks)
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for batch in pool.map(_play_units, chunks, [players] * count, [extra] * count,
                                  [seed] * count):
                records += batch
                if on_progress is not None:
                    on_progress(len(batch))
    cells = tuple(
        PanelCell.of(name, traitor,
                     [r for r in records if r.loyal == name and r.traitor == traitor])
        for name in loyal for traitor in traitors)
    reference = tuple(
        PanelCell.of(name, None, [r for r in records if r.loyal == name and r.traitor is None])
        for name in loyal)
    return PanelMatrix(players, games, seed, extra, tuple(loyal), tuple(traitors), cells,
                       reference, tuple(records))
