"""The research adapters: PettingZoo, Gymnasium and OpenSpiel, checked by their own test suites.

Each library's conformance test runs on Shadows over Camelot and on the toy game (which proves
the adapters need nothing but registration), plus the properties those suites cannot see:
lazy observations, rewards equal to ``returns()``, reproducibility from the seed,
serialization and resampling through pyspiel, and OpenSpiel's IS-MCTS playing the game.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import api_test, seed_test

import pendragon
from pendragon import IllegalActionError, InvalidOptionError, UnknownOptionError
from pendragon.bots import bot_names
from pendragon.envs import ENVIRONMENTS, EnvironmentSpec, openspiel as spiel, soc_v2
from pendragon.envs.gymnasium_env import PendragonGymEnv
from pendragon.envs.pettingzoo_base import PendragonAECEnv
from tests.toygame import ToyGame

TOY_SPEC = EnvironmentSpec("toy", 1, -float("inf"), float("inf"))

#: The games and table sizes every library suite runs on: each game of the project, at its
#: smallest table and at five seats (the card game's smallest is solo play, SCG-SOLO-1).
CASES = [("soc", 3), ("soc", 5), ("soc-card", 1), ("soc-card", 5), ("grail-cup", 2),
         ("grail-cup", 5)]
GAMES = ["soc", "soc-card", "grail-cup"]


def _zoo(game: str, **options: Any) -> PendragonAECEnv:
    """The PettingZoo environment of ``game``, through its generated module."""
    module = getattr(pendragon.envs, ENVIRONMENTS[game].pettingzoo_name)
    env: PendragonAECEnv = module.env(**options)
    return env


@pytest.fixture(autouse=True)
def _quiet_library_warnings() -> Iterator[None]:
    # The suites warn about choices we made on purpose: Dict observations (PettingZoo's
    # classic card games do the same) and the unbounded box documented in soc_v2.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Observation is not a NumPy array.*")
        warnings.filterwarnings("ignore", message=".*should be gymnasium.spaces.box.*")
        warnings.filterwarnings("ignore", message=".*(maximum|minimum) value is .*infinity.*")
        yield


def _play_random(env: Any, seed: int, max_steps: int = 100_000) -> list[tuple[str, int | None]]:
    """Drive an AEC env to the end with seeded random legal actions; return what was done."""
    chooser = random.Random(seed)
    done: list[tuple[str, int | None]] = []
    for agent in env.agent_iter(max_steps):
        observation, _reward, terminated, truncated, _info = env.last()
        action: int | None = None
        if not (terminated or truncated):
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[chooser.randrange(len(legal))])
        done.append((agent, action))
        env.step(action)
    return done


# ---------------------------------------------------------------------------- PettingZoo
class _CountingEnv(PendragonAECEnv):
    """Counts the games that reach their end (rewards are accumulated only there)."""

    endings = 0

    def _accumulate_rewards(self) -> None:
        self.endings += 1
        super()._accumulate_rewards()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_pettingzoo_api_test_passes(game: str, players: int) -> None:
    """PettingZoo's own api_test, over at least one whole game."""
    assert isinstance(_zoo(game, players=players), PendragonAECEnv)
    env = _CountingEnv(ENVIRONMENTS[game], players=players)
    api_test(env, num_cycles=1000)
    assert env.endings >= 1, "api_test's play-through did not reach the end of a game"


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_seed_test_passes(game: str) -> None:
    """PettingZoo's own seed_test: two environments with one seed behave identically."""
    seed_test(lambda: _zoo(game, players=5), num_cycles=200)


def test_pettingzoo_adapter_is_game_agnostic(toy_registered: type[ToyGame]) -> None:
    """The toy game needs nothing but its spec to pass api_test and seed_test."""
    env = PendragonAECEnv(TOY_SPEC, players=3)
    api_test(env, num_cycles=100)
    seed_test(lambda: PendragonAECEnv(TOY_SPEC, players=2), num_cycles=50)
    assert env.metadata["name"] == "toy_v1"


def test_observe_computes_only_the_asked_agents_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """One observation_tensor call per last(), for the agent to act and no other seat."""
    env = soc_v2.env(players=5)
    env.reset(seed=3)
    state_class = type(env.game_state)
    original = state_class.observation_tensor
    seen: list[int] = []

    def spy(self: pendragon.State, seat: int) -> list[float]:
        seen.append(seat)
        return original(self, seat)

    monkeypatch.setattr(state_class, "observation_tensor", spy)
    expected: list[int] = []
    chooser = random.Random(0)
    for _ in range(60):
        agent = env.agent_selection
        expected.append(int(agent.split("_")[1]))
        observation, *_ = env.last()
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[chooser.randrange(len(legal))]))
    assert seen == expected
    seen.clear()
    env.observe("player_2")
    assert seen == [2]


