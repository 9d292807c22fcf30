"""The learned evaluator's figures (issue 38, item 5): calibration on held-out seeds per
game and setup, for games of heuristic bots and of a search bot among them; repeat noise;
the time of an estimate, a hint and a review; one evaluation's cost.

Held-out: game ``k`` of a run has the seed ``seed * 1_000_003 + k`` with ``--seed``
(default 7); the shipped models were trained on ``pendragon train``'s seed 0, whose games
have seeds below 1_000_003, so no game here was seen in training.

At ``--per-game`` decisions of each game (evenly spaced over its decisions with two or
more legal actions) the deciding seat's chance is read (``coach.win_chance``) and met
with whether its side won. Reliability by tenths as ``bench/calibration.py``.

    python -m bench.evaluator calibration [--games N] [--per-game N] [--seed S]
        [--only GAME|SETUP|"GAME N" [--option K=V]] [--panel heuristic|search] [--chunk N]
        [--picks even|random] [--no-pin]
    python -m bench.evaluator estimates [--games N] [--per-game N] [--seed S] [--only GAME]
        [--no-pin]
    python -m bench.evaluator timing [--games N] [--no-pin]
    python -m bench.evaluator review GAME PLAYERS SEED [--option K=V] [--no-pin]
    python -m bench.evaluator strength GAME PLAYERS [--games N] [--start K] [--depth D]
        [--option K=V] [--team] [--panels model,search,ismcts,served,talk,open,known,coach]
        [--workers W] [--search-option [PANEL:]K=V]
    python -m bench.evaluator cost GAME PLAYERS [--games N] [--start K] [--option K=V]
        [--panels search,ismcts,served,talk] [--workers W] [--search-option [PANEL:]K=V]
    python -m bench.evaluator leaf [--games N] [--worlds K] [--seed S] [--no-pin]
    python -m bench.evaluator pool RESULTS.json [RESULTS.json ...]

``leaf``: the card game's search leaf (5 players) against the learned evaluator where the
search stops a rollout. In games of heuristic bots, at every position where the search
would stop (``SocCardHeuristicBot.leaf_position``: the first decision after a quest
resolved), every seat's side's chance by (a) the evaluator from that seat's view, (b) the
leaf table as the search reads it, averaged over ``--worlds`` worlds drawn from the seat's
own belief (its heuristic's ``sample_world``, as the search draws them), and (c) the table
on the true traitors (no search has them: a bound), each met with whether the side won:
calibration error, Brier score and log loss.

``estimates``: the same reliability tables for a decision's estimate (``coach.estimate``,
the chance of the coach's move: what a hint shows and a review's *before*), in games of
heuristic bots.

``strength``: on paired seeds, seat ``k % players`` of game ``k`` is played by the search
bot with the learned evaluator (``ISMCTSBot(evaluator=True)``; ``--depth D``: every rollout
cut after D decisions, ``rollout_depth=D``), by today's search (``ISMCTSBot()``) and by the
heuristic, the other seats by the heuristic; that seat's win rates, the paired differences
with 95% intervals (each search against the heuristic, and against today's search when
both were played), and the searching seat's time a decision (mean and slowest); in the
Camelot games, the same by the card the seat was dealt (``by_card``: its loyal games and its
traitor games, each group's share of the difference in points of all the games), since a
search that plays the traitor better gains there what the loyal side never sees.
``--team``: the searches play every seat whose own card is loyal (a traitor's seat stays
heuristic), and the figure is the loyal side's win: what the cooperative games' bars
(issue 38) are about. ``--panels``: the searches played (default ``model,search``; the
heuristic always); ``talk`` (Shadows over Camelot) is today's search listening to the bots'
table talk (:class:`~pendragon.games.soc.talk.TalkingSearch`, SOC-TURN-3, SOC-RULING-71);
``ismcts`` is the game's own ``ismcts`` bot (``make_bot("ismcts", seed, game)``: soc's and
Grail Cup's the model search with the settings their plugins name, ``GamePlugin.search``);
``served`` the same bot as a server with the default limits makes it (its budget of simulated
actions a move held to ``pendragon serve``'s ``--ismcts-budget``, 4,000);
``open`` is the *open-hand search* (:class:`OpenSearch`), today's search reading the true
state: what the search could gain with every card seen, a bound on any better read of the
table with the same rollouts; ``known`` (:class:`KnownTraitorsSearch`) the search whose
worlds hold the true traitors, the cards still drawn: a bound on any better belief about who
they are; ``coach`` plays the coach's move at every decision
(:class:`CoachPlayer`): what following every hint wins. ``--search-option K=V`` builds
every search panel with that keyword of ``ISMCTSBot`` (``confidence=2.0``: soc's search
before its own test; a ``budget``...): a variant measured on the same paired seeds as
today's search; ``--search-option PANEL:K=V`` builds that panel alone with it
(``model:min_iterations=3``).

``cost``: the searches' time a decision on the same positions (a strength run's times come
from different games: a side that plays better reaches other positions). Games of heuristic
bots on the paired seeds; at each decision of a loyal seat with a choice, each panel's bot
of that seat (following the game as it would at the table) is asked in turn, and its CPU
seconds counted; the mean a decision of each, and each panel against the first (the
difference of their means a decision per game, a 95% interval over games) and how often it
chose the first panel's action (``same_choice``: ``--panels ismcts,served`` tells what a
server's bound on a move changes).

``pool``: strength runs on other seeds (their results files) as one: the panels every file
played, each search against the heuristic and every two searches paired (:func:`panel_pairs`)
over all their games.

Writes ``bench/results/evaluator_<command>[_...].json`` (a strength or cost run's name ends
``_GAME_PLAYERS_seedS_startK``, its ``results`` holding each panel's ``per_seed`` wins) and
prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pendragon
from bench.calibration import (
    Group,
    markdown,
    noise_table,
    outcome_group,
    reliability,
    sample_states,
)
from bench.run import RESULTS_DIR, machine_info, pin_to_one_core
from bench.soc_card_bars import loyal_search
from pendragon.bots import Bot, make_bot
from pendragon.bots.base import hear_one_another, holds_loyal_card
from pendragon.bots.evaluator import evaluator_for
from pendragon.bots.ismcts import ISMCTSBot
from pendragon.coach import estimate, hint, review, side_of, win_chance
from pendragon.core.api import CHANCE, State
from pendragon.games.soc.talk import TalkingSearch
from pendragon.runner import bot_seed, play_game
from pendragon.simulate import game_seed
from pendragon.web.limits import Limits

#: The setups measured: name -> (game, options).
SETUPS: dict[str, tuple[str, dict[str, Any]]] = {
    "soc 5": ("soc", {"players": 5}),
    "soc 8 Merlin's Company": ("soc", {"players": 8, "expansion": "merlins-company"}),
    "soc-card 5": ("soc-card", {"players": 5}),
    "grail-cup 4": ("grail-cup", {"players": 4}),
    "grail-cup 8": ("grail-cup", {"players": 8}),
}


def chosen_setups(only: str | None, options: Sequence[str] = ()
                  ) -> dict[str, tuple[str, dict[str, Any]]]:
    """The setups a run measures: :data:`SETUPS`, or those ``only`` names (a label or a
    game), or ``only`` read as ``"GAME PLAYERS"`` (any setup the lobby offers, with
    ``options``: ``--option K=V``).

    >>> list(chosen_setups("soc-card"))
    ['soc-card 5']
    >>> chosen_setups("soc-card 6", ["knights_relief=true"])
    {'soc-card 6': ('soc-card', {'knights_relief': 'true', 'players': 6})}
    >>> chosen_setups("chess 2")
    Traceback (most recent call last):
    ...
    SystemExit: --only: a setup of SETUPS, a game, or "GAME PLAYERS" of an installed game
    """
    named = {label: setup for label, setup in SETUPS.items()
             if only is None or only in (setup[0], label)}
    if named:
        return named
    name, _, players = (only or "").partition(" ")
    if name not in pendragon.registered_games() or not players.isdigit():
        raise SystemExit('--only: a setup of SETUPS, a game, or "GAME PLAYERS" of an '
                         "installed game")
    extra: dict[str, Any] = dict(item.split("=", 1) for item in options)
    return {f"{only}": (name, {**extra, "players": int(players)})}  # (only: "GAME N")


def panel_bots(game: str, seats: int, seed: int, panel: str) -> list[Bot]:
    """The bots of one game: ``heuristic`` on every seat, or ``search``: seat ``seed %
    seats`` played by the search bot (the default ISMCTS), the others by the heuristic."""
    bots: list[Bot] = [make_bot("heuristic", bot_seed(seed, s), game) for s in range(seats)]
    if panel == "search":
        seat = seed % seats
        bots[seat] = ISMCTSBot(bot_seed(seed, seat))
    return bots


def play(name: str, options: dict[str, Any], seed: int, panel: str) -> tuple[Any, list[int]]:
    """One game's (game, actions) with the panel's bots."""
    game = pendragon.load_game(name, **{**options, "seed": seed})
    return game, play_game(game, panel_bots(name, game.num_players(), seed, panel)).history()


def _reliability_tables(args: argparse.Namespace, panel: str, title: str,
                        read: Callable[[State, int], float]) -> dict[str, Any]:
    """Per setup: ``read(state, seat)`` of the deciding seat at ``args.per_game`` decisions
    of ``args.games`` games of ``panel``, met with whether its side won (a reliability
    table, printed under ``title``)."""
    results: dict[str, Any] = {}
    for label, (name, options) in chosen_setups(args.only, args.option).items():
        started = time.process_time()
        samples: list[tuple[float, bool]] = []
        groups: list[Group] = []
        games_of: list[int] = []
        for k in range(args.games):
            game, actions = play(name, options, game_seed(args.seed, k), panel)
            draw = random.Random(game_seed(args.seed, k)) if args.picks == "random" else None
            states, returns = sample_states(game, actions, args.per_game, draw)
            for state in states:
                seat = state.current_player()
                samples.append((read(state, seat), returns[seat] > 0))
                groups.append(outcome_group(k, side_of(state, seat), seat))
                games_of.append(k)
        table = reliability(samples)
        table.update(noise_table(samples, groups))
        table["cpu_seconds"] = time.process_time() - started
        if args.chunk:
            table["chunks"] = chunk_tables(samples, groups, games_of, args.chunk,
                                           args.games)
        results[label] = table
        print(markdown(f"{label}, {title}, {args.games} games", table))
        for n, chunk in enumerate(table.get("chunks", [])):
            print(f"games {n * args.chunk}-{(n + 1) * args.chunk - 1}: "
                  f"{100 * chunk['calibration_error']:.1f} points (a calibrated model's "
                  f"{100 * chunk['noise_floor']:.1f}, 95% {100 * chunk['noise_95']:.1f})")
        print(f"({table['cpu_seconds']:.0f} s of CPU)\n", flush=True)
    return results


def chunk_tables(samples: Sequence[tuple[float, bool]], groups: Sequence[Group],
                 games_of: Sequence[int], games: int, total: int) -> list[dict[str, float]]:
    """Each whole run of ``games`` of the ``total`` games' calibration error (``games_of``:
    each reading's game index ``k``), with what a calibrated model shows on the same readings
    (:func:`~bench.calibration.noise_table`): one long run read as many fresh samples of
    ``games`` games each; a run cut short at the end is left out.

    >>> samples = [(0.9, True), (0.9, True), (0.1, False), (0.5, True), (0.5, False)]
    >>> groups = [((k,), True) for k in (0, 0, 1, 2, 4)]
    >>> [round(c["calibration_error"], 2) for c in chunk_tables(samples, groups,
    ...                                                          [0, 0, 1, 2, 4], 2, 5)]
    [0.1, 0.5]
    """
    found: list[dict[str, float]] = []
    for start in range(0, total - games + 1, games):
        mine = [i for i, k in enumerate(games_of) if start <= k < start + games]
        if not mine:
            continue
        part = [samples[i] for i in mine]
        table = noise_table(part, [groups[i] for i in mine])
        table["calibration_error"] = reliability(part)["calibration_error"]
        found.append(table)
    return found


def calibration(args: argparse.Namespace) -> dict[str, Any]:
    """Reliability tables per setup for the panel: ``coach.win_chance`` of the position."""
    return _reliability_tables(args, args.panel, f"{args.panel} bots", win_chance)


def timing(args: argparse.Namespace) -> dict[str, Any]:
    """Per setup: one evaluation, a win chance, an estimate (every move), a hint, and the
    repeat noise of an estimate's chosen move between seeds 0 and 1."""
    results: dict[str, Any] = {}
    for label, (name, options) in SETUPS.items():
        if args.only and args.only not in (name, label):
            continue
        states: list[State] = []
        for k in range(args.games):
            game, actions = play(name, options, game_seed(args.seed, k), "heuristic")
            states += sample_states(game, actions, args.per_game)[0]
        bound = evaluator_for(states[0].game)
        assert bound is not None
        inputs = [bound.inputs(s, s.current_player()) for s in states]
        started = time.process_time()
        for _ in range(20):
            for row in inputs:
                bound.model.probability(row)
        evaluation = (time.process_time() - started) / (20 * len(inputs))
        started = time.process_time()
        for state in states:
            win_chance(state, state.current_player())
        chance = (time.process_time() - started) / len(states)
        gaps = []
        started = time.process_time()
        for state in states:
            seat = state.current_player()
            one = estimate(state, seat, seed=0)
            gaps.append(abs(one.chance(one.choice)
                            - estimate(state, seat, seed=1).chance(one.choice)))
        estimate_time = (time.process_time() - started) / (2 * len(states))
        started = time.process_time()
        for state in states:
            hint(state, state.current_player(), seed=0)
        hint_time = (time.process_time() - started) / len(states)
        results[label] = {
            "positions": len(states), "evaluation_ms": 1000 * evaluation,
            "win_chance_ms": 1000 * chance, "estimate_ms": 1000 * estimate_time,
            "hint_ms": 1000 * hint_time,
            "repeat_noise_points": 100 * statistics.fmean(gaps),
            "repeat_noise_max_points": 100 * max(gaps)}
        print(label, {k: round(v, 3) for k, v in results[label].items()}, flush=True)
    return results


