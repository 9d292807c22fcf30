"""The panel of Shadows over Camelot traitor policies and the loyal x traitor matrix
(issue 18, items 2 and 5); rule IDs cited where a test checks a rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import pendragon
from pendragon.bots.base import to_act
from pendragon.bots.random_bot import RandomBot
from pendragon.cli.main import main
from pendragon.core.api import CHANCE, State
from pendragon.games.soc.heuristic import SocHeuristicBot
from pendragon.games.soc.heuristic_policy import SocPolicy
from pendragon.games.soc.stats import soc_stats
from pendragon.games.soc.traitors import (
    TRAITOR_PANEL,
    OpenTraitor,
    PanelRate,
    RoleBot,
    SaboteurTraitor,
    StealthTraitor,
    panel_bots,
    traitor_dealt,
    traitor_panel,
)
from pendragon.runner import bot_seed, play_game
from pendragon.simulate import game_seed


def _traitor_seeds(count: int, base: int = 7) -> list[int]:
    """The first ``count`` game seeds of run ``base`` whose 5-player deal holds a traitor."""
    seeds: list[int] = []
    index = 0
    while len(seeds) < count:
        seed = game_seed(base, index)
        if traitor_dealt(pendragon.load_game("soc", players=5, seed=seed)):
            seeds.append(seed)
        index += 1
    return seeds


def _traitor_seat(state: State) -> int:
    """The traitor's seat (the harness reads every seat's own observation)."""
    for seat in range(state.game.num_players()):
        if state.observation(seat)["you"]["loyalty"] == "traitor":
            return seat
    raise AssertionError("no traitor dealt")


def _decided(state: State, action: int) -> tuple[str, str, list[str]]:
    """The decision, the chosen text and every legal text of ``state``."""
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    decision = state.observation(state.current_player())["waiting"]["decision"]
    return decision, state.action_to_string(action), legal


@pytest.mark.parametrize("name", sorted(TRAITOR_PANEL))
def test_each_panel_traitor_plays_whole_five_player_games(name: str) -> None:
    """Issue 18 item 2: every traitor of the panel plays 5-player games to the end against
    the heuristic loyal knights, every action legal; the traitor seat acts."""
    for seed in _traitor_seeds(2):
        game = pendragon.load_game("soc", players=5, seed=seed)
        bots = panel_bots("heuristic", name, seed, 5)
        traitor_actions = 0

        def check(state: State, player: int, action: int) -> None:
            nonlocal traitor_actions
            assert action in state.legal_actions()
            if player != CHANCE and state.observation(player)["you"]["loyalty"] == "traitor":
                traitor_actions += 1

        final = play_game(game, bots, check)
        assert final.is_terminal()
        assert soc_stats(final)["traitor_present"]
        assert traitor_actions > 0


class _LoyalBranches(SocHeuristicBot):
    """The heuristic with every decision taken on its loyal branches (the reference the
    stealth traitor must match before its decisive moment)."""

    def _is_traitor(self, obs: dict[str, Any]) -> bool:  # type: ignore[override, unused-ignore]
        return False


def test_stealth_traitor_plays_as_the_loyal_heuristic_before_its_decisive_moment() -> None:
    """Issue 18 item 2: before the decisive moment the stealth traitor's choices are the
    loyal heuristic's on the same states (same seed, same record followed); afterwards it
    plays as the heuristic traitor. The Fate choice is left out: it is the heuristic
    traitor's by design (SOC-W-FATE)."""
    compared = flipped_games = 0
    for seed in _traitor_seeds(4, base=11):
        game = pendragon.load_game("soc", players=5, seed=seed)
        state = game.new_initial_state()
        while state.current_player() == CHANCE:
            state.apply_action(state.sample_chance())
        traitor = _traitor_seat(state)
        stealth = StealthTraitor(bot_seed(seed, traitor))
        reference = _LoyalBranches(bot_seed(seed, traitor))
        loyal = [SocHeuristicBot(bot_seed(seed, s)) for s in range(5)]
        in_step = True
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(state.sample_chance())
                continue
            if player != traitor:
                state.apply_action(loyal[player].step(state))
                continue
            obs = state.observation(player)
            if in_step and (obs["waiting"]["decision"] == "fate" or stealth.is_decisive(obs)):
                in_step = False  # from here on the stealth traitor may differ
                flipped_games += stealth.is_decisive(obs)
            action = stealth.step(state)
            if in_step:
                expected = reference.step(state)
                assert action == expected, (seed, state.version, _decided(state, action))
                if len(state.legal_actions()) > 1:
                    compared += 1
            state.apply_action(action)
    assert compared >= 100  # real decisions were compared, not just forced ones
    assert flipped_games >= 1  # and the decisive moment came in some game


