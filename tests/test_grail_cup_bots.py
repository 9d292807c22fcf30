"""Grail Cup's heuristic bot (``games/grail_cup/heuristic.py``): legal whole games at every
table size, nothing read beyond the seat's view, its draft memory, and its choices in
positions with a clear answer (rule IDs from ``docs/rules/grail-cup.md``).

Win rates and game lengths are measured by ``bench/grail_cup_bars.py``, never asserted here.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import pendragon
from bench import grail_cup_bars
from pendragon.bots import HeuristicBot, ISMCTSBot
from pendragon.bots.heuristic import game_policy, rollout_policy
from pendragon.core.api import CHANCE, State
from pendragon.games.grail_cup.heuristic import (
    GrailCupBot,
    belief,
    pick_order,
    rollout_bot,
)
from pendragon.games.grail_cup.rules.data import ALLY_KEYS, FAIRY, UNICORN
from pendragon.games.grail_cup.rules.fixtures import load_state
from pendragon.games.grail_cup.rules.state import GrailCupState
from pendragon.runner import bot_seed, play_game
from tests.seat_view import SeatView


def _text(state: State, action: int) -> str:
    return state.action_to_string(action)


def _draft_position(spaces: list[int], aside: list[str], seal: int = -1) -> GrailCupState:
    """A 4-player round about to be drafted: the allies set aside are forced (GC-DRAFT-1),
    the dragon out of the way on the first space."""
    state = load_state({"players": 4, "phase": "draft", "dragon": 0, "seal": seal,
                        "knights": [{"space": s} for s in spaces]})
    for key in aside:
        state.apply_text(f"ally:{key}")
    return state


# ---------------------------------------------------------------------- whole games
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_heuristic_and_rollout_bots_play_legal_whole_games(players: int) -> None:
    """GC-ROUND-1, GC-END-1: every decision of whole games at every table size is legal,
    one bot object per seat (heuristic) or one for the whole table (the rollout policy, as
    search rollouts use it), and every game ends with one winner."""
    for seed, shared in ((players, False), (players + 100, True)):
        game = pendragon.load_game("grail-cup", players=players, seed=seed)
        table_bot = rollout_bot(seed)
        bots = [table_bot if shared else GrailCupBot(bot_seed(seed, s)) for s in range(players)]
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(state.sample_chance())
                continue
            action = bots[seat].step(state)
            assert action in state.legal_actions(), (seat, _text(state, action))
            state.apply_action(action)
            decisions += 1
        assert sorted(state.returns()) == [-1.0] * (players - 1) + [1.0]
        assert decisions > 10 * players


def test_the_plugin_offers_the_heuristic_and_its_rollout_policy() -> None:
    """The plugin names both factories; the generic ``heuristic`` bot delegates to them."""
    assert game_policy("grail-cup") is GrailCupBot
    assert repr(rollout_policy("grail-cup", 3)) == "GrailCupBot(seed=3)"
    game = pendragon.load_game("grail-cup", players=4, seed=9)
    seeds = [bot_seed(game.seed, s) for s in range(4)]
    via_registry = play_game(game, [HeuristicBot(s) for s in seeds])
    direct = play_game(game, [GrailCupBot(s) for s in seeds])
    assert via_registry.history() == direct.history()


# ---------------------------------------------------------------------- hidden information
@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
def test_decisions_use_only_what_the_seat_may_know(players: int) -> None:
    """GC-RULING-20: at every decision of a whole game the bot chooses the same action on
    the true state, on a world where everything the seat cannot see is redealt
    (``resample_hidden``: the other hands, the allies set aside face down, the clover
    tokens) and on an object offering only the seat's observation and legal actions.
    The three twins have the same seed and have seen the same decisions."""
    game = pendragon.load_game("grail-cup", players=players, seed=50 + players)
    true, redealt, blind = GrailCupBot(7), GrailCupBot(7), GrailCupBot(7)
    rng = random.Random(players)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        action = true.step(state)
        assert redealt.step(state.resample_hidden(seat, rng)) == action
        assert blind.step(SeatView(state)) == action  # type: ignore[arg-type]
        state.apply_action(action)
        checked += 1
    assert checked > 30


def test_an_ismcts_bot_that_never_overrules_plays_the_heuristic_game() -> None:
    """``ismcts`` works unchanged: with no budget for a search it plays its policy (this
    heuristic) on determinisations only, and the game is the heuristic table's game, action
    for action; with a budget it searches and still plays legally."""
    game = pendragon.load_game("grail-cup", players=4, seed=77)
    seeds = [bot_seed(game.seed, s) for s in range(4)]
    plain = play_game(game, [GrailCupBot(s) for s in seeds])
    policy_only = play_game(game, [ISMCTSBot(s, budget=1) for s in seeds])
    assert policy_only.history() == plain.history()
    state = load_state({"players": 4, "dragon": 0,
                        "knights": [{"space": 45}, {"space": 47}, {"space": 30}, {"space": 20}],
                        "hands": {0: ["fairy"], 1: ["princess"]}, "call": 8})
    bot = ISMCTSBot(seed=1, iterations=4, min_iterations=2, budget=10**6)
    assert bot.step(state) in state.legal_actions()
    assert bot.last_search is not None


# ---------------------------------------------------------------------- memory
def test_the_bot_remembers_what_it_passed_and_to_whom() -> None:
    """GC-DRAFT-3, GC-RULING-17: after its pick the record lists the allies the seat passed
    and the seat that received them, which is exactly the packet that seat then drafts
    from; the record of a 3-player seat holds both its passes (GC-DRAFT-4)."""
    for players, seed in ((4, 3), (5, 8), (3, 11)):
        game = pendragon.load_game("grail-cup", players=players, seed=seed)
        bots = [GrailCupBot(s) for s in range(players)]
        state = game.new_initial_state()
        matched = 0
        while state.observation(None)["round"] < 2:
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(state.sample_chance())
                continue
            if state.decision_event().key == "grail-cup.decision.draft":
                packet = sorted(state.observation(seat)["you"]["packet"])
                # Who has seen this very packet before: the seat that passed it.
                for passer, bot in enumerate(bots):
                    record = bot.memory(passer)
                    if passer == seat or record is None or record.round != 1:
                        continue
                    for passed, receiver in record.passed:
                        names = sorted(ALLY_KEYS[c] for c in passed)
                        if names == packet:
                            assert receiver == seat
                            matched += 1
            state.apply_action(bots[seat].step(state))
        assert matched >= players - 1  # every pass but the last drafter's discard
        for seat, bot in enumerate(bots):
            record = bot.memory(seat)
            assert record is not None and record.round == 1
            per_hand = 2 if players == 3 else 1
            assert len(record.seen) == len(record.passed) == per_hand
            for (passed, receiver), seen in zip(record.passed, record.seen, strict=True):
                assert len(passed) == len(seen) - 1
                assert receiver == -1 or 0 <= receiver < players


def test_memory_resets_when_a_new_game_starts() -> None:
    """A bot that has played a whole game then plays a second one exactly as a new bot
    with the same seed would: its records and tie-break generator start afresh."""
    first = pendragon.load_game("grail-cup", players=4, seed=5)
    second = pendragon.load_game("grail-cup", players=4, seed=6)
    used = [GrailCupBot(s) for s in range(4)]
    play_game(first, used)
    assert any(bot.memory(seat) is not None for seat, bot in enumerate(used))
    again = play_game(second, used)
    fresh = play_game(second, [GrailCupBot(s) for s in range(4)])
    assert again.history() == fresh.history()


def test_beliefs_follow_the_draft() -> None:
    """GC-DRAFT-3, GC-DRAFT-5, GC-CALL-2: the third drafter of four passed two allies to
    the last, who kept one and discarded the other (each 1/2 with him); the allies it never
    saw lie with the two drafters before it or face down (1/3 each); allies called and not
    revealed are with nobody."""
    state = _draft_position([10, 20, 15, 40], ["squire", "merlin", "blacksmith", "priest"])
    for text in ("keep:dragon-tamer", "pass:left", "keep:princess", "keep:sorceress",
                 "keep:unicorn"):
        state.apply_text(text)
    assert state.decision_event().key == "grail-cup.decision.curse"
    bot = GrailCupBot(1)
    record = bot.remember(state.observation(2))
    assert record.passed == [((FAIRY, UNICORN), 3)]
    odds = belief(state.observation(2), record)
    assert odds[3] == {FAIRY: 0.5, UNICORN: 0.5}
    assert odds[0] == pytest.approx({4: 1 / 3, 5: 1 / 3, 6: 1 / 3})
    assert odds[1] == odds[0]


# ---------------------------------------------------------------------- the draft
def test_draft_denies_the_leader_an_ally_that_wins() -> None:
    """GC-DRAFT-3, GC-ALLY-PRINCESS-1, GC-END-1: the first player (last knight) would keep
    the Unicorn for itself, but when the leader one seat on could ride the Princess to the
    finish (the next castle is the finish from space 48), it keeps the Princess."""
    aside = ["squire", "merlin", "priest", "sorceress"]
    calm = _draft_position([20, 32, 30, 28], aside)
    assert _text(calm, GrailCupBot(1).step(calm)) == "keep:unicorn"
    danger = _draft_position([20, 48, 30, 28], aside)
    assert danger.observation(0)["you"]["packet"] == calm.observation(0)["you"]["packet"]
    assert _text(danger, GrailCupBot(1).step(danger)) == "keep:princess"


def test_draft_keeps_the_ally_that_wins_the_race() -> None:
    """GC-ALLY-PRINCESS-1, GC-ALLY-FAIRY-1, GC-END-1: six spaces from the finish, the
    Princess (next castle: the finish) and the Fairy win; the bot, first player by the seal
    (GC-ROUND-2), keeps one of them rather than the Dragon Tamer's five steps and dragon."""
    state = _draft_position([49, 20, 30, 28], ["squire", "merlin", "priest", "sorceress"],
                            seal=0)
    assert state.current_player() == 0
    packet = state.observation(0)["you"]["packet"]
    assert {"fairy", "princess", "dragon-tamer"} <= set(packet)
    assert _text(state, GrailCupBot(1).step(state)) in ("keep:princess", "keep:fairy")


