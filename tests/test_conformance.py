"""Conformance of every game to the core API, by random playouts checked at every step.

Parametrized over every registered game plus the toy game, over each game's player counts,
in batches of seeded games. ``PENDRAGON_CONFORMANCE_GAMES`` sets the number of games per
(game, player count); the default keeps the whole file to a few hundred games.

A game's state may define ``check_invariants()`` (raising on a broken invariant); it is
called at every step, on the state and on its clones, copies and resamples.

The last tests run the checker on deliberately broken variants of the toy game, to show that
it catches what it claims to.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable
from typing import Any

import pytest

import pendragon
from pendragon import (
    CHANCE,
    TERMINAL,
    Game,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotChanceNodeError,
    State,
)
from tests.toygame import ToyGame, ToyState

TOY = "toy"
# Games per (game, player count). Toy games are cheap; a soc game with every check costs
# 0.5-3 s, so real games get fewer. Together a few hundred games.
DEFAULT_GAMES = {TOY: 100}
DEFAULT_GAMES_OTHER = 12
BATCH = 3
#: How often (in steps) every seat's resample and describe checks run, not just the actor's.
EVERY_SEAT_PERIOD = 7


def _games_per_config(name: str) -> int:
    env = os.environ.get("PENDRAGON_CONFORMANCE_GAMES")
    if env:
        return int(env)
    return DEFAULT_GAMES.get(name, DEFAULT_GAMES_OTHER)


def _game_class(name: str) -> type[Game]:
    return ToyGame if name == TOY else pendragon.game_class(name)


def _player_counts(name: str) -> list[int]:
    for spec in _game_class(name).option_specs:
        if spec.name == "players":
            assert spec.minimum is not None and spec.maximum is not None
            return list(range(spec.minimum, spec.maximum + 1))
    raise AssertionError(f"{name} declares no 'players' option")


def _configs() -> list[Any]:
    params = []
    for name in [*pendragon.registered_games(), TOY]:
        for players in _player_counts(name):
            total = _games_per_config(name)
            for batch in range(math.ceil(total / BATCH)):
                seeds = range(batch * BATCH, min(total, (batch + 1) * BATCH))
                params.append(
                    pytest.param(name, players, list(seeds), id=f"{name}-p{players}-b{batch}")
                )
    return params


def _load(name: str, players: int, seed: int, **options: Any) -> Game:
    if name == TOY:
        return ToyGame({"players": players, "seed": seed, **options})
    return pendragon.load_game(name, players=players, seed=seed, **options)


# ---------------------------------------------------------------------- the checker
def _invariants(state: State) -> None:
    hook: Callable[[], object] | None = getattr(state, "check_invariants", None)
    if callable(hook):
        hook()


def _roundtrip(game: Game, state: State) -> State:
    text = state.serialize()
    copy = game.deserialize_state(text)
    assert copy.serialize() == text, "deserialize_state(serialize()) changed the state"
    _invariants(copy)
    return copy


def _check_json_view(view: object, what: str) -> None:
    text = json.dumps(view, allow_nan=False)
    assert json.loads(text) == view, f"{what} does not survive a JSON round trip unchanged"


def _check_node(game: Game, state: State, rng: random.Random, step: int) -> None:
    """Every per-step check except the choice and application of the next action."""
    info = game.info
    seats = game.num_players()
    before = state.serialize()
    player = state.current_player()
    _invariants(state)

    assert state.version == len(state.history()) == step
    returns = state.returns()
    assert len(returns) == seats
    assert all(info.min_utility <= r <= info.max_utility for r in returns), returns

    # Views: JSON for every seat and the spectator, fixed-length tensors.
    for seat in [*range(seats), None]:
        _check_json_view(state.observation(seat), f"observation({seat})")
    for seat in range(seats):
        tensor = state.observation_tensor(seat)
        assert len(tensor) == info.observation_tensor_size, (len(tensor), seat)
        assert math.isfinite(sum(tensor)), f"observation_tensor({seat}) is not finite"

    # Copies.
    copy = _roundtrip(game, state)
    twin = state.clone()
    assert type(twin) is type(state)
    assert twin.serialize() == before, "clone() differs from the original"
    _invariants(twin)

    if player == TERMINAL:
        assert state.is_terminal() and state.legal_actions() == []
        with pytest.raises(NotChanceNodeError):
            state.chance_outcomes()
        return

    legal = state.legal_actions()
    assert legal, "no legal action at a non-terminal node"
    assert len(set(legal)) == len(legal), "duplicate legal actions"
    assert all(0 <= a < game.num_distinct_actions() for a in legal), legal
    mask = state.legal_actions_mask()
    assert len(mask) == game.num_distinct_actions() and sum(mask) == len(legal)
    assert all(mask[a] == 1 for a in legal)
    for action in legal:
        assert state.string_to_action(state.action_to_string(action)) == action
        assert state.is_legal(action)

    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert all(p > 0 for _, p in outcomes), outcomes
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=0, abs_tol=1e-9)
        sampled = state.sample_chance()
        assert sampled in legal
        assert state.sample_chance() == sampled, "sample_chance is not deterministic"
        assert twin.sample_chance() == sampled, "clone() changed the chance stream"
        assert copy.sample_chance() == sampled, "serialize() lost the chance stream"
    else:
        assert 0 <= player < seats, player
        with pytest.raises(NotChanceNodeError):
            state.chance_outcomes()

    # Bad actions are rejected without any change.
    illegal = sorted(set(range(game.num_distinct_actions())) - set(legal))
    if illegal:
        bad = rng.choice(illegal)
        assert not state.is_legal(bad)
        with pytest.raises(IllegalActionError) as raised:
            state.apply_action(bad)
        assert not isinstance(raised.value, GameOverError)
        assert state.serialize() == before, "a rejected illegal action changed the state"
    for malformed in (-1, game.num_distinct_actions(), True):
        with pytest.raises(MalformedActionError):
            state.apply_action(malformed)  # type: ignore[arg-type]
        assert state.serialize() == before, "a rejected malformed action changed the state"

    # The clone is independent: playing on it leaves the original alone.
    twin.apply_action(rng.choice(legal))
    _invariants(twin)
    assert state.serialize() == before, "applying an action to a clone changed the original"

    # Determinisation: the seat to act cannot tell the resampled state apart.
    resample_seats = list(range(seats)) if step % EVERY_SEAT_PERIOD == 0 else []
    if player >= 0 and player not in resample_seats:
        resample_seats.append(player)
    for seat in resample_seats:
        view = state.observation(seat)
        resampled = state.resample_hidden(seat, random.Random(rng.getrandbits(32)))
        assert state.serialize() == before, "resample_hidden changed the original"
        assert resampled.observation(seat) == view, f"resample_hidden leaks: seat {seat}"
        assert resampled.current_player() == player
        if seat == player:
            assert resampled.legal_actions() == legal, "resampled state changes the options"
        _roundtrip(game, resampled)
        _invariants(resampled)

    assert state.serialize() == before, "a query changed the state"


def check_random_playout(game: Game, seed: int) -> State:
    """Play ``game`` with uniformly random decisions and the state's chance stream,
    checking every step; return the terminal state."""
    rng = random.Random(seed)
    seats = game.num_players()
    state = game.new_initial_state()
    assert state.history() == [] and state.version == 0
    applied: list[int] = []
    snapshots: list[str] = []
    while True:
        step = len(applied)
        assert step <= game.max_game_length(), "the game is longer than max_game_length()"
        _check_node(game, state, rng, step)
        snapshots.append(state.serialize())
        if state.is_terminal():
            break
        player = state.current_player()
        action = state.sample_chance() if player == CHANCE else rng.choice(state.legal_actions())
        every_seat = step % EVERY_SEAT_PERIOD == 0
        for viewer in [*range(seats), None] if every_seat else [player if player >= 0 else None]:
            described = state.describe_action(action, viewer)
            assert isinstance(described, str) and described.strip()
        state.apply_action(action)
        applied.append(action)
        assert state.history() == applied

    # The end.
    final = state.serialize()
    for action in (0, game.num_distinct_actions() - 1):
        with pytest.raises(GameOverError):
            state.apply_action(action)
    assert state.serialize() == final
    returns = state.returns()
    assert all(game.info.min_utility <= r <= game.info.max_utility for r in returns)

    # Same seed + same actions => the same states, step by step.
    replay = game.new_initial_state()
    assert replay.serialize() == snapshots[0]
    for index, action in enumerate(applied, start=1):
        replay.apply_action(action)
        assert replay.serialize() == snapshots[index], f"replay diverges at step {index}"
    return state


# ---------------------------------------------------------------------- the tests
@pytest.mark.parametrize(("name", "players", "seeds"), _configs())
def test_random_playouts_conform(name: str, players: int, seeds: list[int]) -> None:
    """Random games of every game and player count pass every per-step check."""
    for seed in seeds:
        game = _load(name, players, seed=1000 * players + seed)
        final = check_random_playout(game, seed)
        assert final.is_terminal()


@pytest.mark.parametrize("name", [*pendragon.registered_games(), TOY])
def test_declared_facts(name: str) -> None:
    """GameInfo is coherent with the catalog, the options and the registry."""
    cls = _game_class(name)
    counts = _player_counts(name)
    game = _load(name, counts[0], seed=1)
    info = game.info
    assert info.name == name == cls.name
    assert info.min_players == counts[0] and info.max_players == counts[-1]
    assert info.num_distinct_actions == len(game.catalog) == game.num_distinct_actions()
    assert info.min_utility <= info.max_utility
    assert game.num_players() == counts[0]
    assert info.max_game_length > 0 and info.observation_tensor_size > 0


@pytest.mark.parametrize("name", [*pendragon.registered_games(), TOY])
def test_same_seed_same_game(name: str) -> None:
    """Two games from one seed, played with the same decisions, are identical."""
    players = _player_counts(name)[0]
    first = check_random_playout(_load(name, players, seed=99), seed=5)
    second = check_random_playout(_load(name, players, seed=99), seed=5)
    assert first.serialize() == second.serialize()


@pytest.mark.parametrize("name", [*pendragon.registered_games(), TOY])
def test_deserialize_rejects_garbage(name: str) -> None:
    """Corrupt text raises CorruptStateError (a ValueError), not anything else."""
    game = _load(name, _player_counts(name)[0], seed=3)
    text = game.new_initial_state().serialize()
    for garbage in ("", "not json", "{}", "[]", text[: len(text) // 2]):
        with pytest.raises(pendragon.CorruptStateError):
            game.deserialize_state(garbage)


# ---------------------------------------------------------------------- the checker fails
class _LeakyState(ToyState):
    """Resampling also redraws the acting seat's own card: a leak."""

    __slots__ = ()

    def resample_hidden(self, seat: int, generator: random.Random) -> ToyState:
        other = super().resample_hidden(seat, generator)
        deck = other.deck()
        if deck and other.hands[seat] is not None:
            other.hands[seat] = deck[0]
        return other


