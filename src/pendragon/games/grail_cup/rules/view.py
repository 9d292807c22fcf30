"""What each seat may know: observations, the tensor, and the words of actions and decisions.

These functions and :meth:`GrailCupState.narrate` are the only way hidden information leaves
the rules: the allies each player drafted (until called), the allies set aside face down or
discarded, the packet being drafted (seen by its drafter only), and the clover tokens
(Merlin's player sees three).

Observation layout (``observation(seat)``; ``seat`` ``None`` is a spectator)::

    game, players, round, first_player, direction ("left"/"right"/null), track (kinds),
    dragon, spear_supply, knights[{space, spears, allies, revealed}], order (leader first),
    allies{aside_up, aside_down, random_discard, discarded, called, revealed{ally: seat}},
    last_round{ally: seat}, clovers_turned{kind: n}, village_rolls{face: n},
    curse, sorceress, squire, squire_named, merlin_looked, merlin_placed, clover_in_play,
    clover_known_by{space: [seats]} (who has seen the token lying there: public, GC-RULING-11),
    seal_rolled_by,
    waiting{seat, decision}, winner,
    you{seat, hand, packet (while you draft or pass it), seen (each packet you drafted from this
        round), clovers{space: kind}, clovers_among[{spaces, clovers}] (tokens you saw that
        Merlin has since rearranged: they lie among those spaces, GC-RULING-11)}   -- seats only

Tensor (``observation_tensor(seat)``, every entry in [0, 1]): per seat position and spears
(2n), the viewer, the seat to act and the first player (3n one-hots), dragon, spear
supply, round, allies called (4), own hand, packet seen now, allies set aside face up,
allies revealed (4 x 9), the cursed ally (9), the named knight (n), the waiting task (35),
and per track space the clover kind the viewer knows there (5 per space); then, added by
issue 37 at the end so that the earlier elements keep their places, Merlin's looks (4): the
spaces he looked at, in the order looked ((space + 1) / spaces, 0 for none; 3), and how
many tokens he has put back (/ 2) while he puts them back — so the seat that places them
sees the decisions it took (``merlin_placed`` in the JSON view); then the table as it lies:
each knight's place in the race (n, leader 0, last 1: the arrival order on a shared space),
who holds the revealed Squire and Sorceress (2n), who took the seal this round (n) and the
draft's direction (2); then, per track space, the clover tokens the viewer remembers among
spaces Merlin rearranged (GC-RULING-11: per kind, how many lie among the spaces of the
space's group, / those spaces; 5 per space).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from pendragon.core.events import Event, Seat, Term
from pendragon.core.tensor_names import Block, block_names, blocks_size, one_hot, per_item
from pendragon.games.grail_cup.rules import actions as A, codes as C, engine as E
from pendragon.games.grail_cup.rules.data import (
    ALLY_KEYS,
    CLOVER_KEYS,
    DIE_KEYS,
    MAX_ROUNDS,
    NUM_ALLIES,
    NUM_CLOVERS,
    SPEARS,
)

if TYPE_CHECKING:
    from pendragon.games.grail_cup.rules.state import GrailCupState


def _seat_or_none(value: int) -> int | None:
    return value if value >= 0 else None


def waiting(s: GrailCupState) -> dict[str, Any]:
    """Who is awaited and for what (public)."""
    if s.winner >= 0 or not s.agenda:
        return {"seat": None, "decision": "over"}
    code, a, b, _c = s.agenda[-1]
    if code in C.CHANCE_TASKS:
        return {"seat": None, "decision": C.TASK_NAMES[code]}
    name = C.TASK_NAMES[code]
    if code == C.CHOOSE_MOVE:
        name = "merlin-move" if b == C.MERLIN_MOVES else "fairy-move"
    elif code == C.MOVE_DRAGON:
        name = "dragon" if b == C.BY_TAMER else "dragon-bait"
    return {"seat": a, "decision": name}


def observation(s: GrailCupState, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``seat`` (``None``: a spectator)."""
    loc = s.ally_loc
    view: dict[str, Any] = {
        "game": "grail-cup",
        "players": s.n,
        "round": s.round_no,
        "first_player": _seat_or_none(s.first),
        "direction": {1: "left", -1: "right"}.get(s.direction),
        "track": list(s.track.kinds),
        "dragon": s.dragon,
        "spear_supply": s.supply,
        "knights": [
            {
                "space": s.pos[p],
                "spears": s.spears[p],
                "allies": loc.count(C.HAND + p),
                "revealed": [
                    ALLY_KEYS[c] for c in range(NUM_ALLIES)
                    if loc[c] == C.HAND + p and s.revealed >> c & 1
                ],
            }
            for p in range(s.n)
        ],
        "order": E.race_order(s),
        "allies": {
            "aside_up": [ALLY_KEYS[c] for c in E.cards_at(s, C.ASIDE_UP)],
            "aside_down": loc.count(C.ASIDE_DOWN),
            "random_discard": loc.count(C.RANDOM),
            "discarded": loc.count(C.DISCARD),
            "called": s.last_called,
            "revealed": {
                ALLY_KEYS[c]: loc[c] - C.HAND for c in range(NUM_ALLIES) if s.revealed >> c & 1
            },
        },
        "last_round": {
            ALLY_KEYS[c]: s.last_round[c] for c in range(NUM_ALLIES) if s.last_round[c] >= 0
        },
        "clovers_turned": dict(zip(CLOVER_KEYS, s.clovers_seen, strict=True)),
        "village_rolls": dict(zip(DIE_KEYS, s.die_seen, strict=True)),
        "curse": ALLY_KEYS[s.curse] if s.curse >= 0 else None,
        "sorceress": _seat_or_none(s.sorceress),
        "squire": _seat_or_none(s.squire),
        "squire_named": _seat_or_none(s.named),
        "merlin_looked": list(s.merlin_spaces),
        "merlin_placed": merlin_placed(s),
        "clover_in_play": CLOVER_KEYS[s.flight] if s.flight >= 0 else None,
        # Which seats know the token on a space (Merlin's looks, GC-RULING-11): everyone saw
        # him take them up and put them back, so who knows is public, not what.
        "clover_known_by": {
            str(space): [p for p in range(s.n) if s.known[space] >> p & 1]
            for space in s.track.clover_spaces
            if s.known[space]
        },
        "seal_rolled_by": _seat_or_none(s.seal_roller),
        "waiting": waiting(s),
        "winner": _seat_or_none(s.winner),
    }
    if seat is not None:
        bit = 1 << seat
        drafting = drafts_now(s, seat)
        sights = s.sightings
        view["you"] = {
            "seat": seat,
            "hand": [ALLY_KEYS[c] for c in E.hand(s, seat)],
            "packet": [ALLY_KEYS[c] for c in E.cards_at(s, C.PACKET)] if drafting else [],
            "seen": [
                [ALLY_KEYS[c] for c in range(NUM_ALLIES) if sights[i + 1] >> c & 1]
                for i in range(0, len(sights), 2)
                if sights[i] == seat
            ],
            "clovers": {
                str(space): CLOVER_KEYS[s.pin[space]]
                for space in s.track.clover_spaces
                if s.known[space] & bit
            },
            # GC-RULING-11: tokens he saw that Merlin's player has since rearranged lie
            # somewhere among these spaces.
            "clovers_among": [
                {"spaces": list(spaces), "clovers": [CLOVER_KEYS[kind] for kind in kinds]}
                for who, spaces, kinds, _aware in s.recall
                if who == seat
            ],
        }
    return view


