"""What researchers need beyond the libraries' conformance suites (issue 40): self-play with
policies as opponents, environments that copy, pickle and restore mid-game, and the name of
every element of every game's observation tensor."""

from __future__ import annotations

import copy
import pickle
import random
import warnings
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest

import pendragon
from pendragon import IllegalActionError
from pendragon.envs import ENVIRONMENTS
from pendragon.envs.gymnasium_env import ModelPolicy, PendragonGymEnv
from pendragon.envs.pettingzoo_base import PendragonAECEnv

GAMES = ["soc", "soc-card", "grail-cup"]
#: Decisions of the learner before a copy is taken: well into each game.
MIDGAME = {"soc": 8, "soc-card": 4, "grail-cup": 10}


@pytest.fixture(autouse=True)
def _quiet_library_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Observation is not a NumPy array.*")
        warnings.filterwarnings("ignore", message=".*should be gymnasium.spaces.box.*")
        warnings.filterwarnings("ignore", message=".*(maximum|minimum) value is .*infinity.*")
        warnings.filterwarnings("ignore", message=".*env.(game_state|observation_names).*")
        yield


def first_legal(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
    """A deterministic policy: the lowest legal id."""
    return int(np.flatnonzero(mask)[0])


# ---------------------------------------------------------------------------- self-play
class Recorder:
    """A callable opponent that plays the lowest legal id and remembers what it saw."""

    def __init__(self) -> None:
        self.seen: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]] = []

    def __call__(self, observation: npt.NDArray[np.float32],
                 mask: npt.NDArray[np.int8]) -> int:
        self.seen.append((observation, mask))
        return first_legal(observation, mask)


@pytest.mark.parametrize("game", GAMES)
def test_a_callable_opponent_plays_the_other_seats(game: str) -> None:
    """Issue 40 item 1: ``opponents=`` takes a callable (observation, action_mask) ->
    action; it gets the seat's own tensor and mask, and its choices are the game's."""
    recorder = Recorder()
    env = gymnasium.make(ENVIRONMENTS[game].gymnasium_id, players=3, opponents=recorder)
    inner = env.unwrapped
    assert isinstance(inner, PendragonGymEnv)
    observation, _ = env.reset(seed=12)
    chooser = random.Random(3)
    learner: list[int] = []
    terminated = False
    while not terminated:
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[chooser.randrange(len(legal))])
        learner.append(action)
        observation, _, terminated, _, _ = env.step(action)
    assert recorder.seen, "the callable never played"
    size = inner.game.info.observation_tensor_size
    for seen, mask in recorder.seen:
        assert seen.shape == (size,) and seen.dtype == np.float32
        assert mask.dtype == np.int8 and mask.sum() > 0
    # The same game again by hand: the other seats play their lowest legal id.
    state = pendragon.load_game(game, players=3, seed=12).new_initial_state()
    moves = iter(learner)
    seen_index = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == pendragon.CHANCE:
            state.apply_action(state.sample_chance())
        elif player == inner.seat:
            state.apply_action(next(moves))
        else:
            tensor, mask = recorder.seen[seen_index]
            np.testing.assert_array_equal(tensor, np.float32(state.observation_tensor(player)))
            assert list(np.flatnonzero(mask)) == sorted(state.legal_actions())
            state.apply_action(min(state.legal_actions()))
            seen_index += 1
    assert seen_index == len(recorder.seen)
    assert state.serialize() == inner.game_state.serialize()


def test_opponents_mix_names_bots_callables_and_models() -> None:
    """Issue 40 item 1: one opponent per seat, of any kind; a model with ``predict`` (an
    SB3 model's interface) is wrapped in ModelPolicy and given the mask."""

    class FakeModel:
        calls = 0

        def predict(self, observation: dict[str, Any], deterministic: bool = False,
                    action_masks: npt.NDArray[np.bool_] | None = None) -> tuple[int, None]:
            assert action_masks is not None and action_masks.dtype == np.bool_
            assert set(observation) == {"observation", "action_mask"}
            FakeModel.calls += 1
            return int(np.flatnonzero(action_masks)[-1]), None

    class Lowest:  # a pendragon Bot: step(state)
        def step(self, state: pendragon.State) -> int:
            return min(state.legal_actions())

    env = PendragonGymEnv("grail-cup", seat=0, players=4,
                          opponents=["random", FakeModel(), Lowest(), first_legal])
    for seed in range(2):
        observation, _ = env.reset(seed=seed)
        terminated = False
        while not terminated:
            observation, _, terminated, _, _ = env.step(first_legal(
                observation["observation"], observation["action_mask"]))
    assert FakeModel.calls > 0
    with pytest.raises(TypeError, match="opponent"):
        PendragonGymEnv("grail-cup", players=3, opponents=[None, 3, 4])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="3 seats need 3 opponents"):
        PendragonGymEnv("grail-cup", players=3, opponents=[first_legal, first_legal])