def test_pick_order_follows_the_direction() -> None:
    """GC-DRAFT-3, GC-DRAFT-4, GC-RULING-3, GC-RULING-17: left is seat + 1, right seat - 1;
    with three players the draft goes round twice around a random discard."""
    assert pick_order(5, 3, 1) == [3, 4, 0, 1, 2]
    assert pick_order(5, 3, -1) == [3, 2, 1, 0, 4]
    assert pick_order(3, 1, -1) == [1, 0, 2, -3, 1, 0, 2]


# ---------------------------------------------------------------------- the calling
def test_the_sorceress_curses_an_ally_passed_to_the_leader() -> None:
    """GC-ALLY-SORCERESS-1, GC-ALLY-SORCERESS-2: the bot (seat 2, on 16) passed the Fairy
    and the Unicorn to the leader (on 40); it curses one of those two, not an ally held by
    the knights behind or beside it."""
    state = _draft_position([10, 20, 15, 40], ["squire", "merlin", "blacksmith", "priest"])
    for text in ("keep:dragon-tamer", "pass:left", "keep:princess", "keep:sorceress",
                 "keep:unicorn"):
        state.apply_text(text)
    choice = _text(state, GrailCupBot(1).step(state))
    assert choice in ("curse:fairy", "curse:unicorn")


