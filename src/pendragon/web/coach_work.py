"""The coach's work for the web table (issue 31, items 2-3), as the workers run it: a hint
in the bot pool (a thread, or a worker process with the state pickled as a bot's is), and
a whole review in a process of its own that reports its progress on a queue.

Light on imports on purpose: a worker process imports this module, not the server's.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import time
from typing import Any

from pendragon.coach import Budget, hint, review
from pendragon.core import rng
from pendragon.core.api import Game, State
from pendragon.web.limits import BOT_NICE, loads_sharing
from pendragon.web.narration import with_move_labels


def hint_seed(state: State, seat: int) -> int:
    """The seed of a table's hint for ``seat``: from the position's version and the seat,
    which the seat knows, never from the table's seed, which would tell the search (through
    its worlds) something of the real deal.

    >>> import pendragon
    >>> state = pendragon.load_game("grail-cup", players=2, seed=5).new_initial_state()
    >>> hint_seed(state, 1) == hint_seed(pendragon.load_game("grail-cup", players=2,
    ...     seed=6).new_initial_state(), 1)
    True
    """
    return rng.mix(state.version, seat)


def hint_json(state: State, seat: int, budget: int, seed: int) -> tuple[dict[str, Any], float]:
    """``coach.hint`` for ``seat`` (from its information only), as JSON, and the CPU
    seconds it took (for the bot scheduler's share). ``budget`` 0: the coach's own."""
    started = time.thread_time()
    found = hint(state, seat, budget=budget or None, seed=seed)
    return found.to_json(), time.thread_time() - started


def hint_in_worker(game: bytes, state: bytes, seat: int, budget: int,
                   seed: int) -> tuple[dict[str, Any], float]:
    """:func:`hint_json` in a bot worker process (``state`` pickled sharing ``game``, as
    :func:`pendragon.web.limits.dumps_sharing` makes it)."""
    shared = pickle.loads(game)
    return hint_json(loads_sharing(state, shared), seat, budget, seed)


def review_json(game: Game, actions: list[int], budget: Budget, seed: int,
                report: Any) -> dict[str, Any]:
    """``coach.review`` of the finished game as JSON; ``report(("progress", done, total))``
    after each decision."""
    found = review(game, actions, lambda done, total: report(("progress", done, total)),
                   seed=seed, budget=budget)
    answer = found.to_json()
    with_move_labels(game, actions, answer)  # the moves in the reader's words (issue 39)
    return answer


def review_in_process(game: bytes, actions: list[int], budget: Budget, seed: int,
                      queue: Any) -> None:
    """The body of a review's own process: at a lower priority than the server, puts
    ``("progress", done, total)`` on ``queue`` as it goes, then ``("done", review JSON)``
    or ``("error", message)``."""
    with contextlib.suppress(OSError):
        os.nice(BOT_NICE)
    try:
        queue.put(("done", review_json(pickle.loads(game), actions, budget, seed, queue.put)))
    except Exception as error:  # told to the page; the server lives on
        queue.put(("error", f"{type(error).__name__}: {error}"))
