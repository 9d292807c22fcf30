"""Players leaving (and joining) Shadows over Camelot at random moments (VAR-JOIN).

A leaver dies then and there, and no decision waits on him: each settles without him
(MC-RULING-23). Seeded random games, with every option that changes who decides what (the
expansion, the squires, shares dealt at random), have seats leave at random moments: the
seat to act, another seat, at a decision or at a chance node. After every step the seat to act
is one still at the table, the state is whole (``check_invariants``, the agenda's check), no
card or offer is left with nothing to settle it, and every game reaches its end.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import pendragon
from pendragon.games.soc.rules.data import TASK_NAMES, Status
from pendragon.games.soc.rules.state import SocState

MC = "merlins-company"
#: Every table option that changes who decides what (and the base game).
TABLES: tuple[dict[str, Any], ...] = (
    {}, {"expansion": MC}, {"squires": True}, {"squires": True, "expansion": MC},
    {"expansion": MC, "share": "random"},
)
GAMES = 600
CHUNKS = 4
#: A game's step cap: random play ends long before (the round cap, SOC-RULING-45, is far).
STEPS = 5000

#: The things a rule leaves lying while a task still on the agenda will settle them, and
#: those tasks: with none of them left, the thing lies in limbo for good.
SETTLED_BY: dict[str, frozenset[str]] = {
    "limbo": frozenset(("BLACK_RESOLVE", "EXCAL_OFFER", "BLACK_AFTER_POOL", "D_FACE",
                        "D_WAR_TARGET", "D_ARMOR")),
    "held": frozenset(("D_ARMOR", "D_PERC_BOTTOM", "D_CLAIRV", "CLAIRV_DRAW")),
    "picks": frozenset(("D_CLAIRV",)),
    "offer": frozenset(("SHARE_NEXT",)),
    "siege_cards": frozenset(("D_SIEGE", "SIEGE_RESOLVE")),
    "pledges": frozenset(("BLACK_AFTER_POOL",)),
    "answered": frozenset(("CALL_RESOLVE", "CONVOKE_RESOLVE")),
}


def check_whole(state: SocState, gone: set[int]) -> None:
    """The state is consistent, and nothing of a seat that left remains in play."""
    state.check_invariants()
    state._check_agenda()
    if state.is_terminal():
        return
    player = state.current_player()
    assert player not in gone, f"seat {player} left, yet {state.decision_summary()}"
    assert player < 0 or state.status[player] != Status.DEAD, state.decision_summary()
    for seat in gone:
        assert state.status[seat] == Status.DEAD and not any(state.hands[seat])
    tasks = {TASK_NAMES[task[0]] for task in state.agenda}
    for field, settlers in SETTLED_BY.items():
        assert not getattr(state, field) or tasks & settlers, (
            f"{field} {getattr(state, field)} is left with nothing to settle it: {tasks}")


def play_with_leavers(game_seed: int) -> Counter[str]:
    """One seeded game in which seats leave (and a few join) at random moments; returns the
    decisions at which the seat to act left."""
    rng = random.Random(game_seed)
    options = TABLES[game_seed % len(TABLES)]
    players = rng.choice((3, 4, 5, 6, 7) if options.get("expansion") else (3, 4, 5, 6))
    state = pendragon.load_game("soc", players=players, seed=game_seed,
                                **options).new_initial_state()
    assert isinstance(state, SocState)
    rate = rng.choice((0.003, 0.01, 0.03))
    gone: set[int] = set()
    left_at: Counter[str] = Counter()
    for _ in range(STEPS):
        if state.is_terminal():
            return left_at
        player = state.current_player()
        if rng.random() < rate and len(gone) < state.seat_count() - 1:
            seat = player if player >= 0 and rng.random() < 0.5 else rng.randrange(
                state.seat_count())
            if state.can_leave(seat):
                if seat == player:
                    left_at[state.decision_name()] += 1
                state.leave(seat)
                gone.add(seat)
                check_whole(state, gone)
                continue
        if rng.random() < 0.002 and state.can_join():
            state.join()
        elif player < 0:
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        check_whole(state, gone)
    raise AssertionError(f"game {game_seed} ({options}, {players} players) did not end")


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_no_decision_waits_on_a_seat_that_left(chunk: int) -> None:
    """VAR-JOIN, MC-RULING-23: whenever a seat leaves, the game goes on without it, whole,
    to its end; the leaves hit the seat to act at many kinds of decision."""
    left_at: Counter[str] = Counter()
    for game_seed in range(chunk, GAMES, CHUNKS):
        left_at += play_with_leavers(game_seed)
    # The fuzz reaches the decisions that once waited on a leaver (an acting seat's share,
    # siege fight, black card...), not only the turn's first choice.
    assert len(left_at) >= 10, left_at


@pytest.mark.parametrize("seat", [0, 2])
def test_a_player_who_leaves_during_the_set_up_is_dealt_no_merlin_and_does_not_play_first(
    seat: int,
) -> None:
    """VAR-JOIN, MC-RULING-23, SOC-SETUP-4, SOC-SETUP-7: he leaves before anything is dealt;
    the game starts without him."""
    state = pendragon.load_game("soc", players=4, seed=seat).new_initial_state()
    assert isinstance(state, SocState)
    state.leave(seat)
    rng = random.Random(seat)
    while state.turn_seat < 0:
        player = state.current_player()
        outcomes = [a for a, _ in state.chance_outcomes()] if player < 0 else None
        state.apply_action(rng.choice(outcomes or state.legal_actions()))
        check_whole(state, {seat})
    assert state.turn_seat != seat and state.first_seat != seat
    assert not any(state.hands[seat])
