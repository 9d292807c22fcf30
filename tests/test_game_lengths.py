"""Issue 40 item 6: every game declares two length figures, computed from the setup by the
game's rules and stated in docs/research.md ("Game lengths"): the research bound
``max_game_length`` (3 times the longest game seen over every setup and policy, where the
research environments truncate) and the hard cap ``length_cap`` (proved from the rules: no
legal game passes it; a record, the runner and the terminal refuse a game past it). A legal
game past the research bound is truncated by the research APIs and replays everywhere else."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import pendragon
from bench.length_bound import Staller, Stubborn  # adversarial players
from pendragon import State
from pendragon.bots import ISMCTSBot, make_bot
from pendragon.core.api import CHANCE, LENGTH_MARGIN, GameInfo, research_bound
from pendragon.games.grail_cup.rules import game as grail_cup_game
from pendragon.games.soc.rules import game as soc_game
from pendragon.games.soc_card.rules import game as soc_card_game
from pendragon.records import RecordSeat, record_of, replay_record
from pendragon.runner import GameTooLongError, play_game

DOC = Path(__file__).resolve().parents[1] / "docs" / "research.md"
LONG_NAMES = {"Shadows over Camelot": "soc", "The Card Game": "soc-card",
              "Grail Cup": "grail-cup"}
#: Each game's rules module (``LONGEST_SEEN``, ``length_cap``).
MODULES: dict[str, Any] = {"soc": soc_game, "soc-card": soc_card_game,
                           "grail-cup": grail_cup_game}
GAMES = ["soc", "soc-card", "grail-cup"]
#: The setups measured (bench/length_bound.py's SETUPS), which the research bound covers.
SETUPS: dict[str, tuple[dict[str, Any], ...]] = {
    "soc": ({}, {"expansion": "merlins-company"}, {"squires": True},
            {"squires": True, "squires_hard": True}, {"no_traitor": True},
            {"traitor_in_our_midst": True}, {"three_brave_knights": True},
            {"share": "random", "played_black": "off"}, {"played_black": "on"}),
    "soc-card": ({}, {"knights_relief": True}, {"promos": True},
                 {"knights_relief": True, "promos": True}),
    "grail-cup": ({},),
}
#: A legal Shadows over Camelot game held to the 400-round cap: 3 seats with Merlin's
#: Company, every seat pressing the last legal key (a Geraint always skipping the
#: Progression of Evil, MC-KNIGHT-GERAINT), 8,431 steps.
GERAINT = {"players": 3, "seed": 1057, "expansion": "merlins-company"}
GERAINT_STEPS = 8431


def documented_bounds() -> dict[tuple[str, int], tuple[int, int, int]]:
    """``(game, players) -> (longest seen, max_game_length, length_cap)`` from
    docs/research.md's table."""
    found = {}
    row = re.compile(r"^\| (Shadows over Camelot|The Card Game|Grail Cup) \| (\d) \|.*"
                     r"\| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$")
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = row.match(line)
        if match:
            numbers = [int(match[i].replace(",", "")) for i in (3, 4, 5)]
            found[(LONG_NAMES[match[1]], int(match[2]))] = (numbers[0], numbers[1], numbers[2])
    return found


def counts(game: str, options: dict[str, Any]) -> list[int]:
    """The player counts a setup supports."""
    found = []
    for players in range(1, 9):
        try:
            pendragon.load_game(game, players=players, seed=0, **options)
        except pendragon.PendragonError:
            continue
        found.append(players)
    return found


