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
seen, a face-down card from its announced quest. Listening is valued one card ahead: every
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

import functools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from pendragon.bots.base import to_act
from pendragon.bots.belief import LoyaltyBelief
from pendragon.core.api import CHANCE, State
from pendragon.core.errors import PendragonError
from pendragon.games.soc_card.leaf import LeafTable, leaf_table
from pendragon.games.soc_card.rules.actions import CATALOG
from pendragon.games.soc_card.rules.cards import (
    CARD_QUEST,
    CARDS,
    IS_QUEST,
    KIND,
    MERLIN,
    MERLIN_6,
    MORDRED,
    MORGAN,
    NUM_KINDS,
    NUM_QUESTS,
    PICTS,
    QUEST_SWORDS,
    QUESTS,
    SAXONS,
    deck_counts,
)
from pendragon.games.soc_card.rules.game import SocCardGame
from pendragon.games.soc_card.rules.quests import COMBINED_SWORDS, MERLIN_REMOVES

Obs = dict[str, Any]
#: Where a search's rollout stops (``SocCardHeuristicBot.leaf_position``): white swords,
#: black swords, the world's traitors, how many of them are still hidden.
LeafPosition = tuple[int, int, list[int], int]

#: Swords of one colour that end the game (SCG-END-1).
END_SWORDS = 7
#: Quest index by name.
QUEST_INDEX = {name: index for index, name in enumerate(QUESTS)}
_QUEST_KINDS_OF = tuple(
    tuple(c.index for c in CARDS if c.kind == "quest" and c.quest == q) for q in range(NUM_QUESTS)
)
_ALL_QUEST_KINDS = tuple(c.index for c in CARDS if c.kind == "quest")
_MORGAN_KINDS = tuple(c.index for c in CARDS if c.kind == MORGAN)


# ---------------------------------------------------------------------- the race
@functools.lru_cache(maxsize=64)
def _race_table(white_share: float, flips: int) -> tuple[tuple[float, ...], ...]:
    """``table[w][b]``: the loyal side's chance to win from ``w`` white and ``b`` black
    swords when each coming sword is white with probability ``white_share`` and ``flips``
    traitors are still hidden (each turns a white sword black at the first end check,
    SCG-END-2, SCG-RULING-11)."""
    size = 3 * END_SWORDS
    table = [[0.0] * (size + 1) for _ in range(size + 1)]
    for w in range(size, -1, -1):
        for b in range(size, -1, -1):
            if w >= END_SWORDS or b >= END_SWORDS:
                table[w][b] = _final(w, b, flips, white_share)
            elif w == size or b == size:
                table[w][b] = 0.5
            else:
                table[w][b] = (white_share * table[w + 1][b]
                               + (1 - white_share) * table[w][b + 1])
    return tuple(tuple(row) for row in table)


def _final(white: int, black: int, flips: int, white_share: float) -> float:
    """The end check with ``flips`` hidden traitors (SCG-END-2..5)."""
    turned = min(white, flips)
    white, black = white - turned, black + turned
    if white >= END_SWORDS and white > black:
        return 1.0
    if black >= END_SWORDS and black >= white:
        return 0.0
    # Play goes on with every card revealed: nobody flips again (SCG-RULING-11).
    return _race_table(white_share, 0)[white][black]


def race_value(white: int, black: int, flips: Sequence[float], white_share: float) -> float:
    """The loyal side's chance to win from these swords; ``flips[k]`` is the probability that
    ``k`` traitors are still hidden at the end.

    >>> round(race_value(6, 0, (1.0, 0.0, 0.0), 0.5), 3)
    0.992
    >>> race_value(7, 6, (0.0, 1.0, 0.0), 0.5)  # the hidden traitor turns a sword: 6-7
    0.0
    """
    cap = 3 * END_SWORDS
    white, black = min(white, cap), min(black, cap)
    value = 0.0
    for count, chance in enumerate(flips):
        if chance > 0:
            value += chance * _race_table(white_share, count)[white][black]
    return value


class _RaceLookup:
    """:func:`race_value` for one decision's ``flips``, with the tables fetched once."""

    __slots__ = ("tables", "cache")

    def __init__(self, flips: Sequence[float], white_share: float) -> None:
        self.tables = [(chance, _race_table(white_share, count))
                       for count, chance in enumerate(flips) if chance > 0]
        self.cache: dict[tuple[int, int], float] = {}

    def __call__(self, white: int, black: int) -> float:
        key = (white, black)
        value = self.cache.get(key)
        if value is None:
            cap = 3 * END_SWORDS
            white, black = min(white, cap), min(black, cap)
            value = sum(chance * table[white][black] for chance, table in self.tables)
            self.cache[key] = value
        return value