def estimate_calibration(args: argparse.Namespace) -> dict[str, Any]:
    """Reliability tables per setup of a decision's estimate (``coach.estimate``: the
    chance of the coach's move, what a hint shows and a review's *before*) in games of
    heuristic bots, at the positions :func:`calibration` reads."""
    def read(state: State, seat: int) -> float:
        found = estimate(state, seat, seed=0)
        return found.chance(found.choice)

    return _reliability_tables(args, "heuristic", "estimates, heuristic bots", read)


def review_time(name: str, players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One review (seed 0) of a heuristic game, in CPU seconds."""
    game, actions = play(name, {**options, "players": players}, seed, "heuristic")
    started = time.process_time()
    done = review(game, actions, seed=0)
    cpu = time.process_time() - started
    line = [c for series in done.chart.values() for _, c in series]
    found = {"game": name, "players": players, "seed": seed, "options": options,
             "decisions": len(done.moves), "cpu_seconds": cpu, "marks": done.marks,
             "chart_min": min(line), "chart_max": max(line)}
    print(found)
    return found


class OpenSearch(ISMCTSBot):
    """Today's search, but every sweep searches the true state: every hand and every
    loyalty card seen, only the chance draws to come unknown. No bot may play so; its
    gain over the heuristic bounds what any search with the same rollouts could gain from
    a better read of the table.

    >>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
    >>> state.play_random_chance()
    >>> OpenSearch(1).world_for(state, 0).observation(1) == state.observation(1)
    True
    """

    def world_for(self, state: State, seat: int) -> State:
        """The true state itself (a copy)."""
        return state.clone()


class KnownTraitorsSearch(ISMCTSBot):
    """Today's search, but every sweep's world holds the true traitors: the cards (the deck's
    order, hands, face-down cards) still drawn as the seat may imagine them. No bot may play
    so; its gain over the heuristic bounds what any better belief about who the traitors
    are could give a search with the same rollouts (the open-hand search, ``open``, also
    sees the deck to come). A game without hidden loyalty searches as today's search.

    >>> state = pendragon.load_game("soc-card", players=5, seed=3).new_initial_state()
    >>> state.play_random_chance()
    >>> search = KnownTraitorsSearch(1)
    >>> traitors = [s for s in range(5) if not holds_loyal_card(state, s)]
    >>> worlds = [search.world_for(state, 0) for _ in range(8)]
    >>> traitors, {tuple(s for s in range(5) if not holds_loyal_card(w, s)) for w in worlds}
    ([3], {(3,)})
    >>> all(w.observation(0) == state.observation(0) for w in worlds)
    True
    """

    def world_for(self, state: State, seat: int) -> State:
        """A world redealt for ``seat`` whose traitors are the true ones."""
        world = state.resample_hidden(seat, self._rng)
        obs = state.observation(seat)
        you, seats = obs.get("you"), obs.get("seats")
        seen = set(you.get("known_loyalties", ())) if isinstance(you, dict) else set()
        if isinstance(seats, list):  # the cards shown to the table (an accused's)
            seen |= {s for s, entry in enumerate(seats)
                     if isinstance(entry, dict) and entry.get("loyalty") is not None}
        truth = {s for s in range(state.game.num_players())
                 if s != seat and s not in seen and not holds_loyal_card(state, s)}
        try:
            return world.with_traitors(seat, truth, self._rng)
        except (NotImplementedError, ValueError):  # no hidden loyalty; a deal not made so
            return super().world_for(state, seat)


class CoachPlayer:
    """A seat that plays the coach's move at every decision (``coach.hint(...).action``,
    a hint's best move), so its win rate is what following every hint is worth; not a bot
    of the lobby (it asks the coach, which reads the learned model).

    >>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
    >>> state.play_random_chance()
    >>> CoachPlayer(2).step(state) in state.legal_actions()
    True
    """

    def __init__(self, seed: int | None) -> None:
        self.seed = 0 if seed is None else seed

    def step(self, state: State) -> int:
        """The coach's move for the seat to act (its only move if forced)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return hint(state, state.current_player(), seed=self.seed).action


def _panel_bot(name: str, panel: str, depth: int | None, seed: int | None,
               search_options: dict[str, Any] | None = None) -> Bot:
    """A strength panel's bot: the search with the model, the search, the search that
    listens to the table talk, the open-hand search (a bound), the coach's move
    (:class:`CoachPlayer`) or the heuristic; every search built with ``search_options``
    (``ISMCTSBot``'s keywords) besides."""
    extra = search_options or {}
    if panel == "coach":
        return CoachPlayer(seed)
    if panel == "model":
        return ISMCTSBot(seed, **{"evaluator": True, "rollout_depth": depth, **extra})
    if panel == "open":
        return OpenSearch(seed, **extra)
    if panel == "known":
        return KnownTraitorsSearch(seed, **extra)
    if panel == "talk":  # Shadows over Camelot's table talk (the bot "talking")
        return TalkingSearch(seed, **extra)
    if panel == "ismcts":  # the game's own (GamePlugin.search): what a user's bot plays
        return make_bot("ismcts", seed, name)
    if panel == "served":  # the same, as a server with the default limits plays it
        return make_bot("ismcts", seed, name, max_budget=Limits().ismcts_budget)
    return ISMCTSBot(seed, **extra) if panel == "search" else make_bot("heuristic", seed, name)


def search_options(items: Sequence[str]) -> dict[str, Any]:
    """``--search-option K=V`` items as ``ISMCTSBot`` keywords, each value read as JSON
    (a number, ``true``, ``null``) or else kept as text; refused unless a search takes
    them.

    >>> search_options(["confidence=1.0", "prior_margin=0.05", "rollout=random"])
    {'confidence': 1.0, 'prior_margin': 0.05, 'rollout': 'random'}
    >>> search_options(["confidence=-1"])
    Traceback (most recent call last):
    ...
    SystemExit: --search-option: confidence must be a number of standard errors >= 0, got -1.0
    """
    found: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"--search-option: expected KEY=VALUE, got {item!r}")
        try:
            found[key] = json.loads(text)
        except ValueError:
            found[key] = text
    try:
        ISMCTSBot(0, **found)
    except (TypeError, ValueError) as error:
        raise SystemExit(f"--search-option: {error}") from None
    return found