def drafts_now(s: GrailCupState, seat: int) -> bool:
    """Whether ``seat`` holds the packet now: to keep an ally from it, or, the first player
    having kept his, to pass the rest left or right (GC-DRAFT-3: he chooses the direction
    with the cards in his hand)."""
    if not s.agenda:
        return False
    code, who, _b, _c = s.agenda[-1]
    return who == seat and code in (C.PICK, C.DIRECTION)


def merlin_placed(s: GrailCupState) -> int:
    """How many of the looked tokens Merlin has put back, while he puts them back (public:
    he is asked once per space but the last, GC-RULING-11); 0 otherwise."""
    if s.agenda and s.agenda[-1][0] == C.PLACE:
        return s.agenda[-1][2]
    return 0


#: The spaces in the tensor's last block, Merlin's looks (issue 37).
MERLIN_LOOKS: Final = 3


def tensor_blocks(players: int, spaces: int) -> tuple[Block, ...]:
    """The tensor's blocks, in :func:`observation_tensor`'s order, with their elements'
    labels: the one description its size and names come from (issue 40 item 3). A block
    added to the writer is added here, or the size no longer matches.

    >>> [name for name, _ in tensor_blocks(3, 56)][:4]
    ['knight', 'viewer', 'to_act', 'first_player']
    """
    seats = range(players)
    return (
        ("knight", per_item(seats, ("space", "spears"))),  # seats in seat order, /finish, /12
        ("viewer", one_hot(seats)),
        ("to_act", one_hot(seats)),
        ("first_player", one_hot(seats)),
        ("race", ("dragon", "spear_supply", "round", "last_called")),
        ("hand", one_hot(ALLY_KEYS)),  # the viewer's own allies
        ("packet", one_hot(ALLY_KEYS)),  # the packet the viewer drafts from now
        ("aside_up", one_hot(ALLY_KEYS)),
        ("revealed", one_hot(ALLY_KEYS)),
        ("curse", one_hot(ALLY_KEYS)),
        ("squire_named", one_hot(seats)),
        ("task", one_hot(C.TASK_NAMES.get(code, str(code)) for code in range(C.NUM_TASKS))),
        ("clover", per_item(range(spaces), CLOVER_KEYS)),  # known to the viewer, by space
        # Merlin's looks (issue 37): the spaces looked at (space + 1, /spaces; 0 unused) and
        # how many tokens he has put back (/2), public like ``merlin_looked``.
        ("merlin", (*(f"look.{i}" for i in range(MERLIN_LOOKS)), "placed")),
        # The table as it lies (added after Merlin's looks, so that the earlier elements
        # keep their places): each knight's place in the race, leader 0, last 1 (arrival
        # order on a shared space, GC-KNIGHTS-1); who holds the revealed Squire and
        # Sorceress; who took the seal this round (GC-VILLAGE-SEAL); the draft's direction.
        ("race_place", per_item(seats, ("place",))),
        ("holds", per_item(seats, ("squire", "sorceress"))),
        ("seal", one_hot(seats)),
        ("direction", ("left", "right")),
        # Tokens the viewer remembers among spaces Merlin rearranged (GC-RULING-11), by
        # space: per kind, how many of them lie among its spaces, / the spaces.
        ("clover_among", per_item(range(spaces), CLOVER_KEYS)),
    )


