"""The benchmark runs end to end and writes its JSON (its figures are never asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import run
from tests.toygame import ToyGame


def test_bench_writes_results_for_every_player_count(
    toy_registered: type[ToyGame], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tiny run on the toy game: one record per table size, counts that add up."""
    # Each cost is still timed over its 10 calibration calls and at least 10 more; the
    # default 40 ms a position and measurement (20 positions, three measurements, three
    # tables) only makes the figures steadier, which this test never reads.
    monkeypatch.setattr(run, "CLONE_BUDGET_NS", 1_000_000)
    # --no-pin: pinning would tie this pytest worker to one CPU for the rest of the run.
    argv = ["--game", "toy", "--games", "5", "--seconds", "5", "--no-pin", "--output"]
    assert run.main([*argv, str(tmp_path)]) == 0
    payload = json.loads((tmp_path / "toy.json").read_text(encoding="utf-8"))
    assert payload["game"] == "toy" and payload["default_players"] == 2
    assert {"python", "platform", "date"} <= set(payload["machine"])
    results = payload["results"]
    assert [r["players"] for r in results] == [2, 3]
    for record in results:
        assert record["games"] == 5
        assert record["decisions"] > 0 and record["chance_steps"] > 0
        length = (record["decisions"] + record["chance_steps"]) / record["games"]
        assert abs(record["mean_game_length"] - length) < 1e-9
        assert record["clone_positions"] == run.CLONE_POSITIONS
        assert record["clone_us_mean"] > 0 and record["tensor_us_mean"] > 0
        assert record["narrate_us_mean"] > 0


def test_the_strength_benchs_team_plays_the_search_only_on_a_loyal_card() -> None:
    """ISSUE-38 (bench): ``strength --team`` gives the search every loyal seat. A seat reads
    its own loyalty card at each decision (SCG-SETUP-1); a traitor's seat plays the
    heuristic, and a card changed mid-game (SCG-VIVIEN-1, 2) changes the policy."""
    import random

    import pendragon
    from bench.soc_card_bars import loyal_search
    from pendragon.core.api import CHANCE

    played: list[str] = []

    class Marker:
        def __init__(self, name: str) -> None:
            self.name = name

        def step(self, state: pendragon.State) -> int:
            played.append(self.name)
            return state.legal_actions()[0]

    for seed in range(40):  # a deal with a traitor among the five
        state = pendragon.load_game("soc-card", players=5, seed=seed).new_initial_state()
        while state.current_player() == CHANCE:
            state.apply_action(state.sample_chance())
        cards = [state.observation(s)["you"]["loyalty"] for s in range(5)]
        if "traitor" in cards:
            break
    seats = [loyal_search(seat, lambda _: Marker("search"), lambda _: Marker("heuristic"))
             for seat in range(5)]
    first: dict[int, str] = {}
    while len(first) < 5 and not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        del played[:]
        state.apply_action(seats[player].step(state))
        if played:
            first.setdefault(player, played[-1])
    assert [first[s] for s in range(5)] == [
        "heuristic" if c == "traitor" else "search" for c in cards]
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance())
    player = state.current_player()
    other = (player + 1) % 5
    turned = state.with_traitors(other, [player] if cards[player] == "loyal" else [],
                                 random.Random(0))
    assert turned.observation(player)["you"]["loyalty"] != cards[player]
    assert seats[player].policy_for(turned, player).name == (  # type: ignore[attr-defined]
        "heuristic" if cards[player] == "loyal" else "search")
    assert seats[player].policy_for(state, player).name == (  # type: ignore[attr-defined]
        "search" if cards[player] == "loyal" else "heuristic")