def panel_search_options(items: Sequence[str], panels: Sequence[str]
                         ) -> dict[str, dict[str, Any]]:
    """Each search panel's keywords (of ``panels``, those in :data:`SEARCH_PANELS`) from
    ``--search-option [PANEL:]K=V`` items: a bare item builds every search panel, one named
    ``PANEL:`` that panel alone (two settings of the search timed or played on the same
    seeds); the later of two items with one key wins.

    >>> panel_search_options(["confidence=2.0", "model:budget=6000"], ("model", "search"))
    {'model': {'confidence': 2.0, 'budget': 6000}, 'search': {'confidence': 2.0}}
    >>> panel_search_options(["coach:budget=1"], ("model", "coach", "heuristic"))
    Traceback (most recent call last):
    ...
    SystemExit: --search-option coach:budget=1: no search panel 'coach' is played (model)
    >>> panel_search_options(["budget=1"], ("ismcts",))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    SystemExit: --search-option budget=1: no search panel takes it (model, search, talk, ...)
    """
    panels = [p for p in panels if p in SEARCH_PANELS]
    if items and not panels:
        raise SystemExit(f"--search-option {items[0]}: no search panel takes it "
                         f"({', '.join(SEARCH_PANELS)})")
    mine: dict[str, list[str]] = {p: [] for p in panels}
    for item in items:
        key, _, _ = item.partition("=")
        panel, named, rest = item.partition(":") if ":" in key else ("", "", item)
        if named and panel not in mine:
            raise SystemExit(f"--search-option {item}: no search panel {panel!r} is played "
                             f"({', '.join(panels)})")
        for each in ([panel] if named else panels):
            mine[each].append(rest)
    return {p: search_options(mine[p]) for p in panels}


