"""Drive a game from its initial state to the end with one bot per seat.

Chance nodes are resolved with :meth:`State.sample_chance`, the state's own seeded stream,
so a game is reproducible from the game's seed and the bots' seeds alone.

>>> import pendragon
>>> game = pendragon.load_game("soc", players=3, seed=1)
>>> final = random_playout(game, seed=2)
>>> final.is_terminal()
True
>>> final.serialize() == random_playout(game, seed=2).serialize()
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pendragon.bots.base import Bot, hear_one_another
from pendragon.bots.random_bot import RandomBot
from pendragon.core import registry, rng
from pendragon.core.api import CHANCE, Game, State

#: Called before every action is applied: ``on_event(state, player, action)`` where
#: ``player`` is a seat or :data:`~pendragon.core.api.CHANCE`. The state is the position
#: the action is applied to, so ``state.describe_action(action, viewer)`` may be called;
#: it must not be modified.
EventHook = Callable[[State, int, int], None]
#: ``deviate(state, seat)``: an action to play instead of the seat's bot, or ``None``.
Deviation = Callable[[State, int], int | None]

# An arbitrary counter value that separates the bots' seeds from the chance stream.
_BOT_STREAM = 0xB075


class GameTooLongError(RuntimeError):
    """A game went on past ``game.length_cap()`` actions, the proved hard cap: a bug in the
    game's rules (a game past the research bound ``max_game_length()`` but within the cap is
    legal and is played to its end)."""


def play_game(game: Game, bots: Sequence[Bot], on_event: EventHook | None = None,
              deviate: Deviation | None = None) -> State:
    """Play ``game`` from its initial state to the end; return the terminal state.

    ``bots[seat]`` chooses for ``seat`` (unless ``deviate`` names another action for that
    decision, as a training game's random move; the bots follow the history, whoever
    moved); chance uses the state's own stream. Every seat is
    a bot, and a bot that talks with its fellows (:class:`~pendragon.bots.base.Listener`)
    is told so before the first move. Raises
    ``ValueError`` if the number of bots is not the number of seats, and
    :class:`GameTooLongError` if the game goes past its hard cap (``game.length_cap()``).
    """
    if len(bots) != game.num_players():
        seats = game.num_players()
        raise ValueError(f"{seats} seats need {seats} bots, got {len(bots)}")
    hear_one_another(bots)
    state = game.new_initial_state()
    limit = game.length_cap()
    while not state.is_terminal():
        if state.version >= limit:
            raise GameTooLongError(
                f"{game!r} is still running after its hard cap of {limit} actions"
            )
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance()
        else:
            other = None if deviate is None else deviate(state, player)
            action = bots[player].step(state) if other is None else other
        if on_event is not None:
            on_event(state, player, action)
        state.apply_action(action)
    return state


def random_playout(game: Game, seed: int | None) -> State:
    """Play ``game`` to the end with one :class:`RandomBot` (seeded ``seed``) on every seat."""
    bot = RandomBot(seed)
    return play_game(game, [bot] * game.num_players())


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot on ``seat`` derived from the game's seed (used by the terminal,
    golden playthroughs and benchmarks, so that one number replays a whole game).

    The bots' streams are kept apart from the chance stream, which uses ``mix(seed, n)``.

    >>> bot_seed(7, 0) == bot_seed(7, 0) != bot_seed(7, 1)
    True
    """
    return rng.mix(rng.mix(game_seed, _BOT_STREAM), seat)


def supported_player_counts(game_name: str, options: Mapping[str, Any] | None = None) -> list[int]:
    """Player counts at which ``game_name`` loads with ``options``
    (:meth:`pendragon.Game.supported_player_counts`).

    >>> supported_player_counts("soc")
    [3, 4, 5, 6, 7]
    """
    return registry.game_class(game_name).supported_player_counts(options)