class _SharedCloneState(ToyState):
    """clone() shares the hands with the original."""

    __slots__ = ()

    def clone(self) -> ToyState:
        other = super().clone()
        other.hands = self.hands
        return other


class _BrokenInvariantState(ToyState):
    """check_invariants() fails once the second seat has decided."""

    __slots__ = ()

    def check_invariants(self) -> None:
        super().check_invariants()
        if self.turn >= 2:
            raise pendragon.CorruptStateError("invariant broken on purpose")


class _UnseededChanceState(ToyState):
    """serialize() forgets the chance stream's seed."""

    __slots__ = ()

    def serialize(self) -> str:
        data = json.loads(super().serialize())
        data["rng_seed"] = 0
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize(
    ("state_class", "symptom"),
    [
        (_LeakyState, "leaks"),
        (_SharedCloneState, "clone"),
        (_BrokenInvariantState, "on purpose"),
        (_UnseededChanceState, "chance stream|deserialize"),
    ],
)
def test_checker_catches_broken_games(
    monkeypatch: pytest.MonkeyPatch, state_class: type[ToyState], symptom: str
) -> None:
    """Each deliberately broken toy variant fails the conformance checker."""
    monkeypatch.setattr(ToyGame, "state_class", state_class)
    with pytest.raises((AssertionError, pendragon.CorruptStateError), match=symptom):
        for seed in range(20):
            check_random_playout(ToyGame({"players": 3, "seed": seed}), seed)