def test_observation_is_the_seats_tensor_and_mask() -> None:
    """The arrays hold observation_tensor(seat) and the legal mask (zeros off turn)."""
    env = soc_v2.env(players=4)
    env.reset(seed=8)
    state = env.game_state
    acting = env.agent_selection
    for agent in env.agents:
        seat = int(agent.split("_")[1])
        observation = env.observe(agent)
        expected = np.asarray(state.observation_tensor(seat), np.float32)
        assert observation["observation"].dtype == np.float32
        np.testing.assert_array_equal(observation["observation"], expected)
        mask = observation["action_mask"]
        if agent == acting:
            np.testing.assert_array_equal(mask, np.asarray(state.legal_actions_mask(), np.int8))
            assert mask.sum() > 0
        else:
            assert mask.sum() == 0
    first = env.observe(acting)
    assert first["observation"] is not env.observe(acting)["observation"], "buffer reused"


@pytest.mark.parametrize("game", GAMES)
def test_rewards_are_the_returns_at_the_end(game: str) -> None:
    """Zero rewards during play; at the end each agent collects exactly returns()[seat].

    Win or lose: +1 or -1 for each seat in every game (GC-END-1: the one knight to reach
    the Grail wins, every other loses; SCG-END-6 and SOC-END-2: each side wins or loses
    together).
    """
    env = _zoo(game, players=5)
    env.reset(seed=21)
    final: dict[str, float] = {}
    chooser = random.Random(1)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        assert not truncated
        if terminated:
            final[agent] = float(reward)
            env.step(None)
            continue
        assert reward == 0
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[chooser.randrange(len(legal))]))
    state = env.game_state
    assert state.is_terminal()
    returns = state.returns()
    assert final == {f"player_{s}": returns[s] for s in range(5)}
    assert set(returns) <= {-1.0, 1.0}
    if game == "grail-cup":
        assert sorted(returns) == [-1.0] * 4 + [1.0]


def test_reset_seed_plays_the_game_of_that_seed() -> None:
    """Same seed and actions: the same game, equal to load_game(seed=...) driven alike."""
    first = soc_v2.env(players=5)
    second = soc_v2.env(players=5)
    first.reset(seed=99)
    second.reset(seed=99)
    actions = _play_random(first, seed=5)
    assert _play_random(second, seed=5) == actions
    assert first.game_state.serialize() == second.game_state.serialize()

    state = pendragon.load_game("soc", players=5, seed=99).new_initial_state()
    for _agent, action in actions:
        state.play_random_chance()
        if action is not None:
            state.apply_action(action)
    assert state.history() == first.game_state.history()

    other = soc_v2.env(players=5)
    other.reset(seed=100)
    assert other.game_state.history()[:20] != first.game_state.history()[:20]


def test_unseeded_resets_follow_the_last_seed() -> None:
    """reset() after reset(seed=s) continues a stream fixed by s."""
    env = soc_v2.env(players=3)
    env.reset(seed=4)
    env.reset()
    after = env.game.seed
    env.reset(seed=4)
    env.reset()
    assert env.game.seed == after
    assert after != 4


def test_illegal_and_malformed_actions_raise_without_change() -> None:
    """An illegal id raises the game's error and leaves the game as it was."""
    env = soc_v2.env(players=5)
    env.reset(seed=2)
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    version = env.game_state.version
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    with pytest.raises(ValueError):
        env.step(10_000)
    with pytest.raises(TypeError):
        env.step(1.5)  # type: ignore[arg-type]
    assert env.game_state.version == version
    with pytest.raises(RuntimeError):
        soc_v2.env(players=5).step(0)


def test_options_pass_through_and_unknown_options_raise() -> None:
    """expansion=None is not passed on; real options reach the game; typos raise."""
    with pytest.raises(UnknownOptionError):
        soc_v2.env(players=5, sharing="random")
    with pytest.raises(InvalidOptionError):
        soc_v2.env(players=12)
    with pytest.raises(ValueError):
        soc_v2.env(seed=3)
    env = soc_v2.env(players=4, share="random")
    env.reset(seed=1)
    assert env.game.options["share"] == "random"
    assert env.game.num_players() == 4 and len(env.possible_agents) == 4
    if any(spec.name == "expansion" for spec in pendragon.game_class("soc").option_specs):
        with pytest.raises(InvalidOptionError):
            soc_v2.env(players=5, expansion="no-such-expansion")