def test_set_opponents_takes_effect_at_the_next_reset_and_bad_choices_raise() -> None:
    """Issue 40 item 1: a league swaps opponents between episodes; an opponent's illegal
    or malformed choice is its error, not the learner's."""
    env = PendragonGymEnv("grail-cup", seat=0, players=3)
    env.reset(seed=1)
    recorder = Recorder()
    env.set_opponents(recorder)
    assert not recorder.seen
    observation, _ = env.reset(seed=1)
    while not recorder.seen:
        observation, *_ = env.step(first_legal(observation["observation"],
                                               observation["action_mask"]))
    env.set_opponents(lambda observation, mask: int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(IllegalActionError, match="policy of seat"):
        for _ in range(200):
            observation, _ = env.reset(seed=2)
    env.set_opponents(lambda observation, mask: "move:1")
    with pytest.raises(TypeError, match="not an action id"):
        env.reset(seed=2)


def test_model_policy_frozen_is_a_copy_that_later_training_does_not_change() -> None:
    """Issue 40 item 1: ModelPolicy.frozen deep-copies the model's policy."""

    class Net:
        def __init__(self) -> None:
            self.choice = 0

        def predict(self, observation: dict[str, Any],
                    deterministic: bool = False) -> tuple[int, None]:
            return int(np.flatnonzero(observation["action_mask"])[self.choice]), None

    class Model:
        def __init__(self) -> None:
            self.policy = Net()

        def predict(self, observation: dict[str, Any],
                    deterministic: bool = False) -> tuple[int, None]:
            return self.policy.predict(observation, deterministic)

    model = Model()
    frozen = ModelPolicy.frozen(model)
    model.policy.choice = 1  # "training" goes on
    mask = np.array([0, 1, 1, 1], np.int8)
    assert frozen(np.zeros(2, np.float32), mask) == 1
    assert ModelPolicy(model)(np.zeros(2, np.float32), mask) == 2
    with pytest.raises(TypeError):
        ModelPolicy(object())


# ---------------------------------------------------------------------------- copies
def _drive_gym(env: Any, steps: int, seed: int) -> list[Any]:
    """Play up to ``steps`` learner actions chosen by a seeded random generator; return
    every observation, reward and flag, and the final state's text."""
    chooser = random.Random(seed)
    trace: list[Any] = []
    observation = env.unwrapped._observe(env.unwrapped.game_state)
    for _ in range(steps):
        legal = np.flatnonzero(observation["action_mask"])
        if not legal.size:
            break
        observation, reward, terminated, truncated, _ = env.step(
            int(legal[chooser.randrange(len(legal))]))
        trace.append((observation["observation"].tobytes(),
                      observation["action_mask"].tobytes(), float(reward), terminated))
        if terminated:
            break
    final = env.unwrapped.game_state
    # The game's whole course and result (a restored state's game may carry another seed
    # as a label: the state's own chance stream is what plays).
    trace.append((final.history(), final.returns()))
    return trace


def _gym_midgame(game: str) -> Any:
    env = gymnasium.make(ENVIRONMENTS[game].gymnasium_id, players=4, opponents="random")
    observation, _ = env.reset(seed=31)
    chooser = random.Random(8)
    for _ in range(MIDGAME[game]):
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, _, _ = env.step(int(legal[chooser.randrange(len(legal))]))
        assert not terminated
    return env


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_deep_copies_and_pickles_mid_game(game: str) -> None:
    """Issue 40 item 2: a deep copy and a pickled copy of the Gymnasium environment (as
    ``gymnasium.make`` wraps it), taken mid-game against random bots, go on exactly as
    the original: the bots' random streams and the chance stream are copied too."""
    env = _gym_midgame(game)
    copied = copy.deepcopy(env)
    loaded = pickle.loads(pickle.dumps(env))
    assert copied.unwrapped.game_state is not env.unwrapped.game_state
    original = _drive_gym(env, 400, seed=5)
    assert _drive_gym(copied, 400, seed=5) == original
    assert _drive_gym(loaded, 400, seed=5) == original
    assert (copied.unwrapped.game_state.serialize() == loaded.unwrapped.game_state.serialize()
            == env.unwrapped.game_state.serialize())
    assert len(original) >= 2  # at least one step after the copy, and the end
    # The copies are independent, and go on to new episodes alike.
    assert copied.reset()[0]["observation"].tobytes() == loaded.reset()[0][
        "observation"].tobytes()


def _drive_zoo(env: PendragonAECEnv, seed: int) -> list[Any]:
    chooser = random.Random(seed)
    trace: list[Any] = []
    for agent in env.agent_iter(5000):
        observation, reward, terminated, truncated, _ = env.last()
        action = None
        if not (terminated or truncated):
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[chooser.randrange(len(legal))])
        trace.append((agent, observation["observation"].tobytes(), float(reward), terminated,
                      action))
        env.step(action)
    trace.append((env.game_state.history(), env.game_state.returns()))
    return trace


