"""What each seat may see: observations, the tensor, narration and action words.

The only way hidden information leaves the rules. An observation shows what the physical
game shows (SCG-RULING-8): the top card of the threat pile, how many cards lie there, the
swords, the counts of the decks, who has accused, the loyalty cards that were revealed, and
what the seat itself holds or saw and still lies where it saw it. It never keeps count for a
player: no quest totals, no list of the cards under the top one.

Observation layout (``observation(seat)``)::

    game, players, solo, expert, seat, turn, to_act, decision,
    swords {white, black}, silence, in_force {morgan-1, morgan-2}, merlin_4_token,
    pile {count, top}      top: null | {card} | {face_down, announced, announced_card, by}
    deck, discard, morgans_aside, knight_deck, knights_played {knight: n},
    seats [{accused, loyalty (when revealed), verified (his card lies face up, or he was
           accused and Vivien has hidden it again: no card shown at an end), offered (holds
           Vivien's card while he decides), knights (face-down count)}],
    hand {seat, count},    a pending hand of drawn cards (unmasked traitor, Gawain)
    accusation {by, target}    an accusation whose card is not shown yet (Percival asked)
    resolving {quest, cards, aside, token}   the pile being resolved, sorted, while Knight
                           cards may act: what is left of it, what the Merlins set aside
                           (themselves and the cards they took), the quest Merlin #4's
                           token showed as it acted (or null)
    last_resolution {quest, cards, token, bonus}   the pile just resolved, until the next
                           action (then it is on the discard pile: SCG-RULING-8)
    status, end_reason, (at the end) loyalties
    you {loyalty, knights {knight: n}, hand [cards], offer, merlin_4_token,
         deck_seen [cards], top_card, known_loyalties {seat: loyalty}}

``you`` holds only what the seat saw and still lies where it saw it: its loyalty card, its
Knight cards, the cards in its hand (Morgan #1's card while it is announced, an unmasked
traitor's two, Gawain's three), Vivien's offer, its own Merlin #4 token, the deck order it
saw with Tristan, its own face-down card on top of the pile, the loyalty cards it saw with
Galahad that have not been offered a swap since.

>>> import pendragon
>>> state = pendragon.load_game("soc-card", players=3, seed=4).new_initial_state()
>>> state.play_random_chance()
>>> view = state.observation(0)
>>> view["pile"], view["silence"], view["you"]["loyalty"] in ("loyal", "traitor")
({'count': 0, 'top': None}, False, True)
>>> len(state.observation_tensor(0)) == TENSOR_SIZE == len(TENSOR_NAMES)
True

Tensor layout (``observation_tensor(seat)``, every entry in [0, 1]): swords (2, /20),
silence and Morgan #1/#2 in force (3), Merlin #4 token (1), pile size, deck, discard (3,
/64), top card one-hot (43) + face-down flag (1) + announced quest (5) + announced value
(5: ?, 2, 3, 4, 5), own loyalty (2),
per seat (7 x 5: accused, revealed loyal, revealed traitor, knights/9, is-turn), self
one-hot (7), decision one-hot (15), own knights (5, /3), own hand (43, /3), own offer
(2), terminal and result (3): :data:`EVALUATION_SIZE` (175) entries, which the learned
evaluator reads (``evaluation_tensor``). Then one block, ``known`` (191, environment version
2), of what the seat alone knows that the blocks before leave out and its JSON ``you``
shows: its own Merlin #4 token's quest (``merlin_4_token.<quest>``, 5, one-hot), the
loyalty cards it saw with Galahad (``loyalty.<seat>.loyal|traitor``, 7 x 2, by seat as the
``seat`` block: ``known_loyalties``), and the deck order it saw with Tristan
(``deck_seen``): the top :data:`KNOWN_DEPTH` cards of the deck, each one-hot where the seat
saw it (``deck.top+<i>.<card>``, 3 x 43: a listen draws the first, Gawain the three), and
per kind how many of the cards it saw are in the deck (``deck.count.<card>``, 43, /4).

>>> game = pendragon.load_game("soc-card", players=3, seed=4)
>>> TENSOR_SIZE, EVALUATION_SIZE, game.evaluation_tensor_size()
(366, 175, 175)
>>> state.evaluation_tensor(0) == state.observation_tensor(0)[:EVALUATION_SIZE]
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from pendragon.core.api import CHANCE, TERMINAL
from pendragon.core.events import Event, Seat, Term
from pendragon.core.tensor_names import Block, block_names, blocks_size, one_hot, per_item
from pendragon.games.soc_card.rules import actions as A, engine as E, tasks as T
from pendragon.games.soc_card.rules.cards import (
    CARDS,
    KNIGHT_KEYS,
    LOYALTY_KEYS,
    NUM_KINDS,
    NUM_QUESTS,
    QUESTS,
)

if TYPE_CHECKING:
    from pendragon.games.soc_card.rules.state import SocCardState

_DECISIONS: Final = sorted(T.DECISION_NAMES)
_KINDS: Final = one_hot(card.key for card in CARDS)
#: The tensor's blocks in :func:`tensor`'s order with their elements' labels: the one
#: description its size and names come from (issue 40 item 3; seats are not rotated). These
#: first blocks are what the learned evaluator reads (:data:`EVALUATION_SIZE`).
EVALUATION_BLOCKS: Final[tuple[Block, ...]] = (
    ("swords", ("white", "black")),  # /20
    ("in_force", ("silence", "morgan-1", "morgan-2", "merlin-4-token")),
    ("piles", ("threat_pile", "deck", "discard")),  # /64
    ("top", _KINDS),  # the threat pile's top card, when the viewer may know it
    ("top_face_down", ("face_down",)),
    ("top_announced_quest", one_hot(QUESTS)),
    ("top_announced_value", ("?", "2", "3", "4", "5")),
    ("loyalty", one_hot(LOYALTY_KEYS)),  # the viewer's own
    ("seat", per_item(range(7), ("accused", "revealed_loyal", "revealed_traitor",
                                 "knights", "is_turn"))),
    ("viewer", one_hot(range(7))),
    ("decision", (*one_hot(T.DECISION_NAMES[code] for code in _DECISIONS), "chance")),
    ("own_knights", one_hot(KNIGHT_KEYS)),  # /3
    ("hand", _KINDS),  # /3
    ("offer", one_hot(LOYALTY_KEYS)),  # Vivien's offer to the viewer
    ("result", ("over", "loyal-win", "evil-win")),
)
#: The top cards of the deck the ``known`` block has a slot for, each where the seat saw it
#: with Tristan: a listen draws the first, Gawain the first three (SCG-EXPERT-6).
KNOWN_DEPTH: Final = 3
#: Most cards of one kind in the game (the four "?" of a quest): ``deck.count``'s scale.
_MOST_OF_A_KIND: Final = max(card.count for card in CARDS)
#: What the seat alone knows that the blocks above leave out, as its JSON ``you`` shows it
#: (audit s34 finding 4; environment version 2), the last block so that those above keep
#: their places (module docstring).
KNOWN_BLOCK: Final[Block] = ("known", (
    *(f"merlin_4_token.{quest}" for quest in QUESTS),
    *(f"loyalty.{label}" for label in per_item(range(A.MAX_SEATS), LOYALTY_KEYS)),
    *(f"deck.{label}" for label in per_item((f"top+{i}" for i in range(KNOWN_DEPTH)),
                                            _KINDS)),
    *(f"deck.count.{kind}" for kind in _KINDS),
))
TENSOR_BLOCKS: Final[tuple[Block, ...]] = (*EVALUATION_BLOCKS, KNOWN_BLOCK)
#: The ``known`` block's length, and where its deck part starts (after the token and looks).
_KNOWN_SIZE: Final = len(KNOWN_BLOCK[1])
_KNOWN_DECK: Final = NUM_QUESTS + 2 * A.MAX_SEATS
TENSOR_SIZE: Final = blocks_size(TENSOR_BLOCKS)
#: What the learned evaluator reads (``SocCardState.evaluation_tensor``): the tensor before
#: the ``known`` block, 175 entries. The shipped network (``evaluator.json``) was trained on
#: that layout and its fingerprint hashes it; the next ``pendragon train soc-card`` may read
#: it all (make this ``TENSOR_SIZE``, or drop the two overrides, before training).
EVALUATION_SIZE: Final = blocks_size(EVALUATION_BLOCKS)
#: The name of every tensor element, in order (``block.label``).
TENSOR_NAMES: Final = tuple(block_names(TENSOR_BLOCKS))
_STATUS: Final = {E.RUNNING: "playing", E.LOYAL_WIN: "loyal-win", E.EVIL_WIN: "evil-win"}
_END: Final = {E.END_NONE: None, E.END_SWORDS_REASON: "swords", E.END_MORGAN_7: "morgan-7"}


def decision_name(st: SocCardState) -> str:
    """The name of the decision on top, ``chance`` or ``over``."""
    player = st.current_player()
    if player == TERMINAL:
        return "over"
    if player == CHANCE:
        return "chance"
    return T.DECISION_NAMES[st.agenda[-1] & 0xFF]


def _top(st: SocCardState, seat: int | None) -> dict[str, Any] | None:
    if not st.pile:
        return None
    told = st.pile_down[-1]
    if told < 0:
        return {"card": CARDS[st.pile[-1]].key}
    return {"face_down": True, "announced": QUESTS[CARDS[told].quest],
            "announced_card": CARDS[told].key, "by": st.pile_by[-1]}


def observation(st: SocCardState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator)."""
    over = st.result != E.RUNNING
    seats = []
    for s in range(st.n):
        entry: dict[str, Any] = {
            "accused": bool(st.accused[s]),
            # Face up only: a card Vivien hid again is hidden, an unmasked traitor's too
            # whether he kept it or not, until his next turn shows it (SCG-RULING-9).
            "loyalty": LOYALTY_KEYS[st.loyalty[s]] if st.revealed[s] == 1 else None,
            "verified": st.revealed[s] != 0,
            # Vivien's card in his hand, face down, while he decides (SCG-VIVIEN-1): the
            # table saw it handed over.
            "offered": st.offer[s] >= 0,
        }
        if st.expert:
            entry["knights"] = E.knight_count(st, s)
        seats.append(entry)
    view: dict[str, Any] = {
        "game": "soc-card",
        "players": st.n,
        "solo": st.solo,
        "expert": st.expert,
        "seat": seat,
        "turn": st.turn,
        "to_act": st.current_player(),
        "decision": decision_name(st),
        "swords": {"white": st.white, "black": st.black},
        "silence": bool(st.silence),
        "in_force": {"morgan-1": bool(st.morgan_1), "morgan-2": bool(st.morgan_2)},
        "merlin_4_token": st.merlin_4_quest >= 0,
        "pile": {"count": len(st.pile), "top": _top(st, seat)},
        "deck": st.deck_size + len(st.known),
        "discard": st.discard_size + len(st.hidden_discard),
        "morgans_aside": sum(st.aside),
        "seats": seats,
        "hand": {"seat": st.hold_seat, "count": len(st.hold)} if st.hold else None,
        "accusation": _accusation(st),
        "declared": _declared(st),
        "resolving": _resolving(st),
        "last_resolution": _last(st),
        "status": _STATUS[st.result],
        "end_reason": _END[st.end_reason],
    }
    if st.expert:
        view["knight_deck"] = sum(st.knight_deck)
        view["knights_played"] = {k: st.knights_played[i] for i, k in enumerate(KNIGHT_KEYS)}
    if over and not st.solo:
        view["loyalties"] = [LOYALTY_KEYS[v] for v in st.loyalty]
    if seat is not None:
        view["you"] = _private(st, seat)
    return view


