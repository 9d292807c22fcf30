"""The hand-written policy of Grail Cup (the ``heuristic`` bot, also its search rollouts).

The bot reads the acting seat's observation and the legal actions' text forms, nothing
else (rule IDs: ``docs/rules/grail-cup.md``). Its one currency is *spaces*: every ally, clover
token, village roll and spear is valued as the spaces it is worth to a knight, and a choice
is scored as the spaces it gains us minus the spaces it gives our rivals, each rival
weighted by how likely he is to beat us (:meth:`Table.threat`: a logistic of his lead,
sharper near the finish; the weights sum to 1). Reaching the finish outweighs everything
(GC-END-1).

* **Draft** (GC-DRAFT-3..6): for each ally we might keep, the players after us (in the
  passing direction; both directions are tried by the first player, who chooses it next,
  GC-RULING-17) are assumed to keep, in turn, what is worth most to them; the keep that
  leaves us best off (our ally's worth minus the rivals' picks, weighted, and who reaches
  the finish first in calling order) is kept. So the bot keeps its most valuable ally but
  will not pass the leader an ally that wins the race or carries him far.
* **Memory**: per seat, the record of the round's draft (each packet it drafted from, the
  ally it kept, and the seat the rest went to, GC-RULING-20). It is refreshed from the
  observation's recall (``you.seen``) and the public passing order, and cleared when a new
  game starts (seen as a round number going back, or a record the observation contradicts).
  From it the bot knows, while the allies are called, which rival may hold which ally
  (:func:`belief`): every ally it saw leave the packet between two of its own picks lies
  with the players who drafted in between, each equally likely.
* **Calling** (GC-CALL-1): the Sorceress curses the ally most likely to be in the hands of a
  knight ahead (GC-ALLY-SORCERESS-2), or her player's own second ally when its sure step is
  worth more (GC-RULING-10); the Squire names the knight most likely to lead at the
  end of the round, weighted by the jump (GC-ALLY-SQUIRE-2); Merlin looks at the clover
  spaces within his reach, puts the best token where he will land and a Goblin in front of
  the leader (GC-ALLY-MERLIN-1); Merlin's and the Fairy's distances are chosen by landing
  square (GC-ALLY-FAIRY-1); the dragon goes where it blocks the rivals most and us least
  (GC-ALLY-TAMER-1, GC-CLOVER-BAIT); a spear is always spent against the dragon
  (GC-DRAGON-2: passing it gains two spaces at least and leaves it behind); the Fake Grail
  pushes back the most dangerous rival, the Magnet robs the rival who needs his spear most.

Ties are broken by a seeded generator, used only at exact ties.

>>> import pendragon
>>> state = pendragon.load_game("grail-cup", players=4, seed=3).new_initial_state()
>>> state.play_random_chance()
>>> bot = GrailCupBot(seed=1)
>>> action = bot.step(state)
>>> action in state.legal_actions(), state.action_to_string(action).startswith("keep:")
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import astuple, dataclass, field
from functools import lru_cache
from itertools import permutations
from typing import Any

from mypy_extensions import mypyc_attr

from pendragon.bots.evaluator import sigmoid
from pendragon.bots.ismcts import ISMCTSBot
from pendragon.bots.policy import PolicyBot
from pendragon.core.api import State
from pendragon.games.grail_cup.rules import actions as A
from pendragon.games.grail_cup.rules.data import (
    ALLY_KEYS,
    BAIT,
    BLACKSMITH,
    BOOTS,
    CLOVER_KEYS,
    CLOVER_TOTAL,
    FAIRY,
    FAKE_GRAIL,
    GOBLIN,
    MAGNET,
    MERLIN,
    NUM_ALLIES,
    PRIEST,
    PRINCESS,
    SORCERESS,
    SQUIRE,
    TAMER,
)
from pendragon.games.grail_cup.rules.track import code_of, landmarks

Obs = dict[str, Any]

#: Reaching the finish, in spaces: the race is over (GC-END-1).
WIN = 100.0


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class Weights:
    """The worths the policy reasons with, in spaces (the defaults are the tuned ones,
    docs/bots.md)."""

    #: A spear spent (GC-SPEAR-1): it may be needed again at the next dragon.
    spear_cost: float = 1.0
    #: A spear gained, while the dragon is ahead of the knight / behind him.
    spear_ahead: float = 2.0
    spear_behind: float = 0.8
    #: The seal rolled at a village: the first pick of the next round (GC-VILLAGE-SEAL).
    seal: float = 0.5
    #: A kept Sorceress: this share of the gap to the leader (the curse may hit him).
    sorceress_share: float = 0.3
    #: A kept Squire: this share of the gap to the leader (his jump, if he stays first).
    squire_share: float = 0.8
    #: Looking at clover tokens with Merlin.
    merlin_sight: float = 0.5
    #: Moving the dragon onto a rival's path (Dragon Tamer, Dragon Bait).
    dragon_move: float = 1.5
    #: Spaces another knight is expected to move before the Unicorn is called (ally 9).
    unicorn_lead: float = 3.0
    #: Scale of the rivals' threat: a lead of ``threat_scale * sqrt(distance to go)``
    #: spaces makes a rival 73% likely to beat us.
    threat_scale: float = 1.2
    #: How much the rivals' picks count in the draft (1: as much as their threat says).
    denial: float = 1.0

    def __reduce__(self) -> tuple[type[Weights], tuple[Any, ...]]:
        """Pickled by its constructor (a compiled frozen dataclass cannot set its fields
        back one by one, as unpickling does)."""
        return Weights, astuple(self)


DEFAULT_WEIGHTS = Weights()
#: Possible distances of a knight's next moves, for the dragon's blocking (about 1.5 rounds).
HORIZON = (2, 4, 6, 8, 10, 12)

# Places of an ally in the draft's sequence of removals from the packet (a seat is >= 0).
ASIDE, RANDOM_SLOT, DISCARD, MIXED = -2, -3, -4, -5


# ---------------------------------------------------------------------- the board
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class Board:
    """The track's lookups the bot needs, built from the observation's list of kinds."""

    finish: int
    next_castle: tuple[int, ...]
    next_church: tuple[int, ...]
    clover: tuple[bool, ...]
    village: tuple[bool, ...]
    clover_spaces: tuple[int, ...]

    def __reduce__(self) -> tuple[type[Board], tuple[Any, ...]]:
        """Pickled by its constructor (a compiled frozen dataclass cannot set its fields
        back one by one, as unpickling does)."""
        return Board, astuple(self)


@lru_cache(maxsize=16)
def board_of(kinds: tuple[str, ...]) -> Board:
    """The :class:`Board` of a track given as its kinds (GC-TRACK-1, GC-SPACE-3).

    >>> board = board_of(("start-1", "trail", "castle", "church", "clover", "finish"))
    >>> board.next_castle[0], board.next_castle[2], board.next_church[4], board.clover_spaces
    (2, 5, -1, (4,))
    """
    next_castle, next_church = landmarks([code_of(kind) for kind in kinds])
    clover = tuple(k in ("clover", "castle-clover") for k in kinds)
    return Board(
        finish=len(kinds) - 1,
        next_castle=next_castle,
        next_church=next_church,
        clover=clover,
        village=tuple(k == "village" for k in kinds),
        clover_spaces=tuple(i for i, c in enumerate(clover) if c),
    )


# ---------------------------------------------------------------------- the draft's order
def pick_order(players: int, first: int, step: int) -> list[int]:
    """The seats in the order they keep an ally this round, ``RANDOM_SLOT`` marking the
    3-player random discard (GC-DRAFT-3, GC-DRAFT-4, GC-RULING-3, GC-RULING-17).

    >>> pick_order(4, 2, -1), pick_order(2, 1, 1)
    ([2, 1, 0, 3], [1, 0, 1, 0])
    >>> pick_order(3, 0, 1)
    [0, 1, 2, -3, 0, 1, 2]
    """
    others = [(first + i * step) % players for i in range(1, players)]
    if players == 2:
        return [first, others[0], first, others[0]]
    if players == 3:
        return [first, *others, RANDOM_SLOT, first, *others]
    return [first, *others]


def removals(players: int, first: int, step: int, seat: int) -> list[int]:
    """Where the allies that leave the packet go, in order, as ``seat`` can place them:
    the face-down ally set aside, each pick, the random discard and the final discard
    (GC-DRAFT-5, GC-DRAFT-6, GC-RULING-2). With 8 players the ally set aside comes back to
    the last drafter, who keeps one of two: for the others that pair is ``MIXED``.

    >>> removals(4, 0, 1, 2)
    [-2, 0, 1, 2, 3, -4]
    >>> removals(8, 0, 1, 3)[:2], removals(8, 0, 1, 3)[-1], removals(8, 0, 1, 7)[-2:]
    ([-5, 0], -5, [7, -4])
    """
    order = pick_order(players, first, step)
    if players != 8:
        return [ASIDE, *order, DISCARD]
    if seat == order[-1]:
        return [*order, DISCARD]
    return [MIXED, *order[:-1], MIXED]


# ---------------------------------------------------------------------- memory
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class DraftRecord:
    """What one seat saw of one round's draft: the packets, and for each of its picks the
    allies it passed on and the seat they went to (-1: discarded, GC-DRAFT-5)."""

    players: int
    round: int
    first: int
    seen: list[tuple[int, ...]] = field(default_factory=list)
    passed: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    #: Merlin's looked spaces this round and how many of them the seat has filled.
    looked: tuple[int, ...] = ()
    placed: int = 0
    #: What the record was last brought up to date with (packets seen, hand, direction).
    key: tuple[Any, ...] = ()


def _ally_indices(keys: list[str]) -> tuple[int, ...]:
    return tuple(sorted(ALLY_KEYS.index(k) for k in keys))


# ---------------------------------------------------------------------- the seat's picture
@mypyc_attr(allow_interpreted_subclasses=True)
class Table:
    """The race as seat ``me`` sees it, with the worths the policy reasons with."""

    def __init__(self, obs: Obs, me: int, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.obs = obs
        self.w = weights
        self.n: int = obs["players"]
        self.me = me
        knights = obs["knights"]
        self.pos: list[int] = [k["space"] for k in knights]
        self.spears: list[int] = [k["spears"] for k in knights]
        self.dragon: int = obs["dragon"]
        self.supply: int = obs["spear_supply"]
        self.board = board_of(tuple(obs["track"]))
        you = obs.get("you") or {}
        self.known: dict[int, int] = {
            int(space): CLOVER_KEYS.index(kind) for space, kind in you.get("clovers", {}).items()
        }
        # Clover tokens: their worth to the knight who turns one (GC-CLOVER-BOOTS ...).
        robbed = any(self.spears[o] > 0 for o in range(self.n) if o != me)
        token = [0.0] * len(CLOVER_TOTAL)
        token[BOOTS] = 4.3  # four more spaces and, now and then, another token
        token[GOBLIN] = -2.0
        token[BAIT] = weights.dragon_move
        token[FAKE_GRAIL] = 1.5  # two spaces off a rival
        token[MAGNET] = weights.spear_ahead if robbed else 0.0
        self._token = token
        counts = list(CLOVER_TOTAL)
        for kind in self.known.values():
            counts[kind] -= 1
        total = sum(counts)
        self._unknown = (
            sum(c * v for c, v in zip(counts, self._token, strict=True)) / total if total else 0.0
        )
        self._threat: list[float] | None = None
        self._values: dict[int, tuple[float, float, bool]] = {}

    # .................................................................. moves
    def forward(self, seat: int, start: int, target: int, spears: int) -> tuple[int, bool]:
        """Where a forward move ends, and whether a spear is spent (GC-DRAGON-2,
        GC-RULING-4); the bot always spends one when it can."""
        finish = self.board.finish
        target = min(target, finish)
        if target <= start:
            return start, False
        dragon = self.dragon
        if start < dragon <= target:
            if spears > 0:
                return (target if target != dragon else min(finish, target + 1)), True
            return dragon - 1, False
        return target, False

    def spear_worth(self, seat: int, space: int) -> float:
        """A spear to ``seat`` standing on ``space``: more while the dragon is ahead."""
        worth = self.w.spear_ahead if self.dragon > space else self.w.spear_behind
        return worth / (1 + self.spears[seat])

    def landing(self, seat: int, space: int) -> float:
        """Worth of ending one's own move on ``space`` (GC-CLOVER-2, GC-VILLAGE-1)."""
        board = self.board
        if space >= board.finish:
            return 0.0
        if board.clover[space]:
            kind = self.known.get(space)
            return self._unknown if kind is None else self._token[kind]
        if board.village[space]:
            # GC-VILLAGE-2: seal 1/6, thief 2/6, spear 3/6.
            spear = self.spear_worth(seat, space)
            gain = spear if self.supply > 0 else 0.0
            loss = spear if self.spears[seat] > 0 else 0.0
            return (gain * 3 - loss * 2 + self.w.seal) / 6
        return 0.0

    def token_worth(self, kind: int) -> float:
        """Worth of a clover token to the knight who turns it."""
        return self._token[kind]

    # .................................................................. rivals
    def threat(self) -> list[float]:
        """How much each rival's progress counts against ours: the chance he beats us, as
        a logistic of his lead whose scale shrinks near the finish, normalised to sum 1
        (0 for ``me``)."""
        if self._threat is None:
            me, pos = self.me, self.pos
            scale = max(2.5, self.w.threat_scale * math.sqrt(max(1, self.board.finish - pos[me])))
            raw = [0.0 if o == me else sigmoid((pos[o] - pos[me]) / scale) for o in range(self.n)]
            total = sum(raw) or 1.0
            self._threat = [r / total for r in raw]
        return self._threat

    def top_other(self, seat: int) -> int:
        """The space of the furthest knight but ``seat``."""
        return max(self.pos[o] for o in range(self.n) if o != seat)

    # .................................................................. allies
    def ally(self, seat: int, ally: int) -> tuple[float, float, bool]:
        """``(worth, spaces moved, reaches the finish)`` of ``ally`` for ``seat`` from where
        he stands now (GC-ALLY-1 and each ally's rule)."""
        key = seat * NUM_ALLIES + ally
        value = self._values.get(key)
        if value is None:
            value = self._values[key] = self.ally_from(seat, ally, self.pos[seat])
        return value

    def ally_from(self, seat: int, ally: int, p: int) -> tuple[float, float, bool]:
        """:meth:`ally` for ``seat`` standing on space ``p``."""
        spears = self.spears[seat]
        finish = self.board.finish
        bonus = 0.0
        if ally in (MERLIN, FAIRY):
            steps = (1, 2, 3) if ally == MERLIN else (2, 4, 6)
            best: tuple[float, int, bool] | None = None
            for k in steps:
                end, used = self.forward(seat, p, p + k, spears)
                worth = end - p + self.landing(seat, end) - self.w.spear_cost * used
                if end >= finish:
                    worth += WIN
                if best is None or worth > best[0]:
                    best = (worth, end, used)
            assert best is not None
            bonus = self.w.merlin_sight if ally == MERLIN else 0.0
            return best[0] + bonus, float(best[1] - p), best[1] >= finish
        used = False
        if ally == SORCERESS:
            end, used = self.forward(seat, p, p + 1, spears)
            bonus = self.w.sorceress_share * max(0, self.top_other(seat) - p)
        elif ally == SQUIRE:
            end, used = self.forward(seat, p, p + 2, spears)
            top = self.top_other(seat)
            bonus = self.w.squire_share * (top + 1 - end) if top + 1 > end else self.w.seal
        elif ally == BLACKSMITH:
            got = 1 if self.supply > 0 else 0
            end, used = self.forward(seat, p, p + 4, spears + got)
            bonus = got * self.spear_worth(seat, end)
        elif ally == TAMER:
            # GC-ALLY-TAMER-1: the dragon goes first, so it never blocks this move.
            end = min(p + 5, finish)
            bonus = self.w.dragon_move
        elif ally == PRINCESS:
            end, used = self.forward(seat, p, self.board.next_castle[p], spears)
        elif ally == PRIEST:
            church = self.board.next_church[p]
            end, used = (p, False) if church < 0 else self.forward(seat, p, church, spears)
        else:  # UNICORN: in front of the nearest knight ahead once the others have moved
            ahead = [self.pos[o] + self.w.unicorn_lead for o in range(self.n) if o != seat]
            ahead = [x for x in ahead if x > p]
            end = p if not ahead else int(min(min(ahead) + 1, finish - 1))
        worth = end - p + self.landing(seat, end) - self.w.spear_cost * used + bonus
        if end >= finish:
            worth += WIN
        return worth, float(end - p), end >= finish