# ---------------------------------------------------------------------- valuing a pile
class PileValue:
    """A threat pile of known cards, reduced to what its resolution needs (SCG-RULING-3).

    Mirrors :func:`pendragon.games.soc_card.rules.quests.resolve` (a test checks them against
    each other on random piles) and adds one card cheaply, for the look-ahead of a listen.

    >>> pile = PileValue([KIND[k] for k in ("excalibur-5", "excalibur-3", "excalibur-q",
    ...                                      "excalibur-q", "picts-5", "picts-4", "picts-q")])
    >>> pile.outcome(QUEST_INDEX["excalibur"])  # 5 + 3 + 2 x 2 = 12: two white swords
    (2, 0, False)
    >>> pile.plus(KIND["picts-4"]).outcome(QUEST_INDEX["picts"])  # 5 + 4 + 4 + 1 = 14
    (0, 1, False)
    """

    __slots__ = (
        "token", "numbered", "unknown", "mordreds", "bonus", "merlins", "removals",
        "morgans", "sums", "lengths", "_values", "_busted",
    )

    def __init__(self, kinds: Iterable[int], token: int = -1) -> None:
        self.token = token
        self.numbered: list[list[int]] = [[] for _ in range(NUM_QUESTS)]
        self.unknown = [0] * NUM_QUESTS
        self.mordreds = 0
        self.bonus = 0
        merlins: list[int] = []
        morgans: set[int] = set()
        for kind in kinds:
            card = CARDS[kind]
            if IS_QUEST[kind]:
                if card.value:
                    self.numbered[card.quest].append(card.value)
                else:
                    self.unknown[card.quest] += 1
            elif card.kind == MERLIN:
                merlins.append(card.number)
            elif card.kind == MORGAN:
                morgans.add(card.number)
                self.bonus += card.bonus
            elif card.kind == MORDRED:
                self.mordreds += 1
        self.merlins = tuple(merlins)
        self.morgans = frozenset(morgans)
        self.removals = [0] * NUM_QUESTS
        for number in self.merlins:
            for quest in self._targets(number):
                self.removals[quest] += 1
        self.sums = [0] * NUM_QUESTS
        self.lengths = [0] * NUM_QUESTS
        for quest in range(NUM_QUESTS):
            self._group(quest)
        self._values: tuple[list[int], list[int]] | None = None
        self._busted: tuple[int, int] | None = None

    def _targets(self, merlin: int) -> tuple[int, ...]:
        """Quests whose highest numbered card a Merlin removes (SCG-MERLIN-1..4)."""
        if merlin == 4 and self.token >= 0:
            return (self.token,)
        return MERLIN_REMOVES.get(merlin, ())

    def _group(self, quest: int) -> None:
        """A quest's numbered cards after the Merlins' removals (SCG-RULING-2)."""
        numbered = self.numbered[quest]
        removed = self.removals[quest]
        kept = sorted(numbered, reverse=True)[removed:] if removed else numbered
        self.sums[quest] = sum(kept)
        self.lengths[quest] = len(kept) + self.unknown[quest]

    def _copy(self) -> PileValue:
        other = object.__new__(PileValue)
        other.token = self.token
        other.numbered = list(self.numbered)
        other.unknown = list(self.unknown)
        other.mordreds = self.mordreds
        other.bonus = self.bonus
        other.merlins = self.merlins
        other.morgans = self.morgans
        other.removals = self.removals
        other.sums = list(self.sums)
        other.lengths = list(self.lengths)
        other._values = None
        other._busted = None
        return other

    def plus(self, kind: int) -> PileValue:
        """This pile with one more card ``kind``."""
        card = CARDS[kind]
        other = self._copy()
        if IS_QUEST[kind]:
            quest = card.quest
            if card.value:
                other.numbered[quest] = [*self.numbered[quest], card.value]
            else:
                other.unknown[quest] += 1
            other._group(quest)
            if self._values is not None and 8 not in self.morgans:
                other._revalue(self, quest)
        elif card.kind == MORGAN:
            other.morgans = self.morgans | {card.number}
            other.bonus += card.bonus
        elif card.kind == MORDRED:
            other.mordreds += 1
        elif card.kind == MERLIN:
            other.merlins = (*self.merlins, card.number)
            targets = other._targets(card.number)
            if targets:
                other.removals = list(self.removals)
                for quest in targets:
                    other.removals[quest] += 1
                for quest in set(targets):
                    other._group(quest)
        return other

    def _value(self, quest: int, total: int, count: int, length: int) -> int:
        value = total + count * (1 if 6 in self.morgans else count)
        if quest <= SAXONS:
            value += self.mordreds * length
        if length:
            value += self.bonus
        return value

    def _revalue(self, parent: PileValue, quest: int) -> None:
        """The parent's values with only ``quest`` changed (one quest card added)."""
        assert parent._values is not None
        values, lengths = list(parent._values[0]), list(parent._values[1])
        before = values[quest] >= 14 and lengths[quest] > 0
        lengths[quest] = self.lengths[quest]
        values[quest] = self._value(quest, self.sums[quest], self.unknown[quest],
                                    lengths[quest])
        self._values = (values, lengths)
        if parent._busted is not None:
            after = values[quest] >= 14
            black, count = parent._busted
            if after != before:
                step = 1 if after else -1
                worth = QUEST_SWORDS[quest] + (1 if 3 in self.morgans else 0)
                black, count = black + step * worth, count + step
            self._busted = (black, count)

    def values(self) -> tuple[list[int], list[int]]:
        """Each quest's value and card count after the removals (SCG-QUEST-4, SCG-MORDRED-1,
        SCG-MORGAN-4, -6); under Morgan #8 the Saxons count with the Picts (SCG-PROMO-1)."""
        if self._values is None:
            sums, lengths, unknown = list(self.sums), list(self.lengths), list(self.unknown)
            if 8 in self.morgans:
                sums[PICTS] += sums[SAXONS]
                lengths[PICTS] += lengths[SAXONS]
                unknown[PICTS] += unknown[SAXONS]
                sums[SAXONS] = lengths[SAXONS] = unknown[SAXONS] = 0
            values = [self._value(quest, sums[quest], unknown[quest], lengths[quest])
                      for quest in range(NUM_QUESTS)]
            self._values = (values, lengths)
        return self._values

    def _worth(self, quest: int) -> int:
        return COMBINED_SWORDS if quest == PICTS and 8 in self.morgans else QUEST_SWORDS[quest]

    def busted(self) -> int:
        """Black swords of the quests already past 13: main or secondary, they lay them at
        the next resolution whatever comes (SCG-QUEST-7, -8), barring a Merlin."""
        return self._busted_counts()[0]

    def busted_quests(self) -> int:
        """How many quests are already past 13."""
        return self._busted_counts()[1]

    def _busted_counts(self) -> tuple[int, int]:
        if self._busted is None:
            values, lengths = self.values()
            extra = 1 if 3 in self.morgans else 0
            black = count = 0
            for quest in range(NUM_QUESTS):
                if lengths[quest] and values[quest] >= 14:
                    black += self._worth(quest) + extra
                    count += 1
            self._busted = (black, count)
        return self._busted

    def outcome(self, main: int, bonus: int = 0) -> tuple[int, int, bool]:
        """``(white, black, evil wins at once)`` of going on ``main`` (SCG-QUEST-5..8)."""
        values, lengths = self.values()
        morgans = self.morgans
        if main == SAXONS and 8 in morgans:
            main = PICTS
        extra = 1 if 3 in morgans else 0
        value = values[main] + bonus
        low = 12 if 5 in morgans else 11
        swords = self._worth(main)
        white = black = 0
        if low <= value <= 13 or (5 in self.merlins and lengths[main] == 5):
            white = swords + extra
        elif value <= 11:  # 11 reaches here only under Morgan #5 (SCG-MORGAN-5)
            black = 1 + extra
        else:
            black = swords + extra
        busted_black, _ = self._busted_counts()
        if lengths[main] and values[main] >= 14:
            busted_black -= self._worth(main) + extra  # the main quest is counted above
        return white, black + busted_black, 7 in morgans and value >= 14


# ---------------------------------------------------------------------- memory
@dataclass(slots=True)
class PileEntry:
    """One card of the threat pile as the table saw it.

    ``kind`` is -1 for a card the table has not seen (face down, or laid while the bot was
    not looking); ``announced`` the quest named for a face-down card (SCG-MORGAN-1), else
    -1; ``secret`` the face-down card's kind, for its layer ``by`` only.
    """

    kind: int
    announced: int = -1
    by: int = -1
    secret: int = -1

    def known_to(self, seat: int | None) -> int:
        """The card's kind as ``seat`` knows it (-1: unknown)."""
        if self.kind >= 0:
            return self.kind
        if seat is not None and seat == self.by:
            return self.secret
        return -1


@dataclass(slots=True)
class TurnSeen:
    """A turn the table watched: the position before it and what the player did.

    ``action`` is ``listen``, ``quest``, ``accuse``, ``galahad`` (a turn) or ``arthur`` (a
    quest stopped); ``quest`` the quest gone on (-1 if not seen).
    """

    seat: int
    before: Obs
    entries: list[PileEntry]
    discard_seen: list[int]
    action: str
    quest: int


@dataclass(slots=True)
class Evidence:
    """A public fact about loyalty: ``kind`` is ``lie`` (one of ``seats`` named a quest
    falsely under Morgan #1), ``turn`` (a watched turn), ``arthur`` or ``gawain`` (a Knight
    card played by ``seats[0]``), ``accused`` (``seats[0]`` accused ``seats[1]``, who
    proved loyal), or ``vivien`` (loyalty cards may have changed hands)."""

    kind: str
    seats: tuple[int, ...] = ()
    turn: TurnSeen | None = None
    before: Obs | None = None


