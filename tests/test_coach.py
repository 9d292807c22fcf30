"""The coach (issue 31 items 2, 3 and 4): hints and reviews from one seat's information,
marks by documented thresholds, the review's command line and the terminal's hint."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

import pendragon
from pendragon.bots.heuristic import HeuristicBot
from pendragon.cli.main import main
from pendragon.cli.review_cli import sparkline
from pendragon.cli.terminal import TerminalGame
from pendragon.coach import (
    THRESHOLDS,
    Budget,
    Estimate,
    decisions_of,
    estimate,
    hint,
    mark_for,
    review,
)
from pendragon.coach.hint import reason_for
from pendragon.core.api import CHANCE, State
from pendragon.i18n import LANGUAGES, catalog
from pendragon.records import RecordSeat, read_record, record_of, replay_record, write_record
from pendragon.runner import bot_seed, play_game
from tests.test_honest_histories import _twins

#: A small search: tests check behaviour, not the strength of the figures.
SMALL = 600


# ---------------------------------------------------------------------- item 2: hints
@pytest.mark.parametrize("case", [("soc", 13, 60), ("soc-card", 1, 20), ("grail-cup", 3, 40)],
                         ids=lambda case: case[0])
def test_a_hint_does_not_change_when_other_seats_hidden_information_is_redealt(
        case: tuple[str, int, int]) -> None:
    """Issue 31 item 2: a hint is computed from its seat's information only, as bots are
    (tests/test_honest_histories.py builds games the seat cannot tell apart: another
    loyalty deal, other seats' cards or clover tokens dealt otherwise)."""
    state, twins = _twins(*case)
    seat = state.current_player()
    found = hint(state, seat, budget=SMALL, seed=3).to_json()
    for twin in twins:
        assert hint(twin, seat, budget=SMALL, seed=3).to_json() == found


def test_a_hint_is_the_searchs_move_with_a_reason_in_every_language() -> None:
    """Issue 31 item 2: the move, its chance, and a sentence built from the figures."""
    state = pendragon.load_game("grail-cup", players=3, seed=2).new_initial_state()
    state.play_random_chance()
    found = hint(state, budget=SMALL, seed=1)
    assert found.action in state.legal_actions()
    assert found.chance == dict((a, c) for a, _, c in found.alternatives)[found.action]
    assert found.reason.params["chance"] == round(100 * found.chance)
    for language in LANGUAGES:
        text = catalog(language).render(found.reason)
        assert f"{found.reason.params['chance']}" in text and "{" not in text


def test_the_reason_says_when_another_move_reads_higher_within_the_noise() -> None:
    """Issue 31 item 2: the reason is honest: the search keeps its policy's move unless
    beaten with confidence, and then says that the other's higher figure is noise."""
    state = pendragon.load_game("grail-cup", players=3, seed=2).new_initial_state()
    state.play_random_chance()
    legal = state.legal_actions()
    seat = state.current_player()
    close = Estimate(seat, "own", legal[0], legal[0],
                     {legal[0]: (1.0, -1.0), legal[1]: (1.0, 1.0),
                      **{a: (-1.0, -1.0) for a in legal[2:]}})
    assert reason_for(state, close).key == "coach.hint.close"
    clear = Estimate(seat, "own", legal[0], legal[0],
                     {a: (1.0, 1.0) if a == legal[0] else (-1.0, 1.0) for a in legal})
    reason = reason_for(state, clear)
    assert reason.key == "coach.hint.better"
    assert (reason.params["chance"], reason.params["other_chance"]) == (100, 50)
    only = Estimate(seat, "own", legal[0], legal[0], {legal[0]: (1.0, -1.0)})
    assert reason_for(state, only).key == "coach.hint.only"


def test_the_runner_up_is_told_apart_where_both_moves_read_certain() -> None:
    """Issue 38 item 3: a hint's runner-up is the move the sweeps rank next, even where the
    model's level puts two moves past 100% (`compared` shifts the search's rewards): the
    clamped chances tie, the paired sweeps do not."""
    state = pendragon.load_game("grail-cup", players=3, seed=2).new_initial_state()
    state.play_random_chance()
    legal = state.legal_actions()
    seat = state.current_player()
    rewards = {a: (-1.0, -1.0) for a in legal}
    rewards[legal[0]] = (1.1, 1.3)
    rewards[legal[1]] = (1.05, 1.05)
    rewards[legal[2]] = (1.4, 1.2)
    found = Estimate(seat, "own", legal[0], legal[0], rewards)
    assert {found.chance(a) for a in legal[:3]} == {1.0}
    assert found.ranked()[:3] == [legal[2], legal[0], legal[1]]
    assert reason_for(state, found).params["other"] == state.action_event(legal[2])


def test_a_traitors_chance_is_its_own_side_and_the_chart_turns_it_round() -> None:
    """Issue 31 item 2: a traitor's estimate is the traitors' chance; the loyal side's is
    one minus it."""
    traitor = Estimate(0, "traitors", 1, 1, {1: (1.0, 1.0, 1.0, -1.0)})
    assert traitor.chance(1) == 0.75 and traitor.loyal_chance(1) == 0.25
    assert Estimate(0, "own", 1, 1, {1: (1.0,)}).loyal_chance(1) is None


def test_a_hint_is_asked_at_the_seats_own_decision() -> None:
    state = pendragon.load_game("grail-cup", players=3, seed=2).new_initial_state()
    state.play_random_chance()
    other = (state.current_player() + 1) % 3
    with pytest.raises(ValueError, match="not to act"):
        estimate(state, other, budget=SMALL)


# ---------------------------------------------------------------------- item 3: reviews
def test_marks_follow_the_documented_thresholds_on_the_drop() -> None:
    """Issue 31 item 3: inaccuracy from 5 points, mistake from 10, blunder from 20; none
    within two standard errors of the paired sweeps, nor over fewer than six sweeps."""
    assert dict(THRESHOLDS) == {"blunder": 0.20, "mistake": 0.10, "inaccuracy": 0.05}
    assert [mark_for(d) for d in (0.0, 0.049, 0.05, 0.099, 0.10, 0.199, 0.20, 0.9)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert mark_for(0.30, error=0.16) is None
    assert mark_for(0.30, error=0.14) == "blunder"
    assert mark_for(0.30, sweeps=5) is None


def _heuristic_game(name: str, players: int, seed: int) -> tuple[pendragon.Game, State]:
    game = pendragon.load_game(name, players=players, seed=seed)
    return game, play_game(game, [HeuristicBot(bot_seed(seed, s)) for s in range(players)])


def test_a_review_reproduces_with_its_seed() -> None:
    """Issue 31 item 3: every generator is seeded: the same game, actions and seed give
    the same figures, and every decision (not chance, not forced moves) is reviewed."""
    game, final = _heuristic_game("soc-card", 3, 4)
    small = Budget(actions=100, min_sweeps=1, max_sweeps=2)
    first = review(game, final.history(), seed=7, budget=small)
    assert review(game, final.history(), seed=7, budget=small).to_json() == first.to_json()
    assert [m.index for m in first.moves] == decisions_of(game, final.history())
    assert set(first.chart) == {"loyal"}
    assert all(0 <= c <= 1 for _, c in first.chart["loyal"])
    for move in first.moves:
        expected = 0.0 if move.best == move.played else max(0.0, move.before - move.after)
        assert move.drop == expected


def test_a_review_refuses_an_unfinished_game() -> None:
    game, final = _heuristic_game("grail-cup", 2, 1)
    with pytest.raises(ValueError, match="finished"):
        review(game, final.history()[:-5], budget=Budget(actions=50, min_sweeps=1, max_sweeps=1))


def test_a_clearly_bad_move_is_a_blunder() -> None:
    """Issue 31 item 3: in a Grail Cup race near its end (seed 2, 3 knights, heuristic
    play to action 92), seat 0 may move 3 spaces or 1; the search reads move:3 as a sure
    win and move:1 as a near-certain loss (found with budget 1500). Played move:1, then the
    game finished by the bots: the review marks that move a blunder, with move:3 best."""
    game = pendragon.load_game("grail-cup", players=3, seed=2)
    bots = [HeuristicBot(bot_seed(2, s)) for s in range(3)]
    state = game.new_initial_state()
    while state.version < 92:
        player = state.current_player()
        state.apply_action(state.sample_chance() if player == CHANCE else bots[player].step(state))
    assert state.current_player() == 0
    bad = state.string_to_action("move:1")
    state.apply_action(bad)
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(state.sample_chance() if player == CHANCE else bots[player].step(state))
    done = review(game, state.history(), only={92})
    (move,) = done.moves
    assert (move.index, move.played_text, move.best_text) == (92, "move:1", "move:3")
    assert move.mark == "blunder", move


def test_a_card_game_review_takes_a_moves_drop_from_the_search_where_the_model_misreads(
        ) -> None:
    """Issue 38 item 3, "a move is marked only when its drop is real": in the card game
    (seed 3, 5 players, heuristic bots, a random move at 5% of the decisions as
    ``bench.review_marks`` plays them) seat 0 goes on the Saxons' quest at action 177
    where the heuristic listens. The model reads the quest 2.5 points higher (no drop);
    100 paired playouts from the real position lose 32 points more after it. The review
    (the card game's coach marks by the search) takes the drop from the search's paired
    sweeps (24 points, 6 its standard error, 32 sweeps: a blunder) and marks it; with the
    model's drops it would not. *before* is the model's reading either way, *after*
    before less the search's drop."""
    from pendragon.coach.estimate import coach_for
    from pendragon.training import explorer

    assert coach_for("soc-card").marks == "search"
    game = pendragon.load_game("soc-card", players=5, seed=3)
    moved: dict[int, int] = {}
    bots = [HeuristicBot(bot_seed(3, s)) for s in range(5)]
    actions = play_game(game, bots, deviate=explorer(0.05, 3, moved)).history()
    assert 177 in moved
    by_search = review(game, actions, only={177})
    by_model = review(game, actions, only={177}, marks="model")
    (searched,), (read,) = by_search.moves, by_model.moves
    # The record says which search judged the drops (none where the model's stand).
    assert by_search.to_json()["compare_budget"] == {
        "actions": 4 * by_search.budget.actions, "min_sweeps": 6, "max_sweeps": 32}
    assert by_model.to_json()["compare_budget"] is None
    assert (searched.played_text, searched.best_text) == ("quest:saxons", "listen")
    assert read.mark is None and read.drop < 0.05
    assert searched.mark is not None and searched.drop >= 0.10
    assert searched.drop > 2 * searched.drop_error and searched.sweeps >= 6
    assert searched.before == pytest.approx(read.before, abs=1e-12)
    assert searched.after == pytest.approx(searched.before - searched.drop)
    with pytest.raises(ValueError, match="marks"):
        review(game, actions, only={177}, method="search", marks="model")
    with pytest.raises(ValueError, match="marks"):
        review(game, actions, only={177}, marks="rollouts")  # type: ignore[arg-type]


def test_a_card_game_hint_compares_its_moves_as_the_review_does() -> None:
    """Issue 38 item 3: in the card game a hint's moves are compared by the search on top
    of the model, as a review judges them: at the position above (seed 3, action 177) the
    hint's move is listening, the Saxons' quest reads what the review's *after* reads (the
    same seeded search) and not above it, and the hint's chance is the model's."""
    from pendragon.coach.estimate import budget_for, compare_budget, model_estimate
    from pendragon.training import explorer

    game = pendragon.load_game("soc-card", players=5, seed=3)
    moved: dict[int, int] = {}
    bots = [HeuristicBot(bot_seed(3, s)) for s in range(5)]
    actions = play_game(game, bots, deviate=explorer(0.05, 3, moved)).history()
    state = game.new_initial_state()
    state.replay(actions[:177])
    given = hint(state)
    (judged,) = review(game, actions, only={177}).moves
    chances = {text: chance for _, text, chance in given.alternatives}
    assert given.action_text == judged.best_text == "listen"
    assert given.sweeps == compare_budget(budget_for("soc-card", 5)).max_sweeps
    assert chances["quest:saxons"] == pytest.approx(judged.after, abs=1e-12)
    assert chances["quest:saxons"] < chances["listen"] - 0.1
    model = model_estimate(state, state.current_player())
    assert given.chance == pytest.approx(model.chance(given.action), abs=1e-12)


def test_a_soc_review_keeps_only_the_model_marks_the_search_confirms() -> None:
    """Issue 38 item 3: Shadows over Camelot's model marks moves that lose little, so the
    search confirms each of its marks (the soc coach's ``marks="confirmed"``). In
    ``bench.review_marks``'s game 7 of seed 7 (5 players, a random move at 2% of the
    decisions) the model marks a move to Lancelot at action 93, a move to the Black Knight
    at 379 and a sacrifice at 395 (not the random Clairvoyance at 141); the search lifts the
    last two (its drop within 2 of its errors, ``mark_for``'s ``gap``) and keeps the first with its
    own drop, errors and sweeps.
    A move the model does not mark is never searched: its figures are the model's."""
    from pendragon.coach.estimate import coach_for
    from pendragon.simulate import game_seed
    from pendragon.training import explorer

    assert coach_for("soc").marks == coach_for("grail-cup").marks == "confirmed"
    seed = game_seed(7, 7)
    game = pendragon.load_game("soc", players=5, seed=seed)
    moved: dict[int, int] = {}
    bots = [pendragon.bots.make_bot("heuristic", bot_seed(seed, s), "soc") for s in range(5)]
    actions = play_game(game, bots, deviate=explorer(0.02, seed, moved)).history()
    assert {93, 141, 379, 395} <= set(moved)
    read = {m.index: m for m in review(game, actions, only=set(moved), marks="model").moves}
    kept = {m.index: m for m in review(game, actions, only=set(moved)).moves}
    assert {i for i, m in read.items() if m.mark} == {93, 379, 395}
    assert {i for i, m in kept.items() if m.mark} == {93}
    assert kept[93].played_text == "move:lancelot" and kept[93].sweeps > read[93].sweeps
    assert kept[93].drop > 2 * kept[93].drop_error > 0  # the search's own evidence
    for lifted in (379, 395):
        assert kept[lifted].sweeps > read[lifted].sweeps  # searched, and lifted
        assert kept[lifted].drop <= 2 * kept[lifted].drop_error
    unmarked = [i for i, m in read.items() if m.mark is None]
    assert unmarked and all(kept[i].to_json() == read[i].to_json() for i in unmarked)


def test_grail_cup_charts_each_knight() -> None:
    game, final = _heuristic_game("grail-cup", 3, 3)
    done = review(game, final.history(), budget=Budget(actions=50, min_sweeps=1, max_sweeps=1))
    assert sorted(done.chart) == ["seat 0", "seat 1", "seat 2"]
    assert all(m.loyal_before is None for m in done.moves)


# ---------------------------------------------------------------------- the terminal
def _record(tmp_path: Path, finished: bool = True) -> Path:
    game, final = _heuristic_game("grail-cup", 2, 5)
    if not finished:
        state = game.new_initial_state()
        state.replay(final.history()[:20])
        final = state
    path = tmp_path / ("game.json" if finished else "unfinished.json")
    write_record(path, record_of(final, [RecordSeat("Ann", None), RecordSeat("Bob", "random")]))
    return path


def test_pendragon_review_writes_the_figures_and_a_chart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31 item 3: ``pendragon review FILE --json OUT --chart FILE``."""
    pytest.importorskip("matplotlib")
    record = _record(tmp_path)
    out, png, svg = tmp_path / "review.json", tmp_path / "chart.png", tmp_path / "chart.svg"
    assert main(["review", str(record), "--json", str(out), "--chart", str(png),
                 "--budget", "100", "--lang", "en"]) == 0
    data = json.loads(out.read_text())
    assert data["format"] == "pendragon-review" and data["game"] == "grail-cup"
    assert data["moves"] and set(data["chart"]) == {"seat 0", "seat 1"}
    assert data["record"]["seats"] == ["Ann", "Bob"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    printed = capsys.readouterr().out
    assert "Seat 0 (Ann)" in printed and "Wrote the chart" in printed
    # How the game ended, in the game's own words, the seat by its record's name: the winner
    # reached the finish.
    final = replay_record(read_record(record)).final
    (winner,) = [seat for seat, reward in enumerate(final.returns()) if reward > 0]
    ending = [line for line in printed.splitlines() if line.startswith("How it ended: ")]
    assert len(ending) == 1, printed
    name = ("Ann", "Bob")[winner]
    assert f"Seat {winner} ({name}) reaches the finish and wins" in ending[0], ending
    assert main(["review", str(record), "--chart", str(svg), "--budget", "100",
                 "--lang", "en"]) == 0
    drawn = svg.read_text()
    assert drawn.lstrip().startswith("<?xml")
    # Its words are text, the ending under the title among them.
    assert "How it ended: " in drawn and "reaches the finish and wins" in drawn


@pytest.mark.parametrize("content", ["{not json", '{"format": "chess-pgn"}', ""])
def test_pendragon_review_refuses_a_broken_file(tmp_path: Path, content: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content)
    assert main(["review", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("pendragon: error:") and "Traceback" not in error


def test_pendragon_review_refuses_an_unfinished_game_and_an_unknown_chart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(_record(tmp_path, finished=False))]) == 2
    assert "unfinished" in capsys.readouterr().err
    assert main(["review", str(_record(tmp_path)), "--chart", str(tmp_path / "c.jpg")]) == 2
    assert ".png or .svg" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.json")]) == 2


def test_sparkline() -> None:
    assert sparkline([0.0, 1.0]) == "▁█" and sparkline([]) == ""


def test_the_terminal_prints_a_hint_when_asked() -> None:
    """Issue 31 item 2: ``hint`` at the prompt prints the coach's move (its menu number)
    and the reason, in the player's language; the help names it."""
    lines = iter(["?", "hint"])

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    game = pendragon.load_game("grail-cup", players=2, seed=2)
    buffer = io.StringIO()
    console = Console(file=buffer, width=200, highlight=False)
    TerminalGame(game, 0, {1: HeuristicBot(1)}, console, read, catalog("pl")).run()
    shown = buffer.getvalue()
    assert "hint" in shown and catalog("pl").text("term.help.hint") in shown
    assert "Najlepszy ruch:" in shown or "Jedyny ruch:" in shown
    assert "Szansa na wygraną (ty)" in shown


def test_every_coach_message_is_worded_in_every_language() -> None:
    """Issue 31 item 2: the reasons, sides and marks exist in all four catalogs (the
    catalogs' own completeness test checks the rest)."""
    keys = [f"coach.hint.{k}" for k in ("better", "close", "only")]
    keys += [f"coach.side.{k}" for k in ("loyal", "traitors", "own")]
    keys += [f"coach.mark.{k}" for k, _ in THRESHOLDS]
    for language in LANGUAGES:
        words = catalog(language)
        assert all(key in words for key in keys), language