# ---------------------------------------------------------------------- beliefs
def belief(obs: Obs, record: DraftRecord | None) -> dict[int, dict[int, float]]:
    """``{seat: {ally: P(seat holds it and has not revealed it)}}`` for the rivals of the
    seat viewing ``obs``, for the allies not yet called (GC-RULING-20).

    Each ally the seat did not keep left the packet between two of its own picks (or
    before the first, or after the last): it lies in one of the places filled in that
    stretch of the draft, all equally likely; an ally called without being revealed lies
    in a place no player holds (GC-CALL-2). Without a draft record matching the round (a
    position built by hand), every hidden ally may be in any rival's hand.

    >>> from pendragon.games.grail_cup.rules.fixtures import load_state
    >>> state = load_state({"players": 4, "knights": [{}, {}, {}, {}],
    ...                     "hands": {0: ["sorceress"], 1: ["fairy"], 2: ["priest"],
    ...                               3: ["unicorn"]}, "aside_up": ["squire", "merlin"]})
    >>> odds = belief(state.observation(0), None)
    >>> round(odds[1][FAIRY], 2), odds[1].get(MERLIN, 0.0)
    (0.17, 0.0)
    """
    n: int = obs["players"]
    you = obs["you"]
    me: int = you["seat"]
    called: int = obs["allies"]["called"]
    mine = set(_ally_indices(you["hand"]))
    up = set(_ally_indices(obs["allies"]["aside_up"]))
    revealed = {ALLY_KEYS.index(k): seat for k, seat in obs["allies"]["revealed"].items()}
    hidden = [c for c in range(NUM_ALLIES) if c not in mine and c not in up]
    groups = _groups(obs, record, hidden, n, me)
    odds: dict[int, dict[int, float]] = {o: {} for o in range(n) if o != me}
    if groups is None:
        knights = obs["knights"]
        slots: list[int] = []
        for o in range(n):
            if o != me:
                slots += [o] * (knights[o]["allies"] - len(knights[o]["revealed"]))
        cards = [c for c in hidden if c not in revealed]
        slots += [DISCARD] * max(0, len(cards) - len(slots))
        groups = [(cards, slots)]
    else:
        for cards, slots in groups:
            for card in [c for c in cards if c in revealed]:
                cards.remove(card)
                holder = revealed[card]
                if holder in slots:
                    slots.remove(holder)
                elif MIXED in slots:
                    slots.remove(MIXED)
    last = -1  # with 8 players, the last drafter (GC-DRAFT-6)
    if n == 8 and obs["first_player"] is not None:
        step = -1 if obs["direction"] == "right" else 1
        last = pick_order(n, obs["first_player"], step)[-1]
    for cards, slots in groups:
        free = [c for c in cards if c >= called]
        if not free:
            continue
        share = 1.0 / max(len(free), sum(1 for s in slots if s >= 0))
        for slot in slots:
            holder = slot if slot >= 0 else (last if slot == MIXED else -1)
            if holder < 0 or holder == me:
                continue
            weight = share * (0.5 if slot == MIXED else 1.0)
            row = odds[holder]
            for card in free:
                row[card] = row.get(card, 0.0) + weight
    return odds


