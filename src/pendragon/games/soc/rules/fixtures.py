"""Build a Shadows over Camelot position from a declarative description (a fixture).

The format is documented in ``docs/testing.md``. Only what a scenario cares about is
written; everything else takes a neutral default (life 4, at Camelot, empty hands, empty
boards, and no coat of arms, so that no knight's power interferes unless the scenario names
it), and every card not placed anywhere goes into its deck, so cards always add up.

>>> state = load_state({
...     "players": 3,
...     "knights": [{"knight": "kay", "hand": {"fight-5": 2}}, {}, {}],
...     "turn": {"seat": 0, "phase": "heroic"},
... })
>>> state.observation(0)["you"]["hand"]
{'fight-5': 2}
>>> state.current_player(), state.observation(None)["waiting"]["decision"]
(0, 'heroic')
>>> load_state({"players": 3, "knights": [{"hand": {"fight-9": 1}}, {}, {}]})
Traceback (most recent call last):
...
pendragon.core.errors.BadFixtureError: knights[0].hand: unknown white card 'fight-9'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from pendragon.core.errors import BadFixtureError
from pendragon.core.storage import fixture_errors, fixture_options
from pendragon.core.tuples import replaced
from pendragon.games.soc.rules.cards import (
    BLACK_BY_KEY,
    COMBAT_BLACK_KINDS,
    KNIGHT_BY_KEY,
    LOCATION_KEYS,
    NUM_BLACK,
    NUM_WHITE,
    OFF_BOARD,
    WHITE_BY_KEY,
)
from pendragon.games.soc.rules.data import (
    FACE_DOWN_BASE,
    GONE,
    KNOWN_BASE,
    ON_QUEST,
    WITCH_BITS,
    Heroic,
    Loyalty,
    Status,
    T,
)
from pendragon.games.soc.rules.game import SocGame
from pendragon.games.soc.rules.state import SocState

_TOP_KEYS: Final = {
    "players", "seed", "options", "knights", "turn", "round_table", "siege_engines",
    "siege_reached_six", "quests", "relics", "effects", "black_top", "white_deck", "black_deck",
    "first_seat",
}
_KNIGHT_KEYS: Final = {
    "knight", "life", "location", "loyalty", "hand", "status", "accusation_used", "captured",
}
_STATUS: Final = {"in-play": Status.IN_PLAY, "dead": Status.DEAD, "unmasked": Status.UNMASKED}
_RELICS: Final = {"excalibur": "excalibur_owner", "grail": "grail_owner", "armor": "armor_owner"}


def _fail(where: str, message: str) -> BadFixtureError:
    return BadFixtureError(f"{where}: {message}")


def _check_keys(data: Any, allowed: set[str], where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(where, f"expected a mapping, got {type(data).__name__}")
    unknown = set(data) - allowed
    if unknown:
        raise _fail(where, f"unknown field(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
    return data


def _white(key: Any, where: str) -> int:
    if key not in WHITE_BY_KEY:
        raise _fail(where, f"unknown white card {key!r}")
    return WHITE_BY_KEY[key]


def _black(key: Any, where: str) -> int:
    if key not in BLACK_BY_KEY:
        raise _fail(where, f"unknown black card {key!r}")
    return BLACK_BY_KEY[key]


def _location(key: Any, where: str) -> int:
    if key not in LOCATION_KEYS:
        raise _fail(where, f"unknown location {key!r}; one of {list(LOCATION_KEYS)}")
    return LOCATION_KEYS.index(key)


def _count(value: Any, where: str, low: int = 0, high: int = 1000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, f"expected a whole number from {low} to {high}, got {value!r}")
    number: int = value
    return number


def _split_deck(
    cards: Sequence[int], wanted: Any, field: str, kind_of: Callable[[Any, str], int]
) -> tuple[list[int], list[int]]:
    """(deck, discard pile): of the unplaced ``cards`` (counts by kind), the ones ``wanted``
    names (``{card: count}``) stay in the deck and the rest go to the discard pile."""
    if not isinstance(wanted, dict):
        raise _fail(field, "expected a mapping of card to count")
    rest = list(cards)
    deck = [0] * len(rest)
    for key, wanted_count in wanted.items():
        kind = kind_of(key, field)
        count = _count(wanted_count, f"{field}.{key}")
        if count > rest[kind]:
            raise _fail(field, f"not enough {key!r} cards left for the deck")
        deck[kind] = count
        rest[kind] -= count
    return deck, rest


def load_state(data: Any) -> SocState:
    """A state at the start of a knight's Evil or Heroic phase, as ``data`` describes.

    Raises :class:`BadFixtureError` naming the offending field for any bad description.
    """
    data = _check_keys(data, _TOP_KEYS, "fixture")
    players = _count(data.get("players", 3), "players", 1, 99)
    options = fixture_options(data)
    with fixture_errors("options: "):
        game = SocGame({"players": players, "seed": data.get("seed", 0), **options})
    state = SocState(game)
    state._init_data(players, [0] * NUM_WHITE, [0] * NUM_BLACK)
    white_used = [0] * NUM_WHITE
    black_used = [0] * NUM_BLACK

    knights = data.get("knights", [{} for _ in range(players)])
    if not isinstance(knights, list) or len(knights) != players:
        raise _fail("knights", f"expected a list of {players} entries (one per seat)")
    for seat, entry in enumerate(knights):
        where = f"knights[{seat}]"
        entry = _check_keys(entry or {}, _KNIGHT_KEYS, where)
        if "knight" in entry:
            if entry["knight"] not in KNIGHT_BY_KEY:
                raise _fail(where, f"unknown knight {entry['knight']!r}")
            state.knight[seat] = KNIGHT_BY_KEY[entry["knight"]]
        state.life[seat] = _count(entry.get("life", 4), f"{where}.life", 0, 6)
        state.loc = replaced(
            state.loc, seat, _location(entry.get("location", "camelot"), f"{where}.location")
        )
        loyalty = entry.get("loyalty", "loyal")
        if loyalty not in ("loyal", "traitor"):
            raise _fail(f"{where}.loyalty", f"expected 'loyal' or 'traitor', got {loyalty!r}")
        state.loyalty[seat] = Loyalty.TRAITOR if loyalty == "traitor" else Loyalty.LOYAL
        status = entry.get("status", "in-play")
        if status not in _STATUS:
            raise _fail(f"{where}.status", f"one of {list(_STATUS)}, got {status!r}")
        state.status = replaced(state.status, seat, _STATUS[status])
        if state.status[seat] != Status.IN_PLAY:
            state.loc = replaced(state.loc, seat, OFF_BOARD)
            state.life[seat] = 0
        state.accused = replaced(state.accused, seat, bool(entry.get("accusation_used", False)))
        state.captured = replaced(state.captured, seat, bool(entry.get("captured", False)))
        hand = entry.get("hand", {})
        if not isinstance(hand, dict):
            raise _fail(f"{where}.hand", "expected a mapping of card to count")
        for key, count in hand.items():
            kind = _white(key, f"{where}.hand")
            state.own_hand(seat)[kind] = _count(count, f"{where}.hand.{key}")
            white_used[kind] += state.hands[seat][kind]

    swords = _check_keys(data.get("round_table", {}), {"white", "black"}, "round_table")
    state.white_swords = _count(swords.get("white", 0), "round_table.white", 0, 16)
    state.black_swords = _count(swords.get("black", 0), "round_table.black", 0, 16)
    state.siege = _count(data.get("siege_engines", 0), "siege_engines", 0, 11)
    # SOC-ACCUSE-1: whether six engines stood at some moment (by default: if they stand now).
    reached = data.get("siege_reached_six", state.siege >= 6)
    if not isinstance(reached, bool) or (state.siege >= 6 and not reached):
        raise _fail("siege_reached_six", "must be true or false (true from 6 engines)")
    state.siege_reached_six = reached

    _load_quests(state, data.get("quests", {}), white_used, black_used)
    _load_relics(state, data.get("relics", {}))
    effects = _check_keys(
        data.get("effects", {}),
        {"vivien", "mist", "dark_forest", "mordred", "heroism", "heroism_by", "merlin",
         "witches", "divine_favor"},
        "effects",
    )
    if effects.get("merlin") is not None:
        state.merlin_loc = _location(effects["merlin"], "effects.merlin")
    if effects.get("divine_favor"):
        state.divine_favor = True
        white_used[WHITE_BY_KEY["divine-favor"]] += 1
    for number in effects.get("witches", []):
        bits = dict(WITCH_BITS)
        if number not in bits:
            raise _fail("effects.witches", f"only witches {sorted(bits)} stay on the table")
        state.witches |= bits[number]
        black_used[BLACK_BY_KEY[f"witch-{number}"]] += 1
    for flag, key in (("vivien", "vivien"), ("mist", "mist-of-avalon"),
                      ("dark_forest", "dark-forest")):
        if effects.get(flag):
            setattr(state, flag, True)
            black_used[BLACK_BY_KEY[key]] += 1
    if effects.get("mordred") is not None:
        war = effects["mordred"]
        if war not in ("picts", "saxons"):
            raise _fail("effects.mordred", f"'picts' or 'saxons', got {war!r}")
        state.mordred = ("picts", "saxons").index(war)
        black_used[BLACK_BY_KEY["mordred"]] += 1
    if effects.get("heroism") is not None:
        state.heroism = _location(effects["heroism"], "effects.heroism")
        white_used[WHITE_BY_KEY["heroism"]] += 1
        # SOC-RULING-72: on a solo quest, the seat whose leaving discards it (by default
        # the knight there); elsewhere nobody's.
        state.heroism_bound = state.solo_knight(state.heroism)
    if effects.get("heroism_by") is not None:
        by = effects["heroism_by"]
        if not state.is_solo(state.heroism):
            raise _fail("effects.heroism_by", "only for Heroism lying on a solo quest "
                        "(black-knight; lancelot before the Dragon)")
        if not isinstance(by, int) or isinstance(by, bool) or not 0 <= by < state.n:
            raise _fail("effects.heroism_by", f"a seat from 0 to {state.n - 1}, got {by!r}")
        state.heroism_bound = by
    elif state.heroism_bound < 0 and state.is_solo(state.heroism):
        raise _fail("effects.heroism_by", "nobody is on that solo quest: say whose leaving "
                    "would discard Heroism (its layer)")

    top = data.get("black_top", [])
    if not isinstance(top, list):
        raise _fail("black_top", "expected a list of black cards, the next to be drawn first")
    for key in reversed(top):
        kind = _black(key, "black_top")
        state.black_top += (kind + KNOWN_BASE * 0,)
        black_used[kind] += 1

    for kind in range(NUM_WHITE):
        left = game.white_total[kind] - white_used[kind]
        if left < 0:
            raise _fail("fixture", f"uses {white_used[kind]} white {kind!r} cards; only "
                        f"{game.white_total[kind]} exist")
        state.white_deck[kind] = left
    if "white_deck" in data:  # keep only the named cards in the deck, the rest discarded
        deck, rest = _split_deck(state.white_deck, data["white_deck"], "white_deck", _white)
        state.white_deck, state.white_discard = deck, rest
    for kind in range(NUM_BLACK):
        left = game.black_total[kind] - black_used[kind]
        if left < 0:
            raise _fail("fixture", f"uses too many black {kind!r} cards")
        state.black_deck = replaced(state.black_deck, kind, left)
    if "black_deck" in data:  # keep only the named cards (and black_top) in the deck
        deck, rest = _split_deck(state.black_deck, data["black_deck"], "black_deck", _black)
        state.black_deck = tuple(deck)
        state.black_discard = tuple(rest)  # the rest lie in the discard pile, read when drawn

    _load_turn(state, data.get("turn", {"seat": 0, "phase": "evil"}), data.get("first_seat", 0))
    with fixture_errors("fixture: "):
        state.check_invariants()
    state._run()
    return state


def _load_quests(
    state: SocState, quests: Any, white_used: list[int], black_used: list[int]
) -> None:
    quests = _check_keys(
        quests, {"black-knight", "lancelot", "excalibur", "grail", "picts", "saxons"}, "quests"
    )

    def whites(entry: dict[str, Any], where: str) -> tuple[int, ...]:
        cards = [_white(k, where) for k in entry.get("white", [])]
        for kind in cards:
            white_used[kind] += 1
        return tuple(cards)

    def blacks(entry: dict[str, Any], where: str) -> tuple[int, ...]:
        codes = []
        for item in entry.get("black", []):
            if isinstance(item, dict):
                _check_keys(item, {"card", "face_down_by"}, where)
                kind = _black(item.get("card"), where)
                placer = _count(item.get("face_down_by", -1), where, -1, state.n - 1)
                if placer >= 0 and kind not in COMBAT_BLACK_KINDS:
                    raise _fail(where, "only combat cards can lie face down")
                codes.append(kind + FACE_DOWN_BASE * (placer + 1))
            else:
                kind = _black(item, where)
                codes.append(kind)
            black_used[kind] += 1
        return tuple(codes)

    for name, white_attr, black_attr in (
        ("black-knight", "bk_white", "bk_black"),
        ("lancelot", "ld_white", "ld_black"),
    ):
        entry = _check_keys(quests.get(name, {}), {"white", "black", "side"}, f"quests.{name}")
        setattr(state, white_attr, whites(entry, f"quests.{name}.white"))
        setattr(state, black_attr, blacks(entry, f"quests.{name}.black"))
        if name == "lancelot":
            side = entry.get("side", "lancelot")
            if side not in ("lancelot", "dragon", "over"):
                raise _fail("quests.lancelot.side", f"lancelot/dragon/over, got {side!r}")
            state.ld_phase = ("lancelot", "dragon", "over").index(side)
    excal = _check_keys(quests.get("excalibur", {}), {"position", "over"}, "quests.excalibur")
    state.excal_pos = _count(excal.get("position", 0), "quests.excalibur.position", -4, 4)
    state.excal_over = bool(excal.get("over", False))
    grail = _check_keys(
        quests.get("grail", {}), {"grail_cards", "black", "over"}, "quests.grail"
    )
    state.grail_white = _count(grail.get("grail_cards", 0), "quests.grail.grail_cards", 0, 6)
    white_used[WHITE_BY_KEY["grail"]] += state.grail_white
    state.grail_black = tuple([c % FACE_DOWN_BASE for c in blacks(grail, "quests.grail.black")])
    state.grail_over = bool(grail.get("over", False))
    for war, name in enumerate(("picts", "saxons")):
        entry = _check_keys(quests.get(name, {}), {"white", "figures"}, f"quests.{name}")
        state.war_white = replaced(state.war_white, war, whites(entry, f"quests.{name}.white"))
        state.war_figures = replaced(
            state.war_figures, war, _count(entry.get("figures", 0), f"quests.{name}.figures", 0, 3)
        )


def _load_relics(state: SocState, relics: Any) -> None:
    relics = _check_keys(relics, set(_RELICS), "relics")
    for name, attr in _RELICS.items():
        value = relics.get(name, "on-quest")
        if value == "on-quest":
            owner = ON_QUEST
        elif value == "lost":
            owner = GONE
        else:
            owner = _count(value, f"relics.{name}", 0, state.n - 1)
        setattr(state, attr, owner)
    if state.armor_owner == ON_QUEST and state.ld_phase > 0:
        state.armor_owner = GONE
    if state.excalibur_owner == ON_QUEST and state.excal_over:
        state.excalibur_owner = GONE
    if state.grail_owner == ON_QUEST and state.grail_over:
        state.grail_owner = GONE


def _load_turn(state: SocState, turn: Any, first_seat: Any) -> None:
    turn = _check_keys(turn, {"seat", "phase", "actions_left", "used", "number"}, "turn")
    seat = _count(turn.get("seat", 0), "turn.seat", 0, state.n - 1)
    phase = turn.get("phase", "evil")
    if phase not in ("evil", "heroic"):
        raise _fail("turn.phase", f"'evil' or 'heroic', got {phase!r}")
    state.first_seat = _count(first_seat, "first_seat", 0, state.n - 1)
    state.turn_seat = seat
    state.turns = _count(turn.get("number", 1), "turn.number", 1, 10**6) - 1
    state.actions_left = _count(turn.get("actions_left", 1), "turn.actions_left", 0, 2)
    names = {name: bit for bit, name in Heroic.NAMES}
    for name in turn.get("used", []):
        if name not in names:
            raise _fail("turn.used", f"unknown heroic action type {name!r}")
        state.used_types |= names[name]
    state.agenda = [(T.END_TURN, seat, 0, 0)]
    if state.status[seat] == Status.UNMASKED:
        state.agenda += [(T.D_TRAITOR_EVIL, seat, 0, 0), (T.D_TRAITOR_TARGET, seat, 0, 0)]
    elif not state.captured[seat]:  # a captured knight's turn is skipped (MC-TRAVEL-CAPTURED)
        state.agenda.append((T.D_HEROIC, seat, 0, 0))
        if phase == "evil":
            state.agenda.append((T.D_EVIL, seat, 0, 0))