def test_every_setup_declares_the_documented_figures() -> None:
    """Both figures are computed from the setup by each game's rules and are those of
    docs/research.md's table for every player count of every measured setup: the research
    bound is the margin times the longest game seen, the hard cap the rules' (``length_cap``
    of the game's module), never below it."""
    documented = documented_bounds()
    assert {game for game, _ in documented} == set(GAMES)
    for game, setups in SETUPS.items():
        module = MODULES[game]
        for options in setups:
            for players in counts(game, options):
                longest, bound, cap = documented[(game, players)]
                assert module.LONGEST_SEEN[players] == longest, (game, players)
                assert bound == LENGTH_MARGIN * longest == research_bound(
                    module.LONGEST_SEEN, players)
                if game == "grail-cup":
                    assert bound == module.max_length(players, True)
                assert cap == (module.length_cap(players) if game == "soc"
                               else module.length_cap())
                assert longest < bound <= cap
                loaded = pendragon.load_game(game, players=players, seed=3, **options)
                assert loaded.max_game_length() == loaded.info.max_game_length == bound
                assert loaded.length_cap() == loaded.info.length_cap == cap, (game, options)


def test_the_research_bounds_are_near_real_games() -> None:
    """Issue 40 item 6: the research bound is three times the longest game seen, not the
    rules' cap: for the card game and Grail Cup never more than 1,500 steps; for Shadows
    over Camelot, whose stalling Geraints play 400 rounds, at most an eighth of the cap."""
    for (game, _players), (longest, bound, cap) in documented_bounds().items():
        assert longest > 0 and bound == 3 * longest, game
        assert bound <= (cap // 8 if game == "soc" else 1500), game


def test_the_hard_caps_are_the_rules_products() -> None:
    """The hard caps, as docs/rules/<game>.md ("Game length") derives them: Shadows over
    Camelot 72 + 400 rounds x seats x 200 steps (SOC-RULING-45), the card game 27 x 68 x 200
    + 20 (SCG-END-5, SCG-TURN-1), Grail Cup 8 + 60 rounds x 1,000 steps (GC-RULING-13)."""
    assert [soc_game.length_cap(n) for n in (3, 8)] == [72 + 400 * 3 * 200, 72 + 400 * 8 * 200]
    assert soc_card_game.length_cap() == 27 * 68 * 200 + 20 == 367_220
    assert grail_cup_game.length_cap() == 8 + 60 * 1000 == 60_008
    assert GameInfo("x", "x", 1, 1, 1, 5, -1.0, 1.0, 1).length_cap == 0
    with pytest.raises(ValueError, match="below the research bound"):
        pendragon.load_game("soc-card", players=2).declare_info(
            "x", max_game_length=11, observation_tensor_size=1, length_cap=10)


def test_soc_games_reach_the_round_cap_so_its_cap_must_allow_it() -> None:
    """SOC-RULING-45, MC-KNIGHT-GERAINT: a Geraint who always skips the Progression of Evil
    (the last legal action, always) holds the table until the 400-round cap: a legal game
    of 3 seats 8,431 steps long (bench/length_bound.py's sample), within the research bound
    (it was measured) and the hard cap, which no measured figure could replace."""
    loaded = pendragon.load_game("soc", **GERAINT)
    final = play_game(loaded, [Stubborn(True)] * 3)
    assert final.observation(0)["end_reason"] == "exhausted"
    assert final.observation(0)["turn"]["number"] == 400 * 3 + 1
    assert final.version == GERAINT_STEPS < loaded.max_game_length() < loaded.length_cap()
    assert loaded.length_cap() == 72 + 400 * 3 * 200


def test_openspiel_declares_the_research_bound() -> None:
    """OpenSpiel's ``max_game_length`` is the research bound (envs/openspiel.py)."""
    pyspiel = pytest.importorskip("pyspiel")
    import pendragon.envs.openspiel  # noqa: F401  (registers the games)

    documented = documented_bounds()
    for game in GAMES:
        name = "python_pendragon_" + game.replace("-", "_")
        for players in (counts(game, {})[0], 4):
            spiel = pyspiel.load_game(name, {"players": players})
            assert spiel.max_game_length() == documented[(game, players)][1]


def test_a_grail_cup_track_file_keeps_the_rules_cap(tmp_path: Path) -> None:
    """A track of one's own was never measured: its research bound is the hard cap,
    GC-RULING-13's 60 rounds."""
    from importlib.resources import files

    from pendragon.games.grail_cup.rules.track import STANDARD

    standard = files("pendragon.games.grail_cup.rules").joinpath(STANDARD)
    path = tmp_path / "copy.track"
    path.write_text(standard.read_text(encoding="utf-8"), encoding="utf-8")
    loaded = pendragon.load_game("grail-cup", players=4, track_file=str(path))
    assert loaded.max_game_length() == loaded.length_cap() == grail_cup_game.length_cap()
    assert grail_cup_game.max_length(4, False) == 60008
    shipped = pendragon.load_game("grail-cup", players=4)
    assert shipped.max_game_length() < 1500 and shipped.length_cap() == 60008


# ---------------------------------------------------------------- the hard cap's proof steps
def spans(seen: list[tuple[int, int]]) -> list[int]:
    """Steps between two changes of the counter in ``seen`` (``(version, counter)`` after
    every step), and from the last change to the end; the first span (with the set-up's
    steps) left out."""
    found, start, last = [], 0, seen[0][1]
    for version, value in seen:
        if value != last:
            if start:
                found.append(version - start)
            start, last = version, value
    if start:
        found.append(seen[-1][0] - start)
    return found


def counter(game: str, state: State) -> int:
    """The counter of the hard cap's unit: Shadows over Camelot's turns played, the card
    game's seat to play (it changes at every turn with 2 seats or more), Grail Cup's round."""
    if game == "soc":
        return int(state.turns)  # type: ignore[attr-defined]
    if game == "soc-card":
        return int(state.turn)  # type: ignore[attr-defined]
    return int(state.round_no)  # type: ignore[attr-defined]


def adversary(game: str, policy: str, seed: int, players: int) -> list[Any]:
    """Random players, a player always pressing the first or the last key, or (Shadows
    over Camelot) the staller."""
    if policy == "random":
        return [make_bot("random", seed + s, game) for s in range(players)]
    if policy == "staller":
        return [Staller(seed + s) for s in range(players)]
    return [Stubborn(policy == "last")] * players


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from([(game, options) for game, setups in SETUPS.items()
                              for options in setups]),
       players=st.integers(1, 8), seed=st.integers(0, 2**31),
       policy=st.sampled_from(["random", "first", "last", "staller"]))