def _groups(
    obs: Obs, record: DraftRecord | None, hidden: list[int], n: int, me: int
) -> list[tuple[list[int], list[int]]] | None:
    """The hidden allies grouped by the stretch of the draft they left the packet in, each
    with the places filled in that stretch; ``None`` if the record does not fit."""
    if record is None or obs["first_player"] is None or obs["waiting"]["decision"] in (
        "draft", "direction"
    ):
        return None
    per_hand = 2 if n <= 3 else 1
    if len(record.seen) != per_hand or record.round != obs["round"]:
        return None
    direction = obs["direction"]
    step = -1 if direction == "right" else 1
    sequence = removals(n, obs["first_player"], step, me)
    stretches: list[list[int]] = [[]]
    for place in sequence:
        if place == me:
            stretches.append([])
        else:
            stretches[-1].append(place)
    if len(stretches) != per_hand + 1:
        return None
    cards: list[list[int]] = [[] for _ in stretches]
    for card in hidden:
        cards[sum(1 for packet in record.seen if card in packet)].append(card)
    if any(len(c) != len(s) for c, s in zip(cards, stretches, strict=True)):
        return None
    return list(zip(cards, stretches, strict=True))


# ---------------------------------------------------------------------- the bot
@mypyc_attr(allow_interpreted_subclasses=True)
class GrailCupBot(PolicyBot[tuple[Obs, DraftRecord]]):
    """The Grail Cup heuristic: values allies in spaces for itself and its rivals, drafts
    against the leader, and plays each ally's choice by the same worths.

    One instance may play any number of seats (search rollouts hand all seats to one); it
    keeps a :class:`DraftRecord` per seat and forgets them all when a new game starts.
    ``weights``: the worths it reasons with (for tuning; the defaults are the tuned ones).
    """

    def __init__(self, seed: int | None = None, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.seed = seed
        self.weights = weights
        self._rng = random.Random(seed)
        self._records: dict[int, DraftRecord] = {}

    def __repr__(self) -> str:
        return f"GrailCupBot(seed={self.seed!r})"

    # .................................................................. entry point
    def observe(self, state: State, seat: int) -> tuple[Obs, DraftRecord]:
        """The seat's view and its draft record, brought up to date at every decision of
        the seat, forced ones included (:class:`~pendragon.bots.base.PolicyBot`)."""
        obs = state.observation(seat)
        return obs, self.remember(obs)

    def decide(self, state: State, seat: int, legal: Sequence[int],
               seen: tuple[Obs, DraftRecord] | None) -> int:
        """:meth:`choose` on what :meth:`observe` took in (it reads only that seat's view)."""
        assert seen is not None
        return self.choose(seen[0], legal, seen[1])

    def memory(self, seat: int) -> DraftRecord | None:
        """The draft record of ``seat`` for the round it last decided in, if any."""
        return self._records.get(seat)

    def remember(self, obs: Obs) -> DraftRecord:
        """Update the draft record of the observing seat; forget everything (and restart
        the tie-break generator) when the observation shows a new game."""
        you = obs["you"]
        seat: int = you["seat"]
        round_no: int = obs["round"]
        first = obs["first_player"] if obs["first_player"] is not None else -1
        seen = [_ally_indices(packet) for packet in you["seen"]]
        record = self._records.get(seat)
        if record is not None and (
            record.players != obs["players"]
            or round_no < record.round
            or round_no == record.round
            and (record.first != first or record.seen != seen[: len(record.seen)])
        ):
            self._records.clear()
            self._rng = random.Random(self.seed)
            record = None
        if record is None or record.round != round_no:
            record = DraftRecord(obs["players"], round_no, first)
            self._records[seat] = record
        hand = _ally_indices(you["hand"])
        key = (len(seen), hand, obs["direction"])
        if key != record.key:
            record.seen, record.key = seen, key
            self._note(record, obs, hand, None)
        return record

    @staticmethod
    def _note(record: DraftRecord, obs: Obs, hand: tuple[int, ...], step: int | None) -> None:
        """Write down which allies the seat passed at each of its finished picks (``hand``:
        its allies, with one it has just chosen to keep), and to whom: the next drafter in
        the passing direction (``step``, else the observation's), -1 for the discard."""
        if obs["first_player"] is None:
            return
        if step is None:
            step = -1 if obs["direction"] == "right" else 1
        order = pick_order(obs["players"], obs["first_player"], step)
        mine = [i for i, s in enumerate(order) if s == obs["you"]["seat"]]
        kept_all = set(hand)
        passed: list[tuple[tuple[int, ...], int]] = []
        seen = record.seen
        for index, packet in enumerate(seen[: len(mine)]):
            after = set(seen[index + 1]) if index + 1 < len(seen) else set()
            kept = [c for c in packet if c in kept_all and c not in after]
            if len(kept) != 1:
                break  # still choosing from this packet
            where = mine[index] + 1
            while where < len(order) and order[where] == RANDOM_SLOT:
                where += 1
            receiver = order[where] if where < len(order) else -1
            passed.append((tuple(c for c in packet if c != kept[0]), receiver))
        record.passed = passed

    def choose(self, obs: Obs, legal: Sequence[int], record: DraftRecord | None = None) -> int:
        """The policy proper: the acting seat's observation and its legal actions."""
        texts = [A.CATALOG.text(a) for a in legal]
        table = Table(obs, obs["you"]["seat"], self.weights)
        decision = obs["waiting"]["decision"]
        scores: list[float]
        if decision == "draft":
            scores = self._draft(table, texts)
        elif decision == "direction":
            scores = self._direction(table, texts)
        elif decision == "curse":
            scores = self._curse(table, texts, record)
        elif decision == "name":
            scores = self._name(table, texts, record)
        elif decision == "look":
            scores = self._look(table, texts)
        elif decision == "place":
            scores = self._place(table, texts, record)
        elif decision in ("merlin-move", "fairy-move"):
            scores = self._move(table, texts)
        elif decision in ("dragon", "dragon-bait"):
            scores = self._dragon(table, texts, decision == "dragon")
        elif decision == "spear":
            scores = [1.0 if t == "spear:yes" else 0.0 for t in texts]
        elif decision == "fake-grail":
            threat = table.threat()
            scores = [threat[int(t.partition(":")[2])] for t in texts]
        elif decision == "magnet":
            scores = self._magnet(table, texts)
        else:  # a decision this policy does not know: any legal action
            scores = [0.0] * len(texts)
        best = max(scores)
        ties = [a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
        action = ties[0] if len(ties) == 1 else ties[self._rng.randrange(len(ties))]
        if record is not None and decision == "draft":
            kept = ALLY_KEYS.index(A.CATALOG.text(action).partition(":")[2])
            self._note(record, obs, (*_ally_indices(obs["you"]["hand"]), kept), None)
        elif record is not None and decision == "direction":
            self._note(record, obs, _ally_indices(obs["you"]["hand"]),
                       1 if action == A.PASS_LEFT else -1)
        return action

    # .................................................................. the draft
    def _draft(self, table: Table, texts: list[str]) -> list[float]:
        obs = table.obs
        packet = [ALLY_KEYS.index(t.partition(":")[2]) for t in texts]
        seen = len(obs["you"]["seen"])
        if obs["direction"] is None and table.n > 2:
            steps = [1, -1]  # the first player chooses the direction next (GC-RULING-17)
        else:
            steps = [-1 if obs["direction"] == "right" else 1]
        scores = []
        for card in packet:
            rest = [c for c in packet if c != card]
            scores.append(max(
                self._outlook(table, [card], rest, self._after(table, step, seen))
                for step in steps
            ))
        return scores

    def _direction(self, table: Table, texts: list[str]) -> list[float]:
        you = table.obs["you"]
        hand = _ally_indices(you["hand"])
        rest = [c for c in _ally_indices(you["seen"][0]) if c not in hand]
        return [
            self._outlook(table, list(hand), rest,
                          self._after(table, 1 if t == "pass:left" else -1, 1))
            for t in texts
        ]

    @staticmethod
    def _after(table: Table, step: int, picks_done: int) -> list[int]:
        """The drafters after the seat's current pick (its ``picks_done``-th), in order."""
        order = pick_order(table.n, table.obs["first_player"], step)
        mine = [i for i, s in enumerate(order) if s == table.me]
        if picks_done - 1 >= len(mine):
            return []
        return order[mine[picks_done - 1] + 1:]

    def _outlook(self, table: Table, kept: list[int], rest: list[int], after: list[int]) -> float:
        """The seat's prospects if it keeps ``kept`` and ``rest`` goes on to ``after``, each
        drafter keeping what is worth most to him (the random discard averaged)."""
        return self._play_out(table, {table.me: list(kept)}, list(rest), after)

    def _play_out(
        self, table: Table, picks: dict[int, list[int]], pool: list[int], after: list[int]
    ) -> float:
        for index, who in enumerate(after):
            if not pool:
                break
            if who == RANDOM_SLOT:  # GC-DRAFT-4: one ally discarded unseen, at random
                outcomes = [
                    self._play_out(table, {s: list(c) for s, c in picks.items()},
                                   [c for c in pool if c != gone], after[index + 1:])
                    for gone in pool
                ]
                return sum(outcomes) / len(outcomes)
            # The ally worth most to him, the lowest on a tie (a loop, not max() with a
            # key closure: this is the draft look-ahead's inner loop).
            best, worth = pool[0], table.ally(who, pool[0])[0]
            for card in pool:
                value = table.ally(who, card)[0]
                if value > worth or (value == worth and card < best):
                    best, worth = card, value
            picks.setdefault(who, []).append(best)
            pool.remove(best)
        return self._score(table, picks)

    def _score(self, table: Table, picks: dict[int, list[int]]) -> float:
        """Our allies' worth minus the rivals', weighted by threat; the first ally called
        that reaches the finish decides the race (GC-CALL-1, GC-END-1)."""
        threat = table.threat()
        me = table.me
        score = 0.0
        first_win: tuple[int, int] | None = None
        for who, cards in picks.items():
            for card in cards:
                worth, _moved, wins = table.ally(who, card)
                if wins:
                    worth -= WIN
                    if first_win is None or card < first_win[0]:
                        first_win = (card, who)
                score += worth if who == me else -table.w.denial * threat[who] * worth
        if first_win is not None:
            score += WIN if first_win[1] == me else -WIN
        return score

    # .................................................................. the calling
    def _curse(self, table: Table, texts: list[str], record: DraftRecord | None) -> list[float]:
        """GC-ALLY-SORCERESS-2: the expected gain of the swap with whoever reveals it: we
        take his place and one more step, he plays his ally from ours. Our own second ally
        (2-3 players, GC-RULING-10) is a sure gain: no swap, the step, a landing there,
        and that ally played from one space on."""
        odds = belief(table.obs, record)
        me, pos = table.me, table.pos
        threat = table.threat()
        own = _ally_indices(table.obs["you"]["hand"])
        scores = []
        for text in texts:
            card = ALLY_KEYS.index(text.partition(":")[2])
            if card in own:
                scores.append(self._own_curse(table, card))
                continue
            gain = 0.0
            for rival, row in odds.items():
                chance = row.get(card, 0.0)
                if chance:
                    ours = pos[rival] + 1 - pos[me]
                    his_now = pos[rival] + table.ally(rival, card)[1]
                    his_then = pos[me] + table.ally_from(rival, card, pos[me])[1]
                    gain += chance * (ours + threat[rival] * (his_now - his_then))
            scores.append(gain)
        return scores

    @staticmethod
    def _own_curse(table: Table, card: int) -> float:
        """The gain of cursing our own ``card``: when it is called we keep our place, step
        one space on (the dragon may stop it), land there (GC-RULING-12), then play the
        ally from there rather than from here."""
        me = table.me
        here = table.pos[me]
        step, used = table.forward(me, here, here + 1, table.spears[me])
        then = table.ally_from(me, card, step)
        now = table.ally(me, card)
        gain = (step - here) + table.landing(me, step) - table.w.spear_cost * used
        if step >= table.board.finish:
            return gain + WIN
        return gain + then[0] - now[0]

    def _name(self, table: Table, texts: list[str], record: DraftRecord | None) -> list[float]:
        """GC-ALLY-SQUIRE-2: name the knight likeliest to lead at the end of the round,
        weighted by the jump it would give."""
        ends = self._forecast(table, record)
        me = table.me
        ends[me] += 2  # the Squire's own two steps come after the naming
        top = max(ends)
        weights = [math.exp((e - top) / 2.5) for e in ends]
        total = sum(weights)
        scores = []
        for text in texts:
            named = int(text.partition(":")[2])
            jump = max(1.0, ends[named] + 1 - ends[me])
            scores.append(weights[named] / total * jump)
        return scores

    def _forecast(self, table: Table, record: DraftRecord | None) -> list[float]:
        """Each knight's expected space at the end of the round."""
        obs = table.obs
        called: int = obs["allies"]["called"]
        ends = [float(p) for p in table.pos]
        for card in _ally_indices(obs["you"]["hand"]):
            if card >= called:
                ends[table.me] += table.ally(table.me, card)[1]
        for rival, row in belief(obs, record).items():
            for card, chance in row.items():
                ends[rival] += chance * table.ally(rival, card)[1]
        return ends

    def _move(self, table: Table, texts: list[str]) -> list[float]:
        """GC-ALLY-MERLIN-2, GC-ALLY-FAIRY-1: by the square we land on."""
        me = table.me
        p = table.pos[me]
        scores = []
        for text in texts:
            end, used = table.forward(me, p, p + int(text.partition(":")[2]), table.spears[me])
            worth = end - p + table.landing(me, end) - table.w.spear_cost * used
            scores.append(worth + (WIN if end >= table.board.finish else 0.0))
        return scores

    def _look(self, table: Table, texts: list[str]) -> list[float]:
        """GC-ALLY-MERLIN-1, GC-RULING-11: the spaces we can land on first, then a token we
        know to be good (to bring it within reach), then the spaces in front of the most
        dangerous rival (for a Goblin), then those just ahead of us."""
        me, pos = table.me, table.pos
        threat = table.threat()
        danger = max((o for o in range(table.n) if o != me), key=lambda o: (threat[o], pos[o]))
        reach = [sp for sp in table.board.clover_spaces if 1 <= sp - pos[me] <= 3]
        scores = []
        for text in texts:
            space = int(text.partition(":")[2])
            kind = table.known.get(space)
            score = 0.0
            if space in reach:
                score = 10.0 - (space - pos[me]) - (2.0 if kind is not None else 0.0)
            elif kind is not None:
                good = table.token_worth(kind) > 0 and any(
                    table.known.get(sp, -1) != kind for sp in reach)
                score = 7.0 if good else -1.0
            elif 1 <= space - pos[danger] <= 8:
                score = 6.0 - (space - pos[danger]) / 4
            elif 4 <= space - pos[me] <= 14:
                score = 3.0 - (space - pos[me]) / 8
            scores.append(score)
        return scores

    def _place(self, table: Table, texts: list[str], record: DraftRecord | None) -> list[float]:
        """GC-RULING-11: the tokens seen go where they help us and hurt the rivals most.

        The looked spaces are filled in order; which one is being filled is not in the
        view, so the record counts the placements this seat answered (a fresh bot takes
        the first space whose choices match the legal ones)."""
        looked: list[int] = table.obs["merlin_looked"]
        options = [CLOVER_KEYS.index(t.partition(":")[2]) for t in texts]
        tokens = [table.known.get(sp, -1) for sp in looked]
        fits = [i for i in range(len(looked) - 1) if sorted(set(tokens[i:])) == options]
        if not fits or -1 in tokens:
            return [table.token_worth(k) for k in options]
        index = fits[0]
        if record is not None:
            if record.looked != tuple(looked):
                record.looked, record.placed = tuple(looked), 0
            if record.placed in fits:
                index = record.placed
            record.placed = index + 1
        spaces = looked[index:]
        best: dict[int, float] = {}
        for order in set(permutations(tokens[index:])):
            value = sum(self._token_here(table, sp, k) for sp, k in zip(spaces, order, strict=True))
            best[order[0]] = max(best.get(order[0], -math.inf), value)
        return [best.get(k, -math.inf) for k in options]

    @staticmethod
    def _token_here(table: Table, space: int, kind: int) -> float:
        me, pos = table.me, table.pos
        worth = table.token_worth(kind)
        value = 0.0
        if 1 <= space - pos[me] <= 3:
            value += worth
        elif 4 <= space - pos[me] <= 12:
            value += 0.3 * worth
        threat = table.threat()
        for rival in range(table.n):
            if rival != me and 1 <= space - pos[rival] <= 9:
                value -= 0.5 * threat[rival] * worth
        return value

    def _dragon(self, table: Table, texts: list[str], tamer: bool) -> list[float]:
        """GC-ALLY-TAMER-1, GC-CLOVER-BAIT: block the rivals' next moves, not ours."""
        me, pos = table.me, table.pos
        threat = table.threat()
        finish = table.board.finish
        reach = HORIZON[-1]
        scores = []
        neutral: float | None = None
        for text in texts:
            space = int(text.partition(":")[2])
            if all(space <= p or space > p + reach for p in pos) and not (
                tamer and pos[me] < space <= pos[me] + 5
            ):
                # Out of everyone's way: all such spaces are worth the same.
                if neutral is None:
                    neutral = self._dragon_at(table, space, tamer, threat, finish)
                scores.append(neutral)
                continue
            scores.append(self._dragon_at(table, space, tamer, threat, finish))
        table.dragon = table.obs["dragon"]
        return scores

    @staticmethod
    def _dragon_at(
        table: Table, space: int, tamer: bool, threat: list[float], finish: int
    ) -> float:
        me, pos = table.me, table.pos
        table.dragon = space
        here, cost = pos[me], 0.0
        if tamer:  # our own five steps come next
            here, used = table.forward(me, pos[me], pos[me] + 5, table.spears[me])
            cost = (min(pos[me] + 5, finish) - here) + table.w.spear_cost * used
        score = -cost - _blocked(table, me, here)
        for rival in range(table.n):
            if rival != me:
                score += threat[rival] * _blocked(table, rival, pos[rival])
        return score

    def _magnet(self, table: Table, texts: list[str]) -> list[float]:
        """GC-CLOVER-MAGNET: rob the rival to whom the spear matters most."""
        threat = table.threat()
        scores = []
        for text in texts:
            rival = int(text.partition(":")[2])
            need = 2.0 if table.dragon > table.pos[rival] else 1.0
            scores.append(threat[rival] * need / table.spears[rival])
        return scores


def _blocked(table: Table, seat: int, space: int) -> float:
    """Spaces ``seat`` on ``space`` is expected to lose to the dragon over his next moves."""
    dragon = table.dragon
    if dragon <= space:
        return 0.0
    lost = reach = 0.0
    for distance in HORIZON:
        if space + distance >= dragon:
            reach += 1
            lost += space + distance - (dragon - 1)
    lost /= len(HORIZON)
    if table.spears[seat] > 0:
        return min(lost, table.w.spear_cost * reach / len(HORIZON))
    return lost


def rollout_bot(seed: int | None = None) -> GrailCupBot:
    """The policy of search rollouts: the heuristic itself (about 10 ms for a whole
    4-player game on one core). A cheaper twin that drafted by its own worth alone, without
    the look at the players after it, made ISMCTS's rollouts misjudge the heuristic rivals:
    the search won 31% of 200 games against them, 40.5% with this policy (docs/bots.md).

    >>> rollout_bot(3)
    GrailCupBot(seed=3)
    """
    return GrailCupBot(seed)


def model_search(seed: int | None = None) -> ISMCTSBot:
    """Grail Cup's ``ismcts`` bot (``GamePlugin.search``): the search whose rollouts stop
    after 10 decisions, where the learned evaluator reads them.

    Measured on paired seeds it never saw (docs/bots.md, "Search strength"): one such
    knight among three heuristic ones won 37.5% and 42.5% of 400 games (seeds 11, 25),
    +11.3 points [+5.6, +16.9] and +17.8 [+11.8, +23.7] on the heuristic in its place (the
    plain search, ``ISMCTSBot()``: +10.5 and +11.5), in half the plain search's time a
    decision on the same positions (20.1 ms against 39.3).

    >>> model_search(3).evaluator, model_search(3).rollout_depth
    (True, 10)
    """
    return ISMCTSBot(seed, evaluator=True, rollout_depth=10)
