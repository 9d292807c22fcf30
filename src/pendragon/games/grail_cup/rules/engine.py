"""The rules of Grail Cup as functions over a state's fields, run by an agenda.

The flow of a game is an *agenda*: a stack of tasks ``(code, a, b, c)`` of plain integers.
The top task is automatic (run at once: call the next ally, move a knight, check a
landing), a chance node (draw an ally, lay a clover token face down, roll the village die)
or one seat's decision (keep an ally, curse one, spend a spear...). :func:`run` executes automatic
tasks until a chance node or a decision is on top; :func:`apply` hands an action to the
handler of the top task. Everything is plain data, so any position clones, serializes and
resumes, even in the middle of a clover chain.

Rule IDs (``GC-...``) refer to ``docs/rules/grail-cup.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from pendragon.core import rng
from pendragon.core.events import Event, Seat, Term
from pendragon.core.tuples import replaced
from pendragon.games.grail_cup.rules import actions as A, codes as C
from pendragon.games.grail_cup.rules.data import (
    ALLY_KEYS,
    ASIDE,
    BAIT,
    BLACKSMITH,
    BOOTS,
    CHAIN_CAP,
    CLOVER_KEYS,
    DIE,
    DIE_KEYS,
    FAIRY,
    FAKE_GRAIL,
    GOBLIN,
    MAGNET,
    MAX_ROUNDS,
    MERLIN,
    NUM_ALLIES,
    NUM_CLOVERS,
    PRIEST,
    PRINCESS,
    SEAL,
    SORCERESS,
    SQUIRE,
    TAMER,
    THIEF,
    UNICORN,
)
from pendragon.games.grail_cup.rules.recall import merlin_mixes, recall_sees

if TYPE_CHECKING:
    from pendragon.games.grail_cup.rules.state import GrailCupState


_DIE_WEIGHTS: Final = [face.weight for face in DIE]

Task = tuple[int, int, int, int]


def ally_term(ally: int) -> Term:
    """The catalog term naming an ally."""
    return Term(f"grail-cup.ally.{ALLY_KEYS[ally]}")


def clover_term(kind: int) -> Term:
    """The catalog term naming a clover token."""
    return Term(f"grail-cup.clover.{CLOVER_KEYS[kind]}")


def emit(s: GrailCupState, event: Event, seen_by: int = -1, others: Event | None = None) -> None:
    """Record an event for narration: everyone sees it (``seen_by`` -1) or only the seats of
    the bit mask ``seen_by``, the others seeing ``others`` instead (or nothing).

    Callers test ``s._events is not None`` first: building the events (their seats and
    terms) cost some 40% of a random playout when nobody narrates."""
    if s._events is not None:
        s._events.append((event, seen_by, others))


def _log(key: str, **params: int | Seat | Term | Event) -> Event:
    return Event(f"grail-cup.log.{key}", params)


# ---------------------------------------------------------------- queries
def leader(s: GrailCupState) -> int:
    """The seat of the leading knight: furthest, and first arrived on a shared space."""
    best = 0
    for seat in range(1, s.n):
        if s.pos[seat] > s.pos[best] or (
            s.pos[seat] == s.pos[best] and s.stamp[seat] < s.stamp[best]
        ):
            best = seat
    return best


def last(s: GrailCupState) -> int:
    """The seat of the last knight: rearmost, and last arrived on a shared space."""
    worst = 0
    for seat in range(1, s.n):
        if s.pos[seat] < s.pos[worst] or (
            s.pos[seat] == s.pos[worst] and s.stamp[seat] > s.stamp[worst]
        ):
            worst = seat
    return worst


def race_order(s: GrailCupState) -> list[int]:
    """Seats from the leader to the last knight (GC-KNIGHTS-1)."""
    return sorted(range(s.n), key=lambda seat: (-s.pos[seat], s.stamp[seat]))


def is_free(s: GrailCupState, space: int) -> bool:
    """No knight and no dragon on ``space`` (GC-RULING-6)."""
    return space != s.dragon and space not in s.pos


def cards_at(s: GrailCupState, location: int) -> list[int]:
    """The allies at ``location`` (a location code or ``HAND + seat``)."""
    cards: list[int] = []
    for card in range(NUM_ALLIES):
        if s.ally_loc[card] == location:
            cards.append(card)
    return cards


def hand(s: GrailCupState, seat: int) -> list[int]:
    """The allies ``seat`` drafted this round."""
    return cards_at(s, C.HAND + seat)


# ---------------------------------------------------------------- the agenda runner
def current_player(s: GrailCupState) -> int:
    """The seat to decide, :data:`~pendragon.core.api.CHANCE` (-1) or
    :data:`~pendragon.core.api.TERMINAL` (-4) once the game is over."""
    if s.winner >= 0 or not s.agenda:
        return -4
    code, a, _b, _c = s.agenda[-1]
    return -1 if C.CHANCE_BITS >> code & 1 else a


def run(s: GrailCupState) -> None:
    """Execute automatic tasks until a chance node or a decision is on top (or the end)."""
    agenda = s.agenda
    while agenda and s.winner < 0:
        code, a, b, c = agenda[-1]
        if C.WAITING_BITS >> code & 1:
            if C.GUARDED_BITS >> code & 1 and _nothing_to_choose(s, code, a, b):
                agenda.pop()  # e.g. Merlin's last token: a choice of one is not asked
                continue
            return
        agenda.pop()
        _run_task(s, code, a, b, c)
    if s.winner >= 0:
        agenda.clear()


def _nothing_to_choose(s: GrailCupState, code: int, a: int, b: int) -> bool:
    """Whether a waiting task has nothing to offer: only positions read from outside get
    here. A choice of one way is still asked: whether a decision comes must never depend
    on what the other seats cannot see (Merlin's placements, GC-RULING-11)."""
    if code in (C.PICK, C.RANDOM_DISCARD):
        return C.PACKET not in s.ally_loc
    if code in (C.DEAL, C.ASIDE_UP_DRAW, C.ASIDE_DOWN_DRAW):
        return C.DECK not in s.ally_loc
    if code == C.LAY:
        return not s.bag
    if code == C.LOOK:
        return len(s.merlin_spaces) >= len(s.track.clover_spaces)
    if code == C.STEAL:
        return not any(s.spears[o] for o in range(s.n) if o != a)
    if code == C.SPEAR:
        return s.spears[a] == 0
    return False


def apply(s: GrailCupState, action: int) -> None:
    """Apply a legal action to the task on top, then run the automatic tasks."""
    code, a, b, c = s.agenda.pop()
    _handle(s, action, code, a, b, c)
    run(s)


def legal_actions(s: GrailCupState) -> list[int]:
    """Legal actions of the seat deciding the top task.

    (Plain loops that append: mypyc runs them natively, where a comprehension over a
    generic iterable or a set costs a call and boxed ints per item.)"""
    code, a, b, _c = s.agenda[-1]
    legal: list[int] = []
    if code == C.PICK:
        ally_loc = s.ally_loc
        for card in range(NUM_ALLIES):
            if ally_loc[card] == C.PACKET:
                legal.append(A.KEEP + card)
    elif code == C.DIRECTION:
        legal = [A.PASS_LEFT, A.PASS_RIGHT]
    elif code == C.CURSE:
        # GC-ALLY-SORCERESS-1, GC-RULING-10: any ally but the Sorceress, her own player's
        # second ally (2-3 players) included: the menu never tells what he holds.
        for card in range(1, NUM_ALLIES):
            legal.append(A.CURSE + card)
    elif code == C.NAME:
        for seat in range(s.n):
            legal.append(A.NAME + seat)
    elif code == C.LOOK:
        for space in s.track.clover_spaces:
            if space not in s.merlin_spaces:
                legal.append(A.LOOK + space)
    elif code == C.PLACE:
        for kind in place_options(s, b):
            legal.append(A.PLACE + kind)
    elif code == C.CHOOSE_MOVE:
        # Merlin's 1, 2 or 3 spaces; the Fairy's 2, 4 or 6.
        step = 1 if b == C.MERLIN_MOVES else 2
        for steps in range(step, 4 * step, step):
            legal.append(A.MOVE + steps - 1)
    elif code == C.MOVE_DRAGON:
        # GC-RULING-6: a free space has no knight and no dragon (marked once, rather than
        # asking is_free of every space: a scan of the knights each).
        taken = [False] * len(s.track)
        taken[s.dragon] = True
        for seat in range(s.n):
            taken[s.pos[seat]] = True
        for space in range(s.track.finish):
            if not taken[space]:
                legal.append(A.DRAGON + space)
    elif code == C.SPEAR:
        legal = [A.SPEAR_YES, A.SPEAR_NO]
    elif code == C.FAKE:
        for seat in range(s.n):
            if seat != a:
                legal.append(A.TARGET + seat)
    elif code == C.STEAL:
        for seat in range(s.n):
            if seat != a and s.spears[seat] > 0:
                legal.append(A.TARGET + seat)
    else:
        raise AssertionError(f"task {code} is not a decision")
    return legal


def chance_counts(s: GrailCupState) -> tuple[int, list[int]]:
    """What the chance task on top draws from, as counts: outcome ``base + i`` weighted by
    ``counts[i]`` (a clover token of the supply by kind, a face of the village die by its
    weight, an ally of the deck or the packet, each once). The core samples from it."""
    code = s.agenda[-1][0]
    if code == C.LAY:
        return A.CLOVER, supply_counts(s)
    if code == C.DIE_ROLL:
        return A.DIE_ROLL, _DIE_WEIGHTS
    if code in (C.DEAL, C.ASIDE_UP_DRAW, C.ASIDE_DOWN_DRAW, C.RANDOM_DISCARD):
        location = C.PACKET if code == C.RANDOM_DISCARD else C.DECK
        counts = [0] * NUM_ALLIES
        for card in range(NUM_ALLIES):
            if s.ally_loc[card] == location:
                counts[card] = 1
        return A.ALLY, counts
    raise AssertionError(f"task {code} is not a chance node")


def chance_outcomes(s: GrailCupState) -> list[tuple[int, float]]:
    """Outcomes of the chance task on top, with their probabilities."""
    base, counts = chance_counts(s)
    return rng.weighted(base, counts)


def place_options(s: GrailCupState, index: int) -> list[int]:
    """Kinds Merlin may put on his ``index``-th looked space (those not yet placed)."""
    spaces = s.merlin_spaces
    kinds: list[int] = []
    for kind in range(NUM_CLOVERS):  # in order, each once
        for at in range(index, len(spaces)):
            if s.pin[spaces[at]] == kind:
                kinds.append(kind)
                break
    return kinds


def supply_counts(s: GrailCupState) -> list[int]:
    """The clover tokens in the supply, by kind (GC-SETUP-6, GC-CLOVER-3)."""
    counts = [0] * NUM_CLOVERS
    for token in s.bag:
        counts[token % NUM_CLOVERS] += 1
    return counts


# ---------------------------------------------------------------- movement
def _place(s: GrailCupState, seat: int, space: int) -> None:
    """Put a knight on ``space``; a knight arriving stands behind those there (GC-KNIGHTS-1)."""
    if space == s.pos[seat]:
        if s._events is not None:
            emit(s, _log("stay", seat=Seat(seat)))
        return
    s.pos[seat] = space
    s.stamp[seat] = s.next_stamp
    s.next_stamp += 1
    if s._events is not None:
        emit(s, _log("move", seat=Seat(seat), space=space))
    if space == s.track.finish:
        # GC-END-1: the first knight on the finish wins at once.
        s.winner = seat
        if s._events is not None:
            emit(s, _log("win", seat=Seat(seat)))


#: A forward move's goal (the third argument of its TO and SPEAR tasks): the Princess's
#: castle, the Priest's church (GC-SPACE-3).
TO_CASTLE: Final = 1
TO_CHURCH: Final = 2


def forward(s: GrailCupState, seat: int, target: int, goal: int = 0) -> None:
    """Move forward to ``target``; the dragon stops the knight unless he spends a spear
    (GC-DRAGON-2, GC-RULING-4). ``goal``: :data:`TO_CASTLE` or :data:`TO_CHURCH` for the
    Princess's and the Priest's moves, which end on such a space (GC-RULING-22)."""
    target = min(target, s.track.finish)
    here = s.pos[seat]
    if target <= here:
        if s._events is not None:
            emit(s, _log("stay", seat=Seat(seat)))
        return
    if here < s.dragon <= target:
        if s.spears[seat] > 0 and spear_goes_on(s, target, goal):
            s.agenda.append((C.SPEAR, seat, target, goal))
            return
        if s._events is not None:
            emit(s, _log("dragon-blocks", seat=Seat(seat)))
        _place(s, seat, s.dragon - 1)
        return
    _place(s, seat, target)


def spear_goes_on(s: GrailCupState, target: int, goal: int) -> bool:
    """Whether a spear can take a knight on past the dragon on a forward move to ``target``
    (GC-RULING-22): not when the dragon holds the last church a Priest's move is bound for,
    as no church lies beyond it to go on to (GC-RULING-7). The finish counts as a castle, and
    the dragon never stands on it, so a Princess's move always has a castle beyond."""
    return not (goal == TO_CHURCH and target == s.dragon and s.track.next_church[target] < 0)


def backward(s: GrailCupState, seat: int, steps: int) -> None:
    """Move back; the dragon is ignored, and never shares a space (GC-DRAGON-3, GC-RULING-5)."""
    target = max(0, s.pos[seat] - steps)
    if target == s.dragon:
        target = target - 1 if target > 0 else target + 1
    _place(s, seat, target)


def gain_spear(s: GrailCupState, seat: int) -> None:
    """Take a spear from the supply, if any is left (GC-SPEAR-1, GC-RULING-8)."""
    if s.supply > 0:
        s.supply -= 1
        s.spears[seat] += 1
        if s._events is not None:
            emit(s, _log("spear-gained", seat=Seat(seat)))
    else:
        if s._events is not None:
            emit(s, _log("spear-none", seat=Seat(seat)))


# ---------------------------------------------------------------- automatic tasks
def _setup_end(s: GrailCupState, a: int, b: int, c: int) -> None:
    number = [0] * s.n
    for card in range(NUM_ALLIES):
        if s.ally_loc[card] >= C.HAND:
            number[s.ally_loc[card] - C.HAND] = card + 1
    # GC-RULING-21: on a shared start space the lower number stands ahead (numbers rise
    # towards the back of the start area).
    for rank, seat in enumerate(sorted(range(s.n), key=lambda p: number[p])):
        s.stamp[seat] = rank
    s.next_stamp = s.n
    # GC-SETUP-4: the dealt allies go back into the deck.
    for card in range(NUM_ALLIES):
        s.ally_loc[card] = C.DECK
    # GC-SETUP-5: knights starting from spaces 7-9 take a spear, else the last knight does.
    late = [seat for seat in range(s.n) if number[seat] >= 7]
    for seat in late or [last(s)]:
        gain_spear(s, seat)
    s.agenda.append((C.ROUND, 0, 0, 0))


def _round(s: GrailCupState, a: int, b: int, c: int) -> None:
    if s.round_no >= MAX_ROUNDS:
        # GC-RULING-13: a game that has not ended after MAX_ROUNDS goes to the leader.
        s.winner = leader(s)
        if s._events is not None:
            emit(s, _log("round-cap", seat=Seat(s.winner), count=MAX_ROUNDS))
        return
    s.round_no += 1
    # GC-ROUND-2: the seal goes to whoever rolled it last round, else to the last knight.
    s.first = s.seal_roller if s.seal_roller >= 0 else last(s)
    s.seal_roller = -1
    s.direction = 0
    for card in range(NUM_ALLIES):
        shown = s.revealed >> card & 1
        s.last_round[card] = s.ally_loc[card] - C.HAND if shown else -1
        s.ally_loc[card] = C.DECK
    s.revealed = 0
    s.last_called = 0
    s.sightings.clear()
    s.curse = s.sorceress = s.squire = s.named = -1
    s.merlin_spaces.clear()
    s.chain = 0
    if s._events is not None:
        emit(s, _log("round", count=s.round_no, seat=Seat(s.first)))
    up, down = ASIDE[s.n]
    agenda = s.agenda
    agenda.append((C.CALL, 0, 0, 0))
    agenda.append((C.DRAFT_REST, s.first, 0, 0))
    if s.n > 2:
        agenda.append((C.DIRECTION, s.first, 0, 0))
    agenda.append((C.PICK, s.first, 0, 0))
    agenda.append((C.SIGHT, s.first, 0, 0))
    for _ in range(down):
        agenda.append((C.ASIDE_DOWN_DRAW, 0, 0, 0))
    for _ in range(up):
        agenda.append((C.ASIDE_UP_DRAW, 0, 0, 0))


def _sight(s: GrailCupState, seat: int, b: int, c: int) -> None:
    # The cards not set aside become the packet; the drafter sees it (kept for recall).
    mask = 0
    for card in range(NUM_ALLIES):
        if s.ally_loc[card] == C.DECK:
            s.ally_loc[card] = C.PACKET
        if s.ally_loc[card] == C.PACKET:
            mask |= 1 << card
    s.sightings.append(seat)
    s.sightings.append(mask)


def _draft_rest(s: GrailCupState, first: int, b: int, c: int) -> None:
    """The picks after the first player's first one (GC-DRAFT-3..6, GC-RULING-2, -3)."""
    n = s.n
    step = s.direction or 1
    others = [(first + i * step) % n for i in range(1, n)]
    order: list[int] = []  # seats; -1 marks the 3-player random discard
    if n == 2:
        order = [others[0], first, others[0]]
    elif n == 3:
        order = [*others, -1, first, *others]
    else:
        order = others
    agenda = s.agenda
    agenda.append((C.FINAL_DISCARD, order[-1], 0, 0))
    for index in range(len(order) - 1, -1, -1):
        seat = order[index]
        if seat < 0:
            agenda.append((C.RANDOM_DISCARD, first, 0, 0))
            continue
        agenda.append((C.PICK, seat, 0, 0))
        agenda.append((C.SIGHT, seat, 0, 0))
        if n == 8 and index == len(order) - 1:
            agenda.append((C.TAKE_ASIDE, seat, 0, 0))


def _take_aside(s: GrailCupState, seat: int, b: int, c: int) -> None:
    # GC-DRAFT-6: with 8 players the last drafter also takes the face-down set-aside ally.
    for card in cards_at(s, C.ASIDE_DOWN):
        s.ally_loc[card] = C.PACKET
    if s._events is not None:
        emit(s, _log("take-aside", seat=Seat(seat)))


def _final_discard(s: GrailCupState, seat: int, b: int, c: int) -> None:
    # GC-DRAFT-5: the card the last drafter did not keep is discarded face down.
    for card in cards_at(s, C.PACKET):
        s.ally_loc[card] = C.DISCARD
        if s._events is not None:
            emit(
                s, _log("final-discard-known", seat=Seat(seat), ally=ally_term(card)), 1 << seat,
                _log("final-discard", seat=Seat(seat)),
            )


def _call(s: GrailCupState, card: int, b: int, c: int) -> None:
    """GC-CALL-1, GC-CALL-2: the allies are called 1 to 9, each resolved before the next."""
    if card >= NUM_ALLIES:
        s.agenda.append((C.ROUND_END, 0, 0, 0))
        return
    s.last_called = card + 1
    location = s.ally_loc[card]
    agenda = s.agenda
    agenda.append((C.CALL, card + 1, 0, 0))
    if location < C.HAND:
        if s._events is not None:
            emit(s, _log("ally-missing", ally=ally_term(card)))
        return
    holder = location - C.HAND
    s.revealed |= 1 << card
    if s._events is not None:
        emit(s, _log("ally-called", seat=Seat(holder), ally=ally_term(card)))
    agenda.append((C.RESOLVE, holder, card, 0))
    if s.curse == card and s.sorceress >= 0:
        # GC-ALLY-SORCERESS-2, GC-RULING-10: the strike comes first, even on her own
        # player's ally (the swap is then with himself).
        agenda.append((C.STRIKE, s.sorceress, holder, 0))


#: A landing's third argument: the end of the knight's own ally's effect, which lands where
#: it ends, moved or not (GC-RULING-12); 0 is a clover token's move, which lands only if it
#: moved him (GC-CLOVER-2: «снова перемещается»).
OWN_EFFECT: Final = 1


def _resolve(s: GrailCupState, seat: int, card: int, c: int) -> None:
    s.chain = 0
    here = s.pos[seat]
    agenda = s.agenda
    # GC-RULING-12: wherever his ally's effect ends, moved or not, he lands there.
    land = (C.LAND, seat, here, OWN_EFFECT)
    if card == SORCERESS:
        s.sorceress = seat
        # GC-ALLY-SORCERESS-1: one space, then the curse; a clover or village she lands
        # on comes after her ally's whole effect, the curse included (GC-RULING-10).
        agenda += [land, (C.CURSE, seat, 0, 0), (C.STEPS, seat, 1, 0)]
    elif card == SQUIRE:
        s.squire = seat
        agenda += [land, (C.STEPS, seat, 2, 0), (C.NAME, seat, 0, 0)]
    elif card == MERLIN:
        s.merlin_spaces.clear()
        agenda += [land, (C.CHOOSE_MOVE, seat, C.MERLIN_MOVES, 0)]
        looks = min(3, len(s.track.clover_spaces))
        if looks:
            agenda.append((C.LOOK, seat, looks, 0))
    elif card == BLACKSMITH:
        gain_spear(s, seat)
        agenda += [land, (C.STEPS, seat, 4, 0)]
    elif card == TAMER:
        agenda += [land, (C.STEPS, seat, 5, 0), (C.MOVE_DRAGON, seat, C.BY_TAMER, 0)]
    elif card == PRINCESS:
        agenda += [land, (C.TO, seat, s.track.next_castle[here], TO_CASTLE)]
    elif card == PRIEST:
        church = s.track.next_church[here]
        agenda.append(land)
        if church < 0:
            if s._events is not None:
                emit(s, _log("no-church", seat=Seat(seat)))  # GC-RULING-7
        else:
            agenda.append((C.TO, seat, church, TO_CHURCH))
    elif card == FAIRY:
        agenda += [land, (C.CHOOSE_MOVE, seat, C.FAIRY_MOVES, 0)]
    elif card == UNICORN:
        ahead = [s.pos[o] for o in range(s.n) if s.pos[o] > here]
        agenda.append(land)
        if not ahead:
            if s._events is not None:
                emit(s, _log("no-knight-ahead", seat=Seat(seat)))  # GC-RULING-7
            return
        target = min(ahead)
        while not is_free(s, target):
            target += 1
        _place(s, seat, target)


def _strike(s: GrailCupState, sorceress: int, victim: int, c: int) -> None:
    """GC-ALLY-SORCERESS-2: the knights exchange places (the dragon ignored), she moves on one.

    Each takes the other's exact place, his order among the knights on that space included
    (GC-RULING-19: «меняете местами»). A curse on her player's own ally swaps his knight with
    itself: he stays, then takes the step (GC-RULING-10). Either way her effect then ends
    and she lands where it leaves her, moved or not (GC-VILLAGE-1, GC-CLOVER-2,
    GC-RULING-12); the cursed knight lands only where his own ally leaves him.
    """
    s.chain = 0
    here = s.pos[sorceress]
    s.pos[sorceress], s.pos[victim] = s.pos[victim], here
    s.stamp[sorceress], s.stamp[victim] = s.stamp[victim], s.stamp[sorceress]
    if s._events is not None:
        if victim == sorceress:
            emit(s, _log("curse-strikes-own", seat=Seat(sorceress)))
        else:
            emit(s, _log("curse-strikes", seat=Seat(sorceress), knight=Seat(victim)))
    s.agenda += [(C.LAND, sorceress, here, OWN_EFFECT), (C.STEPS, sorceress, 1, 0)]


def _merlin_done(s: GrailCupState, seat: int, b: int, c: int) -> None:
    # GC-RULING-11: where the looked tokens now lie only Merlin's player knows; whoever saw
    # some of them remembers them among those spaces (recall.merlin_mixes).
    merlin_mixes(s, seat)
    # Every placement but the last is asked, even a choice of one: how many decisions he
    # takes must not tell the others what he saw.
    for index in range(len(s.merlin_spaces) - 2, -1, -1):
        s.agenda.append((C.PLACE, seat, index, 0))


def _steps(s: GrailCupState, seat: int, steps: int, c: int) -> None:
    forward(s, seat, s.pos[seat] + steps)


def _to(s: GrailCupState, seat: int, target: int, goal: int) -> None:
    forward(s, seat, target, goal)


def _back(s: GrailCupState, seat: int, steps: int, c: int) -> None:
    backward(s, seat, steps)


def _land(s: GrailCupState, seat: int, before: int, own: int) -> None:
    """GC-CLOVER-2, GC-VILLAGE-1: a knight ending his own ally's effect on a clover space
    turns its token, on a village rolls the die; so does one a clover token moves there.

    ``own``: :data:`OWN_EFFECT` when his ally's effect ends here, wherever that is, even
    where it began (GC-RULING-12: «завершает ход на области с деревней», where his move
    ends, not whether it moved him); 0 for a clover token's move, which lands only if it
    changed his space from ``before`` (GC-CLOVER-2: «снова перемещается на область с
    клевером»; so a chain never repeats on one space).
    """
    space = s.pos[seat]
    if space == before and not own:
        return  # a clover token's move that left him where he was
    if s.track.is_clover(space):
        if s.chain >= CHAIN_CAP:
            if s._events is not None:
                emit(s, _log("chain-spent", seat=Seat(seat)))  # GC-RULING-14
            return
        s.chain += 1
        s.agenda.append((C.CLOVER, seat, space, 0))
    elif s.track.is_village(space):
        s.agenda.append((C.DIE_ROLL, seat, 0, 0))


def _clover(s: GrailCupState, seat: int, space: int, c: int) -> None:
    """Turn the token lying on ``space``; it returns to the supply after its own effect and
    a new one is laid there from the supply (GC-CLOVER-2, GC-CLOVER-3, GC-RULING-15)."""
    recall_sees(s, space, -1)
    kind = s.pin[space]
    s.pin[space] = -1
    s.known[space] = 0
    s.flight = kind
    s.clovers_seen[kind] += 1
    if s._events is not None:
        emit(s, _log("clover", seat=Seat(seat), clover=clover_term(kind), space=space))
    agenda = s.agenda
    back = (C.RETURN, 0, space, 0)
    if kind == BOOTS:
        agenda += [(C.LAND, seat, space, 0), back, (C.STEPS, seat, 4, 0)]
    elif kind == GOBLIN:
        agenda += [(C.LAND, seat, space, 0), back, (C.BACK, seat, 2, 0)]
    elif kind == BAIT:
        agenda += [back, (C.MOVE_DRAGON, seat, C.BY_BAIT, 0)]
    elif kind == FAKE_GRAIL:
        agenda += [back, (C.FAKE, seat, 0, 0)]
    elif kind == MAGNET:
        agenda.append(back)
        if any(s.spears[o] > 0 for o in range(s.n) if o != seat):
            agenda.append((C.STEAL, seat, 0, 0))
        else:
            if s._events is not None:
                emit(s, _log("nothing-to-steal", seat=Seat(seat)))  # GC-RULING-8


def _return(s: GrailCupState, a: int, space: int, c: int) -> None:
    """GC-CLOVER-3: the turned token is shuffled into the supply; a new one is laid."""
    s.epoch += 1
    s.bag = (*s.bag, s.epoch * NUM_CLOVERS + s.flight)
    s.flight = -1
    s.agenda.append((C.LAY, 0, space, 0))


def _round_end(s: GrailCupState, a: int, b: int, c: int) -> None:
    """GC-ALLY-SQUIRE-2: the Squire jumps in front of the knight he named, if it leads."""
    s.chain = 0
    s.agenda.append((C.ROUND, 0, 0, 0))
    if s.squire < 0 or s.named < 0:
        return
    if leader(s) != s.named:
        if s._events is not None:
            emit(s, _log("squire-no-jump", seat=Seat(s.squire), knight=Seat(s.named)))
        return
    if s._events is not None:
        emit(s, _log("squire-jump", seat=Seat(s.squire), knight=Seat(s.named)))
    # The jump is the end of his Squire's effect: he lands where it ends (GC-RULING-12).
    s.agenda += [(C.LAND, s.squire, s.pos[s.squire], OWN_EFFECT),
                 (C.TO, s.squire, s.pos[s.named] + 1, 0)]


def _run_task(s: GrailCupState, code: int, a: int, b: int, c: int) -> None:
    """Execute the automatic task ``(code, a, b, c)``.

    (A chain of tests rather than a table of functions: mypyc calls each handler natively,
    where a function taken from a dict is a Python call that boxes its arguments.)"""
    if code == C.LAND:
        _land(s, a, b, c)
    elif code == C.STEPS:
        _steps(s, a, b, c)
    elif code == C.CALL:
        _call(s, a, b, c)
    elif code == C.RESOLVE:
        _resolve(s, a, b, c)
    elif code == C.SIGHT:
        _sight(s, a, b, c)
    elif code == C.TO:
        _to(s, a, b, c)
    elif code == C.CLOVER:
        _clover(s, a, b, c)
    elif code == C.RETURN:
        _return(s, a, b, c)
    elif code == C.BACK:
        _back(s, a, b, c)
    elif code == C.STRIKE:
        _strike(s, a, b, c)
    elif code == C.MERLIN_DONE:
        _merlin_done(s, a, b, c)
    elif code == C.DRAFT_REST:
        _draft_rest(s, a, b, c)
    elif code == C.FINAL_DISCARD:
        _final_discard(s, a, b, c)
    elif code == C.ROUND_END:
        _round_end(s, a, b, c)
    elif code == C.ROUND:
        _round(s, a, b, c)
    elif code == C.TAKE_ASIDE:
        _take_aside(s, a, b, c)
    elif code == C.SETUP_END:
        _setup_end(s, a, b, c)
    else:
        raise AssertionError(f"task {code} is not automatic")


# ---------------------------------------------------------------- chance handlers
def _deal(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    """GC-SETUP-3: the dealt ally's number is the knight's start space."""
    card = action - A.ALLY
    s.ally_loc[card] = C.HAND + seat
    s.pos[seat] = s.track.start_space(card + 1)
    s.stamp[seat] = s.next_stamp
    s.next_stamp += 1
    if s._events is not None:
        emit(s, _log("start", seat=Seat(seat), ally=ally_term(card), count=card + 1))


def _aside_up(s: GrailCupState, action: int, a: int, b: int, c: int) -> None:
    card = action - A.ALLY
    s.ally_loc[card] = C.ASIDE_UP
    if s._events is not None:
        emit(s, _log("aside-up", ally=ally_term(card)))


def _aside_down(s: GrailCupState, action: int, a: int, b: int, c: int) -> None:
    s.ally_loc[action - A.ALLY] = C.ASIDE_DOWN
    if s._events is not None:
        emit(s, _log("aside-down"))


def _random_discard(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    # GC-DRAFT-4: with 3 players the first player discards one unseen card at random.
    s.ally_loc[action - A.ALLY] = C.RANDOM
    if s._events is not None:
        emit(s, _log("random-discard", seat=Seat(seat)))


def _lay(s: GrailCupState, action: int, a: int, space: int, c: int) -> None:
    """GC-SETUP-6, GC-CLOVER-3: a token from the supply is laid face down on ``space``;
    nobody sees which."""
    kind = action - A.CLOVER
    # Tokens of one kind differ only in when they last came back to the supply; the one
    # taken is the latest (a laid token may be any of them: its space takes all; the ones
    # left keep the most room for the worlds a search samples).
    bag = s.bag
    at = -1
    for index in range(len(bag)):
        if bag[index] % NUM_CLOVERS == kind and (at < 0 or bag[index] > bag[at]):
            at = index  # the first of the latest ones
    token = bag[at]
    s.bag = bag[:at] + bag[at + 1:]
    s.pin[space] = kind
    s.born = replaced(s.born, space, token // NUM_CLOVERS)
    s.fill = replaced(s.fill, space, s.epoch)
    s.known[space] = 0
    if s._events is not None:
        emit(s, _log("clover-laid", space=space))


def _die(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    """GC-VILLAGE-2: seal, thief or spear."""
    face = action - A.DIE_ROLL
    s.die_seen[face] += 1
    if s._events is not None:
        emit(s, _log("village", seat=Seat(seat), face=Term(f"grail-cup.die.{DIE_KEYS[face]}")))
    if face == SEAL:
        s.seal_roller = seat  # GC-RULING-9: a later roll takes it over
    elif face == THIEF:
        if s.spears[seat] > 0:
            s.spears[seat] -= 1
            s.supply += 1
            if s._events is not None:
                emit(s, _log("spear-lost", seat=Seat(seat)))
        else:
            if s._events is not None:
                emit(s, _log("nothing-to-steal", seat=Seat(seat)))
    else:
        gain_spear(s, seat)


# ---------------------------------------------------------------- decision handlers
def _pick(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    card = action - A.KEEP
    s.ally_loc[card] = C.HAND + seat
    if s._events is not None:
        emit(
            s, _log("keep-known", seat=Seat(seat), ally=ally_term(card)), 1 << seat,
            _log("keep", seat=Seat(seat)),
        )


def _direction(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    # GC-DRAFT-3: left is the next seat up (seat + 1), right the one below.
    s.direction = 1 if action == A.PASS_LEFT else -1
    side = "left" if action == A.PASS_LEFT else "right"
    if s._events is not None:
        emit(s, _log("direction", seat=Seat(seat), direction=Term(f"grail-cup.direction.{side}")))


def _curse(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    s.curse = action - A.CURSE
    if s._events is not None:
        emit(s, _log("curse", seat=Seat(seat), ally=ally_term(s.curse)))


def _name(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    s.named = action - A.NAME
    if s._events is not None:
        emit(s, _log("squire-names", seat=Seat(seat), knight=Seat(s.named)))


def _look(s: GrailCupState, action: int, seat: int, left: int, c: int) -> None:
    """GC-ALLY-MERLIN-1: look at a clover token (a chance node if nobody knows it)."""
    space = action - A.LOOK
    s.merlin_spaces.append(space)
    if s._events is not None:
        emit(s, _log("merlin-look", seat=Seat(seat), space=space))
    if left > 1:
        s.agenda.append((C.LOOK, seat, left - 1, 0))
    else:
        s.agenda.append((C.MERLIN_DONE, seat, 0, 0))
    recall_sees(s, space, seat)
    s.known[space] |= 1 << seat
    if s._events is not None:
        emit(
            s, _log("merlin-sees", seat=Seat(seat), clover=clover_term(s.pin[space]), space=space),
            1 << seat, None,
        )


def _place_token(s: GrailCupState, action: int, seat: int, index: int, c: int) -> None:
    kind = action - A.PLACE
    spaces = s.merlin_spaces
    here = spaces[index]
    for j in range(index, len(spaces)):
        there = spaces[j]
        if s.pin[there] == kind:
            s.pin[here], s.pin[there] = s.pin[there], s.pin[here]
            born = list(s.born)
            born[here], born[there] = born[there], born[here]
            s.born = tuple(born)
            break
    if s._events is not None:
        emit(
            s, _log("merlin-place-known", seat=Seat(seat), clover=clover_term(kind),
                    space=spaces[index]),
            1 << seat, _log("merlin-place", seat=Seat(seat), space=spaces[index]),
        )


def _choose_move(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    steps = action - A.MOVE + 1
    if b == C.MERLIN_MOVES:
        s.merlin_spaces.clear()  # his looks are over
    if s._events is not None:
        emit(s, _log("chooses-move", seat=Seat(seat), count=steps))
    forward(s, seat, s.pos[seat] + steps)


def _move_dragon(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    s.dragon = action - A.DRAGON
    if s._events is not None:
        emit(s, _log("dragon-moved", seat=Seat(seat), space=s.dragon))


def _spear(s: GrailCupState, action: int, seat: int, target: int, c: int) -> None:
    if action == A.SPEAR_YES:
        s.spears[seat] -= 1
        s.supply += 1
        if s._events is not None:
            emit(s, _log("spear-used", seat=Seat(seat)))
        # GC-RULING-4: the dragon's space counts as a step but is never shared; a move
        # bound for the castle or church the dragon stands on goes on to the next one
        # (GC-RULING-22: there always is one when a spear is asked, spear_goes_on).
        if target == s.dragon:
            target = (s.track.next_castle[target] if c == TO_CASTLE else
                      s.track.next_church[target] if c == TO_CHURCH else target + 1)
        _place(s, seat, min(s.track.finish, target))
    else:
        if s._events is not None:
            emit(s, _log("spear-kept", seat=Seat(seat)))
        _place(s, seat, s.dragon - 1)


def _fake(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    victim = action - A.TARGET
    if s._events is not None:
        emit(s, _log("pushed-back", seat=Seat(seat), knight=Seat(victim)))
    backward(s, victim, 2)  # no landing: not the victim's own ally (GC-CLOVER-2)


def _steal(s: GrailCupState, action: int, seat: int, b: int, c: int) -> None:
    victim = action - A.TARGET
    s.spears[victim] -= 1
    s.spears[seat] += 1
    if s._events is not None:
        emit(s, _log("steal", seat=Seat(seat), knight=Seat(victim)))


def _handle(s: GrailCupState, action: int, code: int, a: int, b: int, c: int) -> None:
    """Hand ``action`` to the handler of the waiting task ``(code, a, b, c)`` (a chain of
    tests, for the compiler: see :func:`_run_task`)."""
    if code == C.PICK:
        _pick(s, action, a, b, c)
    elif code == C.LAY:
        _lay(s, action, a, b, c)
    elif code == C.ASIDE_UP_DRAW:
        _aside_up(s, action, a, b, c)
    elif code == C.LOOK:
        _look(s, action, a, b, c)
    elif code == C.PLACE:
        _place_token(s, action, a, b, c)
    elif code == C.CHOOSE_MOVE:
        _choose_move(s, action, a, b, c)
    elif code == C.ASIDE_DOWN_DRAW:
        _aside_down(s, action, a, b, c)
    elif code == C.DIRECTION:
        _direction(s, action, a, b, c)
    elif code == C.MOVE_DRAGON:
        _move_dragon(s, action, a, b, c)
    elif code == C.NAME:
        _name(s, action, a, b, c)
    elif code == C.CURSE:
        _curse(s, action, a, b, c)
    elif code == C.DIE_ROLL:
        _die(s, action, a, b, c)
    elif code == C.DEAL:
        _deal(s, action, a, b, c)
    elif code == C.SPEAR:
        _spear(s, action, a, b, c)
    elif code == C.STEAL:
        _steal(s, action, a, b, c)
    elif code == C.FAKE:
        _fake(s, action, a, b, c)
    elif code == C.RANDOM_DISCARD:
        _random_discard(s, action, a, b, c)
    else:
        raise AssertionError(f"task {code} is not waiting for an action")