def tensor_names(players: int, spaces: int) -> list[str]:
    """The name of every element of ``observation_tensor`` for a table and a track.

    >>> tensor_names(3, 56)[:3], tensor_names(3, 56)[-1]
    (['knight.0.space', 'knight.0.spears', 'knight.1.space'], 'clover_among.55.magnet')
    """
    return block_names(tensor_blocks(players, spaces))


def tensor_size(players: int, spaces: int) -> int:
    """Length of ``observation_tensor`` for a table and a track."""
    return blocks_size(tensor_blocks(players, spaces))


def observation_tensor(s: GrailCupState, seat: int) -> list[float]:
    """The fixed-length numeric view of ``seat`` (layout in the module docstring)."""
    n = s.n
    last_space = s.track.finish
    out: list[float] = []
    for p in range(n):
        out.append(s.pos[p] / last_space)
        out.append(s.spears[p] / SPEARS)
    for who in (seat, E.current_player(s), s.first):
        block = [0.0] * n
        if 0 <= who < n:
            block[who] = 1.0
        out += block
    out += [s.dragon / last_space, s.supply / SPEARS, min(s.round_no, MAX_ROUNDS) / MAX_ROUNDS,
            s.last_called / NUM_ALLIES]
    drafting = drafts_now(s, seat)
    loc = s.ally_loc
    out += [1.0 if loc[c] == C.HAND + seat else 0.0 for c in range(NUM_ALLIES)]
    out += [1.0 if drafting and loc[c] == C.PACKET else 0.0 for c in range(NUM_ALLIES)]
    out += [1.0 if loc[c] == C.ASIDE_UP else 0.0 for c in range(NUM_ALLIES)]
    out += [float(s.revealed >> c & 1) for c in range(NUM_ALLIES)]
    out += [1.0 if s.curse == c else 0.0 for c in range(NUM_ALLIES)]
    out += [1.0 if s.named == p else 0.0 for p in range(n)]
    task = [0.0] * C.NUM_TASKS
    if s.agenda and s.winner < 0:
        task[s.agenda[-1][0]] = 1.0
    out += task
    bit = 1 << seat
    clovers = [0.0] * (NUM_CLOVERS * len(s.track))
    for space in s.track.clover_spaces:
        if s.known[space] & bit:
            clovers[NUM_CLOVERS * space + s.pin[space]] = 1.0
    out += clovers
    # Merlin's looks, the last block (issue 37): public, like ``merlin_looked``.
    looked = s.merlin_spaces
    spaces = len(s.track)
    for i in range(MERLIN_LOOKS):
        out.append((looked[i] + 1) / spaces if i < len(looked) else 0.0)
    out.append(merlin_placed(s) / (MERLIN_LOOKS - 1))
    place = [0.0] * n
    for rank, p in enumerate(E.race_order(s)):
        place[p] = rank / (n - 1) if n > 1 else 0.0
    out += place
    for p in range(n):
        out += [1.0 if s.squire == p else 0.0, 1.0 if s.sorceress == p else 0.0]
    out += [1.0 if s.seal_roller == p else 0.0 for p in range(n)]
    out += [1.0 if s.direction == 1 else 0.0, 1.0 if s.direction == -1 else 0.0]
    among = [0.0] * (NUM_CLOVERS * len(s.track))
    for who, group, kinds, _aware in s.recall:
        if who == seat:
            share = 1.0 / len(group)
            for space in group:
                for kind in kinds:
                    among[NUM_CLOVERS * space + kind] += share
    out += among
    return out