def _accusation(st: SocCardState) -> dict[str, int] | None:
    """An accusation made whose card is not shown yet: Percival is being asked (SCG-RULING-18)."""
    for entry in st.agenda:
        if entry & 0xFF == T.ACCUSE_SWORDS:
            return {"by": (entry >> 16) & 0xFF, "target": (entry >> 8) & 0xFF}
    return None


def _declared(st: SocCardState) -> dict[str, Any] | None:
    """A quest announced aloud and not yet laid out: Arthur is being asked whether to stop it
    (SCG-QUEST-2: «Gracz ogłasza swój wybór», SCG-EXPERT-5, SCG-RULING-18)."""
    for entry in st.agenda:
        if entry & 0xFF == T.RESOLVE:
            return {"by": (entry >> 16) & 0xFF, "quest": QUESTS[(entry >> 8) & 0xFF]}
    return None


def _resolving(st: SocCardState) -> dict[str, Any] | None:
    """The pile being resolved, laid out for all to see (before Gawain may add a card): its
    cards, the Merlins and the cards they set aside, and the token Merlin #4 had laid, shown
    as it acted (SCG-RULING-16), even where it found no card of its quest."""
    for entry in st.agenda:
        if entry & 0xFF == T.FINISH:
            quest = (entry >> 8) & 0xFF
            return {"quest": QUESTS[quest], "cards": [CARDS[k].key for k in sorted(st.pile)],
                    "aside": [CARDS[k].key for k in sorted(st.last_pile)],
                    "token": QUESTS[st.last_token] if st.last_token >= 0 else None}
    return None