#: The strength bench's panels: the model search, today's search, the game's own
#: ``ismcts`` bot, that bot under a server's default bound on a move (``served``: ``pendragon
#: serve --ismcts-budget``), the search that listens to the table talk (Shadows over
#: Camelot), the open-hand search (a bound), the coach's move (these five never played
#: unless asked for) and the heuristic (always played: the baseline).
STRENGTH_PANELS = ("model", "search", "ismcts", "served", "talk", "open", "known", "coach",
                   "heuristic")
#: The panels that are searches built here (``--search-option`` builds them; the game's
#: ``ismcts`` is built as its plugin says, the coach and the heuristic take none).
SEARCH_PANELS = ("model", "search", "talk", "open", "known")


def dealt_card(state: State, seat: int) -> str:
    """``"loyal"`` or ``"traitor"``: the card ``seat`` holds at the first decision of
    ``state``'s game (its chance of setup played out on a copy; a game without loyalty
    cards, or a seat that has not read its own, reads loyal: :func:`holds_loyal_card`).

    >>> state = pendragon.load_game("soc-card", players=5, seed=3).new_initial_state()
    >>> [dealt_card(state, seat) for seat in range(5)], state.version
    (['loyal', 'loyal', 'loyal', 'traitor', 'loyal'], 0)
    """
    first = state.clone()
    while first.current_player() == CHANCE:
        first.apply_action(first.sample_chance())
    return "loyal" if holds_loyal_card(first, seat) else "traitor"