def action_event(action: int) -> Event:
    """The menu words of ``action`` (its key and parameters)."""
    text = A.CATALOG.text(action)
    kind, _, rest = text.partition(":")
    key = f"grail-cup.action.{kind}"
    if kind in ("keep", "curse", "ally"):
        return Event(key, {"ally": Term(f"grail-cup.ally.{rest}")})
    if kind == "pass":
        return Event(key, {"direction": Term(f"grail-cup.direction.{rest}")})
    if kind in ("name", "target"):
        return Event(key, {"knight": Seat(int(rest))})
    if kind in ("look", "dragon"):
        return Event(key, {"space": int(rest)})
    if kind in ("place", "clover"):
        return Event(key, {"clover": Term(f"grail-cup.clover.{rest}")})
    if kind == "move":
        return Event(key, {"count": int(rest)})
    if kind == "spear":
        return Event(f"grail-cup.action.spear-{rest}")
    if kind == "die":
        return Event(key, {"face": Term(f"grail-cup.die.{rest}")})
    raise AssertionError(text)


def decision_event(s: GrailCupState) -> Event:
    """What the state awaits, as an event."""
    info = waiting(s)
    if info["decision"] == "over":
        return Event("core.decision.over")
    if info["seat"] is None:
        return Event("core.decision.chance")
    return Event(f"grail-cup.decision.{info['decision']}", {"seat": Seat(info["seat"])})


#: Every message key the rules use, for the catalog checks in the tests.
LOG_KEYS: Final = (
    "start", "round", "aside-up", "aside-down", "keep", "keep-known", "direction",
    "random-discard", "take-aside", "final-discard", "final-discard-known", "ally-called",
    "ally-missing", "move", "stay", "dragon-blocks", "spear-used", "spear-kept",
    "spear-gained", "spear-none", "spear-lost", "curse", "curse-strikes", "curse-strikes-own",
    "squire-names", "squire-jump", "squire-no-jump", "merlin-look", "merlin-sees", "clover-laid",
    "merlin-place", "merlin-place-known", "chooses-move", "dragon-moved", "clover", "village",
    "nothing-to-steal", "steal", "pushed-back", "no-church", "no-knight-ahead", "chain-spent",
    "win", "round-cap",
)
DIE_TERMS: Final = tuple(f"grail-cup.die.{k}" for k in DIE_KEYS)


# ------------------------------------------------------------- the evaluator's view
#: Other knights in the evaluator's view: the most a table seats, less the viewer.
EVAL_OTHERS: Final = 7
#: Known clover tokens are counted per kind in two stretches ahead of the viewer's knight:
#: 1 to ``CLOVER_NEAR`` spaces, and on to ``CLOVER_FAR``.
CLOVER_NEAR: Final = 6
CLOVER_FAR: Final = 14
#: The blocks of the tensor that read the same at every table: the race, the allies, the
#: waiting task and Merlin's looks.
_SHARED: Final = ("race", "hand", "packet", "aside_up", "revealed", "curse", "task", "merlin",
                  "direction")
_KNIGHT: Final = ("space", "spears", "to_act", "first_player", "squire_named", "place",
                  "squire", "sorceress", "seal")
_SHARED_BLOCKS: Final = tuple(block for block in tensor_blocks(2, 0) if block[0] in _SHARED)
#: ...and their lengths, read at every evaluation.
_SHARED_SIZES: Final = tuple((name, len(labels)) for name, labels in _SHARED_BLOCKS)
#: The evaluator's view (:func:`evaluation_tensor`) in blocks: the viewer's knight, how many
#: knights are ahead of him, the others from the first on the track down (absent ones zero),
#: the blocks of :data:`_SHARED`, and the clovers the viewer knows ahead of him. Nothing the
#: network's first, linear layer could add up itself (no gap between two knights, no flag of
#: a seat taken: the setup features give the count): every input not zero costs time.
EVAL_BLOCKS: Final[tuple[Block, ...]] = (
    ("self", _KNIGHT),
    ("ahead", ("others_ahead",)),  # /7
    ("other", per_item(range(EVAL_OTHERS), _KNIGHT)),
    *_SHARED_BLOCKS,
    ("clover_ahead", per_item(("near", "far"), CLOVER_KEYS)),
)
EVALUATION_SIZE: Final = blocks_size(EVAL_BLOCKS)
#: Where each block of :func:`tensor_blocks` starts, per (players, spaces).
_STARTS: dict[tuple[int, int], dict[str, int]] = {}


