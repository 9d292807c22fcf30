"""A rule-based Shadows over Camelot player: a sensible loyal knight, or an open traitor.

The policy reads only ``state.observation(seat)`` and the legal actions with their text
forms (``play:fight-5``, ``move:grail``...). It is built in layers, one concern a module:

* :mod:`~pendragon.games.soc.heuristic_cards`: what the cards are worth (black cards' harm
  and worth to the Merlins, the combat quests' combinations, Fight values);
* :mod:`~pendragon.games.soc.heuristic_record`: the public record it follows and the
  belief about the traitors it feeds (:func:`traitor_belief`, a
  :class:`~pendragon.bots.belief.LoyaltyBelief`: a probability for every set of traitors,
  "no traitor" and, with Merlin's Company, two traitors included, from the loyalty deck's
  real odds, SOC-SETUP-5, updated from the other knights' public deeds, each weighed by a
  family of loyal and traitor policies, :mod:`pendragon.games.soc.evidence`, with a shown
  loyalty card as a certainty);
* :mod:`~pendragon.games.soc.heuristic_judgement`: parameters, quest plans and the scores
  of heroic actions, accusations included (the most suspected knight once accusations are
  open, SOC-ACCUSE-1, and the belief is strong);
* :mod:`~pendragon.games.soc.heuristic_policy`: one small policy function per decision of
  the agenda (``evil``, ``heroic``, ``pool``, ``share``...), the loyal knight's;
* :mod:`~pendragon.games.soc.heuristic_expansion`: the decisions only Merlin's Company has.

:class:`SocHeuristicBot` (this module) is that policy, and as the traitor it harms openly
from the first turn (issue 18: hiding measured weaker on paired seeds, docs/bots.md
"Traitor panel"): it hands a traitor seat's decisions to
:class:`~pendragon.games.soc.saboteur.OpenTraitor`, whose evil is always a siege engine.
A search drawing worlds from this policy (``sample_world``) deals the traitor cards from
the loyal seat's belief.

>>> import pendragon
>>> from pendragon.runner import play_game
>>> game = pendragon.load_game("soc", players=3, seed=5, no_traitor=True)
>>> final = play_game(game, [SocHeuristicBot(seed=s) for s in range(3)])
>>> final.is_terminal()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from pendragon.bots.ismcts import ISMCTSBot
from pendragon.core.api import Game, State
from pendragon.games.soc.heuristic_cards import Obs
from pendragon.games.soc.heuristic_policy import SocPolicy
from pendragon.games.soc.heuristic_record import traitor_belief
from pendragon.games.soc.rules.game import SocGame
from pendragon.games.soc.rules.state import SocState
from pendragon.games.soc.saboteur import OpenTraitor

__all__ = ["Obs", "SocHeuristicBot", "model_search", "rollout_bot", "traitor_belief"]

#: Turns begun after the root before a search's rollout is read by the learned evaluator
#: (:meth:`SocHeuristicBot.search_horizon`). Chosen on dev seeds 41 (never measured on):
#: overrules judged by 40 full-rollout paired sweeps each gained +2.9 points (1 turn),
#: +3.7 (2 turns) and +1.5 (10 decisions) of win chance (CHANGELOG, issue 38); in whole
#: games, one turn read at every decision gained nothing over the heuristic (seed 41, 200
#: games, 2026-11-30). The game's ``ismcts`` bot reads it (:func:`model_search`).
MODEL_TURNS: Final = 2


@mypyc_attr(allow_interpreted_subclasses=True)
class SocHeuristicBot(SocPolicy):
    """Hand-written Shadows over Camelot policy for one seat at a time: the loyal knight's
    play (:class:`~pendragon.games.soc.heuristic_policy.SocPolicy`), and for a seat dealt
    the traitor card :class:`~pendragon.games.soc.saboteur.OpenTraitor`'s.

    ``track_beliefs`` turns on the traitor belief, which follows the public record of the
    game being played (turn it off for rollouts inside a search, where it would only cost
    time). The bot is meant to play one game; create a new one per game.
    """

    @staticmethod
    def search_confidence(game: Game) -> float | None:
        """The standard errors by which a search's action must beat this policy's choice
        to overrule it in ``game`` (``ISMCTSBot.confidence_for``): 1 where no traitor can
        be dealt (VAR-NO-TRAITOR), else ``None``, every game's default (2). A knight's
        rollouts end in a win or a loss, so one sweep of 16 that flips the outcome already
        clears the margin: the errors are the test. Chosen on dev seeds 41 without a traitor (the
        team +2.7 points over 2 errors' [-2.6, +7.9], 300 games) and measured on fresh
        seeds (docs/bots.md, "Search strength"); with the traitor deck 1 error lost 3
        points to the heuristic where 2 gain (false accusations in 39 games of 400).

        >>> import pendragon
        >>> SocHeuristicBot.search_confidence(pendragon.load_game("soc", players=5)) is None
        True
        >>> SocHeuristicBot.search_confidence(
        ...     pendragon.load_game("soc", players=5, no_traitor=True))
        1.0
        """
        return 1.0 if isinstance(game, SocGame) and game.open_loyalty else None

    def __init__(self, seed: int | None = None, track_beliefs: bool = True) -> None:
        super().__init__(seed, track_beliefs)
        #: The open traitor this bot hands a traitor seat to (:meth:`_saboteur`).
        self._open: OpenTraitor | None = None

    @staticmethod
    def search_horizon(world: State, root: State) -> bool:
        """Where a search reading the learned evaluator stops a rollout
        (``ISMCTSBot.horizon_for``): once ``MODEL_TURNS`` turns have begun since the
        sweep's world ``root``, so every root action is read at the start of the same
        knight's turn (the turn's number is public, SOC-TURN-1).

        >>> import pendragon
        >>> state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
        >>> SocHeuristicBot.search_horizon(state, state)
        False
        """
        if not isinstance(world, SocState) or not isinstance(root, SocState):
            return True
        return world.turns >= root.turns + MODEL_TURNS

    @staticmethod
    def search_fellows(world: State, seat: int) -> list[int]:
        """Whose views of a rollout's world a search reading the learned evaluator averages
        (``ISMCTSBot.fellows_for``): every knight where no traitor can be dealt
        (VAR-NO-TRAITOR: one side, all of them on it), else the searching seat alone (with
        the traitor deck the average is not measured).

        >>> import pendragon
        >>> state = pendragon.load_game("soc", players=3, no_traitor=True).new_initial_state()
        >>> SocHeuristicBot.search_fellows(state, 1)
        [0, 1, 2]
        >>> state = pendragon.load_game("soc", players=3).new_initial_state()
        >>> SocHeuristicBot.search_fellows(state, 1)
        [1]
        """
        game = world.game
        if isinstance(game, SocGame) and game.open_loyalty:
            return list(range(game.num_players()))
        return [seat]

    def choose(self, obs: Obs, legal: Sequence[int]) -> int:
        """The loyal policy's choice; a traitor seat's is the open traitor's."""
        if self._is_traitor(obs):
            return self._saboteur().choose(obs, legal)
        return SocPolicy.choose(self, obs, legal)  # (not super(): this runs at every step)

    def _saboteur(self) -> OpenTraitor:
        """The open policy (``saboteur.OpenTraitor``: the saboteur's, its evil always a
        siege engine) this bot plays a traitor seat with; built on first use, without a
        belief of its own."""
        if self._open is None:
            self._open = OpenTraitor(self.seed, track_beliefs=False)
        return self._open


def rollout_bot(seed: int | None) -> SocHeuristicBot:
    """The heuristic without belief tracking: the fast policy of search rollouts."""
    return SocHeuristicBot(seed, track_beliefs=False)


def model_search(seed: int | None = None) -> ISMCTSBot:
    """Shadows over Camelot's ``ismcts`` bot (``GamePlugin.search``): the search whose
    rollouts the learned evaluator reads ``MODEL_TURNS`` turns on, over 3 to 12 sweeps of
    6,000 actions, an overrule asking 2 standard errors with or without a traitor.

    Measured on paired seeds it never saw (docs/bots.md, "Search strength"): the loyal team
    without a traitor beat the heuristic by +22.8 points [+17.1, +28.4] over 400 games
    (seed 41; seed 35: +17.8); with the traitor deck it gains nothing (-1.8 [-6.1, +2.6],
    400 games of seed 43); in less time a decision than the plain search on the same
    positions (18.6 ms against 22.3).

    >>> model_search(3).evaluator, model_search(3).iterations, model_search(3).budget
    (True, 12, 6000)
    """
    return ISMCTSBot(seed, evaluator=True, confidence=2.0, min_iterations=3, iterations=12,
                     budget=6000)
