"""Declarative Grail Cup positions for rule scenarios (format: ``docs/testing.md``).

>>> state = load_state({"players": 2, "phase": "call",
...                     "knights": [{"space": 12}, {"space": 30, "spears": 1}],
...                     "hands": {0: ["fairy"], 1: ["unicorn"]}, "call": 8})
>>> state.decision_event().key, state.legal_actions() == [state.string_to_action(t)
...     for t in ("move:2", "move:4", "move:6")]
('grail-cup.decision.fairy-move', True)
>>> load_state({"players": 9})
Traceback (most recent call last):
...
pendragon.core.errors.BadFixtureError: fixture: players must be 2..8, got 9
"""

from __future__ import annotations

import random
from typing import Any, Final

from pendragon.core.errors import BadFixtureError, CorruptStateError
from pendragon.core.storage import fixture_errors, fixture_fields, fixture_options
from pendragon.games.grail_cup.rules import codes as C, engine as E
from pendragon.games.grail_cup.rules.data import ALLY_KEYS, CLOVER_KEYS, SPEARS
from pendragon.games.grail_cup.rules.state import GrailCupState

_KEYS: Final = {
    "players", "seed", "options", "phase", "knights", "dragon", "clovers", "clover_known",
    "round", "seal", "hands", "aside_up", "call", "curse", "sorceress", "squire", "named",
}
_KNIGHT_KEYS: Final = {"space", "spears"}


def _fail(message: str) -> BadFixtureError:
    return BadFixtureError(f"fixture: {message}")


def _int(data: Any, name: str, low: int, high: int) -> int:
    if isinstance(data, bool) or not isinstance(data, int) or not low <= data <= high:
        raise _fail(f"{name} must be {low}..{high}, got {data!r}")
    return int(data)


def _ally(name: Any, field: str) -> int:
    if name not in ALLY_KEYS:
        raise _fail(f"{field}: unknown ally {name!r} (allies: {', '.join(ALLY_KEYS)})")
    return ALLY_KEYS.index(name)


def load_state(data: Any) -> GrailCupState:
    """Build a position from a fixture mapping; :class:`BadFixtureError` names a bad field.

    Keys (all optional): ``players`` (2), ``seed`` (0), ``options`` (``track`` or
    ``track_file``), ``phase`` (``setup``: the clover tokens laid, before the deal;
    ``draft``: a round starts, the set-aside allies are drawn next; ``call`` (default):
    allies are being called), ``knights`` (per seat ``space`` and ``spears``; on a shared
    space the one listed first arrived first), ``dragon`` (space), ``clovers`` (``{space:
    kind}`` face-down tokens placed there; the other clover spaces get tokens from the rest
    at random, by ``seed``), ``clover_known`` (``{space: [seats]}`` who knows that token),
    ``round`` (1), ``seal`` (the seat that rolled the seal last round), and for ``call``:
    ``hands`` (``{seat: [allies]}``), ``aside_up``, ``call`` (the next ally number called,
    1..10; 10 = all called), ``curse`` (an ally) with ``sorceress`` (a seat), ``squire``
    and ``named`` (seats).
    """
    with fixture_errors("fixture: ", lookups=True):
        return _load(data)