def _starts(players: int, spaces: int) -> dict[str, int]:
    """Each block's first index in the observation tensor of a table and a track."""
    key = (players, spaces)
    found = _STARTS.get(key)
    if found is None:
        found = {}
        at = 0
        for name, labels in tensor_blocks(players, spaces):
            found[name] = at
            at += len(labels)
        _STARTS[key] = found
    return found


def _knight_view(tensor: list[float], *, p: int, knight: int, to_act: int, first: int,
                 named: int, place: int, holds: int, seal: int) -> list[float]:
    """Seat ``p``'s elements of the evaluator's view (:data:`_KNIGHT`), read from its
    observation ``tensor`` at the blocks' starts."""
    return [tensor[knight + 2 * p], tensor[knight + 2 * p + 1], tensor[to_act + p],
            tensor[first + p], tensor[named + p], tensor[place + p], tensor[holds + 2 * p],
            tensor[holds + 2 * p + 1], tensor[seal + p]]


def evaluation_tensor(tensor: list[float], players: int, spaces: int, finish: int
                      ) -> list[float]:
    """The learned evaluator's view of a seat (:meth:`GrailCupState.evaluation_tensor`): its
    observation ``tensor`` alone, turned to the viewer and made the same length at every
    table, so that one network reads every player count (issue 38): the viewer's knight and
    how many are ahead of him in the race, then the others in the race's order, the leader
    first; the race, allies, task, Merlin's looks and the direction as they are; per clover
    kind, the tokens the viewer knows in the next 6 spaces and the 8 after (0.5 each).

    >>> import pendragon
    >>> state = pendragon.load_game("grail-cup", players=3, seed=4).new_initial_state()
    >>> state.play_random_chance()
    >>> view = state.evaluation_tensor(1)
    >>> len(view) == EVALUATION_SIZE == state.game.evaluation_tensor_size()
    True
    >>> view[0] == state.pos[1] / state.track.finish  # the viewer's knight comes first
    True
    >>> k = len(_KNIGHT)  # each knight's elements; the viewer's, then how many lead him
    >>> others = view[k + 1:k + 1 + k * EVAL_OTHERS:k]  # the others' spaces, the first's first
    >>> others[:2] == sorted((state.pos[p] / state.track.finish for p in (0, 2)), reverse=True)
    True
    >>> others[2:]
    [0.0, 0.0, 0.0, 0.0, 0.0]
    """
    at = _starts(players, spaces)
    knight, viewer = at["knight"], at["viewer"]
    to_act, first, named = at["to_act"], at["first_player"], at["squire_named"]
    place, holds, seal = at["race_place"], at["holds"], at["seal"]
    me = 0
    for p in range(players):
        if tensor[viewer + p] == 1.0:
            me = p
    # The others in the race's order, the leader first (GC-KNIGHTS-1).
    others = sorted((p for p in range(players) if p != me), key=lambda p: tensor[place + p])
    out = _knight_view(tensor, p=me, knight=knight, to_act=to_act, first=first, named=named,
                       place=place, holds=holds, seal=seal)
    out.append(sum(1 for p in others if tensor[place + p] < tensor[place + me]) / 7)
    for p in others:
        out += _knight_view(tensor, p=p, knight=knight, to_act=to_act, first=first,
                            named=named, place=place, holds=holds, seal=seal)
    out += [0.0] * (len(_KNIGHT) * (EVAL_OTHERS - len(others)))
    for name, size in _SHARED_SIZES:
        start = at[name]
        out += tensor[start:start + size]
    ahead = [0.0] * (2 * NUM_CLOVERS)
    clover = at["clover"]
    here = round(tensor[knight + 2 * me] * finish)
    for distance in range(1, CLOVER_FAR + 1):
        where = here + distance
        if where >= spaces:
            break
        near = 0 if distance <= CLOVER_NEAR else NUM_CLOVERS
        for kind in range(NUM_CLOVERS):
            if tensor[clover + NUM_CLOVERS * where + kind] != 0.0:
                ahead[near + kind] += 0.5
    out += ahead
    return out
