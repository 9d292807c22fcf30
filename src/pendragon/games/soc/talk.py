"""Table talk between bot knights (SOC-TURN-3, SOC-RULING-71), and the search that listens.

The rules let knights speak of their intentions and of their strength "in general words,
without specifics" (000: «Мои войска готовы к бою, милорд!»), never naming a card or a number
(«У меня уже есть 3 Грааля» is forbidden). A bot knight's :func:`statement` is five such
words about his own hand, each a grade and never a count (SOC-RULING-71): a grade other
than "none" always covers more than one count, so no word says how many he holds:

* his **war** strength (Fight cards): none, some (one or two), strong (three or more);
* his **blows** (Fight cards of 4 or more, or of any value): none, some (one or two),
  several (three or more);
* his **Grail** strength: none, some (one or two), strong (three or more);
* whether he **can help against evil magic** (a Merlin card): no, yes;
* whether he **has something up his sleeve** (a special white card): no, yes.

A knight may be asked at any moment and answers from his hand as it is (his own
observation, nothing else). :class:`TableTalk` is the channel: it knows which seats speak
(the bots of the table: a person's words are not machine-readable, so a listener never hears
a person's seat) and :meth:`TableTalk.heard` is what a listener hears from them.

:class:`TalkingSearch` is today's search (:class:`~pendragon.bots.ismcts.ISMCTSBot`) that
listens: each world a sweep draws is brought to agree with what the speakers said
(:meth:`TableTalk.fit`), in the worlds where the speaker is loyal; the rules let a knight lie,
so a world in which he holds the traitor card takes nothing from his words. Every bot knight
says the truth (the traitor may lie, and need not: saying what his hand holds is what a loyal
knight would say). The search's own seat never speaks to itself.

>>> statement({"fight-2": 1, "fight-5": 1, "grail": 3, "merlin": 1, "convocation": 1})
Statement(war=1, blows=1, grail=2, magic=1, sleeve=1)
>>> statement({})
Statement(war=0, blows=0, grail=0, magic=0, sleeve=0)
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from typing import NamedTuple

from pendragon.bots.ismcts import ISMCTSBot
from pendragon.core.api import State
from pendragon.games.soc.rules.cards import (
    FIGHT_4,
    FIGHT_5,
    FIGHT_ANY,
    FIGHT_KINDS,
    GRAIL_CARD,
    MERLIN,
    NUM_WHITE,
    SPECIAL_KINDS,
    WHITE_BY_KEY,
)
from pendragon.games.soc.rules.data import Loyalty
from pendragon.games.soc.rules.state import SocState

__all__ = ["Statement", "TableTalk", "TalkingSearch", "statement", "statement_of_counts"]

_FIGHTS = (*FIGHT_KINDS, FIGHT_ANY)
_BLOWS = (FIGHT_4, FIGHT_5, FIGHT_ANY)


class Statement(NamedTuple):
    """What a knight says of his hand: five grades, never a count (SOC-RULING-71)."""

    #: Fight cards: 0 none, 1 some (one or two), 2 strong (three or more).
    war: int
    #: Fight cards of 4, 5 or any value: 0 none, 1 some (one or two), 2 several (three or more).
    blows: int
    #: Grail cards: 0 none, 1 some (one or two), 2 strong (three or more).
    grail: int
    #: A Merlin card: 0 no, 1 yes ("I can help against evil magic").
    magic: int
    #: A special white card: 0 no, 1 yes ("I have something up my sleeve").
    sleeve: int


def _grade(count: int, some: int, strong: int) -> int:
    return 0 if count < some else 1 if count < strong else 2


def statement_of_counts(counts: list[int]) -> Statement:
    """:func:`statement` of a hand given as a count per white kind (the rules' vector)."""
    fights = blows = special = 0
    for kind in _FIGHTS:
        fights += counts[kind]
    for kind in _BLOWS:
        blows += counts[kind]
    for kind in SPECIAL_KINDS:
        special += counts[kind]
    return Statement(_grade(fights, 1, 3), _grade(blows, 1, 3), _grade(counts[GRAIL_CARD], 1, 3),
                     min(counts[MERLIN], 1), min(special, 1))


def statement(hand: Mapping[str, int]) -> Statement:
    """What a knight holding ``hand`` (his observation's ``you.hand``: card key -> count)
    says of it at the table (SOC-TURN-3, SOC-RULING-71)."""
    counts = [0] * NUM_WHITE
    for key, count in hand.items():
        counts[WHITE_BY_KEY[key]] += int(count)
    return statement_of_counts(counts)


#: The white kinds each word of a :class:`Statement` counts, in its order, and the kinds it
#: does not count (each in the kinds' order, as :func:`_pick` draws them).
_WORDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(kinds)) for kinds in (_FIGHTS, _BLOWS, (GRAIL_CARD,), (MERLIN,), SPECIAL_KINDS))
_OTHERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(NUM_WHITE) if k not in kinds) for kinds in _WORDS)