# ---------------------------------------------------------------------------- Gymnasium
@pytest.mark.parametrize(("game", "players"), CASES)
def test_gymnasium_check_env_passes(game: str, players: int) -> None:
    """Gymnasium's own checker, on the registered id and on the raw class."""
    check_env(gymnasium.make(ENVIRONMENTS[game].gymnasium_id, players=players).unwrapped)
    check_env(PendragonGymEnv(game, seat=players - 1, players=players), skip_render_check=True)


def test_gymnasium_solo_card_game_is_a_single_agent_episode() -> None:
    """SCG-SOLO-1: solo play needs no opponents; every decision is the learner's."""
    env = gymnasium.make(ENVIRONMENTS["soc-card"].gymnasium_id, players=1)
    observation, info = env.reset(seed=11)
    assert info["seat"] == 0
    inner = env.unwrapped
    assert isinstance(inner, PendragonGymEnv)
    chooser = random.Random(2)
    steps, terminated, reward = 0, False, 0.0
    while not terminated:
        assert inner.game_state.current_player() == 0
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward_, terminated, truncated, _ = env.step(
            int(legal[chooser.randrange(len(legal))]))
        reward = float(reward_)
        assert not truncated
        steps += 1
    final = inner.game_state
    assert reward == final.returns()[0] in (-1.0, 1.0)
    replay = final.game.new_initial_state()
    decisions = 0
    for action in final.history():
        decisions += replay.current_player() == 0
        replay.apply_action(action)
    assert decisions == steps, "a decision of the solo knight was taken for him"


def test_gymnasium_adapter_is_game_agnostic(toy_registered: type[ToyGame]) -> None:
    """The toy game works without any registration of its own."""
    check_env(PendragonGymEnv("toy", seat=1, players=3), skip_render_check=True)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bot", bot_names())
def test_gymnasium_plays_whole_games_against_every_bot(game: str, bot: str) -> None:
    """Every registered bot can fill the other seats; the reward is returns()[seat]."""
    env = PendragonGymEnv(game, seat=None, opponents=bot, players=4)
    seats = set()
    episodes = 1 if bot == "ismcts" else 3  # a search bot spends up to ~0.9 s a move
    for episode in range(episodes):
        observation, info = env.reset(seed=40 + episode)
        seats.add(info["seat"])
        assert env.game_state.current_player() == info["seat"]
        total = 0.0
        terminated = False
        chooser = random.Random(episode)
        while not terminated:
            legal = np.flatnonzero(observation["action_mask"])
            assert legal.size and np.array_equal(legal, np.flatnonzero(env.action_masks()))
            observation, reward, terminated, truncated, _ = env.step(
                int(legal[chooser.randrange(len(legal))])
            )
            assert not truncated
            total += float(reward)
        assert env.game_state.is_terminal()
        assert total == env.game_state.returns()[env.seat] != 0
        assert observation["action_mask"].sum() == 0
        with pytest.raises(RuntimeError):
            env.step(0)
    assert episodes == 1 or len(seats) > 1, "seat=None always drew the same seat"