def test_the_open_hand_search_reads_the_true_state_where_the_search_draws_a_world() -> None:
    """ISSUE-38 (bench): ``strength --open``'s bound searches the true state: the other
    seats' cards and the traitor's card as they are, where today's search draws them from
    what its seat may believe."""
    import pendragon
    from bench.evaluator import OpenSearch
    from pendragon.bots.ismcts import ISMCTSBot

    state = pendragon.load_game("soc-card", players=5, seed=3).new_initial_state()
    state.play_random_chance()
    while len(state.legal_actions()) < 2:  # a choice to search
        state.apply_action(state.legal_actions()[0])
        state.play_random_chance()
    seat = state.current_player()
    others = [s for s in range(5) if s != seat]
    truth = [state.observation(s) for s in others]
    assert [OpenSearch(1).world_for(state, seat).observation(s) for s in others] == truth
    drawn = [ISMCTSBot(seed).world_for(state, seat) for seed in range(4)]
    assert any([world.observation(s) for s in others] != truth for world in drawn)
    assert all(world.observation(seat) == state.observation(seat) for world in drawn)

    class Counted(OpenSearch):  # the compiled search's sweeps reach the override
        calls = 0

        def world_for(self, state: pendragon.State, seat: int) -> pendragon.State:
            Counted.calls += 1
            return super().world_for(state, seat)

    bot = Counted(1, iterations=4, min_iterations=2, budget=10**6)
    bot.step(state)
    assert bot.last_search is not None
    sweeps, _ = bot.last_search
    assert sweeps >= 2 and Counted.calls >= sweeps


def test_a_search_option_builds_every_search_panel_and_a_bad_one_is_refused() -> None:
    """ISSUE-38 (bench): ``strength --search-option K=V`` reaches every search panel's bot
    (a variant measured on the same paired seeds) and never the heuristic; a keyword the
    search does not take, or a value it refuses, stops the run before a game is played."""
    from bench.evaluator import _panel_bot, search_options
    from pendragon.bots.ismcts import ISMCTSBot

    extra = search_options(["confidence=1.0", "prior_margin=0.05", "budget=9000"])
    for panel in ("model", "search", "talk", "open"):
        bot = _panel_bot("soc", panel, None, 3, extra)
        assert isinstance(bot, ISMCTSBot)
        assert (bot.confidence, bot.prior_margin, bot.budget) == (1.0, 0.05, 9000)
    model = _panel_bot("soc", "model", None, 3, extra)
    assert isinstance(model, ISMCTSBot) and model.evaluator
    assert not isinstance(_panel_bot("soc", "heuristic", None, 3, extra), ISMCTSBot)
    today = _panel_bot("soc", "search", None, 3)
    assert isinstance(today, ISMCTSBot) and today.confidence is None  # the game's own
    for bad in (["depth=3"], ["confidence=-1"], ["budget"], ["confidence=high"]):
        with pytest.raises(SystemExit, match="--search-option"):
            search_options(bad)


def test_a_panel_named_search_option_builds_that_panel_alone() -> None:
    """ISSUE-38 (bench): ``--search-option model:K=V`` builds the model search with it and
    leaves today's search as the bare items make it (two settings timed on the same
    positions by ``cost``); a panel not played, or not a search (the coach), is refused,
    and so is a bad keyword behind a panel's name."""
    from bench.evaluator import _panel_bot, panel_search_options
    from pendragon.bots.ismcts import ISMCTSBot

    extra = panel_search_options(["confidence=2.0", "model:min_iterations=3",
                                  "model:budget=6000"], ("search", "model"))
    model = _panel_bot("soc", "model", None, 3, extra["model"])
    today = _panel_bot("soc", "search", None, 3, extra["search"])
    assert isinstance(model, ISMCTSBot) and isinstance(today, ISMCTSBot)
    assert (model.confidence, model.min_iterations, model.budget) == (2.0, 3, 6000)
    assert today.confidence == 2.0
    assert (today.min_iterations, today.budget) == (ISMCTSBot(3).min_iterations,
                                                    ISMCTSBot(3).budget)
    for bad in (["talk:budget=1"], ["coach:budget=1"], ["model:depth=3"], ["model:"]):
        with pytest.raises(SystemExit, match="--search-option"):
            panel_search_options(bad, ("search", "model", "coach", "heuristic"))


def test_the_ismcts_panel_is_the_games_own_search() -> None:
    """ISSUE-38 (bench): ``--panels ismcts`` plays the bot a user gets by that name
    (``make_bot("ismcts", seed, game)``): soc's is the model search with the measured
    settings, made as the ``model`` panel with those options makes it (so the docs' figures
    of the one are the other's); the card game's is today's search. It takes no search
    options: a bare one with no panel to take it is refused."""
    from bench.evaluator import _panel_bot, panel_search_options
    from pendragon.bots.ismcts import ISMCTSBot

    own = _panel_bot("soc", "ismcts", None, 3)
    model = _panel_bot("soc", "model", None, 3, panel_search_options(
        ["model:confidence=2.0", "model:min_iterations=3", "model:iterations=12",
         "model:budget=6000"], ("model",))["model"])
    assert isinstance(own, ISMCTSBot) and isinstance(model, ISMCTSBot)
    keys = ("seed", "evaluator", "confidence", "min_iterations", "iterations", "budget",
            "rollout_depth", "prior_margin", "rollout", "time_limit")
    assert [getattr(own, k) for k in keys] == [getattr(model, k) for k in keys]
    card = _panel_bot("soc-card", "ismcts", None, 3)
    assert isinstance(card, ISMCTSBot) and not card.evaluator
    with pytest.raises(SystemExit, match="no search panel takes it"):
        panel_search_options(["budget=1"], ("ismcts",))