@dataclass(slots=True)
class TableMemory:
    """What one bot has seen of the table, kept by itself (the observations keep no count).

    Feed it observations in the order they were seen (:meth:`observe`); it keeps the threat
    pile card by card, the cards seen going to the discard pile since the last reshuffle,
    the count under Morgan #2, the public evidence about loyalty and the turns it watched.
    """

    players: int = 0
    total: list[int] = field(default_factory=list)
    entries: list[PileEntry] = field(default_factory=list)
    discard_seen: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    #: Cards a seat saw go face down to the discard pile (Gawain's, the unmasked
    #: traitor's), by seat.
    private_discard: dict[int, list[int]] = field(default_factory=dict)
    evidence: list[Evidence] = field(default_factory=list)
    morgan_2_count: int = 0
    #: Seats a resolution proved to have lied (no other announcer of that quest).
    proven: set[int] = field(default_factory=set)
    #: The quest each seat chose for Merlin #6 (the observation does not show it).
    merlin_6_quest: dict[int, int] = field(default_factory=dict)
    #: Seats in the order their loyalty card was shown.
    revealed_order: list[int] = field(default_factory=list)
    last: Obs | None = None
    _pending_turn: Obs | None = None
    _pending_entries: list[PileEntry] = field(default_factory=list)
    _pending_discard: list[int] = field(default_factory=list)
    _flight: dict[int, int] = field(default_factory=dict)

    # ------------------------------------------------------------------ feeding
    def copy(self) -> TableMemory:
        """An independent copy: every rollout of a search goes on from the same memory."""
        return TableMemory(
            players=self.players, total=self.total[:], entries=self._snapshot(),
            discard_seen=self.discard_seen[:],
            private_discard={s: c[:] for s, c in self.private_discard.items()},
            evidence=self.evidence[:], morgan_2_count=self.morgan_2_count,
            proven=set(self.proven), merlin_6_quest=dict(self.merlin_6_quest),
            revealed_order=self.revealed_order[:], last=self.last,
            _pending_turn=self._pending_turn, _pending_entries=self._pending_entries[:],
            _pending_discard=self._pending_discard[:], _flight=dict(self._flight))

    def reset(self) -> None:
        """Forget everything (a new game)."""
        fresh = TableMemory()
        for name in fields(self):
            setattr(self, name.name, getattr(fresh, name.name))

    def observe(self, obs: Obs) -> None:
        """Take in the next observation (of any seat, or a spectator's)."""
        if self.last is not None and self._is_new_game(obs):
            self.reset()
        if self.last is None:
            self._start(obs)
        last = self.last
        pile = obs["pile"]
        count = int(pile["count"])
        resolution = obs["last_resolution"]
        if last is not None and self._pending_turn is not None:
            self._finish_turn(obs)
        if last is not None and resolution is not None and resolution != last[
                "last_resolution"]:
            self._resolved(resolution, obs)
        elif count < len(self.entries):
            self.entries = []  # a pile resolved out of sight
        if last is not None and obs["discard"] < last["discard"]:
            self.discard_seen = [0] * NUM_KINDS  # SCG-QUEST-10: the discard became the deck
            self.private_discard.clear()
        self._private(obs)
        new = count - len(self.entries)
        if new > 0:
            self.entries += [PileEntry(-1) for _ in range(new - 1)]
            self.entries.append(self._top_entry(obs))
        in_force = bool(obs["in_force"]["morgan-2"])
        if in_force and last is not None and not last["in_force"]["morgan-2"]:
            self.morgan_2_count = 0  # counting starts after Morgan #2 (SCG-RULING-12)
        elif in_force and new > 0:
            self.morgan_2_count += new
        for seat, entry in enumerate(obs["seats"]):
            if entry["loyalty"] is not None and seat not in self.revealed_order:
                self.revealed_order.append(seat)
        if last is not None:
            self._knights(last, obs)
            self._accusations(last, obs)
        if (obs["decision"] == "turn" and obs["to_act"] != obs.get("seat")
                and obs["resolving"] is None):
            self._pending_turn = obs
            self._pending_entries = self._snapshot()
            self._pending_discard = list(self.discard_seen)
        self.last = obs

    def _snapshot(self) -> list[PileEntry]:
        return [PileEntry(e.kind, e.announced, e.by, e.secret) for e in self.entries]

    def _start(self, obs: Obs) -> None:
        self.players = int(obs["players"])
        cards = int(obs["deck"]) + int(obs["discard"]) + int(obs["pile"]["count"]) + int(
            obs["morgans_aside"]) + (int(obs["hand"]["count"]) if obs["hand"] else 0)
        if obs["decision"] == "announce":
            cards += 1  # the card in flight
        promos = cards > sum(deck_counts(promos=(False, False)))
        self.total = deck_counts(promos=(promos, promos))

    def _is_new_game(self, obs: Obs) -> bool:
        last = self.last
        assert last is not None
        if obs["players"] != last["players"]:
            return True
        swords, before = obs["swords"], last["swords"]
        if swords["white"] + swords["black"] < before["white"] + before["black"]:
            return True
        # The deck grows only by a reshuffle (the discard shrinks) or a Morgan coming back.
        return bool(obs["deck"] > last["deck"] and obs["discard"] >= last["discard"]
                    and obs["morgans_aside"] >= last["morgans_aside"])

    def _top_entry(self, obs: Obs) -> PileEntry:
        top = obs["pile"]["top"]
        if top is None:
            return PileEntry(-1)
        if top.get("face_down"):
            by = int(top["by"])
            entry = PileEntry(-1, QUEST_INDEX[top["announced"]], by)
            you = obs.get("you")
            if you is not None and you.get("top_card"):
                entry.secret = KIND[you["top_card"]]
            elif by in self._flight:
                entry.secret = self._flight[by]
            self._flight.pop(by, None)
            return entry
        kind = KIND[top["card"]]
        if kind in (KIND.get("morgan-8", -1), MERLIN_6) and sum(self.total) < sum(
                deck_counts(promos=(True, True))):
            self.total = deck_counts(promos=(True, True))
        return PileEntry(kind)

    def _private(self, obs: Obs) -> None:
        you = obs.get("you")
        seat = obs.get("seat")
        if you is None or seat is None:
            return
        if obs["decision"] == "announce" and obs["to_act"] == seat and you["hand"]:
            self._flight[seat] = KIND[you["hand"][0]]
        if you.get("top_card") and self.entries and self.entries[-1].by == seat:
            self.entries[-1].secret = KIND[you["top_card"]]
        last = self.last
        if last is not None and last.get("seat") == seat:
            held = last["you"]["hand"] if last.get("you") else []
            if len(held) > 1 and not you["hand"]:
                # The cards of a hand not laid went face down to the discard pile.
                laid = self._last_laid(obs)
                rest = [KIND[c] for c in held]
                if laid in rest:
                    rest.remove(laid)
                counts = self.private_discard.setdefault(seat, [0] * NUM_KINDS)
                for kind in rest:
                    counts[kind] += 1

    def _last_laid(self, obs: Obs) -> int:
        top = obs["pile"]["top"]
        if top is not None and "card" in top:
            return KIND[top["card"]]
        return -1

    def _resolved(self, resolution: Obs, obs: Obs) -> None:
        """A pile was resolved and laid out (SCG-QUEST-2, SCG-RULING-8): check Morgan #1's
        announcements against the cards and send them to the discard pile."""
        cards = [KIND[name] for name in resolution["cards"]]
        entries = self.entries
        if all(e.kind >= 0 or e.announced >= 0 for e in entries) and any(
                e.announced >= 0 for e in entries):
            rest = list(cards)
            for entry in entries:
                if entry.kind >= 0 and entry.kind in rest:
                    rest.remove(entry.kind)
            actual = [0] * NUM_QUESTS
            for kind in rest:
                if IS_QUEST[kind]:
                    actual[CARD_QUEST[kind]] += 1
            named = [0] * NUM_QUESTS
            for entry in entries:
                if entry.kind < 0 and entry.announced >= 0:
                    named[entry.announced] += 1
            for quest in range(NUM_QUESTS):
                if named[quest] > actual[quest]:
                    seats = tuple(sorted({e.by for e in entries
                                          if e.kind < 0 and e.announced == quest}))
                    self.evidence.append(Evidence("lie", seats))
                    honest = {s for s, seat in enumerate(obs["seats"])
                              if seat["loyalty"] == "loyal"}
                    suspects = [s for s in seats if s not in honest]
                    if len(suspects) == 1:
                        self.proven.add(suspects[0])
        for kind in cards:
            self.discard_seen[kind] += 1
        self.entries = []

    def _knights(self, last: Obs, obs: Obs) -> None:
        if not obs["expert"]:
            return
        played, before = obs["knights_played"], last["knights_played"]
        for name in ("arthur", "gawain"):
            if played[name] > before[name]:
                player = next((s for s in range(self.players)
                               if obs["seats"][s]["knights"] < last["seats"][s]["knights"]),
                              -1)
                if player >= 0:
                    seen = TurnSeen(player, last, self._snapshot(), list(self.discard_seen),
                                    name, -1)
                    self.evidence.append(Evidence(name, (player,), seen, before=last))

    def _accusations(self, last: Obs, obs: Obs) -> None:
        if obs["pile"]["top"] != last["pile"]["top"] and obs["pile"]["top"] is not None and (
                obs["pile"]["top"].get("card") == "vivien"):
            self.evidence.append(Evidence("vivien"))
        for accuser in range(self.players):
            if obs["seats"][accuser]["accused"] and not last["seats"][accuser]["accused"]:
                target = next((s for s in range(self.players)
                               if obs["seats"][s]["loyalty"] is not None
                               and last["seats"][s]["loyalty"] is None), -1)
                if target >= 0 and obs["seats"][target]["loyalty"] == "loyal":
                    self.evidence.append(Evidence("accused", (accuser, target), before=last))

    def _finish_turn(self, obs: Obs) -> None:
        before = self._pending_turn
        assert before is not None
        seat = int(before["to_act"])
        action, quest = "listen", -1
        if obs["seats"][seat]["accused"] and not before["seats"][seat]["accused"]:
            action = "accuse"
        elif obs["expert"] and obs["knights_played"]["tristan"] > before["knights_played"][
                "tristan"]:
            return  # Tristan: the turn goes on; wait for its action
        elif obs["expert"] and obs["knights_played"]["galahad"] > before["knights_played"][
                "galahad"]:
            action = "galahad"
        elif obs["resolving"] is not None:
            action, quest = "quest", QUEST_INDEX[obs["resolving"]["quest"]]
        elif obs["last_resolution"] != before["last_resolution"]:
            action = "quest"
            if obs["last_resolution"] is not None:
                quest = QUEST_INDEX[obs["last_resolution"]["quest"]]
        elif obs["decision"] == "arthur":
            action = "quest"
        self._pending_turn = None
        self.evidence.append(Evidence("turn", (seat,), TurnSeen(
            seat, before, self._pending_entries, self._pending_discard, action, quest)))

    # ------------------------------------------------------------------ reading
    def unseen(self, seat: int | None, obs: Obs, entries: Sequence[PileEntry] | None = None,
               discard_seen: Sequence[int] | None = None) -> list[int]:
        """Cards ``seat`` has not seen anywhere (they are in the deck, set aside, face down or
        in someone's hand)."""
        pool = list(self.total)
        for entry in self.entries if entries is None else entries:
            kind = entry.known_to(seat)
            if kind >= 0:
                pool[kind] -= 1
        for kind, count in enumerate(self.discard_seen if discard_seen is None
                                     else discard_seen):
            pool[kind] -= count
        if seat is not None:
            for kind, count in enumerate(self.private_discard.get(seat, ())):
                pool[kind] -= count
        you = obs.get("you") if seat is not None and obs.get("seat") == seat else None
        if you is not None:
            for name in you["hand"]:
                pool[KIND[name]] -= 1
            for name in you["deck_seen"]:
                pool[KIND[name]] -= 1
        return [max(0, c) for c in pool]