def _load(data: Any) -> GrailCupState:
    from pendragon.core.registry import load_game

    data = fixture_fields(data, _KEYS, prefix="fixture: ")
    players = _int(data.get("players", 2), "players", 2, 8)
    seed = _int(data.get("seed", 0), "seed", 0, 1 << 62)
    options = fixture_options(data, {"track", "track_file"}, prefix="fixture: ")
    state = load_game("grail-cup", players=players, seed=seed, **options).new_initial_state()
    assert isinstance(state, GrailCupState)
    phase = data.get("phase", "call")
    if phase not in ("setup", "draft", "call"):
        raise _fail(f"phase must be setup, draft or call, got {phase!r}")
    if phase == "setup":
        if set(data) - {"players", "seed", "options", "phase"}:
            raise _fail("a setup fixture sets only players, seed and options")
        # GC-SETUP-6 before GC-SETUP-3: the tokens are laid (by the seed); the deal is next.
        while state.agenda[-1][0] == C.LAY:
            state.apply_action(state.sample_chance())
        return state
    track = state.track
    knights = data.get("knights", [{} for _ in range(players)])
    if not isinstance(knights, list) or len(knights) != players:
        raise _fail(f"knights must list {players} entries")
    state.dragon = _int(data.get("dragon", track.dragon_start), "dragon", 0, track.finish - 1)
    for seat, knight in enumerate(knights):
        if not isinstance(knight, dict) or set(knight) - _KNIGHT_KEYS:
            raise _fail(f"knights.{seat} uses only {sorted(_KNIGHT_KEYS)}")
        space = _int(knight.get("space", track.start_space(1)), f"knights.{seat}.space", 0,
                     track.finish - 1)
        if space == state.dragon:
            raise _fail(f"knights.{seat} stands on the dragon's space")
        state.pos[seat] = space
        state.stamp[seat] = seat
        state.spears[seat] = _int(knight.get("spears", 0), f"knights.{seat}.spears", 0, SPEARS)
    state.next_stamp = players
    state.supply = SPEARS - sum(state.spears)
    if state.supply < 0:
        raise _fail(f"more than {SPEARS} spears")
    clovers = data.get("clovers", {})
    bag = list(state.bag)
    if not isinstance(clovers, dict):
        raise _fail("clovers must map spaces to tokens")
    for space, kind in clovers.items():
        space = _int(space, "clovers space", 0, track.finish)
        if not track.is_clover(space):
            raise _fail(f"space {space} holds no clover token")
        if kind not in CLOVER_KEYS:
            raise _fail(f"unknown clover token {kind!r}")
        index = CLOVER_KEYS.index(kind)
        if index not in bag:
            raise _fail(f"no {kind} token left")
        bag.remove(index)
        state.pin[space] = index
    # GC-SETUP-6: every other clover space holds a token from the rest, laid by the seed.
    rest = [space for space in track.clover_spaces if state.pin[space] < 0]
    random.Random(seed).shuffle(bag)
    for space in rest:
        state.pin[space] = bag.pop()
    state.bag = tuple(sorted(bag))
    known = data.get("clover_known", {})
    if not isinstance(known, dict):
        raise _fail("clover_known must map spaces to seats")
    for space, seats in known.items():
        space = _int(space, "clover_known space", 0, track.finish)
        if state.pin[space] < 0 or not isinstance(seats, list):
            raise _fail(f"clover_known.{space}: no placed token there, or not a list of seats")
        for seat in seats:
            state.known[space] |= 1 << _int(seat, "clover_known seat", 0, players - 1)
    state.round_no = _int(data.get("round", 1), "round", 1, 60) - 1
    state.seal_roller = _int(data.get("seal", -1), "seal", -1, players - 1)
    if phase == "draft":
        if set(data) & {"hands", "aside_up", "call", "curse", "sorceress", "squire", "named"}:
            raise _fail("a draft fixture starts a round: no hands or calls yet")
        state.agenda = [(C.ROUND, 0, 0, 0)]
    else:
        _call_phase(state, data, players)
    E.run(state)
    state.invalidate_cache()
    try:
        state.check_invariants()
    except CorruptStateError as error:
        raise _fail(error.message) from None
    if not state.is_terminal() and not state.legal_actions():
        raise _fail("the position has nothing to decide")
    return state


def _call_phase(state: GrailCupState, data: dict[str, Any], players: int) -> None:
    state.round_no += 1
    state.first = E.last(state) if state.seal_roller < 0 else state.seal_roller
    state.seal_roller = -1
    call = _int(data.get("call", 1), "call", 1, 10)
    state.last_called = call - 1
    hands = data.get("hands", {})
    if not isinstance(hands, dict):
        raise _fail("hands must map seats to lists of allies")
    placed: set[int] = set()
    for seat, cards in hands.items():
        seat = _int(seat, "hands seat", 0, players - 1)
        if not isinstance(cards, list):
            raise _fail(f"hands.{seat} must be a list")
        for name in cards:
            card = _ally(name, f"hands.{seat}")
            if card in placed:
                raise _fail(f"{name} is placed twice")
            placed.add(card)
            state.ally_loc[card] = C.HAND + seat
            if card < state.last_called:
                state.revealed |= 1 << card
    aside = data.get("aside_up", [])
    if not isinstance(aside, list):
        raise _fail("aside_up must be a list")
    for name in aside:
        card = _ally(name, "aside_up")
        if card in placed:
            raise _fail(f"{name} is placed twice")
        placed.add(card)
        state.ally_loc[card] = C.ASIDE_UP
    if "curse" in data:
        state.curse = _ally(data["curse"], "curse")
        if state.curse == 0 or "sorceress" not in data:
            raise _fail("curse names an ally 2..9 and needs the sorceress' seat")
    state.sorceress = _int(data.get("sorceress", -1), "sorceress", -1, players - 1)
    state.squire = _int(data.get("squire", -1), "squire", -1, players - 1)
    state.named = _int(data.get("named", -1), "named", -1, players - 1)
    state.agenda = [(C.CALL, call - 1, 0, 0)]