def test_every_unit_of_play_stays_within_the_caps_allowance(
        setup: tuple[str, dict[str, Any]], players: int, seed: int, policy: str) -> None:
    """The invariants the hard caps' proofs rest on (docs/rules/<game>.md, "Game length"),
    over random and adversarial players, any seed, any measured setup: a Shadows over Camelot
    turn takes at most ``MAX_STEPS_PER_TURN`` steps and the game at most 400 rounds
    (SOC-RULING-45); a card game turn at most ``MAX_STEPS_PER_TURN`` (2 seats or more) and
    the game at most 27 x 68 turns; a Grail Cup round at most ``MAX_STEPS_PER_ROUND`` and
    the game at most 60 rounds (GC-RULING-13). So the game ends within ``length_cap``."""
    game, options = setup
    supported = counts(game, options)
    players = supported[players % len(supported)]
    if policy == "staller" and game != "soc":
        policy = "random"
    loaded = pendragon.load_game(game, players=players, seed=seed, **options)
    bots = adversary(game, policy, seed, players)
    state = loaded.new_initial_state()
    seen = [(0, counter(game, state))]
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(state.sample_chance() if player == CHANCE else bots[player].step(state))
        seen.append((state.version, counter(game, state)))
    module = MODULES[game]
    units = spans(seen)
    first = next((version for version, value in seen if value != seen[0][1]), 0)
    assert first <= module.MAX_SETUP_STEPS + (module.MAX_STEPS_PER_ROUND if game == "grail-cup"
                                              else module.MAX_STEPS_PER_TURN)
    if game == "soc":
        assert max(units, default=0) <= module.MAX_STEPS_PER_TURN
        assert state.turns <= 400 * players  # type: ignore[attr-defined]
    elif game == "soc-card":
        if players > 1:
            assert max(units, default=0) <= module.MAX_STEPS_PER_TURN
            assert len(units) + 1 <= (module.MAX_LAYINGS + 1) * module.MAX_TURNS_BETWEEN
    else:
        assert max(units, default=0) <= module.MAX_STEPS_PER_ROUND
        assert state.round_no <= 60  # type: ignore[attr-defined]
    assert state.version <= loaded.length_cap()