def by_card(cards: Sequence[str], wins: dict[str, list[int]]) -> dict[str, dict[str, Any]]:
    """A one-seat strength run split by the card the searching seat was dealt: each group's
    games, each panel's wins there, and each search's difference with the heuristic there
    in points *of all the games* (the groups' figures add up to the whole run's).

    >>> by_card(["loyal", "traitor", "loyal"], {"search": [1, 1, 0], "heuristic": [1, 0, 0]})
    {'loyal': {'games': 2, 'search': 1, 'heuristic': 1, 'search_minus_heuristic': 0.0}, \
'traitor': {'games': 1, 'search': 1, 'heuristic': 0, 'search_minus_heuristic': 33.3}}
    """
    split: dict[str, dict[str, Any]] = {}
    for card in sorted(set(cards)):
        seeds = [i for i, c in enumerate(cards) if c == card]
        group: dict[str, Any] = {"games": len(seeds)}
        group.update({panel: sum(won[i] for i in seeds) for panel, won in wins.items()})
        group.update({f"{panel}_minus_heuristic": round(
            100 * (group[panel] - group["heuristic"]) / len(cards), 1)
            for panel in wins if panel != "heuristic"})
        split[card] = group
    return split


def _strength_seed(task: tuple[str, int, dict[str, Any], int, int, int | None, bool,
                               tuple[str, ...], dict[str, dict[str, Any]]]
                   ) -> tuple[dict[str, tuple[int, list[float]]], str]:
    """One seed of :func:`strength`: each panel's (win, searched decisions' times), and the
    card the searching seat was dealt (one seat; a team's: loyal)."""
    name, players, options, seed, k, depth, team, panels, extra = task
    found: dict[str, tuple[int, list[float]]] = {}
    setup = {**options, "players": players, "seed": seed}
    card = ("loyal" if team
            else dealt_card(pendragon.load_game(name, **setup).new_initial_state(), k % players))
    for panel in panels:
        game = pendragon.load_game(name, **setup)
        heuristic = partial(_panel_bot, name, "heuristic", depth)
        search = partial(_panel_bot, name, panel, depth, search_options=extra.get(panel))
        bots: list[Bot] = [heuristic(bot_seed(seed, s)) for s in range(players)]
        searched = range(players) if team else [k % players]
        for seat in searched:
            bots[seat] = (loyal_search(bot_seed(seed, seat), search, heuristic) if team
                          else search(bot_seed(seed, seat)))
        hear_one_another(bots)  # every seat a bot: the talking search hears them all
        state = game.new_initial_state()
        times: list[float] = []
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(state.sample_chance())
                continue
            started = time.perf_counter()
            action = bots[player].step(state)
            if player in searched and len(state.legal_actions()) > 1:
                times.append(time.perf_counter() - started)
            state.apply_action(action)
        # The searching side: the seat's own (one seat), else the loyal side.
        side = (k % players if not team
                else next(s for s in range(players) if holds_loyal_card(state, s)))
        found[panel] = (1 if state.returns()[side] > 0 else 0, times)
    return found, card


