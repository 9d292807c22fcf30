"""Issue 40 item 6: every game's ``max_game_length`` is computed from the setup by the
game's rules (``max_length``) and is the figure docs/research.md ("Game lengths") states: for
the card game and Grail Cup a measured bound (3 times the longest game seen over every setup
and policy), for Shadows over Camelot the round cap's bound, which legal games reach; no game
goes past it whoever plays, and a game that would is refused or truncated."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import pendragon
from bench.length_bound import Stubborn  # always the first (or last) legal action
from pendragon.bots import ISMCTSBot, make_bot
from pendragon.games.grail_cup.rules import game as grail_cup_game
from pendragon.games.soc.rules import game as soc_game
from pendragon.games.soc_card.rules import game as soc_card_game
from pendragon.runner import GameTooLongError, play_game

DOC = Path(__file__).resolve().parents[1] / "docs" / "research.md"
LONG_NAMES = {"Shadows over Camelot": "soc", "The Card Game": "soc-card",
              "Grail Cup": "grail-cup"}
#: The games whose bound is measured (``LONGEST_SEEN`` times ``LENGTH_MARGIN``).
MEASURED: dict[str, Any] = {"soc-card": soc_card_game, "grail-cup": grail_cup_game}
GAMES = ["soc", "soc-card", "grail-cup"]
#: The setups measured (bench/length_bound.py's SETUPS), which the bound covers.
SETUPS: dict[str, tuple[dict[str, Any], ...]] = {
    "soc": ({}, {"expansion": "merlins-company"}, {"squires": True},
            {"squires": True, "squires_hard": True}, {"no_traitor": True},
            {"traitor_in_our_midst": True}, {"share": "random", "played_black": "off"}),
    "soc-card": ({}, {"knights_relief": True}, {"promos": True},
                 {"knights_relief": True, "promos": True}),
    "grail-cup": ({},),
}


def documented_bounds() -> dict[tuple[str, int], tuple[int, int]]:
    """``(game, players) -> (longest seen, max_game_length)`` from docs/research.md's table."""
    found = {}
    row = re.compile(r"^\| (Shadows over Camelot|The Card Game|Grail Cup) \| (\d) \|.*"
                     r"\| ([\d,]+) \| ([\d,]+) \|$")
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = row.match(line)
        if match:
            key = (LONG_NAMES[match[1]], int(match[2]))
            found[key] = (int(match[3].replace(",", "")), int(match[4].replace(",", "")))
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


def test_every_setup_declares_the_documented_bound() -> None:
    """The bound is computed from the setup by each game's rules (``max_length``) and is the
    figure of docs/research.md's table for every player count of every measured setup:
    measured games declare the margin times the longest game seen; every longest game seen
    is within its bound."""
    documented = documented_bounds()
    assert {game for game, _ in documented} == set(GAMES)
    for game, setups in SETUPS.items():
        for options in setups:
            for players in counts(game, options):
                longest, bound = documented[(game, players)]
                assert longest <= bound
                if game in MEASURED:
                    module = MEASURED[game]
                    assert module.LONGEST_SEEN[players] == longest, (game, players)
                    assert bound == module.LENGTH_MARGIN * longest
                else:
                    assert bound == soc_game.max_length(players)
                loaded = pendragon.load_game(game, players=players, seed=3, **options)
                assert loaded.max_game_length() == bound, (game, players, options)


def test_the_measured_bounds_are_near_real_games() -> None:
    """Issue 40 item 6: tight, not the rules' caps (367,220 and 60,008): three times the
    longest game seen, never more than 1,500 steps."""
    for (game, _players), (longest, bound) in documented_bounds().items():
        if game in MEASURED:
            assert longest > 0 and bound == 3 * longest <= 1500, game


def test_soc_games_reach_the_round_cap_so_its_bound_must_allow_it() -> None:
    """SOC-RULING-45, MC-KNIGHT-GERAINT: a Geraint who always skips the Progression of Evil
    (the last legal action, always) holds the table until the 400-round cap: a legal game
    of 3 seats 8,425 steps long (bench/length_bound.py's sample), within the bound of
    ``soc_game.max_length``, which no measured figure could replace."""
    loaded = pendragon.load_game("soc", players=3, seed=1057, expansion="merlins-company")
    final = play_game(loaded, [Stubborn(True)] * 3)
    assert final.observation(0)["end_reason"] == "exhausted"
    assert final.observation(0)["turn"]["number"] == 400 * 3 + 1
    assert final.version == 8425 <= loaded.max_game_length() == 72 + 400 * 3 * 200


def test_openspiel_declares_the_documented_bound() -> None:
    """OpenSpiel's ``max_game_length`` is the same figure (envs/openspiel.py)."""
    pyspiel = pytest.importorskip("pyspiel")
    import pendragon.envs.openspiel  # noqa: F401  (registers the games)

    documented = documented_bounds()
    for game in GAMES:
        name = "python_pendragon_" + game.replace("-", "_")
        for players in (counts(game, {})[0], 4):
            spiel = pyspiel.load_game(name, {"players": players})
            assert spiel.max_game_length() == documented[(game, players)][1]


def test_a_grail_cup_track_file_keeps_the_rules_cap(tmp_path: Path) -> None:
    """A track of one's own was never measured: its bound is GC-RULING-13's 60 rounds."""
    from importlib.resources import files

    from pendragon.games.grail_cup.rules.track import STANDARD

    standard = files("pendragon.games.grail_cup.rules").joinpath(STANDARD)
    path = tmp_path / "copy.track"
    path.write_text(standard.read_text(encoding="utf-8"), encoding="utf-8")
    loaded = pendragon.load_game("grail-cup", players=4, track_file=str(path))
    assert loaded.max_game_length() == grail_cup_game.max_length(4, False) == 60008
    assert pendragon.load_game("grail-cup", players=4).max_game_length() < 1500