@pytest.mark.parametrize("game", GAMES)
def test_heuristic_games_stay_within_the_research_bound(game: str) -> None:
    """The heuristic bots (among the longest players measured) on new seeds at every count."""
    for players in counts(game, {}):
        for seed in (7, 8):
            loaded = pendragon.load_game(game, players=players, seed=50_000 + seed)
            final = play_game(loaded, [make_bot("heuristic", seed * 10 + s, game)
                                       for s in range(players)])
            assert final.version <= loaded.max_game_length()


@pytest.mark.parametrize("game", GAMES)
def test_a_search_game_stays_within_the_research_bound(game: str) -> None:
    """ISMCTS (a small budget, to stay quick) plays a whole game within the bound."""
    players = 4 if game != "soc" else 3
    loaded = pendragon.load_game(game, players=players, seed=60_001)
    final = play_game(loaded, [ISMCTSBot(seed=s, iterations=8, budget=8, min_iterations=1)
                               for s in range(players)])
    assert final.version <= loaded.max_game_length()


# ------------------------------------------------------------ truncated, refused, replayed
def shortened_class(game: str, *, bound: int | None = None, cap: int | None = None) -> Any:
    """``game``'s class declaring ``bound`` as its research bound and ``cap`` as its hard
    cap (an interpreted subclass: the compiled game classes allow one)."""
    base = pendragon.game_class(game)

    class Short(base):  # type: ignore[valid-type,misc]
        @property
        def info(self) -> GameInfo:
            real = super().info
            research = real.max_game_length if bound is None else bound
            hard = max(real.length_cap, real.max_game_length) if cap is None else cap
            return GameInfo(real.name, real.long_name, real.min_players, real.max_players,
                            real.num_distinct_actions, research, real.min_utility,
                            real.max_utility, real.observation_tensor_size,
                            max(hard, research))

        def max_game_length(self) -> int:
            return int(self.info.max_game_length)

        def length_cap(self) -> int:
            return int(self.info.length_cap)

    return Short


def shortened(game: str, *, bound: int | None = None, cap: int | None = None) -> Any:
    """``pendragon.load_game`` giving ``game`` the figures of :func:`shortened_class`."""
    short = shortened_class(game, bound=bound, cap=cap)
    real_load = pendragon.load_game

    def load(name: str, **options: Any) -> Any:
        return short(options) if name == game else real_load(name, **options)

    return load


def length(game: str, seed: int) -> int:
    """Steps of a 4-seat random game."""
    loaded = pendragon.load_game(game, players=4, seed=seed)
    return play_game(loaded, [make_bot("random", s, game) for s in range(4)]).version