def test_pool_pairs_the_wins_of_strength_runs_on_other_seeds(tmp_path: Path) -> None:
    """ISSUE-38 (bench, item 5): ``pool`` joins strength runs' per-seed wins and pairs each
    search with the heuristic, and two searches with each other, over all their games (a
    panel not in every file is left out); a file that is not a strength result is refused
    by name."""
    from bench.evaluator import pool

    def run(name: str, model: list[int], heuristic: list[int], **more: list[int]) -> str:
        panels = {"model": model, "heuristic": heuristic, **more}
        path = tmp_path / name
        path.write_text(json.dumps({"results": {p: {"per_seed": w} for p, w in panels.items()}}))
        return str(path)

    found = pool([run("a.json", [1, 1, 0], [0, 1, 0], search=[1, 0, 0]),
                  run("b.json", [1, 0], [0, 0])])
    assert found["games"] == 5 and found["model"]["wins"] == 3
    assert found["model_minus_heuristic"]["points"] == pytest.approx(40.0)
    assert "search" not in found and "model_minus_search" not in found
    assert "by_card" not in found  # files that do not say their game, seats and seed
    # Two settings of one search (``--panels model,ismcts``) are paired with each other too.
    both = pool([run("c.json", [1, 1, 0, 0], [0, 1, 0, 0], ismcts=[0, 1, 1, 1]),
                 run("d.json", [1, 0], [0, 0], ismcts=[0, 1])])
    assert both["model_minus_ismcts"]["points"] == pytest.approx(100 * (3 - 4) / 6)
    assert both["ismcts_minus_heuristic"]["points"] == pytest.approx(100 * (4 - 1) / 6)
    assert "ismcts_minus_model" not in both
    broken = tmp_path / "broken.json"
    for text in ("{", "[1, 2]", '{"settings": 3, "results": {}}'):
        broken.write_text(text)
        with pytest.raises(SystemExit, match="broken.json: not a strength results file"):
            pool([str(broken)])


def test_pool_splits_a_one_seat_run_by_the_searching_seats_dealt_card(tmp_path: Path) -> None:
    """ISSUE-38 (bench): ``pool`` on one-seat strength runs of a Camelot game deals each
    game's cards again from the file's seed (SCG-SETUP-1) and splits the wins by the
    searching seat's card; each group's difference is in points of all the games, so the
    groups add up to the whole."""
    import pendragon
    from bench.evaluator import pool
    from pendragon.core.api import CHANCE
    from pendragon.simulate import game_seed

    games, seed, start = 10, 21, 3
    cards = []
    for k in range(start, start + games):
        state = pendragon.load_game("soc-card", players=5, seed=game_seed(seed, k)
                                    ).new_initial_state()
        while state.current_player() == CHANCE:
            state.apply_action(state.sample_chance())
        cards.append(state.observation(k % 5)["you"]["loyalty"])
    assert "traitor" in cards and "loyal" in cards
    coach = [1] * games
    heuristic = [1 if c == "loyal" else 0 for c in cards]
    path = tmp_path / "one_seat.json"
    path.write_text(json.dumps({"settings": {"seed": seed}, "results": {
        "game": "soc-card", "players": 5, "games": games, "start": start, "team": False,
        "options": {}, "coach": {"per_seed": coach}, "heuristic": {"per_seed": heuristic}}}))
    split = pool([str(path)])["by_card"]
    traitors = cards.count("traitor")
    assert split["traitor"] == {"games": traitors, "coach": traitors, "heuristic": 0,
                                "coach_minus_heuristic": round(100 * traitors / games, 1)}
    assert split["loyal"]["coach_minus_heuristic"] == 0.0


