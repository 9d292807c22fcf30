"""Bots decide from what their seat saw, never from a history that carries other seats'
cards (issue 28, item 10).

A seat cannot tell apart two games whose histories differ only where it did not look:
another deal of the loyalty cards among the others, a Morgan set aside instead of another,
two white cards of other knights dealt the other way round. Such *twins* are built here
from real games by swapping or replacing chance outcomes, and kept only when the seat's
observation and narration are the same at every step of both (the seat's whole
information, with perfect recall). Every bot of every game, seeded alike, must then choose
alike in both; and the worlds a bot searches (``resample_hidden``, or its own
``sample_world``), drawn with the same generator, must be the same world: a world that
carried the real history would carry the real deal with it.

Before worlds lost their past, they failed here: a world kept the real history, so the
worlds of two twins differed (and the card game's rollout bots replayed the real game
under the world, leaving it at points that depended on the real hidden cards).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from itertools import combinations

import pytest

import pendragon
from pendragon.bots import Bot, bot_names, make_bot
from pendragon.bots.base import WorldSampler, sample_world
from pendragon.bots.heuristic import HeuristicBot
from pendragon.bots.ismcts import CanonicalRandom, ISMCTSBot
from pendragon.core.api import CHANCE, State
from pendragon.core.errors import PendragonError
from tests.positions import position

#: Positions per game: (seed, heuristic decisions played before it). Each has twins of
#: their own kinds: soc, a loyalty deal and white cards of other knights; the card game,
#: loyalty deals and Morgans set aside; Grail Cup, clover tokens on the track.
POSITIONS: dict[str, tuple[tuple[int, int], ...]] = {
    "soc": ((13, 60), (12, 200)),
    "soc-card": ((1, 20), (2, 20)),
    "grail-cup": ((3, 40),),
}
#: Twins per position.
TWINS = 2
#: The seed of every bot (and of the worlds' generators).
BOT_SEED = 5


def _replay_alike(state: State, other: list[int], seat: int) -> State | None:
    """The game ``other`` (a history of ``state``'s game), if ``seat`` sees it exactly as
    it saw ``state``'s at every step (same observation after every action, same narration
    of every action that differs); else ``None``."""
    game = state.game
    mine, theirs = game.new_initial_state(), game.new_initial_state()
    for action, twin in zip(state.history(), other, strict=True):
        if action != twin and (not theirs.is_legal(twin) or mine.narrate(action, seat)
                               != theirs.narrate(twin, seat)):
            return None
        try:
            theirs.replay([twin])
        except PendragonError:
            return None
        mine.replay([action])
        if mine.observation(seat) != theirs.observation(seat):
            return None
    return theirs


def _candidates(state: State) -> Iterator[list[int]]:
    """Other histories of ``state``'s game: one chance outcome replaced by another of the
    same chance node, or two chance outcomes swapped, earliest first."""
    history = state.history()
    replay = state.game.new_initial_state()
    chances: list[tuple[int, list[int]]] = []
    for index, action in enumerate(history):
        if not replay.is_table_operation(action) and replay.current_player() == CHANCE:
            chances.append((index, replay.legal_actions()))
        replay.replay([action])
    for index, outcomes in chances:
        for outcome in outcomes:
            if outcome != history[index]:
                yield [*history[:index], outcome, *history[index + 1:]]
    for (first, _), (second, _) in combinations(chances, 2):
        if history[first] != history[second]:
            other = list(history)
            other[first], other[second] = other[second], other[first]
            yield other


@cache
def _twins(name: str, seed: int, decisions: int) -> tuple[State, tuple[State, ...]]:
    """A position and up to ``TWINS`` games its seat to act cannot tell from it, those
    where another seat's view differs first (their hidden cards differ, not only how they
    came)."""
    state = position(name, seed, decisions)
    seat = state.current_player()
    views = [state.observation(s) for s in range(state.game.num_players())]
    differ: list[State] = []
    alike: list[State] = []
    for tries, other in enumerate(_candidates(state)):
        if len(differ) >= TWINS or tries >= 1500:
            break
        twin = _replay_alike(state, other, seat)
        if twin is None:
            continue
        if any(twin.observation(s) != view for s, view in enumerate(views) if s != seat):
            differ.append(twin)
        else:
            alike.append(twin)
    twins = tuple((differ + alike)[:TWINS])
    assert twins, f"no twin found for {name} {seed}/{decisions}"
    return state, twins


def _bot(game: str, name: str) -> Bot:
    """Bot ``name`` of ``game`` seeded with ``BOT_SEED``; ISMCTS with a small search that
    always runs (rollouts cut after 20 decisions)."""
    if name == "ismcts":
        return ISMCTSBot(seed=BOT_SEED, iterations=4, min_iterations=2, budget=10**9,
                         prior_margin=None, rollout_depth=20)
    return make_bot(name, seed=BOT_SEED, game=game)


def _cases() -> list[tuple[str, int, int]]:
    return [(name, seed, decisions) for name, positions in POSITIONS.items()
            for seed, decisions in positions]


def _case_id(case: tuple[str, int, int]) -> str:
    return f"{case[0]}-{case[1]}-{case[2]}"


def test_every_game_has_positions() -> None:
    assert {"soc", "soc-card", "grail-cup"} <= set(POSITIONS)
    assert set(POSITIONS) <= set(pendragon.registered_games())


@pytest.mark.parametrize("case", _cases(), ids=_case_id)
def test_twins_are_other_games_the_seat_cannot_tell_apart(case: tuple[str, int, int]) -> None:
    state, twins = _twins(*case)
    seat = state.current_player()
    for twin in twins:
        assert twin.history() != state.history()
        assert twin.observation(seat) == state.observation(seat)
        assert twin.legal_actions() == state.legal_actions()
    # ...and another seat's view differs: the hidden cards differ, not only how they came.
    assert any(twin.observation(s) != state.observation(s) for twin in twins
               for s in range(state.game.num_players()) if s != seat)


@pytest.mark.parametrize("case", _cases(), ids=_case_id)
def test_every_bot_chooses_alike_in_games_its_seat_cannot_tell_apart(
        case: tuple[str, int, int]) -> None:
    name = case[0]
    state, twins = _twins(*case)
    for bot_name in bot_names(name):
        bot = _bot(name, bot_name)
        choice = bot.step(state)
        search = getattr(bot, "last_search", None)
        for twin in twins:
            again = _bot(name, bot_name)
            assert again.step(twin) == choice, (bot_name, state.action_to_string(choice))
            assert getattr(again, "last_search", None) == search, bot_name


def _world_source(game: str, bot_name: str) -> object:
    """What draws the worlds bot ``bot_name`` searches (``bots.base.sample_world``): its
    own belief (a :class:`WorldSampler`), its policy's (ISMCTS), else a uniform redeal."""
    bot = _bot(game, bot_name)
    if isinstance(bot, ISMCTSBot):
        return HeuristicBot(BOT_SEED)  # its policy (rollout="heuristic")
    return bot if isinstance(bot, WorldSampler) else object()


