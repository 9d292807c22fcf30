"""Table talk between bot knights (SOC-TURN-3, SOC-RULING-71): what a knight says, who is
heard, and the worlds of the search that listens."""

from __future__ import annotations

import random

import pytest

import pendragon
from pendragon.bots import ISMCTSBot, bot_names, check_bot, make_bot, table_bots
from pendragon.bots.base import RoleBot
from pendragon.cli.main import main
from pendragon.core.api import CHANCE, State
from pendragon.games.soc.rules.cards import NUM_WHITE, WHITE_BY_KEY
from pendragon.games.soc.talk import (
    Statement,
    TableTalk,
    TalkingSearch,
    statement,
    statement_of_counts,
)
from pendragon.runner import play_game


def _midgame(seed: int, players: int = 5, steps: int = 60, **options: object) -> State:
    """A soc game played ``steps`` random moves in, chance included."""
    state = pendragon.load_game("soc", players=players, seed=seed, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance())
    return state


def _near_the_end(seed: int, before: int = 12) -> State:
    """A soc game without a traitor, heuristic knights, ``before`` decisions from its end."""
    game = pendragon.load_game("soc", players=3, seed=seed, no_traitor=True)
    bots = [make_bot("heuristic", seat, "soc") for seat in range(3)]
    found: list[State] = []

    def keep(state: State, player: int, action: int) -> None:
        if player != CHANCE and len(state.legal_actions()) > 1:
            found.append(state.clone())

    play_game(game, bots, on_event=keep)
    return found[-before]


def test_a_knight_states_his_strength_in_grades_never_a_count() -> None:
    """SOC-RULING-71 (SOC-TURN-3): "three Grail cards" may not be said, nor hinted at by a
    grade that only one count gives; two hands that differ only in how many cards of a grade
    they hold say the same."""
    assert statement({"grail": 3}) == statement({"grail": 5}) == Statement(0, 0, 2, 0, 0)
    assert statement({"grail": 1}) == statement({"grail": 2}) == Statement(0, 0, 1, 0, 0)
    assert statement({}).grail == 0
    assert statement({"fight-1": 1, "fight-2": 1}).war == 1  # "some"
    assert statement({"fight-1": 3}).war == statement({"fight-1": 2, "fight-3": 5}).war == 2
    assert statement({"fight-4": 1}).blows == statement({"fight-5": 1, "fight-any": 1}).blows == 1
    assert statement({"fight-5": 2, "fight-any": 1}).blows == 2
    # Every grade but "none" is said of more than one count of its cards.
    for word, key in ((0, "fight-1"), (1, "fight-5"), (2, "grail")):
        for grade in (1, 2):
            counts_saying = [n for n in range(1, 8) if statement({key: n})[word] == grade]
            assert len(counts_saying) >= 2, (word, grade, counts_saying)
    assert statement({"merlin": 3}).magic == statement({"merlin": 1}).magic == 1
    assert statement({"heroism": 1}).sleeve == statement({"dispel": 2, "truce": 1}).sleeve == 1
    counts = [0] * NUM_WHITE
    counts[WHITE_BY_KEY["fight-3"]] = 4
    assert statement_of_counts(counts) == statement({"fight-3": 4})


def test_only_the_seats_that_speak_are_heard_and_from_their_own_hand() -> None:
    """SOC-RULING-71: a listener hears the other speakers (the bots), never a seat that does
    not speak (a person's), nor itself; what it hears is each one's own hand graded."""
    state = _midgame(3)
    heard = TableTalk(speakers=[0, 1, 3]).heard(state, 1)
    assert sorted(heard) == [0, 3]
    for seat, said in heard.items():
        assert said == statement(state.observation(seat)["you"]["hand"])
    assert sorted(TableTalk().heard(state, 4)) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="not all seats"):  # a seat the table has not
        TableTalk(speakers=[1, 5]).heard(state, 1)


def test_a_fitted_world_agrees_with_the_loyal_speakers_and_keeps_the_listeners_view() -> None:
    """SOC-RULING-71: the listening search's worlds agree with what each loyal speaker said
    far more often than the uniform redeal does; no card is made or lost, and the listener
    sees the same game in every world."""
    fitted = drawn = speakers = 0
    for seed in range(6):
        state = _midgame(seed, no_traitor=True)
        talk = TableTalk(steps=200)
        said = talk.heard(state, 0)
        rng = random.Random(seed)
        for _ in range(10):
            world = state.resample_hidden(0, rng)
            drawn += sum(statement_of_counts(world.hands[p]) == said[p] for p in said)
            talk.fit(world, 0, said, rng)
            world.check_invariants()
            assert world.observation(0) == state.observation(0)
            fitted += sum(statement_of_counts(world.hands[p]) == said[p] for p in said)
            speakers += len(said)
    assert fitted >= 0.95 * speakers > drawn
    # The listening search's own worlds, every seat a bot, are the fitted ones.
    bot = TalkingSearch(0)
    bot.hear_bots(frozenset(range(5)))
    heard = TableTalk().heard(state, 0)
    worlds = [bot.world_for(state, 0) for _ in range(10)]
    agree = sum(statement_of_counts(w.hands[p]) == heard[p] for w in worlds for p in heard)
    assert agree >= 0.95 * len(worlds) * len(heard)