def _gap(said: Statement, words: Statement) -> int:
    """How far apart two statements are (grades summed)."""
    return sum(abs(a - b) for a, b in zip(said, words, strict=True))


def _pick(counts: list[int], kinds: tuple[int, ...], generator: random.Random) -> int:
    """A kind of ``kinds`` drawn in proportion to ``counts``; -1 when there is none."""
    total = 0
    for kind in kinds:
        total += counts[kind]
    if total <= 0:
        return -1
    index = generator.randrange(total)
    for kind in kinds:
        count = counts[kind]
        if index < count:
            return kind
        index -= count
    return -1


class TableTalk:
    """The table talk of one game between the seats that speak (``speakers``; ``None``: every
    seat, a table of bots). ``steps``: the swaps :meth:`fit` tries for each speaker whose
    words a world does not yet match.

    >>> import pendragon
    >>> state = pendragon.load_game("soc", players=3, seed=3).new_initial_state()
    >>> state.play_random_chance()
    >>> sorted(TableTalk(speakers=[0, 2]).heard(state, 0))
    [2]
    >>> TableTalk(speakers=[0, 3]).heard(state, 0)
    Traceback (most recent call last):
    ...
    ValueError: speakers [0, 3] are not all seats of this 3-player game
    """

    def __init__(self, speakers: Collection[int] | None = None, steps: int = 24) -> None:
        self.speakers = None if speakers is None else frozenset(speakers)
        self.steps = steps
        #: The last state heard and what was heard in it: a search hears once a decision.
        self._heard: tuple[State, int, int, dict[int, Statement]] | None = None

    def heard(self, state: State, listener: int) -> dict[int, Statement]:
        """What ``listener`` hears in ``state``: each other speaker's :func:`statement` of
        his hand, read from his own observation as he would say it at the table."""
        cached = self._heard
        if (cached is not None and cached[0] is state and cached[1] == state.version
                and cached[2] == listener):
            return cached[3]
        players = state.game.num_players()
        seats = range(players) if self.speakers is None else sorted(self.speakers)
        if seats and not 0 <= min(seats) <= max(seats) < players:
            raise ValueError(f"speakers {sorted(seats)} are not all seats of this "
                             f"{players}-player game")
        said = {seat: statement(state.observation(seat)["you"]["hand"])
                for seat in seats if seat != listener}
        self._heard = (state, state.version, listener, said)
        return said

    def fit(self, world: SocState, listener: int, said: Mapping[int, Statement],
            generator: random.Random) -> None:
        """Bring ``world`` (a search's world of a soc game, changed in place) to agree with
        what each speaker ``said``. While a speaker's hand and words disagree, one word
        that disagrees is drawn and a card swapped with the white deck to mend it: a card
        of its kind taken from the deck for a hand that has too few, given back for one
        that has too many (each drawn in proportion to the cards there), against a card of
        another kind; a swap that takes the hand further from the words is undone. Only
        cards ``listener`` does not know of leave a hand, so its own view does not change;
        at most ``steps`` swaps a speaker. A speaker holding the traitor card in ``world``
        is left as drawn (he may lie)."""
        deck: list[int] = world.white_deck
        for seat, words in said.items():
            if world.loyalty[seat] == Loyalty.TRAITOR:
                continue
            hand: list[int] = world.hands[seat]
            now = statement_of_counts(hand)
            if now == words:
                continue
            hand = world.own_hand(seat)
            known = world.known.get((listener, seat))
            # The cards ``listener`` does not know of (a view of ``hand`` kept alongside).
            unknown = hand if known is None else [c - k for c, k in zip(hand, known, strict=True)]
            for _ in range(self.steps):
                wrong = [i for i, (a, b) in enumerate(zip(now, words, strict=True)) if a != b]
                index = wrong[generator.randrange(len(wrong))]
                if now[index] < words[index]:  # too few: one in from the deck
                    into = _pick(deck, _WORDS[index], generator)
                    out = _pick(unknown, _OTHERS[index], generator)
                else:  # too many: one back to the deck
                    into = _pick(deck, _OTHERS[index], generator)
                    out = _pick(unknown, _WORDS[index], generator)
                if into < 0 or out < 0:
                    continue
                hand[out] -= 1
                hand[into] += 1
                after = statement_of_counts(hand)
                if _gap(after, words) > _gap(now, words):
                    hand[out] += 1
                    hand[into] -= 1
                    continue
                if unknown is not hand:
                    unknown[out] -= 1
                    unknown[into] += 1
                deck[into] -= 1
                deck[out] += 1
                now = after
                if now == words:
                    break