def _zoo_midgame(game: str, players: int = 4) -> PendragonAECEnv:
    env = getattr(pendragon.envs, ENVIRONMENTS[game].pettingzoo_name).env(players=players)
    env.reset(seed=17)
    chooser = random.Random(2)
    for _ in range(3 * MIDGAME[game]):
        observation, *_ = env.last()
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[chooser.randrange(len(legal))]))
    assert not env.game_state.is_terminal()
    assert isinstance(env, PendragonAECEnv)
    return env


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_env_deep_copies_and_pickles_mid_game(game: str) -> None:
    """Issue 40 item 2: a deep copy or a pickled copy of the PettingZoo environment mid-game
    is that game (it was a fresh, never-reset environment), and goes on identically."""
    env = _zoo_midgame(game)
    copied = copy.deepcopy(env)
    loaded = pickle.loads(pickle.dumps(env))
    assert copied.agent_selection == env.agent_selection == loaded.agent_selection
    assert copied.last()[0]["observation"].tobytes() == env.last()[0]["observation"].tobytes()
    original = _drive_zoo(env, seed=4)
    assert _drive_zoo(copied, seed=4) == original
    assert _drive_zoo(loaded, seed=4) == original
    assert copied.game_state.serialize() == loaded.game_state.serialize() == (
        env.game_state.serialize())
    # An unseeded reset draws the same next game in the copy (the seed stream is copied).
    copied.reset()
    loaded.reset()
    assert copied.game.seed == loaded.game.seed


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_env_restores_a_serialized_state(game: str) -> None:
    """Issue 40 item 2: ``env.restore(state.serialize())`` goes on identically to the
    environment the text was taken from (the state carries its chance stream)."""
    env = _zoo_midgame(game)
    text = env.game_state.serialize()
    fresh = getattr(pendragon.envs, ENVIRONMENTS[game].pettingzoo_name).env(players=4)
    fresh.restore(text)
    again = getattr(pendragon.envs, ENVIRONMENTS[game].pettingzoo_name).env(players=4)
    again.reset(seed=999)  # a restore replaces whatever game was running
    again.restore(env.game_state)
    through_reset = getattr(pendragon.envs, ENVIRONMENTS[game].pettingzoo_name).env(players=4)
    through_reset.reset(options={"state": text})
    original = _drive_zoo(env, seed=6)
    assert _drive_zoo(fresh, seed=6) == original
    assert _drive_zoo(again, seed=6) == original
    assert _drive_zoo(through_reset, seed=6) == original
    other = getattr(pendragon.envs, ENVIRONMENTS[game].pettingzoo_name).env(players=3)
    with pytest.raises(ValueError):
        other.restore(text)
    with pytest.raises(ValueError):
        other.restore("{not a state")


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_restores_a_serialized_state(game: str) -> None:
    """Issue 40 item 2: ``env.unwrapped.restore(text)`` goes on as the original did with
    opponents that decide from what they see (a callable policy); with random bots, two
    restores with one seed play alike."""
    gym_id = ENVIRONMENTS[game].gymnasium_id
    env = gymnasium.make(gym_id, players=4, opponents=first_legal)
    observation, _ = env.reset(seed=41)
    chooser = random.Random(1)
    for _ in range(MIDGAME[game]):
        legal = np.flatnonzero(observation["action_mask"])
        observation, *_ = env.step(int(legal[chooser.randrange(len(legal))]))
    text = env.unwrapped.game_state.serialize()
    restored = gymnasium.make(gym_id, players=4, opponents=first_legal)
    first, info = restored.reset(options={"state": text})  # through gymnasium.make's wrappers
    assert info == {"seat": 0}
    assert first["observation"].tobytes() == observation["observation"].tobytes()
    original = _drive_gym(env, 400, seed=9)
    assert _drive_gym(restored, 400, seed=9) == original

    randoms = [gymnasium.make(gym_id, players=4, opponents="random") for _ in range(2)]
    for each in randoms:
        each.reset(seed=3, options={"state": text})
    direct = PendragonGymEnv(game, players=4, opponents="random")
    direct.restore(env.unwrapped.game_state, seed=3, seat=1)
    assert direct.seat == 1 and direct.game_state.current_player() in (1, pendragon.TERMINAL)
    assert _drive_gym(randoms[0], 400, seed=2) == _drive_gym(randoms[1], 400, seed=2)