def test_stealth_traitor_decisive_moment_thresholds() -> None:
    """Issue 18 item 2: the documented decisive moment (siege engines, black swords, swords
    on the table, its last life, unmasked) and that it lasts."""
    game = pendragon.load_game("soc", players=5, seed=_traitor_seeds(1)[0])
    state = game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance())
    obs = state.observation(_traitor_seat(state))
    bot = StealthTraitor(1)
    assert not bot.is_decisive(obs) and not bot._is_traitor(obs)
    for change in ({"siege_engines": 9}, {"round_table": {"white": 0, "black": 5}},
                   {"round_table": {"white": 6, "black": 4}}):
        fresh = StealthTraitor(1)
        assert fresh.is_decisive({**obs, **change}) and fresh._is_traitor({**obs, **change})
        assert fresh._is_traitor(obs)  # once decisive, for the rest of the game
    knights = [dict(k) for k in obs["knights"]]
    knights[obs["seat"]]["life"] = 1
    assert StealthTraitor(1).is_decisive({**obs, "knights": knights})
    # A loyal seat never plays the traitor's branches.
    loyal_obs = {**obs, "you": {**obs["you"], "loyalty": "loyal"}, "siege_engines": 11}
    assert not StealthTraitor(1)._is_traitor(loyal_obs)


def test_saboteur_never_pays_evil_with_life_when_it_can_draw_black() -> None:
    """Issue 18 item 2 (SOC-EVIL-1): the saboteur draws a black card or adds an engine,
    never a life, while a black card is on offer; it shares rewards to itself
    (SOC-RULING-1) and accuses as soon as accusations are open with a white sword to
    turn (SOC-ACCUSE-1, SOC-ACCUSE-3)."""
    seen: list[tuple[int, str, str, list[str], int]] = []
    for seed in _traitor_seeds(24, base=5):
        game = pendragon.load_game("soc", players=5, seed=seed)

        def record(state: State, player: int, action: int) -> None:
            if player != CHANCE and state.observation(player)["you"]["loyalty"] == "traitor":
                white = int(state.observation(player)["round_table"]["white"])
                seen.append((player, *_decided(state, action), white))

        play_game(game, panel_bots("heuristic", "saboteur", seed, 5), record)
    evils = [c for _p, d, c, legal, _w in seen if d == "evil" and "draw-black" in legal]
    # Sir Percival may peek first (SOC-KNIGHT-PERCIVAL); then he chooses again.
    assert evils and all(c in ("draw-black", "add-siege", "peek") for c in evils)
    shares = [(p, c) for p, d, c, legal, _w in seen if d == "share" and f"seat:{p}" in legal]
    assert all(c == f"seat:{p}" for p, c in shares)
    accusations_open = [c for _p, d, c, legal, white in seen
                        if d == "heroic" and white > 0
                        and any(t.startswith("accuse:") for t in legal)]
    assert all(c.startswith("accuse:") for c in accusations_open)
    assert len(evils) >= 5 and accusations_open and shares


def test_saboteur_evil_choice_is_the_more_harmful() -> None:
    """SOC-END-1: at 11 engines the 12th ends the game, so it adds it; early, with an
    unknown black card on top, it draws."""
    game = pendragon.load_game("soc", players=5, seed=_traitor_seeds(1)[0])
    state = game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance())
    obs = state.observation(_traitor_seat(state))
    texts = {"draw-black": 0, "add-siege": 1, "lose-life": 2}
    bot = SaboteurTraitor(1)
    assert bot.evil_choice({**obs, "siege_engines": 11}, texts) == "add-siege"
    assert bot.evil_choice({**obs, "siege_engines": 1}, texts) == "draw-black"
    assert bot.evil_choice(obs, {"lose-life": 2}) is None