def _last(st: SocCardState) -> dict[str, Any] | None:
    """The threat pile just resolved, as everyone saw it, in the position its resolution
    left and no later (SCG-RULING-8)."""
    if st.last_quest < 0:
        return None
    return {
        "quest": QUESTS[st.last_quest],
        "cards": [CARDS[k].key for k in st.last_pile],
        "token": QUESTS[st.last_token] if st.last_token >= 0 else None,
        "bonus": st.last_bonus,
    }


def _private(st: SocCardState, seat: int) -> dict[str, Any]:
    bit = 1 << seat
    hand: list[str] = []
    if st.hold and st.hold_seat == seat:
        hand = [CARDS[k].key for k in st.hold]
    if st.flight >= 0 and T.split(st.agenda[-1])[1] == seat:
        hand = [CARDS[st.flight].key]
    base = seat * E.NUM_KNIGHTS
    you: dict[str, Any] = {
        "loyalty": LOYALTY_KEYS[st.loyalty[seat]] if st.loyalty[seat] >= 0 else None,
        "hand": hand,
        "offer": LOYALTY_KEYS[st.offer[seat]] if st.offer[seat] >= 0 else None,
        "merlin_4_token": QUESTS[st.merlin_4_quest] if st.merlin_4_by == seat else None,
        "deck_seen": [CARDS[k].key for k, m in zip(st.known, st.known_seen, strict=True)
                      if m & bit],
        "top_card": (CARDS[st.pile[-1]].key if st.pile and st.pile_down[-1] >= 0
                     and st.pile_by[-1] == seat else None),
        "known_loyalties": {str(t): LOYALTY_KEYS[st.loyalty[t]] for t in range(st.n)
                            if st.peeks[seat] >> t & 1},
    }
    if st.expert:
        you["knights"] = {k: st.knights[base + i] for i, k in enumerate(KNIGHT_KEYS)
                          if st.knights[base + i]}
    return you