def test_the_sorceress_curses_her_own_ally_when_its_sure_step_is_worth_most() -> None:
    """GC-RULING-10, GC-ALLY-SORCERESS-2: at 3 players her player's own Fairy may be cursed,
    a sure step when it is called. Leading a close race, the bot takes it over a swap with a
    knight behind it; with a rival far ahead, it curses an ally he may hold instead. The
    same seed gives the same choice."""
    def position(spaces: list[int]) -> GrailCupState:
        return load_state({"players": 3, "knights": [{"space": s} for s in spaces],
                           "hands": {0: ["sorceress", "fairy"], 1: ["merlin", "squire"],
                                     2: ["unicorn", "priest"]}})

    close = position([13, 12, 11])
    assert "curse:fairy" in [_text(close, a) for a in close.legal_actions()]
    assert _text(close, GrailCupBot(1).step(close)) == "curse:fairy"
    assert _text(close, GrailCupBot(1).step(close)) == _text(close, GrailCupBot(1).step(close))
    behind = position([13, 35, 11])
    assert _text(behind, GrailCupBot(1).step(behind)) != "curse:fairy"


def test_the_squire_names_the_leader() -> None:
    """GC-ALLY-SQUIRE-1, GC-ALLY-SQUIRE-2: far behind, the Squire names the knight most
    likely to lead at the end of the round, for the jump in front of him."""
    state = load_state({"players": 4, "dragon": 0,
                        "knights": [{"space": 12}, {"space": 30}, {"space": 20}, {"space": 24}],
                        "hands": {0: ["squire"], 1: ["priest"], 2: ["fairy"], 3: ["princess"]},
                        "call": 2})
    assert state.decision_event().key == "grail-cup.decision.name"
    assert _text(state, GrailCupBot(1).step(state)) == "name:1"