class _Spy:
    """A bot that records the seats it was asked for and plays at random."""

    def __init__(self, seed: int) -> None:
        self.seats: set[int] = set()
        self.random = RandomBot(seed)

    def step(self, state: State) -> int:
        seat, _legal = to_act(state)
        self.seats.add(seat)
        return self.random.step(state)


@pytest.mark.parametrize("no_traitor", [False, True])
def test_role_bot_delegates_by_the_seat_s_own_loyalty(no_traitor: bool) -> None:
    """Issue 18 item 2: one RoleBot for the whole table asks the traitor policy for the
    traitor's seat only (its own loyalty card, SOC-SETUP-5) and the loyal policy for the
    others."""
    seed = _traitor_seeds(1, base=3)[0]
    game = pendragon.load_game("soc", players=5, seed=seed, no_traitor=no_traitor)
    loyal, traitor = _Spy(1), _Spy(2)
    final = play_game(game, [RoleBot(loyal, traitor)] * 5)
    knights = final.observation(None)["knights"]
    traitors = {k["seat"] for k in knights if k["loyalty"] == "traitor"}
    assert traitor.seats == traitors
    assert loyal.seats and loyal.seats.isdisjoint(traitors)
    assert bool(traitors) is not no_traitor


def test_matrix_has_one_cell_per_pair_with_intervals_around_the_rates() -> None:
    """Issue 18 item 5: the matrix has loyal x traitor cells on paired seeds (the same games
    with a traitor in every cell), a reference cell per loyal policy, and each rate inside
    its 95% interval; the result is the same with two workers."""
    loyal, traitors = ("heuristic", "random"), ("random", "saboteur")
    matrix = traitor_panel(players=5, games=6, loyal=loyal, traitors=traitors, seed=4)
    assert [(c.loyal, c.traitor) for c in matrix.cells] == [
        (lo, t) for lo in loyal for t in traitors]
    dealt = sum(traitor_dealt(pendragon.load_game("soc", players=5, seed=game_seed(4, i)))
                for i in range(6))
    assert 0 < dealt < 6  # both kinds of games are in this run
    for cell in matrix.cells:
        assert cell.games == dealt
        seeds = {r.seed for r in matrix.records
                 if r.loyal == cell.loyal and r.traitor == cell.traitor}
        assert len(seeds) == dealt
        for rate in (cell.loyal_win, cell.traitor_unmasked, cell.false_accusation,
                     cell.traitor_win):
            assert rate.games == dealt
            assert rate.low <= rate.rate <= rate.high
        assert cell.loyal_win.count + cell.traitor_win.count == dealt
    for name in loyal:
        reference = matrix.cell(name, None)
        assert reference.games == 6 - dealt and reference.traitor_unmasked.games == 0
    assert traitor_panel(players=5, games=6, loyal=loyal, traitors=traitors, seed=4,
                         workers=2).cells == matrix.cells
    data = matrix.to_dict()
    assert len(data["cells"]) == 4 and len(data["no_traitor_dealt"]) == 2
    json.dumps(data)


def test_matrix_rejects_bad_names_before_playing() -> None:
    """Issue 18 item 5: a clear error for an unknown or repeated name, a bad count."""
    with pytest.raises(ValueError, match="unknown traitor policy 'cunning'; the panel: "
                                         "heuristic, stealth, saboteur, random"):
        traitor_panel(games=1, traitors=["cunning"])
    with pytest.raises(ValueError, match="unknown bot 'oracle' for soc"):
        traitor_panel(games=1, loyal=["oracle"])
    with pytest.raises(ValueError, match="named twice"):
        traitor_panel(games=1, traitors=["random", "random"])
    with pytest.raises(ValueError, match="at least 1"):
        traitor_panel(games=0)
    with pytest.raises(ValueError, match="set by the traitor panel"):
        traitor_panel(games=1, options={"no_traitor": True})
    assert PanelRate.of([]).text() == "—"