def tensor(st: SocCardState, seat: int) -> list[float]:
    """The fixed-length numeric view (layout in the module docstring): the evaluator's
    part, then the ``known`` block."""
    out = evaluation_tensor(st, seat)
    out += _known(st, seat)
    return out


def _known(st: SocCardState, seat: int) -> list[float]:
    """The ``known`` block (:data:`KNOWN_BLOCK`): what the JSON view's ``you`` shows of the
    Merlin #4 token, Galahad's looks and Tristan's order, from the same fields."""
    out = [0.0] * _KNOWN_SIZE
    if st.merlin_4_by == seat:
        out[st.merlin_4_quest] = 1.0
    peeks = st.peeks[seat]
    if peeks:
        for target in range(st.n):
            if peeks >> target & 1:
                out[NUM_QUESTS + 2 * target + st.loyalty[target]] = 1.0
    if st.known:
        bit = 1 << seat
        counts = [0] * NUM_KINDS
        for index, (kind, seen) in enumerate(zip(st.known, st.known_seen, strict=True)):
            if seen & bit:
                if index < KNOWN_DEPTH:
                    out[_KNOWN_DECK + index * NUM_KINDS + kind] = 1.0
                counts[kind] += 1
        at = _KNOWN_DECK + KNOWN_DEPTH * NUM_KINDS
        for kind, count in enumerate(counts):
            if count:
                out[at + kind] = count / _MOST_OF_A_KIND
    return out