# ---------------------------------------------------------------------- belief
class TraitorBelief(LoyaltyBelief):
    """A seat's belief about who holds a traitor card (or none): a weight for every set of
    traitors among the other seats (:class:`~pendragon.bots.belief.LoyaltyBelief`), from the
    loyalty deck (SCG-SETUP-1: with 2 to 6 players one traitor card among ``players + 2``;
    at 7, two among 9; two cards set aside).

    >>> belief = TraitorBelief(players=5, seat=0)
    >>> round(belief.probability(1), 3), round(belief.none(), 3)  # 1/6 each, 2/6 no traitor
    (0.167, 0.333)
    >>> belief.at_least_one_of((3,))  # a lie only seat 3 could have told
    >>> round(belief.probability(3), 3)
    0.976
    """

    __slots__ = ("players", "seat")

    def __init__(self, players: int, seat: int | None, traitors: int | None = None) -> None:
        self.players = players
        self.seat = seat
        deck = traitors if traitors is not None else 2 if players == 7 else 1
        others = [s for s in range(players) if s != seat]
        super().__init__(others, loyal=len(others) + 2 - deck, traitors=deck)


# ---------------------------------------------------------------------- the bot
@dataclass(slots=True)
class _Options:
    """Values of a turn's options for the loyal side (probability to win)."""

    values: dict[str, float]
    slope: float
    base: float