def strength(name: str, players: int, args: argparse.Namespace,
             options: dict[str, Any]) -> dict[str, Any]:
    """Paired games: the search with the model, the search, or the heuristic on one seat
    (seat ``k % players`` of game ``k``) or, with ``--team``, on every loyal seat; the rest
    heuristic. ``--workers`` plays seeds in parallel (the same figures for any count)."""
    from multiprocessing import get_context

    asked = set(args.panels.split(",")) | {"heuristic"}
    if not asked <= set(STRENGTH_PANELS):
        raise SystemExit(f"--panels: unknown {sorted(asked - set(STRENGTH_PANELS))}; "
                         f"choose among {', '.join(STRENGTH_PANELS)}")
    panels = tuple(p for p in STRENGTH_PANELS if p in asked)
    if "talk" in panels and name != "soc":
        raise SystemExit("--panels talk: only Shadows over Camelot's bots talk (soc)")
    wins: dict[str, list[int]] = {p: [] for p in panels}
    times: dict[str, list[float]] = {p: [] for p in panels}
    cards: list[str] = []
    extra = panel_search_options(args.search_option, panels)
    tasks = [(name, players, options, game_seed(args.seed, k), k, args.depth, args.team,
              panels, extra) for k in range(args.start, args.start + args.games)]
    with get_context("spawn").Pool(args.workers) as pool:
        for done, (found, card) in enumerate(pool.imap(_strength_seed, tasks), 1):
            cards.append(card)
            for panel, (won, spent) in found.items():
                wins[panel].append(won)
                times[panel].extend(spent)
            if done % 25 == 0:  # a running count, for a run cut short
                print(f"{done} seeds: " + ", ".join(f"{p} {sum(wins[p])}"
                                                    for p in panels),
                      file=sys.stderr, flush=True)
    found_all: dict[str, Any] = {"game": name, "players": players, "games": args.games,
                                 "start": args.start, "team": args.team, "depth": args.depth,
                                 "options": options, "search_options": extra}
    for panel in panels:
        count = sum(wins[panel])
        found_all[panel] = {"wins": count, "rate": count / args.games,
                            "per_seed": wins[panel],
                            "mean_decision_s": statistics.fmean(times[panel]),
                            "slowest_decision_s": max(times[panel])}
    for panel, base in panel_pairs(panels):
        found_all[f"{panel}_minus_{base}"] = paired_points(wins[panel], wins[base])
    if len(set(cards)) > 1:
        found_all["by_card"] = by_card(cards, wins)
    print(json.dumps({k: v for k, v in found_all.items() if k not in panels}
                     | {p: {k: v for k, v in found_all[p].items() if k != "per_seed"}
                        for p in panels}, indent=1))
    return found_all


def panel_pairs(panels: Sequence[str]) -> list[tuple[str, str]]:
    """The paired differences a strength run (or a pool of runs) reports, ``(panel, base)``
    for ``panel_minus_base``: each search against the heuristic, each other search against
    today's search, the server's bound against the game's own search, and every other two
    searches (the one first in :data:`STRENGTH_PANELS` minus the other: two settings of
    one search, ``model`` with ``--search-option model:...`` against ``ismcts``, have their
    paired interval too).

    >>> panel_pairs(("model", "search", "ismcts", "heuristic"))
    [('model', 'heuristic'), ('search', 'heuristic'), ('ismcts', 'heuristic'), \
('model', 'search'), ('ismcts', 'search'), ('model', 'ismcts')]
    >>> panel_pairs(("ismcts", "served", "heuristic"))[-1]
    ('served', 'ismcts')
    """
    searches = [p for p in panels if p != "heuristic"]
    pairs = [(p, "heuristic") for p in searches] if "heuristic" in panels else []
    if "search" in searches:
        pairs += [(p, "search") for p in searches if p != "search"]
    if "served" in searches and "ismcts" in searches:  # the server's bound on the game's own
        pairs.append(("served", "ismcts"))
    for i, panel in enumerate(searches):
        for base in searches[i + 1:]:
            if (panel, base) not in pairs and (base, panel) not in pairs:
                pairs.append((panel, base))
    return pairs


def paired_points(wins: Sequence[int], base: Sequence[int]) -> dict[str, float]:
    """Two panels' wins on the same seeds: the mean of their paired differences, in points,
    with its 95% normal interval.

    >>> {k: round(v, 1) for k, v in paired_points([1, 1, 0, 1], [0, 1, 0, 0]).items()}
    {'points': 50.0, 'low': -6.6, 'high': 106.6}
    """
    diffs = [a - b for a, b in zip(wins, base, strict=True)]
    mean = statistics.fmean(diffs)
    error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return {"points": 100 * mean, "low": 100 * (mean - 1.96 * error),
            "high": 100 * (mean + 1.96 * error)}


def pool(paths: Sequence[str]) -> dict[str, Any]:
    """Strength runs on other seeds pooled: each panel all the files played, its per-seed
    wins joined, and the pairs :func:`strength` reports (:func:`panel_pairs`: each search
    against the heuristic, every two searches every file played) over all the games;
    one-seat runs of a Camelot game also split by the searching seat's dealt card
    (``by_card``, the cards dealt again from each file's seeds)."""
    runs = []
    seeds: list[int | None] = []
    for path in paths:
        try:
            read = json.loads(Path(path).read_text())
            runs.append(read["results"])
            seeds.append(read.get("settings", {}).get("seed"))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise SystemExit(f"pool: {path}: not a strength results file ({error})") from None
    panels = [p for p in STRENGTH_PANELS
              if all(isinstance(run.get(p), dict) and "per_seed" in run[p] for run in runs)]
    if "heuristic" not in panels:
        raise SystemExit("pool: the files share no heuristic panel to pair with")
    wins = {p: [w for run in runs for w in run[p]["per_seed"]] for p in panels}
    found: dict[str, Any] = {"files": list(paths), "games": len(wins["heuristic"])}
    for panel in panels:
        found[panel] = {"wins": sum(wins[panel]), "rate": statistics.fmean(wins[panel])}
    for panel, base in panel_pairs(panels):
        found[f"{panel}_minus_{base}"] = paired_points(wins[panel], wins[base])
    cards = _dealt_cards(runs, seeds)
    if cards is not None and len(set(cards)) > 1:
        found["by_card"] = by_card(cards, wins)
    print(json.dumps(found, indent=1))
    return found