def test_gymnasium_illegal_actions() -> None:
    """An illegal action ends the episode with the penalty, or raises when asked to."""
    env = PendragonGymEnv("soc", players=3, illegal_reward=-5.0)
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info) == (-5.0, True, {"illegal_action": True})
    strict = PendragonGymEnv("soc", players=3, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    with pytest.raises(ValueError, match="unknown bot"):
        PendragonGymEnv("soc", opponents="no-such-bot")
    with pytest.raises(ValueError):
        PendragonGymEnv("soc", opponents=["random"] * 2, players=3)


# ---------------------------------------------------------------------------- OpenSpiel
def test_pyspiel_game_type_and_parameters() -> None:
    """The declared type, and options as parameters (None as "", seed 0 by default)."""
    game = pyspiel.load_game("python_pendragon_soc")
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_information_state_string and kind.provides_observation_tensor
    parameters = game.get_parameters()
    assert parameters["players"] == 5 and parameters["seed"] == 0
    assert parameters["share"] == "choice"
    info = pendragon.load_game("soc").info
    assert game.num_distinct_actions() == info.num_distinct_actions
    assert game.observation_tensor_shape() == [info.observation_tensor_size]
    assert game.information_state_tensor_shape() == [info.observation_tensor_size]
    four = pyspiel.load_game("python_pendragon_soc", {"players": 4, "share": "random"})
    assert four.num_players() == 4
    with pytest.raises(Exception, match="sharing"):
        pyspiel.load_game("python_pendragon_soc", {"sharing": "random"})


@pytest.mark.parametrize(("name", "players"), CASES)
def test_pyspiel_random_sim_test_with_serialization(name: str, players: int) -> None:
    """OpenSpiel's own random simulation test, serializing at every step."""
    game = pyspiel.load_game(spiel_name(name), {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_pyspiel_adapter_is_game_agnostic(toy_registered: type[ToyGame]) -> None:
    """The toy game passes random_sim_test after one register() call."""
    name = spiel.register("toy")
    game = pyspiel.load_game(name, {"players": 3})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def spiel_name(game: str) -> str:
    """``python_pendragon_<game>``."""
    return f"python_pendragon_{game.replace('-', '_')}"


#: Decisions into a game that leave it well under way (the card game is short).
MIDGAME = {"soc": 30, "soc-card": 8, "grail-cup": 20}


def _spiel_midgame(seed: int, players: int = 5, game: str = "soc") -> Any:
    state = _spiel_played(pyspiel.load_game(spiel_name(game), {"players": players}), seed,
                          MIDGAME[game])
    assert not state.is_terminal()
    return state


def _spiel_played(game: Any, seed: int, decisions: int) -> Any:
    state = game.new_initial_state()
    chooser = random.Random(seed)
    made = 0
    while made < decisions and not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chooser.choices(actions, weights)[0])
        else:
            legal = state.legal_actions()
            assert legal == sorted(legal)
            state.apply_action(chooser.choice(legal))
            made += 1
    while state.is_chance_node():
        actions, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(chooser.choices(actions, weights)[0])
    return state


@pytest.mark.parametrize("game", GAMES)
def test_pyspiel_views_are_the_seats_observations(game: str) -> None:
    """Strings are canonical JSON of observation(seat); tensors are observation_tensor."""
    state = _spiel_midgame(seed=3, game=game)
    inner = state.pendragon_state
    strings = set()
    for seat in range(5):
        text = state.information_state_string(seat)
        assert text == spiel.canonical_json(inner.observation(seat))
        assert state.observation_string(seat) == text
        np.testing.assert_allclose(
            state.information_state_tensor(seat), inner.observation_tensor(seat), rtol=1e-6
        )
        np.testing.assert_allclose(
            state.observation_tensor(seat), inner.observation_tensor(seat), rtol=1e-6
        )
        strings.add(text)
    assert len(strings) == 5, "two seats share an information state"
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = state.get_game().make_py_observer(public, {})
    assert observer.tensor is None
    assert observer.string_from(state, 0) == spiel.canonical_json(inner.observation(None))


@pytest.mark.parametrize("game", GAMES)
def test_pyspiel_clone_and_serialization_round_trip(game: str) -> None:
    """Clones are independent; serialize/deserialize gives back the same state."""
    state = _spiel_midgame(seed=4, game=game)
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state)
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    _game, back = pyspiel.deserialize_game_and_state(text)
    assert str(back) == str(state)
    assert back.history() == state.history()
    assert back.information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize("game", GAMES)
def test_pyspiel_resampling_keeps_the_information_state(game: str) -> None:
    """resample_from_infostate: same view for the player, other hidden cards."""
    state = _spiel_midgame(seed=6, game=game)
    player = state.current_player()
    key = state.information_state_string(player)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(player, sampler) for _ in range(8)]
    assert all(s.information_state_string(player) == key for s in samples)
    assert all(s.legal_actions() == state.legal_actions() for s in samples)
    assert any(str(s) != str(state) for s in samples), "nothing hidden was resampled"
    assert str(state) == str(_spiel_midgame(seed=6, game=game)), "resampling changed it"


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_ismcts_bot_plays_the_game(name: str) -> None:
    """OpenSpiel's Python IS-MCTS chooses legal moves for a few decisions of a game."""
    game = pyspiel.load_game(spiel_name(name), {"players": 3})
    generator = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=generator)
    bot = ismcts.ISMCTSBot(
        game=game, evaluator=evaluator, uct_c=2.0, max_simulations=8, random_state=generator
    )
    state = game.new_initial_state()
    decisions = 0
    while decisions < 6:
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(generator.choice(actions, p=weights)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert not state.is_terminal()
