"""Perfect recall of the black discard pile in ``SocState.resample_hidden`` (SOC-RULING-65).

Every black card read out when drawn is known to lie in the discard pile; only the cards
discarded unseen (a face-down card removed by Merlin, a combat card cancelled or spent
before it was placed) are hidden, and only those are redealt.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pendragon.core.errors import CorruptStateError
from pendragon.games.soc.rules.cards import BLACK, BLACK_BY_KEY, NUM_BLACK, Location
from pendragon.games.soc.rules.data import FACE_DOWN_BASE, KNOWN_BASE
from pendragon.games.soc.rules.fixtures import load_state
from pendragon.games.soc.rules.state import SocState
from tests.positions import soc_position

BK5 = BLACK_BY_KEY["black-knight-5"]
PICTS = BLACK_BY_KEY["picts"]


def _position(seed: int, decisions: int) -> SocState:
    """A 5-player position without a traitor, at a real choice (see ``soc_position``)."""
    state = soc_position(seed, decisions, no_traitor=True)
    assert isinstance(state, SocState)
    return state


def _seen(state: SocState) -> list[int]:
    return [d - u for d, u in zip(state.black_discard, state.black_discard_unseen, strict=True)]


def _merlin_state(**extra: Any) -> SocState:
    """Seat 0 reads out a Picts card, then Merlin removes seat 1's face-down Black Knight 5."""
    state = load_state({
        "players": 3,
        "knights": [{"hand": {"merlin": 1}}, {}, {}],
        "quests": {"black-knight": {"black": [{"card": "black-knight-5", "face_down_by": 1}]}},
        "black_top": ["picts"],
        **extra,
    })
    state.apply_text("draw-black")
    state.apply_text("special:merlin")
    state.apply_text("target:black-knight")
    return state


