"""A rule-based player of Shadows over Camelot: The Card Game: a counting knight or a
careful traitor.

**What it reads.** ``state.observation(seat)`` and the legal actions' text forms, nothing
else. An observation keeps no count (SCG-RULING-8): it shows the top card of the threat pile,
how many cards lie there, the swords and what the seat itself saw. So the bot counts for
itself. Its :class:`TableMemory` is fed one observation after another: a card appears on top
of the pile (face up, or face down under Morgan #1 with the quest its layer announced), the
pile of the last resolution is laid out for all to see, the discard pile is reshuffled...
To see every moment of the table and not only its own turns, the bot follows the game from
its start on a private copy of the initial state, replaying the history and reading, after
each action, the observation of its own seat only (what that seat saw at that moment, as a
player at the table sees every card turned). Where there is no history to replay (a
position built from a fixture; a world of a search, which has no past: its history would be
the real game's) it goes on from the observations it is given; cards it did not see are
unknown. A search's rollouts start from the table's memory of the real game instead
(:meth:`SocCardHeuristicBot.follow` and :meth:`SocCardHeuristicBot.fork`).

**Listen or quest.** Each decision values its options as the probability that the loyal
side wins, from a race model (:func:`race_value`: each coming sword white with probability
``white_share``; the traitors still hidden flip a white sword at the end, SCG-END-2). A quest
now is valued by resolving the pile as the bot knows it (:class:`PileValue`, the rules of
SCG-QUEST-4..8, SCG-MORGAN-3..8 and SCG-MERLIN-1..6); cards it cannot see (others'
face-down cards, cards laid while it was not looking) are sampled from the cards it has not
seen; a face-down card is the card announced for it (quest and value: a loyal layer
names his card, SCG-RULING-6), or from its announced quest if its layer is a proven liar
(issue 37 item 7). Listening is valued one card ahead: every
card the deck may give, the best quest it then opens, or "go on" (``continue_swords``, a small
loss, when the next player should listen again). So the bot quests when the main quest
is likely to land in 11-13 and listens when it would fall short or bust.

**Accusations** (SCG-ACCUSE-1). A loyal seat keeps a :class:`TraitorBelief`: a probability
for each set of traitors among the others, from the loyalty deck (SCG-SETUP-1), settled by
revealed cards and weighed by public evidence: a Morgan #1 announcement proven false when the
pile is revealed (the face-down cards named at the resolution do not match the announced
quests: one of those who announced the missing quest lied, SCG-RULING-6), turns that a
loyal player would not have played (a quest thrown away, a sure quest left), an Arthur
against a good quest, a Gawain played on a quest already won. It accuses when the expected
swords favour it.

**As the traitor** it plays like a loyal knight where it shows and harms where it is hard
to see. Every player's choice is judged by the same model (a loyal player picks an option
with a probability falling with what it loses, as anyone can count it; a traitor now and
then picks by what it costs the loyal side: :meth:`SocCardHeuristicBot.choice_ratio`), so on
its turn the hidden traitor takes the worst option for the loyal side among those that keep
a spectator's probability that it is the traitor under ``traitor_cover`` (more near the
end). Under Morgan #1 it names a false quest when the next player would then quest on a
failing pile or pass a winning one by more than the risk of being proven a liar (less when
others named the same quest); an unmasked traitor lays the worse of its two cards
(SCG-ACCUSE-4); Gawain's card is chosen to hurt (nobody sees the two others); it accuses a
loyal player when that black sword ends the game or a suspect makes it look honest.

>>> import pendragon
>>> from pendragon.runner import play_game
>>> game = pendragon.load_game("soc-card", players=4, seed=5)
>>> final = play_game(game, [SocCardHeuristicBot(seed=s) for s in range(4)])
>>> final.is_terminal()
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import ClassVar

from mypy_extensions import mypyc_attr

from pendragon.core.api import State
from pendragon.core.errors import PendragonError
from pendragon.games.soc_card.heuristic_decisions import SocCardDecisions
from pendragon.games.soc_card.heuristic_judgement import SocCardJudge, TraitorBelief, _text
from pendragon.games.soc_card.heuristic_memory import (
    Evidence,
    PileEntry,
    TableMemory,
    TurnSeen,
)
from pendragon.games.soc_card.heuristic_values import (
    QUEST_INDEX,
    Obs,
    PileValue,
    race_value,
)
from pendragon.games.soc_card.leaf import LeafTable, leaf_table
from pendragon.games.soc_card.rules.common import END_SWORDS
from pendragon.games.soc_card.rules.game import SocCardGame
from pendragon.games.soc_card.rules.state import SocCardState

__all__ = [
    "END_SWORDS", "QUEST_INDEX", "Evidence", "LeafPosition", "Obs", "PileEntry", "PileValue",
    "SocCardHeuristicBot", "SocCardJudge", "SocCardStealthBot", "TableMemory",
    "TraitorBelief", "TurnSeen", "race_value", "rollout_bot",
]

#: Where a search's rollout stops (``SocCardHeuristicBot.leaf_position``): white swords,
#: black swords, the world's traitors, how many of them are still hidden.
LeafPosition = tuple[int, int, list[int], int]


@mypyc_attr(allow_interpreted_subclasses=True)
class SocCardHeuristicBot(SocCardDecisions):
    """Hand-written policy of Shadows over Camelot: The Card Game (any seat, any options).

    ``follow_table``: follow the game from its start by replaying the history on a private
    copy (reading only this seat's observations), so that the bot sees every card laid, as
    a player at the table does; without it the bot remembers only what it saw when asked to
    play; ``follow_public``: follow it from the public view only (a search's rollout policy,
    which plays every seat: a seat's own view of the real game would carry what that seat
    really holds into the search). A world of a search has no past to replay: the search
    has the rollout policy :meth:`follow` the real game's public record once, and each
    rollout plays a :meth:`fork` of it that goes on from the world's observations.
    ``track_beliefs``: weigh watched turns as evidence about the traitor (off for the
    rollouts of a search, where it would only cost time). ``samples``: how many ways to
    complete the cards it cannot see when valuing the pile. Create one bot per game (it
    starts over when it sees another game begin).
    """

    @staticmethod
    def leaf_position(world: State, root: State) -> LeafPosition | None:
        """Where a search's rollout from ``root`` may stop: once a quest has been resolved
        after ``root`` (a sword laid since, and the threat pile empty), the white and black
        swords, the world's traitors and how many of them are still hidden; ``None`` to
        play on. Read from the (determinised) world, never by a bot at the table.

        >>> import pendragon
        >>> state = pendragon.load_game("soc-card", players=1, seed=2).new_initial_state()
        >>> state.play_random_chance()
        >>> SocCardHeuristicBot.leaf_position(state, state) is None  # nothing resolved yet
        True
        """
        public = world.observation(None)
        if public["pile"]["count"]:
            return None
        swords = public["swords"]
        white, black = int(swords["white"]), int(swords["black"])
        before = root.observation(None)["swords"]
        if white + black == int(before["white"]) + int(before["black"]):
            return None
        traitors = [s for s, entry in enumerate(public["seats"])
                    if world.observation(s)["you"]["loyalty"] == "traitor"]
        hidden = sum(1 for s in traitors if public["seats"][s]["loyalty"] is None)
        return white, black, traitors, hidden

    @classmethod
    def search_leaf(cls, world: State, seat: int, root: State) -> float | None:
        """Where ISMCTS stops a rollout (``ISMCTSBot.leaf_for``): at :meth:`leaf_position`,
        the value for ``seat`` of the empirical leaf fitted for the game's setup
        (:mod:`.leaf`: 5 players without the expert variant or the promos), else of the race
        model (:meth:`race_leaf`); ``None`` to play on.

        A rollout to the end of a card game is mostly the luck of the rumors still to come,
        so the search compared the root's actions through that noise; stopping once the
        choice has played out (the pile it built resolved, whoever quested) compares them
        on what they changed.

        >>> import pendragon
        >>> state = pendragon.load_game("soc-card", players=1, seed=2).new_initial_state()
        >>> state.play_random_chance()
        >>> SocCardHeuristicBot.search_leaf(state, 0, state) is None  # nothing resolved yet
        True
        """
        position = cls.leaf_position(world, root)
        if position is None:
            return None
        game = world.game
        table = None
        if isinstance(game, SocCardGame):
            table = leaf_table(game.num_players(), expert=game.expert, promos=game.promos)
        return cls.leaf_value(position, seat, table)

    @staticmethod
    def search_fellows(world: State, seat: int) -> list[int]:
        """Whose views of a rollout's world a search reading the learned evaluator averages
        (``ISMCTSBot.fellows_for``): every seat whose loyalty card in that world is the
        searching seat's (SCG-SETUP-1; the world draws the traitors from the seat's belief,
        so this tells nothing of the real table), the seat among them.

        >>> import pendragon
        >>> state = pendragon.load_game("soc-card", players=4, seed=3).new_initial_state()
        >>> state.play_random_chance()
        >>> sides = [state.observation(s)["you"]["loyalty"] for s in range(4)]
        >>> fellows = SocCardHeuristicBot.search_fellows(state, 0)
        >>> fellows == [s for s in range(4) if sides[s] == sides[0]]
        True
        """
        if not isinstance(world, SocCardState):
            return [seat]
        loyalty = world.loyalty
        side = loyalty[seat]
        if side < 0:  # not dealt yet
            return [seat]
        return [s for s in range(len(loyalty)) if loyalty[s] == side]

    @classmethod
    def leaf_value(cls, position: LeafPosition, seat: int, table: LeafTable | None) -> float:
        """The value for ``seat`` (a reward in [-1, 1]) of a :meth:`leaf_position`: the
        ``table``'s chance where it has a cell, else the race model's (:meth:`race_leaf`)."""
        white, black, traitors, hidden = position
        chance = None if table is None else table.chance(hidden, len(traitors) - hidden,
                                                         white, black)
        if chance is None:
            chance = cls.race_leaf(white, black, hidden)
        loyal = 2.0 * chance - 1.0
        return -loyal if seat in traitors else loyal

    @classmethod
    def race_leaf(cls, white: int, black: int, hidden: int) -> float:
        """The race model's chance for the loyal side from these swords, each of ``hidden``
        traitors unmasked later with probability ``search_unmask`` (a white sword,
        SCG-ACCUSE-2) or turning a sword at the end (SCG-END-2).

        >>> round(SocCardHeuristicBot.race_leaf(4, 2, 0), 2)
        0.85
        >>> round(SocCardHeuristicBot.race_leaf(4, 2, 1), 2)  # his unmasking: a white sword
        0.88
        """
        unmask = cls.search_unmask
        value = 0.0
        for found in range(hidden + 1):
            chance = math.comb(hidden, found) * unmask ** found * (1 - unmask) ** (hidden - found)
            flips = [0.0] * (hidden - found) + [1.0]
            value += chance * race_value(white + found, black, flips, cls.white_share)
        return value

    def __repr__(self) -> str:
        return f"SocCardHeuristicBot(seed={self.seed!r})"

    # ------------------------------------------------------------------ entry point
    def observe(self, state: State, seat: int) -> Obs:
        """Bring the memory up to ``state`` (at every decision of the seat, forced ones
        included: :class:`~pendragon.bots.base.PolicyBot`); the seat's observation."""
        obs = state.observation(seat)
        self._follow(state, seat, obs)
        return obs

    def decide(self, state: State, seat: int, legal: Sequence[int], seen: Obs | None) -> int:
        """:meth:`choose` on the observation :meth:`observe` took in."""
        assert seen is not None
        return self.choose(seen, legal)

    def sample_world(self, state: State, seat: int, generator: random.Random) -> State:
        """A world ``seat`` cannot tell from ``state`` for a search, with the traitors drawn
        from this seat's belief (:class:`~pendragon.bots.base.WorldSampler`) rather than
        dealt uniformly; the cards are redealt as ``resample_hidden`` does."""
        world = state.resample_hidden(seat, generator)
        obs = state.observation(seat)
        if obs["solo"] or self._is_traitor(obs):
            return world
        self._follow(state, seat, obs)
        known = {int(s) for s in obs["you"]["known_loyalties"]}
        hidden = {s for s, entry in enumerate(obs["seats"])
                  if s != seat and entry["loyalty"] is None and s not in known}
        traitors = self.belief(obs).sample(generator) & hidden
        try:
            return world.with_traitors(seat, traitors, generator)
        except ValueError:  # a deal the unseen cards cannot make (Vivien's swaps): uniform
            return world

    def watch(self, observation: Obs) -> None:
        """Show the bot what its seat sees at this moment.

        For a game the bot cannot replay from its start (a position built from a fixture):
        the caller shows it each moment it should remember, as a player watches the table.
        """
        self._direct = True
        self.memory.observe(observation)

    def follow(self, state: State) -> None:
        """Bring the memory up to ``state``, a real game, from its public record (what every
        seat saw; :class:`~pendragon.bots.base.Forkable`): a search's rollouts :meth:`fork`
        it, since a world has no past to replay."""
        if not self._direct and not self._replay_history(state, None):
            self._direct = True

    def fork(self, seed: int | None) -> SocCardHeuristicBot:
        """A bot like this one seeded with ``seed``, starting from a copy of its memory and
        going on from the observations it is given (a rollout in a world of a search)."""
        other = type(self)(seed, follow_table=False, track_beliefs=self.track_beliefs,
                           samples=self.samples, quick=self.quick,
                           follow_public=self.follow_public)
        other.memory = self.memory.copy()
        return other

    def _follow(self, state: State, seat: int, obs: Obs) -> None:
        """Bring the memory up to the present: replay what happened since the last call
        (reading this seat's observations), or take in the present observation."""
        if not self._direct:
            if self._replay_history(state, seat):
                replay = self._replay
                assert replay is not None
                if replay.observation(seat) == obs:
                    if self._view != seat:
                        self.memory.observe(obs)
                    return
            self._direct = True
        self.memory.observe(obs)

    def _replay_history(self, state: State, seat: int | None) -> bool:
        """Replay the actions of ``state`` since the last call on the private copy, reading
        the view followed (``seat``'s, or the public one: ``follow_public`` or ``seat``
        ``None``); ``False`` where ``state`` has no history to replay (a world of a search,
        a position from elsewhere) or it does not replay."""
        try:
            if state.is_world():
                return False  # its past would be the real game's: never replayed
            history = state.history()
            game = state.game
        except AttributeError:
            return False
        if (self._replay is None or game is not self._game
                or history[:len(self._history)] != self._history):
            self._replay = game.new_initial_state()
            self._game = game
            self._history = []
            self.memory = TableMemory()
            self._beliefs.clear()
            self._read.clear()
            self._public = None
            self._view = None if self.follow_public or seat is None else seat
        replay = self._replay
        view = self._view
        for action in history[len(self._history):]:
            try:
                replay.apply_action(action)
            except PendragonError:
                return False
            self._history.append(action)
            self.memory.observe(replay.observation(view))
        return True

    # ------------------------------------------------------------------ dispatch
    def choose(self, obs: Obs, legal: Sequence[int]) -> int:
        """The policy proper, from the memory, the observation and the legal actions."""
        texts = {_text(a): a for a in legal}
        decision = obs["decision"].replace("-", "_")
        handler = getattr(self, "_d_" + decision, None)
        if handler is not None:
            choice: str | None = handler(obs, texts)
            if choice is not None and choice in texts:
                return texts[choice]
        return self._fallback(texts)

    def _fallback(self, texts: dict[str, int]) -> int:
        for safe in ("pass", "keep", "listen"):
            if safe in texts:
                return texts[safe]
        options = sorted(t for t in texts if not t.startswith("accuse:"))
        pool = options or sorted(texts)
        return texts[pool[self._rng.randrange(len(pool))]]