@pytest.mark.parametrize("case", _cases(), ids=_case_id)
def test_the_worlds_a_bot_searches_are_the_same_in_games_its_seat_cannot_tell_apart(
        case: tuple[str, int, int]) -> None:
    """A world is drawn from what the seat saw: from twins, the same generator gives the
    same world, history included (a world carrying the real history would carry the real
    deal), for every bot's way of drawing them."""
    name = case[0]
    state, twins = _twins(*case)
    seat = state.current_player()
    differ = set()
    for bot_name in bot_names(name):
        for k in range(2):
            world = sample_world(_world_source(name, bot_name), state, seat, CanonicalRandom(k))
            for twin in twins:
                other = sample_world(_world_source(name, bot_name), twin, seat,
                                     CanonicalRandom(k))
                if other.serialize() != world.serialize():
                    differ.add(bot_name)
    assert not differ, f"worlds that follow more than the seat saw: {sorted(differ)}"


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_world_has_no_past(name: str) -> None:
    """The core contract (``State.resample_hidden``): a world keeps the version (public)
    but none of the actions, through clones, copies and the actions of a search."""
    if name == "grail-cup" and not _drops_its_past(name):
        pytest.xfail("GrailCupState.resample_hidden must end with new.forget_past()"
                     " (bots.base.determinise drops the past for it meanwhile)")
    state = _twins(name, *POSITIONS[name][0])[0]
    seat = state.current_player()
    world = state.resample_hidden(seat, random.Random(1))
    assert world.is_world() and not state.is_world()
    assert world.version == state.version
    assert world.observation(seat) == state.observation(seat)
    with pytest.raises(pendragon.core.api.NoHistoryError):
        world.history()
    with pytest.raises(pendragon.core.api.NoHistoryError):
        world.public_history()
    copy = state.game.deserialize_state(world.serialize())
    child = world.clone()
    child.apply_action(child.legal_actions()[0])
    for other in (copy, child, world.resample_hidden(seat, random.Random(2))):
        assert other.is_world()
        with pytest.raises(pendragon.core.api.NoHistoryError):
            other.history()
    assert child.version == state.version + 1


def _drops_its_past(name: str) -> bool:
    state = pendragon.load_game(name, players=3, seed=1).new_initial_state()
    state.play_random_chance()
    return state.resample_hidden(0, random.Random(1)).is_world()


def test_card_game_rollouts_start_from_the_public_record_of_the_real_game() -> None:
    """The card game's rollout bot follows the real game's public record once (the same in
    twins), and each rollout forks that memory instead of replaying a world's history."""
    from pendragon.games.soc_card.heuristic import rollout_bot

    state, twins = _twins("soc-card", *POSITIONS["soc-card"][0])
    follower = rollout_bot(1)
    follower.follow(state)
    assert follower.memory.last is not None
    for twin in twins:
        other = rollout_bot(1)
        other.follow(twin)
        assert other.memory == follower.memory
    before = follower.memory.copy()
    fork = follower.fork(7)
    assert fork.memory == follower.memory and fork.memory is not follower.memory
    seat = state.current_player()
    world = state.resample_hidden(seat, random.Random(3))
    fork.step(world)  # goes on from the world's observation, without replaying anything
    assert fork._replay is None
    assert fork.memory != before and follower.memory == before