@pytest.mark.parametrize(("seed", "decisions"), [(1, 100), (4, 250)])
def test_seen_black_discards_stay_in_place(seed: int, decisions: int) -> None:
    """SOC-RULING-65: the seen part of the black discard pile is never redealt.

    Every other hidden black card still is: the deck's composition varies between
    determinisations, but only in the combat cards that can trade places with face-down
    cards or unseen discards; the other kinds in the deck are known exactly.
    """
    state = _position(seed, decisions)
    seat = state.current_player()
    bit = 1 << seat
    assert sum(_seen(state)) >= 3
    # Black cards whose kind the seat cannot see: face down by others, unseen discards.
    placers = [code // FACE_DOWN_BASE - 1 for code in state.bk_black + state.ld_black]
    hidden = [p for p in placers if p not in (-1, seat)]
    assert hidden or any(state.black_discard_unseen)
    # ...and nothing else (no unknown deck positions, held cards or cards in flight).
    assert all(code // KNOWN_BASE & bit for code in state.black_top + state.black_bottom)
    assert state.held_seat in (-1, seat) and not state.limbo
    fixed = [k for k in range(NUM_BLACK) if not BLACK[k].combat_value]
    view = state.observation(seat)
    decks = set()
    for k in range(12):
        world = state.resample_hidden(seat, random.Random(k))
        world.check_invariants()  # every black card still counted exactly once
        assert world.observation(seat) == view
        assert _seen(world) == _seen(state)
        assert sum(world.black_discard_unseen) == sum(state.black_discard_unseen)
        assert sum(world.black_deck) == sum(state.black_deck)
        assert [world.black_deck[k] for k in fixed] == [state.black_deck[k] for k in fixed]
        decks.add(tuple(world.black_deck))
    assert len(decks) > 1, "the hidden combat cards should trade places with the deck"


def test_a_face_down_card_removed_by_merlin_is_redealt() -> None:
    """SOC-RULING-65, SOC-RULING-18: the unseen card is redealt, the read-out one stays."""
    state = _merlin_state()
    assert state.black_discard[PICTS] == 1 and state.black_discard[BK5] == 1
    assert state.black_discard_unseen == [int(k == BK5) for k in range(NUM_BLACK)]
    for seat in (0, 2):
        kinds = set()
        for k in range(20):
            world = state.resample_hidden(seat, random.Random(k))
            world.check_invariants()
            assert world.observation(seat) == state.observation(seat)
            assert _seen(world) == _seen(state)  # the Picts card, and nothing else
            (kind,) = [k for k in range(NUM_BLACK) for _ in range(world.black_discard_unseen[k])]
            assert BLACK[kind].quest == Location.BLACK_KNIGHT  # its quest is public
            kinds.add(kind)
        assert len(kinds) > 1, "the unseen card should differ between determinisations"
    # Resampling a determinisation gives the same worlds: they depend on what seat 0 knows.
    world = state.resample_hidden(0, random.Random(1))
    assert (world.resample_hidden(0, random.Random(5)).serialize()
            == state.resample_hidden(0, random.Random(5)).serialize())


@pytest.mark.parametrize(
    ("fixture", "steps", "unseen"),
    [
        # Merlin removes a face-up card: everyone saw it.
        ({"knights": [{"hand": {"merlin": 1}}, {}, {}],
          "quests": {"black-knight": {"black": ["black-knight-3"]}},
          "turn": {"seat": 0, "phase": "heroic"}},
         ["special:merlin", "target:black-knight"], []),
        # Excalibur cancels a combat card before it is placed: only its drawer saw it.
        ({"relics": {"excalibur": 1}, "quests": {"excalibur": {"over": True}},
          "black_top": ["black-knight-3"]},
         ["draw-black", "sacrifice-excalibur"], ["black-knight-3"]),
        # ...or a card read out at once.
        ({"relics": {"excalibur": 1}, "quests": {"excalibur": {"over": True}},
          "black_top": ["picts"]},
         ["draw-black", "sacrifice-excalibur"], []),
        # A combat card for a quest that is over is discarded unplaced (SOC-BLACK-3); it can
        # never be laid face down, so it was read out (003) like any card.
        ({"quests": {"lancelot": {"side": "over"}}, "black_top": ["lancelot-3"]},
         ["draw-black"], []),
        # A combat quest's black cards are revealed before they are discarded (SOC-RULING-34).
        ({"knights": [{"location": "black-knight", "hand": {"fight-1": 1}}, {}, {}],
          "quests": {"black-knight": {"black": [
              "black-knight-1", {"card": "black-knight-3", "face_down_by": 1},
              {"card": "black-knight-5", "face_down_by": 2}]}},
          "black_top": ["black-knight-7"]},
         ["draw-black", "face-up"], []),
    ],
)
def test_which_discards_go_unseen(
    fixture: dict[str, Any], steps: list[str], unseen: list[str]
) -> None:
    """SOC-RULING-65: only cards no one but their drawer or placer saw count as unseen."""
    state = load_state({"players": 3, **fixture})
    for text in steps:
        state.apply_text(text)
    assert sum(state.black_discard) > 0
    expected = [0] * NUM_BLACK
    for key in unseen:
        expected[BLACK_BY_KEY[key]] += 1
    assert state.black_discard_unseen == expected
    state.check_invariants()


def test_unseen_discards_survive_serialization() -> None:
    """SOC-RULING-65: the unseen count is stored; old saves without it read as all seen."""
    state = _merlin_state()
    game = state.game
    text = state.serialize()
    copy = game.deserialize_state(text)
    assert isinstance(copy, SocState)
    assert copy.black_discard_unseen == state.black_discard_unseen
    assert copy.serialize() == text
    assert state.clone().black_discard_unseen == state.black_discard_unseen

    payload = json.loads(text)
    del payload["black_discard_unseen"]
    old = game.deserialize_state(json.dumps(payload))
    assert isinstance(old, SocState)
    assert old.black_discard_unseen == [0] * NUM_BLACK
    assert old.black_discard == state.black_discard

    def corrupt(value: object) -> None:
        payload["black_discard_unseen"] = value
        with pytest.raises(CorruptStateError):
            game.deserialize_state(json.dumps(payload))

    corrupt([0] * (NUM_BLACK - 1))  # wrong length
    corrupt([-1 if k == BK5 else 0 for k in range(NUM_BLACK)])  # negative
    corrupt([2 if k == BK5 else 0 for k in range(NUM_BLACK)])  # more than the pile holds
    corrupt([1 if k == PICTS else 0 for k in range(NUM_BLACK)])  # read out when drawn
    corrupt([True] + [0] * (NUM_BLACK - 1))  # not a number
    corrupt(None)


def test_reshuffle_forgets_unseen_discards() -> None:
    """SOC-RULING-65, SOC-BLACK-5: the discards go back into the deck, unseen ones too."""
    state = _merlin_state(white_deck={"grail": 1},
                          turn={"seat": 0, "phase": "evil", "actions_left": 2})
    assert state.black_discard_unseen[BK5] == 1
    state.apply_text("draw-white")
    state.apply_text("white-card:grail")  # the last white card: both decks refill
    assert sum(state.black_discard) == 0
    assert state.black_discard_unseen == [0] * NUM_BLACK
    state.check_invariants()