# ---------------------------------------------------------------------------- names
def _setups() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every player count of every game, and soc's expansion."""
    for game in GAMES:
        cls = pendragon.game_class(game)
        for players in cls.supported_player_counts():
            yield game, {"players": players}
    for players in pendragon.game_class("soc").supported_player_counts(
            {"expansion": "merlins-company"}):
        yield "soc", {"players": players, "expansion": "merlins-company"}


@pytest.mark.parametrize(("game", "options"), list(_setups()))
def test_every_tensor_element_is_named(game: str, options: dict[str, Any]) -> None:
    """Issue 40 item 3: as many names as the tensor has elements, in every setup, unique;
    the environments give the same names."""
    loaded = pendragon.load_game(game, seed=3, **options)
    names = loaded.observation_tensor_names()
    assert len(names) == loaded.info.observation_tensor_size
    assert len(set(names)) == len(names), "two elements share a name"
    state = loaded.new_initial_state()
    state.play_random_chance()
    assert len(state.observation_tensor(0)) == len(names)
    zoo = getattr(pendragon.envs, ENVIRONMENTS[game].pettingzoo_name).env(**options)
    assert zoo.observation_names() == names
    gym = gymnasium.make(ENVIRONMENTS[game].gymnasium_id, **options)
    assert gym.unwrapped.observation_names() == names


def _named(state: pendragon.State, seat: int) -> dict[str, float]:
    names = state.game.observation_tensor_names()
    return dict(zip(names, state.observation_tensor(seat), strict=True))


def _random_states(game: str, players: int, seed: int, count: int) -> Iterator[Any]:
    state = pendragon.load_game(game, players=players, seed=seed).new_initial_state()
    chooser = random.Random(seed)
    while not state.is_terminal() and count:
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        yield state
        count -= 1
        state.apply_action(chooser.choice(state.legal_actions()))