class SocCardHeuristicBot:
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

    #: Each coming sword is white with this probability (the race model).
    white_share = 0.55
    #: Worth, in swords, of a pile left for the next player to listen on (a small loss:
    #: piles that grow bust their secondary quests).
    continue_swords = -0.5
    #: Accuse when the accusation is worth this much more than the best other action.
    accuse_margin = 0.0
    #: Least P(traitor) for an accusation, whatever the race says.
    accuse_floor = 0.45
    #: Evidence of a watched turn. A loyal player picks an option with probability
    #: softmax(value in swords / turn_temperature); a traitor plays like him, except that
    #: with probability turn_harm he picks by softmax(-value / turn_temperature). The
    #: likelihood ratio is bounded to [1 - turn_harm, turn_cap].
    turn_temperature = 0.35
    turn_harm = 0.25
    turn_cap = 8.0
    #: The temperature a traitor assumes the table judges it by (its cover).
    traitor_temperature = 0.5
    #: A hidden traitor harms only while a spectator's P(he is the traitor) stays under
    #: this after his move (loyal players accuse from accuse_floor).
    traitor_cover = 0.3
    #: ...and this much more once black swords are near the end.
    traitor_cover_late = 0.25
    #: Chance that a seat known to be a traitor lies in an announcement.
    lie_rate = 0.6
    #: Where a search's rollout stops (``search_leaf``), a traitor still hidden is later
    #: unmasked with this probability (a white sword, SCG-ACCUSE-2), else turns a sword at
    #: the end (SCG-END-2): the heuristic unmasks 92% of traitors (docs/bots.md).
    search_unmask = 0.85

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

    __slots__ = (
        "seed", "follow_table", "track_beliefs", "samples", "_rng", "memory", "_replay",
        "_history", "_game", "_direct", "_view", "_beliefs", "_read", "_public",
        "_public_read", "quick", "follow_public",
    )

    def __init__(self, seed: int | None = None, follow_table: bool = True,
                 track_beliefs: bool = True, samples: int = 10, quick: bool = False,
                 follow_public: bool = False) -> None:
        self.seed = seed
        self.follow_public = follow_public
        self.quick = quick
        self.follow_table = follow_table
        self.track_beliefs = track_beliefs
        self.samples = samples
        self._rng = random.Random(seed)
        self.memory = TableMemory()
        self._replay: State | None = None
        self._history: list[int] = []
        self._game: object | None = None
        self._direct = not follow_table
        self._view: int | None = None
        self._beliefs: dict[int, TraitorBelief] = {}
        self._read: dict[int, int] = {}
        self._public: TraitorBelief | None = None
        self._public_read = 0

    def __repr__(self) -> str:
        return f"SocCardHeuristicBot(seed={self.seed!r})"

    # ------------------------------------------------------------------ entry point
    def step(self, state: State) -> int:
        """The action for the seat to act in ``state`` (which is not modified)."""
        seat, legal = to_act(state)
        if seat == CHANCE:
            return state.sample_chance()
        obs = state.observation(seat)
        self._follow(state, seat, obs)
        if len(legal) == 1:
            return legal[0]
        return self.choose(obs, legal)

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

    # ------------------------------------------------------------------ who is who
    @staticmethod
    def _is_traitor(obs: Obs) -> bool:
        return bool(obs["you"]["loyalty"] == "traitor")

    def belief(self, obs: Obs) -> TraitorBelief:
        """The traitor belief of the seat of ``obs``, brought up to date."""
        seat = int(obs["seat"])
        belief = self._beliefs.get(seat)
        if belief is None:
            belief = TraitorBelief(int(obs["players"]), seat)
            self._beliefs[seat] = belief
            self._read[seat] = 0
        self._weigh(belief, seat, obs, self._read[seat])
        self._read[seat] = len(self.memory.evidence)
        for other, entry in enumerate(obs["seats"]):
            if other != seat and entry["loyalty"] is not None:
                belief.settle(other, entry["loyalty"] == "traitor")
        for other, loyalty in obs["you"]["known_loyalties"].items():
            if int(other) != seat:
                belief.settle(int(other), loyalty == "traitor")
        return belief

    def public_belief(self, obs: Obs) -> TraitorBelief:
        """What a spectator would believe from the public evidence alone."""
        if self._public is None:
            self._public = TraitorBelief(int(obs["players"]), None)
            self._public_read = 0
        self._weigh(self._public, None, obs, self._public_read)
        self._public_read = len(self.memory.evidence)
        for other, entry in enumerate(obs["seats"]):
            if entry["loyalty"] is not None:
                self._public.settle(other, entry["loyalty"] == "traitor")
        return self._public

    def _weigh(self, belief: TraitorBelief, seat: int | None, obs: Obs, start: int) -> None:
        revealed = [s for s, e in enumerate(obs["seats"]) if e["loyalty"] is not None]
        for evidence in self.memory.evidence[start:]:
            if evidence.kind == "lie":
                suspects = [s for s in evidence.seats if s != seat
                            and obs["seats"][s]["loyalty"] != "loyal"]
                if suspects:
                    belief.at_least_one_of(suspects)
            elif evidence.kind == "vivien":
                belief.soften(0.25)
            elif not self.track_beliefs:
                continue
            elif evidence.kind == "turn" and evidence.turn is not None:
                if evidence.turn.seat != seat:
                    ratio = self._turn_ratio(evidence.turn, seat,
                                             belief.count_distribution(revealed))
                    if ratio != 1.0:
                        belief.weigh(evidence.turn.seat, ratio)
            elif evidence.kind == "accused" and evidence.seats[0] != seat:
                # A loyal player accuses on evidence: accusing a seat nobody suspected is
                # a traitor's way to a black sword (SCG-ACCUSE-2).
                accuser, target = evidence.seats
                if target == seat:
                    belief.weigh(accuser, 2.0)  # loyal players err too
                else:
                    belief.weigh(accuser, 4.0 if belief.probability(target) < 0.3 else 1.5)
            elif evidence.kind == "arthur" and evidence.turn is not None:
                if evidence.seats[0] != seat:
                    ratio = self._arthur_ratio(evidence.turn, seat,
                                               belief.count_distribution(revealed))
                    belief.weigh(evidence.seats[0], ratio)
            elif evidence.kind == "gawain" and evidence.before is not None:
                if evidence.seats[0] != seat and self._was_won(evidence.before):
                    belief.weigh(evidence.seats[0], 3.0)

    def _arthur_ratio(self, seen: TurnSeen, seat: int | None, flips: Sequence[float]) -> float:
        """Evidence of an Arthur played (SCG-EXPERT-5): stopping a quest worth more than a
        listen is a traitor's move."""
        options = self._options(seen.before, seat, seen.entries, seen.discard_seen,
                                allowed=_allowed(seen.before), can_listen=True, samples=2,
                                flips=flips)
        quests = [v for k, v in options.values.items() if k.startswith("quest:")]
        if not quests or "listen" not in options.values:
            return 1.0
        return self.choice_ratio({"quest": max(quests), "listen": options.values["listen"]},
                                 options.slope, "listen")

    def _was_won(self, before: Obs) -> bool:
        resolving = before.get("resolving")
        if not resolving:
            return False
        pile = PileValue([KIND[c] for c in resolving["cards"]])
        return pile.outcome(QUEST_INDEX[resolving["quest"]])[0] > 0

    def _turn_ratio(self, turn: TurnSeen, seat: int | None, flips: Sequence[float]) -> float:
        """How much likelier a watched turn is from a traitor than from a loyal player."""
        if turn.action not in ("listen", "quest"):
            return 1.0
        before = turn.before
        options = self._options(before, seat, turn.entries, turn.discard_seen,
                                allowed=_allowed(before), can_listen=_can_listen(before),
                                samples=max(2, self.samples // 2), flips=flips)
        if len(options.values) < 2:
            return 1.0
        if turn.action == "listen":
            chosen = "listen"
        elif turn.quest >= 0:
            chosen = f"quest:{QUESTS[turn.quest]}"
        else:
            quests = [k for k in options.values if k.startswith("quest:")]
            if not quests:
                return 1.0
            chosen = max(quests, key=lambda k: options.values[k])
        if chosen not in options.values:
            return 1.0
        return self.choice_ratio(options.values, options.slope, chosen)

    def choice_ratio(self, values: dict[str, float], slope: float, chosen: str,
                     temperature: float | None = None) -> float:
        """P(``chosen`` | traitor) / P(``chosen`` | loyal) for options worth ``values``.

        >>> bot = SocCardHeuristicBot(seed=0)
        >>> round(bot.choice_ratio({"listen": 0.5, "quest:picts": 0.4}, 0.05, "quest:picts"), 2)
        8.0
        >>> round(bot.choice_ratio({"listen": 0.5, "quest:picts": 0.4}, 0.05, "listen"), 2)
        0.75
        """
        temperature = temperature or self.turn_temperature
        scaled = {k: v / max(slope, 1e-6) for k, v in values.items()}
        top, low = max(scaled.values()), min(scaled.values())
        loyal = {k: math.exp((v - top) / temperature) for k, v in scaled.items()}
        harm = {k: math.exp((low - v) / temperature) for k, v in scaled.items()}
        p_loyal = loyal[chosen] / sum(loyal.values())
        p_harm = harm[chosen] / sum(harm.values())
        ratio = (1 - self.turn_harm) + self.turn_harm * p_harm / max(p_loyal, 1e-12)
        return min(self.turn_cap, ratio)

    def _flips(self, obs: Obs, seat: int | None) -> list[float]:
        """P(0, 1, 2 traitors still hidden at the end), as ``seat`` sees it."""
        if obs["solo"]:
            return [1.0, 0.0, 0.0]
        revealed = [s for s, e in enumerate(obs["seats"]) if e["loyalty"] is not None]
        if seat is None:
            return self.public_belief(obs).count_distribution(revealed)
        if self._is_traitor(obs):
            mine = 0 if seat in revealed else 1
            if int(obs["players"]) == 7:
                # The other traitor card lies with another seat or aside.
                other = TraitorBelief(7, seat, traitors=1).count_distribution(revealed)
                return [other[0], other[1], 0.0] if not mine else [0.0, other[0], other[1]]
            return [1.0 - mine, float(mine), 0.0]
        return self.belief(obs).count_distribution(revealed)

    # ------------------------------------------------------------------ valuation
    def _options(
        self, obs: Obs, seat: int | None, entries: Sequence[PileEntry],
        discard_seen: Sequence[int], allowed: Sequence[int], can_listen: bool,
        samples: int | None = None, flips: Sequence[float] | None = None,
        token: int | None = None,
    ) -> _Options:
        """The value (loyal side's chance to win) of each quest now and of a listen."""
        memory = self.memory
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        if flips is None:
            flips = self._flips(obs, seat) if seat is not None else [1.0, 0.0, 0.0]
        share = self.white_share
        slope = max(1e-4, (race_value(white + 1, black, flips, share)
                           - race_value(white, black + 1, flips, share)) / 2)
        pool = memory.unseen(seat, obs, entries, discard_seen)
        you = obs.get("you") if seat is not None and obs.get("seat") == seat else None
        if token is None:
            token = -1
            if you is not None and you.get("merlin_4_token"):
                token = QUEST_INDEX[you["merlin_4_token"]]
            elif obs["merlin_4_token"]:
                token = -2  # somebody else's, unknown
        next_card = KIND[you["deck_seen"][0]] if you is not None and you["deck_seen"] else -1
        known: list[int] = []
        hidden: list[PileEntry] = []
        for entry in entries:
            kind = entry.known_to(seat)
            if kind >= 0:
                known.append(kind)
            else:
                hidden.append(entry)
        rounds = 1 if not hidden and token != -2 else (samples or self.samples)
        rng = random.Random(_decision_seed(self.seed, obs, seat))
        morgans_aside = int(obs["morgans_aside"])
        values: dict[str, float] = {}
        totals: dict[str, float] = {}

        going_on = self.continue_swords * slope

        race = _RaceLookup(flips, share)

        def value(result: tuple[int, int, bool]) -> float:
            white_won, black_won, lost = result
            if lost:
                return 0.0
            return race(white + white_won, black + black_won)

        def later(pile: PileValue) -> float:
            # The pile goes on: the quests already past 13 will lay their swords, and
            # under Morgan #7 going on a busted one loses at once (SCG-MORGAN-7).
            busted = pile.busted_quests()
            value = race(white, black + pile.busted()) + going_on
            if busted and 7 in pile.morgans:
                value *= 1.0 - busted / NUM_QUESTS
            return value

        cont = 0.0
        for _ in range(rounds):
            left = list(pool)
            kinds = list(known)
            for entry in hidden:
                kinds.append(self._sample(entry, left, rng, obs))
            pile = PileValue(kinds, token if token != -2 else rng.randrange(NUM_QUESTS))
            cont += later(pile) / rounds
            for quest in allowed:
                key = f"quest:{QUESTS[quest]}"
                totals[key] = totals.get(key, 0.0) + value(pile.outcome(quest))
            if can_listen:
                deck = _deck_weights(left, morgans_aside, obs, self.memory)
                listen = self._listen_value(pile, deck, next_card, later, value,
                                            self.quick)
                totals["listen"] = totals.get("listen", 0.0) + listen
        for key, total in totals.items():
            values[key] = total / rounds
        return _Options(values, slope, cont)

    def _sample(self, entry: PileEntry, pool: list[int], rng: random.Random, obs: Obs) -> int:
        """A card for a pile entry the seat cannot see, taken out of ``pool``."""
        if entry.announced >= 0:
            liar = entry.by in self.memory.proven
            if liar and rng.random() < self.lie_rate:
                candidates: Sequence[int] = _ALL_QUEST_KINDS
            else:
                candidates = _QUEST_KINDS_OF[entry.announced]
        else:
            candidates = range(NUM_KINDS)
        weights = [pool[k] for k in candidates]
        total = sum(weights)
        if total <= 0:
            kind = candidates[0] if entry.announced < 0 else _QUEST_KINDS_OF[entry.announced][0]
            return kind
        pick = rng.random() * total
        for kind, weight in zip(candidates, weights, strict=True):
            pick -= weight
            if pick < 0 and weight > 0:
                pool[kind] -= 1
                return kind
        kind = next(k for k, w in zip(candidates, weights, strict=True) if w > 0)
        pool[kind] -= 1
        return kind

    @staticmethod
    def _listen_value(pile: PileValue, deck: list[float], next_card: int, later: Any,
                      value: Any, quick: bool) -> float:
        """Expected value after a listen: the next player quests on what the new card
        opens, if that beats going on (``quick``: a card that opens no quest is taken to
        leave the pile as it is)."""
        items: Iterable[tuple[int, float]]
        if next_card >= 0:
            items = ((next_card, 1.0),)
        else:
            total = sum(deck)
            if total <= 0:
                return float(later(pile))
            items = ((k, w / total) for k, w in enumerate(deck) if w > 0)
        expected = 0.0
        unchanged = later(pile) if quick else 0.0
        for kind, chance in items:
            card = CARDS[kind]
            if quick and not card.allows and kind != MERLIN_6:
                expected += chance * unchanged
                continue
            bigger = pile.plus(kind)
            if kind == MERLIN_6:
                best = max(value(bigger.outcome(q, bonus))
                           for q in range(NUM_QUESTS) for bonus in range(4))
                expected += chance * best
            elif card.allows:
                best = max(value(bigger.outcome(q)) for q in card.allows)
                expected += chance * max(later(bigger), best)
            else:
                expected += chance * later(bigger)
        return expected

    def _turn_options(self, obs: Obs, texts: dict[str, int]) -> _Options:
        seat = int(obs["seat"])
        allowed = [QUEST_INDEX[t[6:]] for t in texts if t.startswith("quest:")]
        return self._options(obs, seat, self.memory.entries, self.memory.discard_seen,
                             allowed=allowed, can_listen="listen" in texts)

    # ------------------------------------------------------------------ the turn
    def _d_turn(self, obs: Obs, texts: dict[str, int]) -> str | None:
        if "play:tristan" in texts and obs["deck"] > 1:
            return "play:tristan"  # SCG-EXPERT-4: free knowledge, the turn goes on
        options = self._turn_options(obs, texts)
        if self._is_traitor(obs):
            return self._traitor_turn(obs, texts, options)
        values = options.values
        if not values:
            return None
        best = max(values, key=lambda k: (values[k], k != "listen"))
        accusation = self._accusation(obs, texts, options, values[best])
        if accusation is not None:
            return accusation
        if best == "listen":
            look = self._galahad(obs, texts)
            if look is not None:
                return look
        return best

    def _accusation(self, obs: Obs, texts: dict[str, int], options: _Options,
                    best: float) -> str | None:
        """Accuse the likeliest traitor when it is worth more than the best action
        (right: a white sword and one traitor fewer to flip; wrong: a black sword,
        SCG-ACCUSE-2, -3)."""
        targets = [int(t[7:]) for t in texts if t.startswith("accuse:")]
        if not targets:
            return None
        seat = int(obs["seat"])
        belief = self.belief(obs)
        target = max(targets, key=lambda s: (belief.probability(s), -s))
        chance = belief.probability(target)
        if chance < self.accuse_floor:
            return None
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        revealed = [s for s, e in enumerate(obs["seats"]) if e["loyalty"] is not None]
        share = self.white_share
        right = TraitorBelief(belief.players, seat)
        right.weights = dict(belief.weights)
        right.settle(target, True)
        wrong = TraitorBelief(belief.players, seat)
        wrong.weights = dict(belief.weights)
        wrong.settle(target, False)
        shown = [*revealed, target]
        value = (chance * race_value(white + 1, black, right.count_distribution(shown), share)
                 + (1 - chance) * race_value(white, black + 1, wrong.count_distribution(shown),
                                             share))
        # The pile is left as it is, for the next player.
        value += options.base - race_value(white, black, belief.count_distribution(revealed), share)
        if value > best + self.accuse_margin * options.slope:
            return f"accuse:{target}"
        return None

    def _galahad(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-8: look at the card of a suspect, instead of a listen."""
        looks = [int(t[8:]) for t in texts if t.startswith("galahad:")]
        if not looks or self._is_traitor(obs):
            return None
        belief = self.belief(obs)
        target = max(looks, key=lambda s: (belief.probability(s), -s))
        if belief.probability(target) >= 0.2:
            return f"galahad:{target}"
        return None

    def _traitor_turn(self, obs: Obs, texts: dict[str, int], options: _Options) -> str | None:
        """The worst option for the loyal side that does not look worse than a judgement
        call: its loss, as any player counts the pile, stays within the tolerance."""
        seat = int(obs["seat"])
        public = self._options(obs, None, self.memory.entries, self.memory.discard_seen,
                               allowed=[QUEST_INDEX[t[6:]] for t in texts
                                        if t.startswith("quest:")],
                               can_listen="listen" in texts, flips=self._flips(obs, None))
        if not public.values:
            return None
        cover = self._cover(obs)
        exposure = self.public_belief(obs).probability(seat)
        best_public = max(public.values, key=lambda k: (public.values[k], k != "listen"))
        plausible = [best_public] + [
            k for k in public.values if k != best_public and _posterior(
                exposure, self.choice_ratio(public.values, public.slope, k,
                                            self.traitor_temperature)) <= cover]
        choice = min(plausible, key=lambda k: (options.values.get(k, 1.0), k))
        accusation = self._traitor_accusation(obs, texts, options, options.values[choice])
        return accusation or choice

    def _cover(self, obs: Obs) -> float:
        """How suspected a hidden traitor lets himself become."""
        cover = self.traitor_cover
        if int(obs["swords"]["black"]) >= END_SWORDS - 2:
            cover += self.traitor_cover_late  # the end is near: harm matters more
        return cover

    def _traitor_accusation(self, obs: Obs, texts: dict[str, int], options: _Options,
                            planned: float) -> str | None:
        """A hidden traitor accuses a loyal player (a black sword, SCG-ACCUSE-2) when the
        sword ends the game, or when a suspect makes the accusation look honest."""
        targets = [int(t[7:]) for t in texts if t.startswith("accuse:")]
        if not targets:
            return None
        public = self.public_belief(obs)
        seat = int(obs["seat"])
        target = max(targets, key=lambda s: (public.probability(s), -s))
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        if black + 1 >= END_SWORDS and black + 1 >= white:
            return f"accuse:{target}"
        if public.probability(target) >= max(0.3, 1.5 * public.probability(seat)):
            flips = self._flips(obs, seat)
            value = race_value(white, black + 1, flips, self.white_share)
            value += options.base - race_value(white, black, flips, self.white_share)
            if value < planned:
                return f"accuse:{target}"
        return None

    # ------------------------------------------------------------------ Morgan #1 and #2
    def _d_announce(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-MORGAN-1: the truth, or (a traitor) the lie that hurts most when it pays."""
        hand = obs["you"]["hand"]
        if not hand:
            return None
        kind = KIND[hand[0]]
        truth = f"announce-card:{hand[0]}"  # the card's content (SCG-RULING-6)
        if not self._is_traitor(obs) or len(texts) == 1:
            return truth
        # A lie names another quest's "?" card, the commonest of a quest's cards.
        candidates = {truth: CARD_QUEST[kind]}
        for other, name in enumerate(QUESTS):
            if other != CARD_QUEST[kind] and f"announce-card:{name}-q" in texts:
                candidates[f"announce-card:{name}-q"] = other
        seat = int(obs["seat"])
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        flips = self._flips(obs, seat)
        share = self.white_share
        base = race_value(white, black, flips, share)
        slope = max(1e-4, (race_value(white + 1, black, flips, share)
                           - race_value(white, black + 1, flips, share)) / 2)
        cont = base + self.continue_swords * slope
        entries = self.memory.entries
        exposure = self.public_belief(obs).probability(seat)
        scores: dict[str, float] = {}
        for text, quest in candidates.items():
            # What the next (loyal) player will believe, and do.
            believed = [*entries, PileEntry(-1, quest, seat)]
            public = self._options(obs, None, believed, self.memory.discard_seen,
                                   allowed=[quest], can_listen=_can_listen(obs),
                                   samples=4, flips=self._flips(obs, None))
            quests = public.values.get(f"quest:{QUESTS[quest]}", 0.0)
            will_quest = quests > public.values.get("listen", -1.0)
            truth_pile = [*entries, PileEntry(kind, quest, seat)]
            real = self._options(obs, seat, truth_pile, self.memory.discard_seen,
                                 allowed=[quest], can_listen=_can_listen(obs), samples=4,
                                 flips=flips)
            outcome = real.values.get(f"quest:{QUESTS[quest]}", cont) if will_quest else (
                real.values.get("listen", cont))
            if text != truth:
                others = sum(1 for e in entries if e.announced == quest and e.by != seat)
                risk = 1.0 / (1 + others)  # the share of suspicion falling on us
                outcome += (0.5 + exposure) * risk * slope * 2.0
            scores[text] = outcome
        return min(scores, key=lambda t: (scores[t], t != truth))

    def _d_count(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-MORGAN-2: say the number of cards laid since Morgan #2."""
        number = min(63, max(1, self.memory.morgan_2_count))
        return f"count:{number}"

    # ------------------------------------------------------------------ Vivien
    def _d_vivien_give(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-VIVIEN-1: a loyal drawer hands the other card to the likeliest traitor (a
        loyal card offered may turn him); a traitor to the least suspected."""
        seats = [int(t[5:]) for t in texts if t.startswith("give:")]
        if not seats:
            return None
        if self._is_traitor(obs):
            public = self.public_belief(obs)
            return f"give:{min(seats, key=lambda s: (public.probability(s), s))}"
        belief = self.belief(obs)
        return f"give:{max(seats, key=lambda s: (belief.probability(s), -s))}"

    def _d_vivien_keep(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-VIVIEN-2: change sides only to join the side that is winning clearly."""
        offer = obs["you"]["offer"]
        mine = obs["you"]["loyalty"]
        if offer is None or offer == mine:
            return "keep"
        seat = int(obs["seat"])
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        loyal_wins = race_value(white, black, self._flips(obs, seat), self.white_share)
        if mine == "traitor" and loyal_wins > 0.8:
            return "swap"
        if mine == "loyal" and loyal_wins < 0.15:
            return "swap"
        return "keep"

    # ------------------------------------------------------------------ the unmasked traitor
    def _d_traitor_place(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-ACCUSE-4: lay the card that leaves the loyal side worst off."""
        seat = int(obs["seat"])
        scores: dict[str, float] = {}
        for text in texts:
            kind = KIND[text[6:]]
            entries = [*self.memory.entries, PileEntry(kind)]
            card = CARDS[kind]
            options = self._options(obs, seat, entries, self.memory.discard_seen,
                                    allowed=list(card.allows), can_listen=_can_listen(obs),
                                    samples=4)
            scores[text] = max(options.values.values(), default=options.base)
        return min(scores, key=lambda t: (scores[t], t))

    # ------------------------------------------------------------------ Merlins
    def _d_merlin_4(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-MERLIN-4: the token on the quest whose highest card is best removed."""
        seat = int(obs["seat"])
        traitor = self._is_traitor(obs)
        scores: dict[str, float] = {}
        for text in texts:
            quest = QUEST_INDEX[text[9:]]
            options = self._options(obs, seat, self.memory.entries, self.memory.discard_seen,
                                    allowed=[], can_listen=_can_listen(obs), samples=4,
                                    token=quest)
            scores[text] = options.values.get("listen", options.base)
        if traitor:
            return min(scores, key=lambda t: (scores[t], t))
        return max(scores, key=lambda t: (scores[t], t))

    def _merlin_6_scores(self, obs: Obs, quests: Sequence[int]) -> dict[tuple[int, int], float]:
        seat = int(obs["seat"])
        options_flips = self._flips(obs, seat)
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        scores: dict[tuple[int, int], float] = {}
        known = [e.known_to(seat) for e in self.memory.entries]
        pool = self.memory.unseen(seat, obs)
        rng = random.Random(_decision_seed(self.seed, obs, seat))
        rounds = 1 if all(k >= 0 for k in known) else self.samples
        for _ in range(rounds):
            left = list(pool)
            kinds = [k if k >= 0 else self._sample(e, left, rng, obs)
                     for k, e in zip(known, self.memory.entries, strict=True)]
            pile = PileValue(kinds)
            for quest in quests:
                for bonus in range(4):
                    w, b, lost = pile.outcome(quest, bonus)
                    v = 0.0 if lost else race_value(white + w, black + b, options_flips,
                                                    self.white_share)
                    scores[(quest, bonus)] = scores.get((quest, bonus), 0.0) + v / rounds
        return scores

    def _d_merlin_6(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-PROMO-2: the quest with the best reachable total (a traitor: the worst that
        a loyal player could also have chosen)."""
        quests = [QUEST_INDEX[t[9:]] for t in texts if t.startswith("merlin-6:")]
        scores = self._merlin_6_scores(obs, quests)
        best = {q: max(scores[(q, b)] for b in range(4)) for q in quests}
        if self._is_traitor(obs):
            top = max(best.values())
            close = [q for q in quests if best[q] >= top - 0.02]
            choice = min(close, key=lambda q: (best[q], q))
        else:
            choice = max(quests, key=lambda q: (best[q], -q))
        self.memory.merlin_6_quest[int(obs["seat"])] = choice
        return f"merlin-6:{QUESTS[choice]}"

    def _d_merlin_6_add(self, obs: Obs, texts: dict[str, int]) -> str | None:
        quest = self.memory.merlin_6_quest.get(int(obs["seat"]), -1)
        if quest < 0:  # chosen before this bot was asked: take the likeliest, the best
            every = self._merlin_6_scores(obs, range(NUM_QUESTS))
            quest = max(range(NUM_QUESTS), key=lambda q: max(every[(q, b)] for b in range(4)))
        scores = self._merlin_6_scores(obs, [quest])
        pick = min if self._is_traitor(obs) else max
        bonus = pick(range(4), key=lambda b: (scores[(quest, b)], -b))
        return f"merlin-6-add:{bonus}"

    # ------------------------------------------------------------------ Knight cards
    def _d_arthur(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-5: stop a quest that is worse than a listen (a traitor: one that would
        win, when that does not show)."""
        if "play:arthur" not in texts:
            return "pass"
        seat = int(obs["seat"])
        allowed = list(_allowed(obs))
        options = self._options(obs, seat, self.memory.entries, self.memory.discard_seen,
                                allowed=allowed, can_listen=True)
        quests = [v for k, v in options.values.items() if k.startswith("quest:")]
        if not quests:
            return "pass"
        quest = max(quests)
        listen = options.values.get("listen", options.base)
        if self._is_traitor(obs):
            exposure = self.public_belief(obs).probability(seat)
            ratio = self.choice_ratio({"quest": quest, "listen": listen}, options.slope,
                                      "listen", self.traitor_temperature)
            return "play:arthur" if quest > listen and _posterior(
                exposure, ratio) <= self._cover(obs) else "pass"
        return "play:arthur" if listen - quest > options.slope * 0.75 else "pass"

    def _d_gawain(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-6: draw three and play one, when the quest under way is not won (a
        traitor: when it is lost anyway, to make it worse)."""
        if "play:gawain" not in texts:
            return "pass"
        resolving = obs["resolving"]
        if not resolving:
            return "pass"
        pile = PileValue([KIND[c] for c in resolving["cards"]])
        white, _, _ = pile.outcome(QUEST_INDEX[resolving["quest"]])
        return "pass" if white > 0 else "play:gawain"

    def _d_gawain_pick(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-7: the card that makes the quest under way best (a traitor: worst;
        nobody sees the two others)."""
        resolving = obs["resolving"]
        if not resolving:
            return None
        seat = int(obs["seat"])
        quest = QUEST_INDEX[resolving["quest"]]
        cards = [KIND[c] for c in resolving["cards"]]
        white, black = int(obs["swords"]["white"]), int(obs["swords"]["black"])
        flips = self._flips(obs, seat)
        token = QUEST_INDEX[obs["you"]["merlin_4_token"]] if obs["you"][
            "merlin_4_token"] else -1
        scores: dict[str, float] = {}
        for text in texts:
            kind = KIND[text[7:]]
            w, b, lost = PileValue(cards, token).plus(kind).outcome(quest)
            scores[text] = 0.0 if lost else race_value(white + w, black + b, flips,
                                                       self.white_share)
        pick = min if self._is_traitor(obs) else max
        return pick(scores, key=lambda t: (scores[t], t))

    def _d_percival(self, obs: Obs, texts: dict[str, int]) -> str | None:
        """SCG-EXPERT-9: double the white sword of an unmasked traitor (a traitor: double a
        black sword that ends the game, or his own flip at the end)."""
        if "play:percival" not in texts:
            return "pass"
        accusation = obs.get("accusation")
        if accusation is not None:  # asked before the accused's card is shown (SCG-RULING-18)
            target, black = int(accusation["target"]), int(obs["swords"]["black"])
            if self._is_traitor(obs):
                mine = target == obs["seat"]
                return "play:percival" if not mine and black + 2 >= END_SWORDS else "pass"
            return "play:percival" if self.belief(obs).probability(target) > 0.5 else "pass"
        if not self.memory.revealed_order:
            return "pass"
        shown = self.memory.revealed_order[-1]
        revealed = obs["seats"][shown]["loyalty"]
        swords = obs["swords"]
        at_end = max(swords["white"], swords["black"]) >= END_SWORDS
        if self._is_traitor(obs):
            if at_end and revealed == "traitor":
                return "play:percival"
            if not at_end and revealed == "loyal" and swords["black"] + 2 >= END_SWORDS:
                return "play:percival"
            return "pass"
        return "play:percival" if not at_end and revealed == "traitor" else "pass"


# ---------------------------------------------------------------------- helpers
def _posterior(prior: float, ratio: float) -> float:
    """P(traitor) after evidence ``ratio`` times likelier from a traitor."""
    return prior * ratio / (prior * ratio + 1 - prior) if 0 < prior < 1 else prior


def _text(action: int) -> str:
    return CATALOG.text(action)


def _allowed(obs: Obs) -> tuple[int, ...]:
    """The quests the top card of the pile allows (SCG-QUEST-1, SCG-RULING-13)."""
    if not _can_listen(obs):
        return tuple(range(NUM_QUESTS))
    top = obs["pile"]["top"]
    if top is None:
        return ()
    if top.get("face_down"):
        return (QUEST_INDEX[top["announced"]],)
    return CARDS[KIND[top["card"]]].allows


def _can_listen(obs: Obs) -> bool:
    return bool(obs["deck"] or obs["discard"])


def _deck_weights(pool: Sequence[int], morgans_aside: int, obs: Obs,
                  memory: TableMemory) -> list[float]:
    """How likely each kind is to be the next card drawn: the unseen cards, with the set-aside
    Morgans taken out of the Morgans (SCG-SETUP-3); from the discard pile when the deck is
    empty (SCG-QUEST-10)."""
    if obs["deck"] == 0:
        seen = [float(c) for c in memory.discard_seen]
        hidden = max(0, int(obs["discard"]) - int(sum(memory.discard_seen)))
        if hidden and sum(pool):
            share = hidden / sum(pool)
            seen = [s + share * p for s, p in zip(seen, pool, strict=True)]
        return seen
    weights = [float(c) for c in pool]
    morgans = sum(pool[k] for k in _MORGAN_KINDS)
    if morgans:
        keep = max(0, morgans - morgans_aside) / morgans
        for kind in _MORGAN_KINDS:
            weights[kind] *= keep
    return weights


def _decision_seed(seed: int | None, obs: Obs, seat: int | None) -> str:
    """A seed for one decision's samples: the same for the same position and bot."""
    return (f"{seed}:{seat}:{obs['turn']}:{obs['swords']['white']}:{obs['swords']['black']}:"
            f"{obs['pile']['count']}:{obs['deck']}:{obs['discard']}:{obs['decision']}")


def rollout_bot(seed: int | None) -> SocCardHeuristicBot:
    """The fast policy of search rollouts: no beliefs from watched turns, fewer samples,
    and the table followed from the public view (a rollout plays seats it does not own;
    the search forks it into each rollout, :meth:`SocCardHeuristicBot.fork`).

    >>> rollout_bot(3)
    SocCardHeuristicBot(seed=3)
    """
    return SocCardHeuristicBot(seed, track_beliefs=False, samples=3, quick=True,
                               follow_public=True)



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

    traitor_temperature = SocCardHeuristicBot.turn_temperature

    __slots__ = ()

    def __repr__(self) -> str:
        return f"SocCardStealthBot(seed={self.seed!r})"