@pytest.mark.parametrize("game", GAMES)
def test_the_runner_refuses_only_past_the_hard_cap(game: str) -> None:
    """The hard cap is enforced: the runner stops a game that reaches it unfinished
    (``GameTooLongError``), as it would a rules bug; a game past the research bound but
    within the cap is played to its end (tests/test_records.py::
    test_a_record_longer_than_the_game_can_be_is_refused: a record past the cap is refused)."""
    full = length(game, 5)
    cut = shortened(game, bound=full - 1, cap=full - 1)(game, players=4, seed=5)
    with pytest.raises(GameTooLongError, match=f"hard cap of {full - 1} actions"):
        play_game(cut, [make_bot("random", s, game) for s in range(4)])
    past_bound = shortened(game, bound=full // 2)(game, players=4, seed=5)
    assert past_bound.max_game_length() < full <= past_bound.length_cap()
    final = play_game(past_bound, [make_bot("random", s, game) for s in range(4)])
    assert final.is_terminal() and final.version == full


@pytest.mark.parametrize("game", GAMES)
def test_the_environments_truncate_a_game_at_its_research_bound(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 40 item 6: a learner (or a policy among the opponents) that would play on past
    the research bound is cut there: Gymnasium's ``truncated`` and every PettingZoo agent's
    truncation, no reward."""
    import pendragon.envs
    from pendragon.envs import ENVIRONMENTS
    from pendragon.envs.gymnasium_env import PendragonGymEnv

    gym = PendragonGymEnv(game=game, players=4, opponents="random")
    gym.reset(seed=3)
    limit = gym.unwrapped._state.version + 6  # a few steps after the learner's first turn
    monkeypatch.setattr(pendragon, "load_game", shortened(game, bound=limit))
    observation, _ = gym.reset(seed=3)
    done = truncated = False
    while not done:
        action = int(observation["action_mask"].nonzero()[0][0])
        observation, reward, done, truncated, info = gym.step(action)
        if truncated:
            break
    assert truncated and not done and reward == 0.0 and info == {"too_long": True}
    assert gym.unwrapped._state.version >= limit and not gym.action_masks().any()

    env = getattr(pendragon.envs, ENVIRONMENTS[game].pettingzoo_name).env(players=4)
    env.reset(seed=3)
    play_until_truncated(env, lambda: int(env.last()[0]["action_mask"].nonzero()[0][0]))
    assert env.unwrapped._state.version == limit


def play_until_truncated(env: Any, pick: Any) -> None:
    """Play the PettingZoo ``env`` with ``pick()``'s actions until every agent is done,
    each by truncation (reward 0), never by the game's end."""
    for _agent in env.agent_iter():
        _, reward, terminated, truncation, _ = env.last()
        if terminated or truncation:
            assert truncation and not terminated and reward == 0.0
            env.step(None)
            continue
        env.step(pick())


#: A research bound the Geraint game passes (the real one is 3 times the longest game
#: measured, so no measured game passes it; this stands for a longer legal game).
GERAINT_BOUND = 2000


def test_a_legal_game_past_the_research_bound_is_truncated_never_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 40 item 6, docs/research.md "Game lengths": the stalling Geraint's legal game
    (8,431 steps) under a research bound of 2,000: Gymnasium truncates it (``truncated``,
    reward 0) and PettingZoo too (every agent's truncation) at the bound; the runner plays
    it to its end (it is within the hard cap) and its record replays through records.py;
    only a hard cap below its length makes the runner refuse it."""
    import pendragon.envs
    from pendragon.envs import ENVIRONMENTS
    from pendragon.envs.gymnasium_env import PendragonGymEnv

    options = {key: value for key, value in GERAINT.items() if key != "seed"}
    monkeypatch.setattr(pendragon, "load_game", shortened("soc", bound=GERAINT_BOUND))
    gym = PendragonGymEnv(game="soc", opponents=Stubborn(True), **options)  # seat 0 learns
    observation, _ = gym.reset(seed=GERAINT["seed"])
    truncated = done = False
    while not (done or truncated):  # the learner, too, presses the last legal key
        observation, reward, done, truncated, info = gym.step(
            gym.unwrapped._state.legal_actions()[-1])
    assert truncated and not done and reward == 0.0 and info == {"too_long": True}
    assert GERAINT_BOUND <= gym.unwrapped._state.version < GERAINT_STEPS

    env = getattr(pendragon.envs, ENVIRONMENTS["soc"].pettingzoo_name).env(**options)
    env.reset(seed=GERAINT["seed"])
    play_until_truncated(env, lambda: env.unwrapped._state.legal_actions()[-1])
    assert env.unwrapped._state.version == GERAINT_BOUND

    loaded = pendragon.load_game("soc", **GERAINT)
    assert loaded.max_game_length() == GERAINT_BOUND < loaded.length_cap()
    final = play_game(loaded, [Stubborn(True)] * 3)
    assert final.is_terminal() and final.version == GERAINT_STEPS
    record = record_of(final, [RecordSeat(f"last {s}", None) for s in range(3)])
    replayed = replay_record(record)
    assert replayed.final.serialize() == final.serialize()
    assert len(replayed.actions) == GERAINT_STEPS

    refused = shortened("soc", bound=GERAINT_BOUND, cap=GERAINT_STEPS - 1)("soc", **GERAINT)
    with pytest.raises(GameTooLongError):
        play_game(refused, [Stubborn(True)] * 3)


def test_openspiel_ends_a_game_at_its_research_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenSpiel is told the research bound: a legal game that reaches it unfinished ends
    there for OpenSpiel, truncated (terminal, no legal action, every return 0), and
    OpenSpiel's own random-simulation checks accept such games."""
    pyspiel = pytest.importorskip("pyspiel")
    import pendragon.envs.openspiel  # noqa: F401  (registers the games)

    monkeypatch.setattr(pendragon, "load_game", shortened("soc", bound=40))
    spiel = pyspiel.load_game("python_pendragon_soc", {"players": 3})
    assert spiel.max_game_length() == 40
    state = spiel.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 40 and state.truncated()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == [] and state.returns() == [0.0, 0.0, 0.0]
    assert not state.pendragon_state.is_terminal()  # the rules would play on
    pyspiel.random_sim_test(spiel, num_sims=3, serialize=False, verbose=False)


def test_morgans_chain_is_bounded_by_no_rule_of_the_turn() -> None:
    """Issue 40 item 6, SOC-B-MORGAN-3, SOC-BLACK-5 (docs/rules/soc.md, "Game length"): why
    the hard cap's 200 steps a turn are not proved. In a position whose black deck and
    discard pile hold only Morgan's chain card, every refill brings it back and each return
    draws three more: 2,000 steps pass in one turn with more draws pending than at the start.
    (The position is set by hand; it is not shown reachable: Morgan 4 never leaves the game.)"""
    import pendragon.games.soc.rules.actions as A
    from pendragon.games.soc.rules.cards import MORGAN_3, NUM_BLACK
    from pendragon.games.soc.rules.data import T

    state: Any = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
    bot = make_bot("random", 1, "soc")
    while state.current_player() == CHANCE or state.top()[0] != T.D_EVIL:
        player = state.current_player()
        state.apply_action(state.sample_chance() if player == CHANCE else bot.step(state))
    state.black_deck = tuple(int(kind == MORGAN_3) for kind in range(NUM_BLACK))
    state.black_discard, state.black_top, state.black_bottom = (0,) * NUM_BLACK, (), ()
    turn, start = state.turns, state.version
    state.apply_action(A.DRAW_BLACK)
    pending = []
    while state.version - start < 2000:
        assert state.turns == turn and not state.is_terminal()
        player = state.current_player()
        legal = [] if player == CHANCE else state.legal_actions()
        state.apply_action(state.sample_chance() if player == CHANCE else
                           A.PASS if A.PASS in legal else legal[-1])
        pending.append(sum(task[0] == T.CHAIN_DRAW for task in state.agenda))
    assert pending[-1] > max(pending[:10]) >= 1


def test_the_terminal_refuses_only_past_the_hard_cap() -> None:
    """Issue 40 item 6: the terminal plays a game past the research bound to its end (typing
    1 at every prompt) and raises ``GameTooLongError`` only at the hard cap."""
    import io

    from rich.console import Console

    from pendragon.cli.terminal import TerminalGame

    def run(**figures: int) -> str:
        game = shortened("grail-cup", **figures)("grail-cup", players=4, seed=5)
        bots = {s: make_bot("random", s, "grail-cup") for s in range(1, 4)}
        shown = io.StringIO()
        console = Console(file=shown, width=120)
        assert TerminalGame(game, 0, bots, console, lambda _prompt: "1").run() == 0
        return shown.getvalue()

    assert "wins the Grail Cup in round" in run(bound=10)  # far past the research bound
    with pytest.raises(GameTooLongError, match="still running after 10 actions"):
        run(bound=10, cap=10)
