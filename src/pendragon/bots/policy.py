"""The start every policy's ``step`` shares (:class:`PolicyBot`), compiled with the bots.

It lives apart from :mod:`pendragon.bots.base`, which re-exports it: the protocols there
(:class:`~pendragon.bots.base.Bot` and the others) are checked at run time
(``isinstance``), which a module compiled with mypyc cannot offer, so that module stays
Python while the policies, which all derive from :class:`PolicyBot`, are compiled.

Every compiled class of the bots and of what they keep allows interpreted subclasses
(``mypyc_attr``): tests and benches subclass the bots, and bots are pickled
(``pendragon.simulate``, the web's bot pool) and copied, which a compiled class otherwise
refuses unless its ``__init__`` takes no argument. (mypyc's ``serializable`` would do for
the copies, but in mypyc 1.18 such a class made from Python code skips its ``__init__``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from mypy_extensions import mypyc_attr

from pendragon.core.api import CHANCE, State
from pendragon.core.errors import GameOverError


def to_act(state: State) -> tuple[int, list[int]]:
    """Who acts in ``state`` (``CHANCE`` at a chance node) and the legal actions: how every
    bot's ``step`` begins. A finished game raises :class:`GameOverError`.

    >>> import pendragon
    >>> state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
    >>> to_act(state)[0] == pendragon.CHANCE
    True
    """
    legal = state.legal_actions()
    if not legal:
        raise GameOverError("the game is over; there is no action to choose")
    return state.current_player(), legal


#: What a :class:`PolicyBot` takes in at every decision of its seat and hands to its
#: choice (``None`` for a bot that takes in nothing before choosing).
Seen = TypeVar("Seen")


@mypyc_attr(allow_interpreted_subclasses=True)
class PolicyBot(Generic[Seen]):
    """The start every policy's ``step`` shares, written once (a template method).

    :meth:`step` plays the state's own seeded draw at a chance node
    (:meth:`State.sample_chance`); at a decision it lets the bot take in what its seat sees
    (:meth:`observe`: a memory fed at every decision, forced ones included), plays a forced
    move (one legal action) at once, and otherwise asks :meth:`decide`, with what
    :meth:`observe` returned. A finished game raises
    :class:`~pendragon.core.errors.GameOverError`.

    >>> import pendragon
    >>> class LastLegal(PolicyBot[None]):
    ...     def decide(self, state, seat, legal, seen):
    ...         return legal[-1]
    >>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
    >>> bot = LastLegal()
    >>> state.current_player() == pendragon.CHANCE and bot.step(state) == state.sample_chance()
    True
    >>> state.play_random_chance()
    >>> bot.step(state) == state.legal_actions()[-1]
    True
    """

    def step(self, state: State) -> int:
        """The action for whoever acts in ``state`` (which is not modified)."""
        seat, legal = to_act(state)
        if seat == CHANCE:
            return state.sample_chance()
        seen = self.observe(state, seat)
        if len(legal) == 1:
            return legal[0]
        return self.decide(state, seat, legal, seen)

    def observe(self, state: State, seat: int) -> Seen | None:
        """Take in what ``seat`` sees at a decision of its own (forced or not) before the
        choice; the result goes to :meth:`decide`. By default nothing."""
        return None

    def decide(self, state: State, seat: int, legal: Sequence[int], seen: Seen | None) -> int:
        """The policy proper: an action of ``legal`` (two or more) for ``seat``."""
        raise NotImplementedError(f"{type(self).__name__} does not decide")