class TalkingSearch(ISMCTSBot):
    """Today's search (:class:`~pendragon.bots.ismcts.ISMCTSBot`, made with the same
    options) that listens to the table: every world a sweep draws is fitted to what the
    speakers said (:meth:`TableTalk.fit`). The game's bot ``talking``.

    It hears the seats it is told are bots (:meth:`hear_bots`: a runner whose every seat
    is a bot, :func:`~pendragon.runner.play_game` and so the simulator, tells it) or those
    of :meth:`listening_to`; told nothing it hears no one and plays as the search. Tables
    with people do not seat it (``GamePlugin.among_bots``): a person's words are not
    machine-readable, and the people would not hear the bots'. docs/bots.md, "Table talk".

    >>> import pendragon
    >>> from pendragon.runner import play_game
    >>> game = pendragon.load_game("soc", players=3, seed=2, no_traitor=True)
    >>> bots = [TalkingSearch(seat, iterations=8, budget=600) for seat in range(3)]
    >>> play_game(game, bots).is_terminal(), sorted(bots[0].talk.speakers)
    (True, [0, 1, 2])
    >>> TalkingSearch(0).talk is None
    True
    """

    #: The table talk it hears (``None`` until told: no one).
    talk: TableTalk | None = None

    def hear_bots(self, seats: frozenset[int]) -> None:
        """Hear the seats ``seats``, each a bot speaking (:class:`~pendragon.bots.base.
        Listener`)."""
        self.talk = TableTalk(speakers=seats)

    def listening_to(self, talk: TableTalk) -> TalkingSearch:
        """This search, hearing ``talk`` (the seats that speak); returns itself."""
        self.talk = talk
        return self

    def world_for(self, state: State, seat: int) -> State:
        """The search's world (:meth:`ISMCTSBot.world_for`), fitted to what was said (a
        Shadows over Camelot world; another game's bots do not talk)."""
        world = super().world_for(state, seat)
        talk = self.talk
        if isinstance(world, SocState) and talk is not None:
            talk.fit(world, seat, talk.heard(state, seat), self._rng)
        return world