def test_the_coach_panel_plays_the_hints_best_move_at_every_decision() -> None:
    """ISSUE-38 (bench, item 3: can a hint be trusted): ``strength --panels coach`` seats a
    player that plays the coach's move (``hint(...).action``, a hint's best move) at
    every decision with a choice, its only move where it has one; played through a whole
    game on the strength bench's paired seed."""
    import pendragon
    from bench.evaluator import CoachPlayer, _panel_bot, _strength_seed
    from pendragon.coach import hint
    from pendragon.core.api import CHANCE
    from pendragon.simulate import game_seed

    player = _panel_bot("grail-cup", "coach", None, 5)
    assert isinstance(player, CoachPlayer)
    state = pendragon.load_game("grail-cup", players=3, seed=4).new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 6:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        legal = state.legal_actions()
        action = player.step(state)
        if len(legal) > 1:
            assert action == hint(state, seat, seed=5).action
            checked += 1
        state.apply_action(action)
    assert checked == 6
    found, card = _strength_seed(("grail-cup", 3, {}, game_seed(2, 0), 0, None, False,
                                  ("coach", "heuristic"), {}))
    assert set(found) == {"coach", "heuristic"} and all(w in (0, 1) for w, _ in found.values())
    assert found["coach"][1]  # the coach's seat decided, and was timed
    assert card == "loyal"  # Grail Cup deals no loyalty cards


def test_the_strength_bench_tells_the_searching_seats_dealt_card() -> None:
    """ISSUE-38 (bench): a one-seat strength run splits its games by the card the searching
    seat ``k % players`` was dealt (SCG-SETUP-1): a search that plays the traitor better
    gains there what the loyal side never sees. The card is the one the seat's own
    observation shows at the first decision; a team's seats are loyal by construction."""
    import pendragon
    from bench.evaluator import _strength_seed
    from pendragon.core.api import CHANCE
    from pendragon.simulate import game_seed

    seen: set[str] = set()
    for k in range(12):
        if seen == {"loyal", "traitor"}:
            break
        seed = game_seed(21, k)
        state = pendragon.load_game("soc-card", players=5, seed=seed).new_initial_state()
        while state.current_player() == CHANCE:
            state.apply_action(state.sample_chance())
        truth = state.observation(k % 5)["you"]["loyalty"]
        _, card = _strength_seed(("soc-card", 5, {}, seed, k, None, False, ("heuristic",), {}))
        assert card == truth, (k, card, truth)
        if card == "traitor":  # a team's searching seats are loyal by construction
            _, team_card = _strength_seed(("soc-card", 5, {}, seed, k, None, True,
                                           ("heuristic",), {}))
            assert team_card == "loyal"
        seen.add(card)
    assert seen == {"loyal", "traitor"}  # both cards met: the check could fail


def test_the_cost_bench_asks_every_search_at_the_same_positions_of_a_heuristic_game() -> None:
    """ISSUE-38 (bench): ``cost`` times the searches on the *same* positions: the game is
    the heuristic bots' (the searches' own choices set aside), and every panel is asked at
    each decision of a loyal seat with a choice, no more and no fewer; a panel that is not
    a search, or the talk outside Shadows over Camelot, stops the run."""
    import argparse

    import pendragon
    from bench.evaluator import _cost_seed, _panel_bot, cost
    from pendragon.bots.base import holds_loyal_card
    from pendragon.core.api import CHANCE
    from pendragon.runner import bot_seed
    from pendragon.simulate import game_seed

    seed = game_seed(5, 1)
    cheap = {"iterations": 4, "min_iterations": 2, "budget": 300}
    spent, chosen = _cost_seed(("soc-card", 3, {}, seed, ("search", "open"),
                                {"search": cheap, "open": cheap}))
    game = pendragon.load_game("soc-card", players=3, seed=seed)
    bots = [_panel_bot("soc-card", "heuristic", None, bot_seed(seed, s)) for s in range(3)]
    state = game.new_initial_state()
    state.play_random_chance()
    loyal = [s for s in range(3) if holds_loyal_card(state, s)]
    asked = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        asked += player in loyal and len(state.legal_actions()) > 1
        state.apply_action(bots[player].step(state))
    assert asked > 0 and len(spent["search"]) == len(spent["open"]) == asked
    assert all(t >= 0 for t in spent["search"] + spent["open"])
    assert len(chosen["search"]) == len(chosen["open"]) == asked
    # ``served``: the game's own search as a server with the default limits makes it.
    from pendragon.bots.ismcts import ISMCTSBot
    from pendragon.web.limits import Limits

    served, own = (_panel_bot("soc", p, None, 1) for p in ("served", "ismcts"))
    assert isinstance(served, ISMCTSBot) and isinstance(own, ISMCTSBot)
    assert served.budget == Limits().ismcts_budget < own.budget
    for panels, name in (("search,heuristic", "soc"), ("talk", "grail-cup")):
        args = argparse.Namespace(panels=panels, search_option=[], seed=5, start=0, games=1,
                                  workers=1)
        with pytest.raises(SystemExit, match="--panels"):
            cost(name, 3, args, {})