def test_balance_traitor_panel_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 18 item 5: ``pendragon balance soc --traitor-panel`` prints the matrix and
    writes it as JSON; an unknown panel name is refused with a clear error."""
    out = tmp_path / "panel.json"
    code = main(["balance", "soc", "--traitor-panel", "--games", "3", "--traitors",
                 "random,saboteur", "--seed", "2", "--json", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "vs random" in printed and "vs saboteur" in printed and "vs stealth" not in printed
    assert "loyal win" in printed and "traitor unmasked" in printed
    assert "accused a loyal" in printed and "no traitor dealt" in printed
    data = json.loads(out.read_text())
    assert data["players"] == 5 and [c["traitor"] for c in data["cells"]] == [
        "random", "saboteur"]
    assert main(["balance", "soc", "--traitor-panel", "--traitors", "cunning"]) == 2
    err = capsys.readouterr().err
    assert ("unknown traitor policy 'cunning'; the panel: heuristic, stealth, saboteur, "
            "random") in err
    assert main(["balance", "soc", "--traitor-panel", "--loyal", "oracle"]) == 2
    assert main(["balance", "soc", "--traitor-panel", "--players", "3,5"]) == 2
    assert main(["balance", "soc", "--traitor-panel", "--players", "9"]) == 2
    assert "between 3 and 8" in capsys.readouterr().err
    assert main(["balance", "grail-cup", "--traitor-panel"]) == 2
    assert main(["balance", "soc", "--traitor-panel", "--json",
                 str(tmp_path / "no-such-dir" / "m.json")]) == 2
    assert main(["balance", "soc", "--traitors", "random"]) == 2  # without --traitor-panel
    assert "--traitor-panel" in capsys.readouterr().err


def test_bench_script_prints_every_bar(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 18's bars: the bench script runs end to end on a few seeds and writes its JSON
    (its figures are never asserted)."""
    from bench import soc_traitor_bars

    out = tmp_path / "bars.json"
    assert soc_traitor_bars.main(["--games", "3", "--seed", "2", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    for line in ("1. traitor unmasked", "2. games where a loyal knight accused",
                 "3. loyal win rate", "4. loyal win rate without", "5. traitor win rate"):
        assert line in printed
    data = json.loads(out.read_text())
    assert data["no_traitor"]["games"] == 3
    assert [c["traitor"] for c in data["matrix"]["cells"]] == list(TRAITOR_PANEL)


def test_heuristic_traitor_harms_openly() -> None:
    """Issue 18 item 2: the heuristic traitor must stay the strongest of the panel. Hiding
    measured weaker than open harm, so it harms openly from the first turn (its hiding
    branches are gone, issue 29): each of its choices is :class:`OpenTraitor`'s on the
    same observation, the saboteur's but for its evil, always a siege engine while one can
    be added (SOC-EVIL-3, SOC-TRAITOR-2)."""
    compared: list[tuple[str, str]] = []
    for seed in _traitor_seeds(3, base=9):
        game = pendragon.load_game("soc", players=5, seed=seed)
        pair = (SocHeuristicBot(seed=4), OpenTraitor(seed=4, track_beliefs=False))
        play_game(game, panel_bots("heuristic", "heuristic", seed, 5),
                  _compare_traitor_choices(pair, compared))
    assert len(compared) > 30
    assert all(a == b for a, b in compared)
    evils = [a for a, _ in compared if a in ("add-siege", "draw-black", "lose-life")]
    assert evils and set(evils) <= {"add-siege", "draw-black"}
    assert evils.count("add-siege") > evils.count("draw-black")


def _compare_traitor_choices(
    pair: tuple[SocPolicy, SocPolicy], out: list[tuple[str, str]]
) -> Any:
    """A ``play_game`` callback recording, at each traitor decision, the two bots' choices."""
    def check(state: State, player: int, _action: int) -> None:
        if player == CHANCE or len(state.legal_actions()) < 2:
            return
        obs = state.observation(player)
        if obs["you"]["loyalty"] != "traitor":
            return
        legal = state.legal_actions()
        out.append((state.action_to_string(pair[0].choose(obs, legal)),
                    state.action_to_string(pair[1].choose(obs, legal))))

    return check