def rollout_bot(seed: int | None) -> SocCardHeuristicBot:
    """The fast policy of search rollouts: no beliefs from watched turns, fewer samples,
    and the table followed from the public view (a rollout plays seats it does not own;
    the search forks it into each rollout, :meth:`SocCardHeuristicBot.fork`).

    >>> rollout_bot(3)
    SocCardHeuristicBot(seed=3)
    """
    return SocCardHeuristicBot(seed, track_beliefs=False, samples=3, quick=True,
                               follow_public=True)



@mypyc_attr(allow_interpreted_subclasses=True)
class SocCardStealthBot(SocCardHeuristicBot):
    """The heuristic, its traitor careful: the bot the online table seats by default
    (``GamePlugin.table_bot``).

    Dealt a loyal card it plays exactly as :class:`SocCardHeuristicBot`. Dealt the traitor
    card, it harms only where its move still looks like a judgement call to a table that
    judges as the loyal players do (``traitor_temperature`` equal to the loyal players'
    ``turn_temperature``; the heuristic's traitor assumes a more forgiving table, 0.5).
    The heuristic traitor is the stronger against bots, but it quests on whatever pile it
    finds from its first turn: in half of its games all four swords laid before
    accusations open are its own failed quests, which a person reads at once
    (docs/bots.md, "The stealth traitor").

    >>> import pendragon
    >>> from pendragon.runner import play_game
    >>> game = pendragon.load_game("soc-card", players=5, seed=11)
    >>> play_game(game, [SocCardStealthBot(seed=s) for s in range(5)]).is_terminal()
    True
    """

    traitor_temperature: ClassVar[float] = SocCardHeuristicBot.turn_temperature

    def __repr__(self) -> str:
        return f"SocCardStealthBot(seed={self.seed!r})"