def test_the_overrules_judge_logs_every_search_and_judges_each_overrule_on_paired_playouts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ISSUE-38 (bench): ``bench.overrules`` logs every search of the loyal seats, and judges
    each overrule from the true state by playouts of both actions on common random
    numbers: the same seed plays the same game out, so a tie of the two actions reads 0."""
    import pendragon
    from bench.overrules import main, playout

    state = pendragon.load_game("soc-card", players=3, seed=2).new_initial_state()
    state.play_random_chance()
    first = state.legal_actions()[0]
    assert playout(state, first, 7, 0) == playout(state, first, 7, 0)
    outcomes = {playout(state, first, seed, 0) for seed in range(12)}
    assert len(outcomes) > 1  # the seed does draw other games

    out = tmp_path / "overrules.json"
    assert main(["--players", "3", "--games", "2", "--iterations", "8", "--budget", "800",
                 "--margin", "0", "--oracle", "2", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    found = json.loads(out.read_text())
    overrules, searches = found["overrules"], found["searches"]
    assert f"overrules {len(overrules)};" in printed
    assert f"searches {len(overrules) + len(searches)}," in printed
    assert len(found["wins"]) == 2 and overrules  # with a zero margin, some overrule
    for entry in overrules:
        assert entry["prior"] != entry["choice"]
        assert -2.0 <= entry["oracle_mean"] <= 2.0 and entry["oracle_error"] >= 0.0


def test_the_marks_bench_measures_each_reviewed_random_moves_true_drop_on_paired_playouts(
        ) -> None:
    """ISSUE-38 (bench, item 3: "a move is marked only when its drop is real"):
    ``bench.review_marks`` plays heuristic games with random moves (the training's
    ``explorer``), reviews them at those moves for each way of marking, and measures each
    move not the review's best by paired playouts from the real position: one playout
    set an action, shared by both ways; a move against itself drops nothing; the figures
    count marks by the true drop."""
    import pendragon
    from bench.review_marks import Outcomes, _one_game, summary
    from pendragon.core.api import CHANCE

    rows, spent, count = _one_game(("soc-card", {"players": 3}, 11, 0.3, 3,
                                    ("model", "search")))
    assert count > 0 and set(rows) == set(spent) == {"model", "search"}
    judged = rows["model"] + rows["search"]
    assert judged and all(-1.0 <= r["true"] <= 1.0 and r["played"] != r["best"]
                          for r in judged)
    # The same move with the same best reads the same true drop in both ways' rows.
    by_way = {(r["index"], r["best"]): r["true"] for r in rows["model"]}
    for r in rows["search"]:
        if (r["index"], r["best"]) in by_way:
            assert by_way[r["index"], r["best"]] == r["true"]
    state = pendragon.load_game("soc-card", players=3, seed=2).new_initial_state()
    while state.current_player() == CHANCE or len(state.legal_actions()) < 2:
        state.apply_action(state.sample_chance() if state.current_player() == CHANCE
                           else state.legal_actions()[0])
    first, second = state.legal_actions()[:2]
    outcomes = Outcomes(state.game, state, state.current_player(), 2, 5)
    assert outcomes.drop(first, first) == 0.0
    assert outcomes.wins(first) is outcomes.wins(first)  # played once
    assert outcomes.drop(first, second) == -outcomes.drop(second, first)
    found = summary([{"true": 0.25, "drop": 0.3, "mark": "blunder"},
                     {"true": 0.0, "drop": 0.12, "mark": "mistake"},
                     {"true": 0.15, "drop": 0.0, "mark": None}])
    assert found["truly_20"] == {"moves": 1, "marked": 1}
    assert found["truly_10"] == {"moves": 2, "marked": 1}
    assert found["marked_below_2"] == {"moves": 1, "marked": 1}
    assert found["marked"]["count"] == 2 and found["unmarked"]["points"] == 15.0
    assert 0.0 < found["correlation"] < 1.0
    assert summary([{"true": 0.1, "drop": 0.0, "mark": None}] * 2)["correlation"] is None


def test_the_calibration_bench_reads_runs_of_games_and_picks_decisions_at_random() -> None:
    """Issue 38 item 5 (calibration on held-out seeds): ``--chunk`` reads one run as
    several samples of that many games, each with a calibrated model's figures beside it;
    ``--picks random`` reads decisions drawn at random, as training draws them, not the
    evenly spaced ones (which hang on the game's length)."""
    import argparse
    import random

    import pendragon
    from bench.calibration import sample_states
    from bench.evaluator import calibration
    from pendragon.bots.heuristic import HeuristicBot
    from pendragon.coach.review import decisions_of
    from pendragon.runner import bot_seed, play_game

    game = pendragon.load_game("soc-card", players=3, seed=5)
    actions = play_game(game, [HeuristicBot(bot_seed(5, s)) for s in range(3)]).history()
    decisions = decisions_of(game, actions)
    even = [s.version for s in sample_states(game, actions, 4)[0]]
    drawn = [s.version for s in sample_states(game, actions, 4, random.Random(1))[0]]
    again = [s.version for s in sample_states(game, actions, 4, random.Random(1))[0]]
    assert drawn == again and len(drawn) == 4 and drawn != even
    # The evenly spaced picks are the decisions at 1/8, 3/8, 5/8 and 7/8 of the game; the
    # drawn ones are decisions too (a state's version counts the actions before it).
    step = len(decisions) // 4
    assert even == decisions[step // 2::step][:4]
    assert set(drawn) <= set(decisions)
    args = argparse.Namespace(only="soc-card 3", option=[], games=4, per_game=2, seed=9,
                              panel="heuristic", chunk=2, picks="random")
    table = calibration(args)["soc-card 3"]
    assert table["estimates"] == 8 and len(table["chunks"]) == 2
    for chunk in table["chunks"]:
        assert 0.0 <= chunk["calibration_error"] <= 1.0
        assert chunk["noise_floor"] <= chunk["noise_95"]


def test_the_cover_bench_plays_the_heuristic_first_and_only_the_cover_changes() -> None:
    """SCG-ACCUSE-1, SCG-END-2: ``cover`` compares the traitor's cover on paired seeds. Its
    first panel is the heuristic itself (the same games move for move, so the same
    figures), and each other panel only another cover, which the heuristic reads."""
    from bench.soc_card_headroom import cover_figures, covered
    from pendragon.bots import make_bot
    from pendragon.games.soc_card.heuristic import SocCardHeuristicBot
    from pendragon.games.soc_card.stats import soc_card_stats
    from pendragon.runner import play_game
    from pendragon.simulate import play_paired

    assert covered(0.45)(1).traitor_cover == 0.45
    assert SocCardHeuristicBot.traitor_cover == 0.3  # the bench leaves the heuristic as it is
    finals = play_paired(
        "soc-card", [[covered(SocCardHeuristicBot.traitor_cover)],
                     [lambda seed: make_bot("heuristic", seed, "soc-card")]], 4, 5,
        {"players": 3}, play=play_game)
    assert all(first.history() == second.history() for first, second in finals)
    figures = cover_figures(4, 5, 3, [0.3, 0.45])
    assert set(figures) == {"0.3", "0.45"}
    stats = [soc_card_stats(second) for _, second in finals]
    assert figures["0.3"] == {
        "games": 4, "loyal_won": sum(s["loyal_win"] for s in stats),
        "traitor_games": sum(s["traitor_present"] for s in stats),
        "traitor_won": sum(s["traitor_win"] for s in stats),
        "unmasked": sum(s["traitor_present"] and s["traitor_unmasked"] for s in stats)}
    assert figures["0.45"]["games"] == 4
    # The cover is read where the compiled heuristic decides: a traitor who fears nothing
    # (cover 1) plays another game than the heuristic's on some of the same seeds.
    bolder = play_paired("soc-card", [[covered(0.3)], [covered(1.0)]], 4, 5, {"players": 2},
                         play=play_game)
    assert any(first.history() != second.history() for first, second in bolder)