def test_a_knight_holding_the_traitor_card_in_a_world_is_not_taken_at_his_word() -> None:
    """SOC-TURN-3 lets a knight lie: in a world where the speaker is the traitor, his hand
    stays as drawn, whatever he said."""
    state = _midgame(5)
    said = {seat: Statement(2, 2, 2, 1, 1) for seat in (1, 2)}
    rng = random.Random(1)
    world = state.resample_hidden(0, rng).with_traitors(0, [2], rng)
    before = [list(hand) for hand in world.hands]
    TableTalk(steps=200).fit(world, 0, said, rng)
    assert world.hands[2] == before[2]
    assert world.hands[1] != before[1] or statement_of_counts(before[1]) == said[1]


def test_a_table_of_listening_searches_plays_whole_games() -> None:
    """SOC-TURN-3: the listening search plays the rules' game to its end (an illegal choice
    would raise), with and without a traitor, and does search (sweeps over fitted worlds)."""
    for seed, options in ((1, {"no_traitor": True}), (2, {})):
        game = pendragon.load_game("soc", players=4, seed=seed, **options)
        bots = [TalkingSearch(seat, iterations=8, budget=1500) for seat in range(4)]
        sweeps: list[int] = []

        def count(state: State, player: int, action: int,
                  bots: list[TalkingSearch] = bots, sweeps: list[int] = sweeps) -> None:
            searched = bots[player].last_search if player != CHANCE else None
            sweeps.append(searched[0] if searched else 0)

        assert play_game(game, bots, on_event=count).is_terminal()
        assert sum(sweeps) > 0


def test_the_talking_search_hears_only_seats_it_is_told_are_bots() -> None:
    """SOC-TURN-3, SOC-RULING-71: the bot ``talking`` hears no one until a runner whose
    every seat is a bot tells it so (``play_game``, the simulator); told nothing (a table
    with people) it draws the very worlds, and makes the very choices, of the search."""
    state = _midgame(3, no_traitor=True)
    seat = state.current_player()
    bot = make_bot("talking", 5, "soc")
    assert isinstance(bot, TalkingSearch) and bot.talk is None
    plain = ISMCTSBot(5)
    worlds = [(bot.world_for(state, seat), plain.world_for(state, seat)) for _ in range(4)]
    assert all(a.hands == b.hands for a, b in worlds)
    late = _near_the_end(3)  # where the search searches
    deaf, search = (TalkingSearch(5, iterations=6), ISMCTSBot(5, iterations=6))
    assert deaf.step(late) == search.step(late) and deaf.last_search == search.last_search
    assert deaf.last_search is not None
    bot.hear_bots(frozenset(range(5)))
    assert bot.talk is not None
    assert sorted(bot.talk.heard(state, seat)) == [s for s in range(5) if s != seat]
    # The simulator's runner tells every seat's bot, through a RoleBot too.
    game = pendragon.load_game("soc", players=3, seed=4, no_traitor=True)
    bots = [RoleBot(TalkingSearch(s, iterations=6, budget=600), make_bot("random", s))
            for s in range(3)]
    assert play_game(game, bots).is_terminal()
    talks = [b.loyal.talk for b in bots if isinstance(b.loyal, TalkingSearch)]
    assert [None if t is None else t.speakers for t in talks] == [frozenset(range(3))] * 3


def test_tables_with_people_do_not_seat_the_talking_search() -> None:
    """SOC-TURN-3: people's words are not machine-readable and they would not hear the
    bots', so ``talking`` plays only among bots: the simulator takes it (``check_bot``
    without people), a table with people (the lobby, ``pendragon play``) neither offers nor
    seats it."""
    assert "talking" in bot_names("soc") and "talking" not in table_bots("soc")
    assert check_bot("talking", "soc") == "talking"
    with pytest.raises(ValueError, match="plays only where every seat is a bot"):
        check_bot("talking", "soc", people=True)
    assert main(["play", "soc", "--players", "3", "--bots", "talking"]) == 2