def _dealt_cards(runs: Sequence[dict[str, Any]], seeds: Sequence[int | None]
                 ) -> list[str] | None:
    """The searching seat's dealt card at every game of one-seat strength runs (``None``
    if a run is a team's or does not say its seed)."""
    cards: list[str] = []
    for run, seed in zip(runs, seeds, strict=True):
        if run.get("team") is not False or not isinstance(seed, int):
            return None
        players = run["players"]
        for k in range(run["start"], run["start"] + run["games"]):
            game = pendragon.load_game(run["game"], **{**run["options"], "players": players,
                                                       "seed": game_seed(seed, k)})
            cards.append(dealt_card(game.new_initial_state(), k % players))
    return cards


def _cost_seed(task: tuple[str, int, dict[str, Any], int, tuple[str, ...],
                          dict[str, dict[str, Any]]]
               ) -> tuple[dict[str, list[float]], dict[str, list[int]]]:
    """One seed of :func:`cost`: each panel's CPU seconds at every decision it was asked, and
    the action it chose there."""
    name, players, options, seed, panels, extra = task
    game = pendragon.load_game(name, **{**options, "players": players, "seed": seed})
    state = game.new_initial_state()
    state.play_random_chance()
    loyal = [s for s in range(players) if holds_loyal_card(state, s)]
    heuristic = [_panel_bot(name, "heuristic", None, bot_seed(seed, s)) for s in range(players)]
    asked: dict[str, list[Bot]] = {}
    for panel in panels:
        bots = list(heuristic)
        for seat in loyal:
            bots[seat] = _panel_bot(name, panel, None, bot_seed(seed, seat),
                                    search_options=extra.get(panel))
        hear_one_another(bots)  # every seat a bot: the talking search hears them all
        asked[panel] = bots
    spent: dict[str, list[float]] = {p: [] for p in panels}
    chosen: dict[str, list[int]] = {p: [] for p in panels}
    turn = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        if player in loyal and len(state.legal_actions()) > 1:
            turn += 1
            order = panels if turn % 2 else panels[::-1]  # neither always asked first
            for panel in order:
                started = time.process_time()
                chosen[panel].append(asked[panel][player].step(state))
                spent[panel].append(time.process_time() - started)
        state.apply_action(heuristic[player].step(state))
    return spent, chosen


def cost(name: str, players: int, args: argparse.Namespace,
         options: dict[str, Any]) -> dict[str, Any]:
    """Each search panel's time a decision on the *same* positions: games of heuristic bots
    (the paired seeds of :func:`strength`), and at every decision of a loyal seat with a
    choice each panel's bot of that seat (following the game as at the table, its own
    choice set aside) is asked in turn; its CPU seconds are counted. The mean a decision of
    each, and each panel against the first with a 95% interval over games."""
    import math
    from multiprocessing import get_context

    panels = tuple(p for p in args.panels.split(","))
    if not panels or not set(panels) <= set(STRENGTH_PANELS) - {"heuristic"}:
        raise SystemExit(f"--panels: choose among {', '.join(STRENGTH_PANELS[:-1])}")
    if "talk" in panels and name != "soc":
        raise SystemExit("--panels talk: only Shadows over Camelot's bots talk (soc)")
    extra = panel_search_options(args.search_option, panels)
    tasks = [(name, players, options, game_seed(args.seed, k), panels, extra)
             for k in range(args.start, args.start + args.games)]
    with get_context("spawn").Pool(args.workers) as pool:
        played = list(pool.imap(_cost_seed, tasks))
    per_game = [spent for spent, _ in played]
    decisions = sum(len(g[panels[0]]) for g in per_game)
    if not decisions:
        raise SystemExit("cost: no loyal seat had a choice in these games")
    found: dict[str, Any] = {"game": name, "players": players, "games": args.games,
                             "start": args.start, "options": options,
                             "search_options": extra, "decisions": decisions}
    for panel in panels:
        every = [t for g in per_game for t in g[panel]]
        found[panel] = {"mean_decision_ms": 1000 * statistics.fmean(every),
                        "slowest_decision_ms": 1000 * max(every)}
    base = panels[0]
    for panel in panels[1:]:
        pairs = [pair for _, chosen in played
                 for pair in zip(chosen[base], chosen[panel], strict=True)]
        found[f"{panel}_same_choice_as_{base}"] = {
            "decisions": len(pairs), "same": sum(a == b for a, b in pairs)}
        # Per game: the panel's mean time a decision less the first panel's (milliseconds).
        diffs = [1000 * (statistics.fmean(g[panel]) - statistics.fmean(g[base]))
                 for g in per_game if g[base]]
        mean = statistics.fmean(diffs)
        error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        found[f"{panel}_minus_{base}_ms"] = {"mean": mean, "low": mean - 1.96 * error,
                                             "high": mean + 1.96 * error}
    print(json.dumps(found, indent=1))
    return found


