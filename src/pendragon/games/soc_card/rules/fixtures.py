"""Scenario fixtures: declarative positions of Shadows over Camelot: The Card Game.

A fixture describes a position at the start of a seat's turn (format: docs/testing.md,
"The card game fixture"). Everything is optional; every rumor card not placed anywhere is
in the deck, so the cards always add up. Anything impossible raises
:class:`~pendragon.core.errors.BadFixtureError` naming the field.

>>> state = load_state({"players": 3, "pile": ["picts-4", "grail-q"], "turn": 1})
>>> state.current_player(), state.observation(None)["pile"]
(1, {'count': 2, 'top': {'card': 'grail-q'}})
>>> load_state({"players": 3, "pile": ["grail-9"]})
Traceback (most recent call last):
...
pendragon.core.errors.BadFixtureError: pile: unknown card 'grail-9'
"""

from __future__ import annotations

from typing import Any, Final

from pendragon.core.errors import BadFixtureError, CorruptStateError
from pendragon.core.storage import (
    check_playable,
    fixture_errors,
    fixture_fields,
    fixture_options,
)
from pendragon.games.soc_card.rules import engine as E, tasks as T
from pendragon.games.soc_card.rules.cards import (
    IS_MORGAN,
    IS_QUEST,
    KIND,
    KNIGHT_KEYS,
    LOYALTY_KEYS,
    NUM_KINDS,
    QUESTS,
)
from pendragon.games.soc_card.rules.game import SocCardGame
from pendragon.games.soc_card.rules.state import SocCardState

_KEYS: Final = {
    "players", "seed", "options", "turn", "loyalty", "revealed", "shown", "verified",
    "accused", "swords",
    "pile", "deck", "morgans_aside", "in_force", "merlin_4", "knights", "knight_deck",
}


def _fail(message: str) -> BadFixtureError:
    return BadFixtureError(message)


def _card(name: Any, where: str) -> int:
    if not isinstance(name, str) or name not in KIND:
        raise _fail(f"{where}: unknown card {name!r}")
    return KIND[name]