def evaluation_tensor(st: SocCardState, seat: int) -> list[float]:
    """The tensor before the ``known`` block (:data:`EVALUATION_SIZE` entries), which the
    learned evaluator reads; it does not build the block (it runs at every search leaf)."""
    out: list[float] = [min(st.white, 20) / 20, min(st.black, 20) / 20,
                        float(st.silence), float(st.morgan_1), float(st.morgan_2),
                        float(st.merlin_4_quest >= 0),
                        min(len(st.pile), 64) / 64, (st.deck_size + len(st.known)) / 64,
                        (st.discard_size + len(st.hidden_discard)) / 64]
    top = [0.0] * (NUM_KINDS + 1 + NUM_QUESTS + 5)
    if st.pile:
        told = st.pile_down[-1]
        if told >= 0:
            top[NUM_KINDS] = 1.0
            top[NUM_KINDS + 1 + CARDS[told].quest] = 1.0
            value = CARDS[told].value
            top[NUM_KINDS + 1 + NUM_QUESTS + (value - 1 if value else 0)] = 1.0
            if st.pile_by[-1] == seat:
                top[st.pile[-1]] = 1.0
        else:
            top[st.pile[-1]] = 1.0
    out += top
    own = [0.0, 0.0]
    if st.loyalty[seat] >= 0:
        own[st.loyalty[seat]] = 1.0
    out += own
    for s in range(7):
        if s < st.n:
            revealed = st.revealed[s] == 1
            out += [float(st.accused[s]), float(revealed and st.loyalty[s] == 0),
                    float(revealed and st.loyalty[s] == 1), E.knight_count(st, s) / 9,
                    float(st.turn == s)]
        else:
            out += [0.0] * 5
    out += [float(s == seat) for s in range(7)]
    name = st.agenda[-1] & 0xFF if st.agenda and st.result == E.RUNNING else -1
    out += [float(name == code and st.current_player() == seat) for code in _DECISIONS]
    out.append(float(st.current_player() == CHANCE))
    base = seat * E.NUM_KNIGHTS
    out += [min(st.knights[base + i], 3) / 3 for i in range(E.NUM_KNIGHTS)]
    hand = [0.0] * NUM_KINDS
    mine = list(st.hold) if st.hold_seat == seat else []
    if st.flight >= 0 and T.split(st.agenda[-1])[1] == seat:
        mine.append(st.flight)
    for kind in mine:
        hand[kind] = min(hand[kind] + 1 / 3, 1.0)
    out += hand
    offer = [0.0, 0.0]
    if st.offer[seat] >= 0:
        offer[st.offer[seat]] = 1.0
    out += offer
    out += [float(st.result != E.RUNNING), float(st.result == E.LOYAL_WIN),
            float(st.result == E.EVIL_WIN)]
    return out


# ---------------------------------------------------------------------- words
def narrate(st: SocCardState, action: int, viewer: int | None) -> list[Event]:
    """Apply ``action`` to a copy and keep the events ``viewer`` may see."""
    if not st.is_legal(action):
        return [Event("soc-card.log.act", {"action": action_event(st, action)})]
    twin = st.clone()
    twin.log = []
    twin.apply_action(action)
    events: list[Event] = []
    for event, seats, others in twin.log:
        if seats == 0 or (viewer is not None and seats >> viewer & 1):
            events.append(event)
        elif others is not None:
            events.append(others)
    if not events:  # never name a chance outcome the viewer did not see
        if st.current_player() == CHANCE:
            events.append(Event("soc-card.log.unseen"))
        else:
            events.append(Event("soc-card.log.act", {"action": action_event(st, action)}))
    return events


def action_event(st: SocCardState, action: int) -> Event:
    """The words of ``action`` (a menu entry, or a chance outcome's name)."""
    text = A.CATALOG.text(action)
    name, _, arg = text.partition(":")
    params: dict[str, int | Seat | Term | Event] = {}
    if name in ("quest", "announce", "merlin-4", "merlin-6"):
        params["quest"] = Term(f"soc-card.quest.{arg}")
    elif name in ("accuse", "give", "galahad"):
        params["target"] = Seat(int(arg))
    elif name in ("count", "merlin-6-add"):
        params["number"] = int(arg)
    elif name in ("place", "gawain", "rumor", "morgan-aside", "morgan-in", "announce-card"):
        params["card"] = Term(f"soc-card.card.{arg}")
    elif name in ("deal-loyalty", "vivien-card"):
        params["loyalty"] = Term(f"soc-card.loyalty.{arg}")
    elif name in ("play", "knight"):
        params["knight"] = Term(f"soc-card.knight.{arg}")
    return Event(f"soc-card.action.{name}", params)


def decision_event(st: SocCardState) -> Event:
    """``soc-card.decision.<name>``; alone at the table there is nobody to accuse, so the
    solo turn has its own words (``turn-solo``)."""
    name = decision_name(st)
    if name == "turn" and st.n == 1:
        name = "turn-solo"
    return Event(f"soc-card.decision.{name}")