def test_the_dragon_tamer_blocks_the_leader_not_itself() -> None:
    """GC-ALLY-TAMER-1, GC-DRAGON-2, GC-RULING-6: the leader has no spear; the dragon goes
    on the space just in front of him, never on our own five steps."""
    state = load_state({"players": 4, "dragon": 2,
                        "knights": [{"space": 20}, {"space": 10}, {"space": 12}, {"space": 40}],
                        "hands": {0: ["dragon-tamer"], 3: ["princess"]}, "call": 5})
    assert state.decision_event().key == "grail-cup.decision.dragon"
    assert _text(state, GrailCupBot(1).step(state)) == "dragon:41"


def test_a_spear_is_spent_on_the_dragon_and_the_fairy_goes_all_the_way() -> None:
    """GC-ALLY-FAIRY-1, GC-DRAGON-2, GC-RULING-4: with a spear, the Fairy takes six steps
    past the dragon (rather than stopping short of it), and the spear is spent."""
    state = load_state({"players": 4,
                        "knights": [{"space": 18, "spears": 1}, {"space": 10}, {"space": 12},
                                    {"space": 30}],
                        "hands": {0: ["fairy"]}, "call": 8})
    bot = GrailCupBot(1)
    assert _text(state, bot.step(state)) == "move:6"
    state.apply_text("move:6")
    assert state.decision_event().key == "grail-cup.decision.spear"
    assert _text(state, bot.step(state)) == "spear:yes"


def test_the_fake_grail_and_the_magnet_aim_at_the_leader() -> None:
    """GC-CLOVER-FAKE, GC-CLOVER-MAGNET, GC-RULING-8: the token pushes back the leader, not
    a knight behind; the Magnet robs the leader, who still has the dragon ahead of him."""
    spaces = {"players": 4, "dragon": 45, "call": 8, "hands": {0: ["fairy"]}}
    fake = load_state({**spaces, "clovers": {30: "fake-grail"},
                       "knights": [{"space": 26}, {"space": 12}, {"space": 38}, {"space": 8}]})
    fake.apply_text("move:4")
    assert fake.decision_event().key == "grail-cup.decision.fake-grail"
    assert _text(fake, GrailCupBot(1).step(fake)) == "target:2"
    magnet = load_state({**spaces, "clovers": {30: "magnet"},
                         "knights": [{"space": 26}, {"space": 12, "spears": 1},
                                     {"space": 38, "spears": 1}, {"space": 8}]})
    magnet.apply_text("move:4")
    assert magnet.decision_event().key == "grail-cup.decision.magnet"
    assert _text(magnet, GrailCupBot(1).step(magnet)) == "target:2"


def test_merlin_brings_the_boots_he_knows_within_reach() -> None:
    """GC-ALLY-MERLIN-1, GC-ALLY-MERLIN-2, GC-CLOVER-BOOTS, GC-RULING-11: Merlin (on 28)
    knows Seven-league Boots lie on 38; he looks at the clover space within his three steps
    (30, a Goblin) and at 38, puts the Boots on 30 and moves onto them."""
    state = load_state({"players": 4, "dragon": 0, "call": 3,
                        "clovers": {30: "goblin", 38: "boots"}, "clover_known": {38: [0]},
                        "knights": [{"space": 28}, {"space": 12}, {"space": 14}, {"space": 44}],
                        "hands": {0: ["merlin"]}})
    bot = GrailCupBot(1)
    looks = []
    while state.decision_event().key != "grail-cup.decision.merlin-move":
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        action = bot.step(state)
        if _text(state, action).startswith("look:"):
            looks.append(_text(state, action))
        state.apply_action(action)
    assert looks[:2] == ["look:30", "look:38"]
    assert state.observation(0)["you"]["clovers"]["30"] == "boots"
    assert _text(state, bot.step(state)) == "move:2"


def test_the_bars_benchmark_runs_and_writes_its_figures(tmp_path: Path) -> None:
    """``bench/grail_cup_bars.py`` end to end on one deal (its figures are never asserted):
    each deal is played with the lone bot on each of the four seats."""
    argv = ["--random-deals", "1", "--ismcts-deals", "1", "--length-deals", "2",
            "--iterations", "2", "--budget", "10", "--no-pin", "--output", str(tmp_path)]
    assert grail_cup_bars.main(argv) == 0
    payload = json.loads((tmp_path / "grail_cup_bars.json").read_text(encoding="utf-8"))
    assert payload["heuristic_vs_random"]["games"] == 4
    assert payload["ismcts_vs_heuristic"]["games"] == 4
    rounds = payload["heuristic_rounds"]
    assert rounds["games"] == 2 and sum(rounds["histogram"].values()) == 2