_SETUP = st.sampled_from([(game, options) for game, setups in SETUPS.items()
                          for options in setups])


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(setup=_SETUP, players=st.integers(1, 8), seed=st.integers(0, 2**31),
       policy=st.sampled_from(["random", "first", "last"]))
def test_no_game_goes_past_its_bound(setup: tuple[str, dict[str, Any]], players: int,
                                     seed: int, policy: str) -> None:
    """Random players and a player who always presses the first or the last key, any seed,
    any measured setup: the game ends within ``max_game_length`` (the runner would raise
    ``GameTooLongError`` past it)."""
    game, options = setup
    supported = counts(game, options)
    players = supported[players % len(supported)]
    loaded = pendragon.load_game(game, players=players, seed=seed, **options)
    bots = ([make_bot("random", seed + s, game) for s in range(players)]
            if policy == "random" else [Stubborn(policy == "last")] * players)
    final = play_game(loaded, bots)
    assert final.is_terminal() and final.version <= loaded.max_game_length()


@pytest.mark.parametrize("game", GAMES)
def test_heuristic_games_stay_within_the_bound(game: str) -> None:
    """The heuristic bots (the longest players measured) on new seeds at every count."""
    for players in counts(game, {}):
        for seed in (7, 8):
            loaded = pendragon.load_game(game, players=players, seed=50_000 + seed)
            final = play_game(loaded, [make_bot("heuristic", seed * 10 + s, game)
                                       for s in range(players)])
            assert final.version <= loaded.max_game_length()


@pytest.mark.parametrize("game", GAMES)
def test_a_search_game_stays_within_the_bound(game: str) -> None:
    """ISMCTS (a small budget, to stay quick) plays a whole game within the bound."""
    players = 4 if game != "soc" else 3
    loaded = pendragon.load_game(game, players=players, seed=60_001)
    final = play_game(loaded, [ISMCTSBot(seed=s, iterations=8, budget=8, min_iterations=1)
                               for s in range(players)])
    assert final.version <= loaded.max_game_length()


def shortened(game: str, limit: int) -> Any:
    """``pendragon.load_game`` for ``game`` whose games declare ``limit`` as their maximum
    length (an interpreted subclass: the compiled game classes allow one)."""
    base = type(pendragon.load_game(game, players=4, seed=0))

    class Short(base):  # type: ignore[valid-type,misc]
        def max_game_length(self) -> int:
            return limit

    def load(name: str, **options: Any) -> Any:
        return Short(options) if name == game else real_load(name, **options)

    real_load = pendragon.load_game
    return load


def length(game: str, seed: int) -> int:
    """Steps of a 4-seat random game."""
    loaded = pendragon.load_game(game, players=4, seed=seed)
    return play_game(loaded, [make_bot("random", s, game) for s in range(4)]).version


@pytest.mark.parametrize("game", GAMES)
def test_a_game_past_its_bound_is_refused(game: str) -> None:
    """The bound is enforced: the runner stops a game that reaches it unfinished
    (``GameTooLongError``), as it would a rules bug (a record longer than it is refused too:
    tests/test_records.py::test_a_record_longer_than_the_game_can_be_is_refused)."""
    full = length(game, 5)
    cut = shortened(game, full - 1)(game, players=4, seed=5)
    with pytest.raises(GameTooLongError, match=f"maximum of {full - 1} actions"):
        play_game(cut, [make_bot("random", s, game) for s in range(4)])
    whole = shortened(game, full)(game, players=4, seed=5)
    assert play_game(whole, [make_bot("random", s, game) for s in range(4)]).version == full


@pytest.mark.parametrize("game", GAMES)
def test_the_environments_truncate_a_game_at_its_bound(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 40 item 6: a learner (or a policy among the opponents) that would play on past
    the bound is cut there: Gymnasium's ``truncated`` and every PettingZoo agent's
    truncation, no reward; under the real bound the same game ends normally."""
    import pendragon.envs
    from pendragon.envs import ENVIRONMENTS
    from pendragon.envs.gymnasium_env import PendragonGymEnv

    gym = PendragonGymEnv(game=game, players=4, opponents="random")
    gym.reset(seed=3)
    limit = gym.unwrapped._state.version + 6  # a few steps after the learner's first turn
    monkeypatch.setattr(pendragon, "load_game", shortened(game, limit))
    observation, _ = gym.reset(seed=3)
    done = truncated = False
    steps = 0
    while not done:
        action = int(observation["action_mask"].nonzero()[0][0])
        observation, reward, done, truncated, info = gym.step(action)
        steps += 1
        if truncated:
            break
    assert truncated and not done and reward == 0.0 and info == {"too_long": True}
    assert gym.unwrapped._state.version >= limit and not gym.action_masks().any()

    env = getattr(pendragon.envs, ENVIRONMENTS[game].pettingzoo_name).env(players=4)
    env.reset(seed=3)
    for _agent in env.agent_iter():
        _, reward, terminated, truncation, _ = env.last()
        if terminated or truncation:
            assert truncation and not terminated and reward == 0.0
            env.step(None)
            continue
        env.step(int(env.last()[0]["action_mask"].nonzero()[0][0]))
    assert env.unwrapped._state.version == limit