def test_grail_cup_names_read_the_right_values() -> None:
    """Issue 40 item 3: the named elements hold what their names say (GC view)."""
    for state in _random_states("grail-cup", 4, 7, 120):
        for seat in range(4):
            named = _named(state, seat)
            finish = state.game.track.finish
            for p in range(4):
                assert named[f"knight.{p}.space"] == pytest.approx(state.pos[p] / finish)
                assert named[f"knight.{p}.spears"] == pytest.approx(state.spears[p] / 12)
                assert named[f"viewer.{p}"] == float(p == seat)
                assert named[f"to_act.{p}"] == float(p == state.current_player())
            view = state.observation(seat)
            for ally in view["you"]["hand"]:
                assert named[f"hand.{ally}"] == 1.0
            assert sum(v for k, v in named.items() if k.startswith("hand.")) == len(
                view["you"]["hand"])
            task = [k for k, v in named.items() if k.startswith("task.") and v]
            assert task == [f"task.{view['waiting']['decision']}"] or view["waiting"][
                "decision"] in ("merlin-move", "fairy-move", "dragon", "dragon-bait")
            for space, kind in view["you"]["clovers"].items():
                assert named[f"clover.{space}.{kind}"] == 1.0
            # The table as it lies (GC-KNIGHTS-1, GC-VILLAGE-SEAL, GC-DRAFT-3), as the JSON
            # view has it; the packet while the seat drafts from it or passes it on.
            for rank, p in enumerate(view["order"]):
                assert named[f"race_place.{p}.place"] == pytest.approx(rank / 3)
            for p in range(4):
                assert named[f"holds.{p}.squire"] == float(view["squire"] == p)
                assert named[f"holds.{p}.sorceress"] == float(view["sorceress"] == p)
                assert named[f"seal.{p}"] == float(view["seal_rolled_by"] == p)
            assert named["direction.left"] == float(view["direction"] == "left")
            assert named["direction.right"] == float(view["direction"] == "right")
            assert sorted(k for k, v in named.items() if k.startswith("packet.") and v) == sorted(
                f"packet.{ally}" for ally in view["you"]["packet"])


def test_soc_card_names_read_the_right_values() -> None:
    """Issue 40 item 3: the named elements hold what their names say (SCG view)."""
    for state in _random_states("soc-card", 5, 4, 80):
        for seat in range(5):
            named = _named(state, seat)
            view = state.observation(seat)
            assert named["swords.white"] == pytest.approx(min(view["swords"]["white"], 20) / 20)
            assert named["swords.black"] == pytest.approx(min(view["swords"]["black"], 20) / 20)
            assert named[f"viewer.{seat}"] == 1.0
            assert named["in_force.silence"] == float(view["silence"])
            assert named[f"seat.{view['turn']}.is_turn"] == 1.0
            for other, seen in enumerate(view["seats"]):
                assert named[f"seat.{other}.accused"] == float(bool(seen["accused"]))
            loyalty = view["you"]["loyalty"]
            if loyalty is not None:
                assert named[f"loyalty.{loyalty}"] == 1.0


def test_soc_names_read_the_right_values() -> None:
    """Issue 40 item 3: the named elements hold what their names say (SOC view, seats
    rotated so ``seat+0`` is the observer)."""
    for state in _random_states("soc", 5, 2, 150):
        for seat in range(5):
            named = _named(state, seat)
            view = state.observation(seat)
            assert named["swords_siege.siege_engines"] == pytest.approx(
                view["siege_engines"] / 12)
            for offset in range(5):
                knight = view["knights"][(seat + offset) % 5]
                assert named[f"seats.seat+{offset}.life"] == pytest.approx(knight["life"] / 6)
                assert named[f"seats.seat+{offset}.present"] == 1.0
                if knight["knight"] is not None:
                    assert named[f"seats.seat+{offset}.knight.{knight['knight']}"] == 1.0
            assert named["seats.seat+5.present"] == 0.0
            for card, count in _counts(view["you"]["hand"]).items():
                assert named[f"hand.{card}"] == pytest.approx(count / 5)
            loyalty = view["you"]["loyalty"]
            if loyalty is not None:
                assert named[f"loyalty.{loyalty}"] == 1.0


def _counts(cards: Any) -> dict[str, int]:
    if isinstance(cards, dict):
        return {str(key): int(count) for key, count in cards.items()}
    counts: dict[str, int] = {}
    for card in cards:
        key = card if isinstance(card, str) else card["card"]
        counts[key] = counts.get(key, 0) + 1
    return counts


# ---------------------------------------------------------------------------- traps
def _masked_choice(mask: npt.NDArray[Any], chooser: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[chooser.randrange(len(legal))]) if legal.size else 0