def _seat(value: Any, n: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise _fail(f"{where}: {value!r} is not a seat of {n}")
    return int(value)


def _count(value: Any, where: str, high: int = 99) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise _fail(f"{where}: {value!r} is not a count")
    return int(value)


def _seats(value: Any, n: int, where: str) -> list[int]:
    if not isinstance(value, list):
        raise _fail(f"{where}: a list of seats")
    return [_seat(v, n, where) for v in value]


def load_state(data: Any) -> SocCardState:
    """Build the position ``data`` describes."""
    with fixture_errors():
        return _load(data)


def _load(data: Any) -> SocCardState:
    data = fixture_fields(data, _KEYS)
    options = fixture_options(data)
    players = data.get("players", 3)
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _fail("seed: a whole number")
    game = SocCardGame({"players": players, "seed": seed, **options})
    state = game.new_initial_state()
    n = state.n
    state.agenda = []
    state.deck = list(game.rumor_counts)
    state.aside = [0] * NUM_KINDS
    state.loyalty = [-1] * n
    state.loyal_pool = [0, 0]
    state.loyal_aside = [0, 0]

    def take(kind: int, where: str) -> None:
        if state.deck[kind] <= 0:
            raise _fail(f"{where}: more copies of {KIND_NAMES[kind]} than the game has")
        state.deck[kind] -= 1

    # Loyalty (SCG-SETUP-1): the cards not dealt lie aside.
    loyalty = data.get("loyalty")
    if n > 1:
        if loyalty is None:
            loyalty = ["loyal"] * n
        if not isinstance(loyalty, list) or len(loyalty) != n or not all(
            v in LOYALTY_KEYS for v in loyalty
        ):
            raise _fail(f"loyalty: a list of {n} of {list(LOYALTY_KEYS)}")
        left = list(game.loyalty_deck)
        for s, name in enumerate(loyalty):
            value = LOYALTY_KEYS.index(name)
            left[value] -= 1
            state.loyalty[s] = value
        if min(left) < 0:
            raise _fail(f"loyalty: the game has {game.loyalty_deck} (loyal, traitor) cards")
        state.loyal_aside = left
    elif loyalty is not None:
        raise _fail("loyalty: a solo game has no loyalty cards (SCG-SOLO-1)")
    # A card face up: shown when its holder was accused (``revealed``), or shown at an end
    # by a player nobody accused (``shown``); an accused player's card hidden again by
    # Vivien (``verified``) shows no card at an end (SCG-END-2, SCG-RULING-11).
    for key, value, by_accusation in (("revealed", 1, 1), ("shown", 1, 0), ("verified", 2, 1)):
        for s in _seats(data.get(key, []), n, key):
            if state.revealed[s]:
                raise _fail(f"{key}: seat {s} is listed in revealed, shown or verified too")
            state.revealed[s] = value
            state.was_accused[s] = by_accusation
    for s in _seats(data.get("accused", []), n, "accused"):
        state.accused[s] = 1
    swords = data.get("swords", {})
    if not isinstance(swords, dict) or not set(swords) <= {"white", "black"}:
        raise _fail("swords: {white: n, black: n}")
    state.white = _count(swords.get("white", 0), "swords.white", 30)
    state.black = _count(swords.get("black", 0), "swords.black", 30)

    # The threat pile, bottom to top; {card, face_down: announced card, by: seat} for
    # Morgan #1.
    pile = data.get("pile", [])
    if not isinstance(pile, list):
        raise _fail("pile: a list of cards, bottom first")
    for entry in pile:
        if isinstance(entry, dict):
            if not set(entry) <= {"card", "face_down", "by"} or "card" not in entry:
                raise _fail("pile: a face-down card is {card, face_down: card, by: seat}")
            kind = _card(entry["card"], "pile")
            named = entry.get("face_down")
            told = KIND.get(named, -1) if isinstance(named, str) else -1
            if told < 0 or not IS_QUEST[told] or not IS_QUEST[kind]:
                raise _fail("pile: only quest cards lie face down, under an announced card")
            down, by = told, _seat(entry.get("by", 0), n, "pile.by")
        else:
            kind, down, by = _card(entry, "pile"), -1, 0
        take(kind, "pile")
        state.pile.append(kind)
        state.pile_down.append(down)
        state.pile_by.append(by)
    aside = data.get("morgans_aside", [])
    if not isinstance(aside, list):
        raise _fail("morgans_aside: a list of Morgan cards")
    for name in aside:
        kind = _card(name, "morgans_aside")
        if not IS_MORGAN[kind]:
            raise _fail(f"morgans_aside: {name} is no Morgan")
        take(kind, "morgans_aside")
        state.aside[kind] += 1
    deck = data.get("deck")
    if deck is not None:  # keep only these in the deck; the rest lie in the discard pile
        if not isinstance(deck, dict):
            raise _fail("deck: a mapping {card: count}")
        keep = [0] * NUM_KINDS
        for name, count in deck.items():
            kind = _card(name, "deck")
            keep[kind] = _count(count, f"deck.{name}")
            if keep[kind] > state.deck[kind]:
                raise _fail(f"deck: more copies of {name} than are left")
        state.discard = [state.deck[k] - keep[k] for k in range(NUM_KINDS)]
        state.deck = keep
    state.deck_size = sum(state.deck)
    state.discard_size = sum(state.discard)

    in_force = data.get("in_force", {})
    if not isinstance(in_force, dict) or not set(in_force) <= {"silence", "morgan-1",
                                                                "morgan-2"}:
        raise _fail("in_force: {silence, morgan-1, morgan-2: true/false}")
    if not all(isinstance(v, bool) for v in in_force.values()):
        raise _fail("in_force: true or false")
    state.silence = int(in_force.get("silence", False))
    state.morgan_1 = int(in_force.get("morgan-1", False))
    state.morgan_2 = int(in_force.get("morgan-2", False))
    token = data.get("merlin_4")
    if token is not None:
        if not isinstance(token, dict) or token.get("quest") not in QUESTS:
            raise _fail("merlin_4: {quest: <quest>, by: seat}")
        state.merlin_4_quest = QUESTS.index(token["quest"])
        state.merlin_4_by = _seat(token.get("by", 0), n, "merlin_4.by")

    knights = data.get("knights", {})
    if knights and not state.expert:
        raise _fail("knights: Knight cards need the knights_relief option (SCG-EXPERT-1)")
    if not isinstance(knights, dict):
        raise _fail("knights: {seat: {knight: count}}")
    for seat_key, hand in knights.items():
        seat = _seat(int(seat_key) if isinstance(seat_key, str) and seat_key.isdigit()
                     else seat_key, n, "knights")
        if not isinstance(hand, dict) or not set(hand) <= set(KNIGHT_KEYS):
            raise _fail(f"knights.{seat}: {{knight: count}} of {list(KNIGHT_KEYS)}")
        for name, count in hand.items():
            knight = KNIGHT_KEYS.index(name)
            state.knights[seat * E.NUM_KNIGHTS + knight] += _count(count, f"knights.{name}")
            state.knight_deck[knight] -= state.knights[seat * E.NUM_KNIGHTS + knight]
    if "knight_deck" in data:
        wanted = data["knight_deck"]
        if not isinstance(wanted, dict) or not set(wanted) <= set(KNIGHT_KEYS):
            raise _fail("knight_deck: {knight: count}")
        for knight, name in enumerate(KNIGHT_KEYS):
            kept = _count(wanted.get(name, 0), f"knight_deck.{name}")
            if kept > state.knight_deck[knight]:
                raise _fail(f"knight_deck: more {name} cards than are left")
            state.knights_played[knight] += state.knight_deck[knight] - kept
            state.knight_deck[knight] = kept
    if min(state.knight_deck) < 0:
        raise _fail("knights: more Knight cards than the game has")

    turn = _seat(data.get("turn", 0), n, "turn")
    state.turn = turn
    state.agenda = [T.task(T.BEGIN_TURN, turn)]
    try:
        E.run(state)
        state.invalidate_cache()
        state.check_invariants()
        check_playable(state)
    except CorruptStateError as error:
        raise _fail(error.message) from None
    return state


KIND_NAMES: Final = {index: name for name, index in KIND.items()}