def leaf(args: argparse.Namespace) -> dict[str, Any]:
    """The card game's leaf table and the evaluator at the search's leaf positions."""
    import math
    import random

    from pendragon.games.soc_card.heuristic import SocCardHeuristicBot
    from pendragon.games.soc_card.leaf import leaf_table

    players = 5
    table = leaf_table(players, expert=False, promos=False)
    kinds = ("evaluator", "table", "table_true_traitors")
    samples: dict[str, list[tuple[float, bool]]] = {kind: [] for kind in kinds}
    started = time.process_time()
    for k in range(args.games):
        seed = game_seed(args.seed, k)
        game = pendragon.load_game("soc-card", players=players, seed=seed)
        bots = panel_bots("soc-card", players, seed, "heuristic")
        bound = evaluator_for(game)
        assert bound is not None
        draw = random.Random(seed)
        state = game.new_initial_state()
        before: State | None = None
        read: list[tuple[int, dict[str, float]]] = []
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(state.sample_chance())
                continue
            position = None if before is None else SocCardHeuristicBot.leaf_position(
                state, before)
            if position is not None and before is not None:
                for seat in range(players):
                    found = {"evaluator": bound.chance(state, seat),
                             "table_true_traitors": (1.0 + SocCardHeuristicBot.leaf_value(
                                 position, seat, table)) / 2.0}
                    total = 0.0
                    for _ in range(args.worlds):
                        world = bots[seat].sample_world(state, seat, draw)  # type: ignore[attr-defined]
                        there = SocCardHeuristicBot.leaf_position(world, before)
                        assert there is not None  # the swords are public: the same leaf
                        total += (1.0 + SocCardHeuristicBot.leaf_value(there, seat, table)) / 2
                    found["table"] = total / args.worlds
                    read.append((seat, found))
            before = state.clone()
            state.apply_action(bots[player].step(state))
        returns = state.returns()
        for seat, found in read:
            for kind in kinds:
                samples[kind].append((found[kind], returns[seat] > 0))
    results: dict[str, Any] = {"games": args.games, "worlds": args.worlds, "seed": args.seed,
                               "cpu_seconds": time.process_time() - started}
    for kind in kinds:
        pairs = samples[kind]
        table_of = reliability(pairs)
        loss = -statistics.fmean(math.log(max(1e-9, p if won else 1.0 - p))
                                 for p, won in pairs)
        results[kind] = {"positions": len(pairs), "calibration_error":
                         table_of["calibration_error"], "brier": table_of["brier"],
                         "log_loss": loss}
        print(f"{kind}: {len(pairs)} seat-positions, calibration error "
              f"{100 * table_of['calibration_error']:.1f} points, Brier "
              f"{table_of['brier']:.4f}, log loss {loss:.4f}", flush=True)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    """Run one of the commands (see the module's text)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("calibration", "estimates", "timing", "review", "pool",
                                            "strength", "cost", "leaf"))
    parser.add_argument("rest", nargs="*")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--per-game", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", default=None,
                        help='calibration, estimates: a game, a setup of SETUPS, or any'
                             ' setup as "GAME PLAYERS" (with --option K=V)')
    parser.add_argument("--panel", choices=("heuristic", "search"), default="heuristic")
    parser.add_argument("--picks", choices=("even", "random"), default="even",
                        help="calibration, estimates: the decisions read, evenly spaced "
                             "over each game or drawn at random (as training draws them)")
    parser.add_argument("--chunk", type=int, default=0,
                        help="calibration, estimates: also each run of this many games' "
                             "error (one long run read as many fresh samples)")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--depth", type=int, default=None,
                        help="strength: decisions every rollout of the model search plays "
                             "before the model reads it (default: full rollouts where they "
                             "fit the budget, elsewhere the game's horizon)")
    parser.add_argument("--team", action="store_true",
                        help="strength: the search on every loyal seat, not one seat")
    parser.add_argument("--panels", default="model,search",
                        help="strength: the searches played beside the heuristic, of "
                             "model, search, ismcts (the game's own), served (it under the "
                             "server's default --ismcts-budget), talk, coach, open "
                             "(the open-hand search: a bound, not a bot)")
    parser.add_argument("--search-option", action="append", default=[],
                        help="strength, cost: KEY=VALUE, a keyword of every search panel's "
                             "ISMCTSBot (confidence=1.0, prior_margin=0.05, budget=16000...); "
                             "PANEL:KEY=VALUE, of that panel's alone (model:min_iterations=3)")
    parser.add_argument("--start", type=int, default=0,
                        help="strength: the first game's index k")
    parser.add_argument("--workers", type=int, default=1,
                        help="strength: processes playing seeds in parallel")
    parser.add_argument("--worlds", type=int, default=8,
                        help="leaf: worlds drawn from a seat's belief per position")
    parser.add_argument("--no-pin", action="store_true")
    args = parser.parse_args(argv)
    cpu = None if args.no_pin else pin_to_one_core()
    if args.command == "calibration":
        found: dict[str, Any] = calibration(args)
    elif args.command == "estimates":
        found = estimate_calibration(args)
    elif args.command == "timing":
        found = timing(args)
    elif args.command == "leaf":
        found = leaf(args)
    elif args.command == "pool":
        found = pool(args.rest)
    elif args.command in ("strength", "cost"):
        name, players = args.rest
        options = dict(item.split("=", 1) for item in args.option)
        found = (strength if args.command == "strength" else cost)(
            name, int(players), args, options)
    else:
        name, players, seed = args.rest
        options = dict(item.split("=", 1) for item in args.option)
        found = review_time(name, int(players), int(seed), options)
    RESULTS_DIR.mkdir(exist_ok=True)
    # A strength or cost run names its seed and first game: a run split by ``--start`` keeps
    # every part's per-seed wins to pair again.
    suffix = "_".join(filter(None, [args.command, args.panel if args.command == "calibration"
                                    else None, args.only]
                             + (args.rest[:2] + [f"seed{args.seed}", f"start{args.start}"]
                                if args.command in ("strength", "cost") else [])))
    (RESULTS_DIR / f"evaluator_{suffix}.json").write_text(json.dumps(
        {"settings": vars(args), "machine": machine_info(cpu), "results": found},
        indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