def test_vector_autoreset_terminal_mask_is_all_zero_and_same_step_avoids_it() -> None:
    """Issue 40 item 6 (documented trap): under Gymnasium's default NEXT_STEP autoreset a
    vector environment returns the terminal observation, whose mask is all zeros (nothing is
    legal after the end), and ignores the next action while it resets; SAME_STEP returns the
    new episode's observation, every mask with a legal action, the end in ``final_obs``."""
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    def make() -> PendragonGymEnv:
        return PendragonGymEnv("soc-card", players=1)

    chooser = random.Random(0)
    vector = SyncVectorEnv([make, make])
    observation, _ = vector.reset(seed=1)
    ends = 0
    for _ in range(400):
        actions = [_masked_choice(mask, chooser) for mask in observation["action_mask"]]
        observation, _, terminated, _, _ = vector.step(np.array(actions))
        for index in np.flatnonzero(terminated):
            assert observation["action_mask"][index].sum() == 0
            ends += 1
    assert ends >= 2

    same = SyncVectorEnv([make, make], autoreset_mode=AutoresetMode.SAME_STEP)
    observation, _ = same.reset(seed=1)
    ends = 0
    for _ in range(400):
        assert all(mask.sum() > 0 for mask in observation["action_mask"])
        actions = [_masked_choice(mask, chooser) for mask in observation["action_mask"]]
        observation, _, terminated, _, info = same.step(np.array(actions))
        for index in np.flatnonzero(terminated):
            assert info["final_obs"][index]["action_mask"].sum() == 0
            ends += 1
    assert ends >= 2


def test_openspiel_evaluate_bots_with_the_python_ismcts_needs_restart_at() -> None:
    """Issue 40 item 6 (documented trap): OpenSpiel's ``evaluate_bots`` calls
    ``restart_at`` on every bot, which its Python IS-MCTS does not implement; a subclass
    that adds it (the search keeps no tree between moves) plays a whole game."""
    import pyspiel
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    import pendragon.envs.openspiel  # noqa: F401  (registers the games)

    class RestartableISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
        def restart_at(self, state: Any) -> None:
            """Nothing to forget: each step searches anew."""

    game = pyspiel.load_game("python_pendragon_grail_cup", {"players": 2})
    generator = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=generator)
    plain = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=2,
                             random_state=generator)
    with pytest.raises(Exception, match="(?i)restart"):
        evaluate_bots.evaluate_bots(game.new_initial_state(),
                                    [plain, pyspiel.make_uniform_random_bot(1, 4)], generator)
    bot = RestartableISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=2,
                               random_state=generator)
    returns = evaluate_bots.evaluate_bots(
        game.new_initial_state(), [bot, pyspiel.make_uniform_random_bot(1, 4)], generator)
    assert sorted(returns) == [-1.0, 1.0]


def test_the_docs_tables_of_names_are_current() -> None:
    """Issue 40 item 3: docs/research.md's tables are the generator's output."""
    from pendragon.tools import tensor_doc

    text = tensor_doc.DOC.read_text()
    assert tensor_doc.with_tables(text) == text, (
        "python -m pendragon.tools.tensor_doc --write")
    assert "| 0-7 | `knight` | each of 0, 1, 2, 3: space, spears |" in text


#: Longest game (steps, chance included) of the 200 measured with random bots at 4 seats
#: (docs/research.md, "Game lengths"; seeds 1000 + i, bot of seat s seeded 10 i + s).
MEASURED_LONGEST = {"soc": 233, "soc-card": 74, "grail-cup": 284}


@pytest.mark.parametrize("game", GAMES)
def test_measured_game_lengths_stay_within_the_documented_figures(game: str) -> None:
    """Issue 40 item 6: the documented lengths are what the games take (the first 25 games
    of the measured sample replay within the longest documented), within the declared
    bound ``max_game_length`` (tests/test_game_lengths.py checks the bound itself)."""
    from pendragon.bots import make_bot
    from pendragon.runner import play_game

    lengths = []
    for index in range(25):
        loaded = pendragon.load_game(game, players=4, seed=1000 + index)
        final = play_game(loaded, [make_bot("random", index * 10 + s, game) for s in range(4)])
        lengths.append(final.version)
    assert max(lengths) <= MEASURED_LONGEST[game]
    assert MEASURED_LONGEST[game] < loaded.max_game_length()
