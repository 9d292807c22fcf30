"""What each seat may see: the observation, its tensor, and narration of actions.

This module is the only way hidden information leaves the rules (STYLE: one per-player
observation function). A seat sees the public board, its own hand and loyalty, what it was
shown (cards passed to it or by it, the black cards Percival, the Armor or Clairvoyance let
it see, the face-down black cards it placed), and nothing else.

Observation layout (``observation(seat)``, JSON-serialisable)::

    game, players, seat, version, status ("running" | "loyal-win" | "evil-win"), end_reason
    waiting:      {"seat": int | None, "chance": bool, "decision": str}
    turn:         {"seat", "number", "actions_left", "used": [types], "first_seat"}
    round_table:  {"white": int, "black": int};  siege_engines: int
    accusations_open: bool (6 swords or 6 siege engines reached, for good: SOC-ACCUSE-1)
    knights:      per seat {"seat", "knight", "life", "location", "status", "hand_size",
                  "relics": [...], "accusation_used", "loyalty": "loyal"|"traitor"|None}
    quests:       black-knight / lancelot / excalibur / grail / picts / saxons (public boards;
                  a face-down black card shows as {"hidden": true, "by": its placer} except to him;
                  "white" the Fight values played, "white_any" where among them lie "?" cards)
    relics:       {"excalibur" | "grail" | "armor": "on-quest" | "lost" | seat}
    effects:      {"vivien", "mist", "dark_forest", "mordred", "heroism", "heroism_by" (on a
                  solo quest, the seat whose leaving it discards Heroism), "merlin" (the
                  figure's quest), "witches" (lasting Morgan's Witches), "divine_favor"}
    decks:        sizes of the decks and discard piles (discards lie face down)
    table:        the public parts of the decision under way (cards offered for sharing,
                  ``offer_dealt`` when its giver deals them face down, share="random";
                  Merlins pledged, a siege fight's cards and die, the black card in play,
                  a solo quest's reward Sir Bors may take part in: ``face_down_reward``
                  {"winner", "cards"}, the cards not yet drawn)
    you:          only for a seat: hand, loyalty, cards known in other hands, known black
                  deck cards, privately held black cards, own face-down contribution

The tensor (``observation_tensor(seat)``, laid out by :data:`TENSOR_BLOCKS`, every element
named) is a fixed-length summary of that view as floats, seats rotated so the observer is
``seat+0``. It shows what the view shows of the board, the seat's own hand, loyalty and held
black cards, and the decision under way; its last block, ``known`` (environment version 2,
``soc_v2``), the black cards in play as ``table.black_in_play`` shows them, the deck
positions the seat knows (``you.black_deck_known``), ``accusations_open``, Sir Bors's
``bors-deal`` decision and the reward it is about (``table.face_down_reward``). Built from no
more than the view (docs/research.md says what it leaves out); the learned evaluator reads
the tensor before ``known`` (:data:`EVALUATION_SIZE` entries, ``evaluation_tensor``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import pendragon.games.soc.rules.actions as A
from pendragon.core.api import CHANCE, TERMINAL
from pendragon.core.events import Event, Param, Seat, Term, event
from pendragon.core.tensor_names import Block, block_names, blocks_size, one_hot, per_item
from pendragon.games.soc.rules.actions import MAX_SEATS
from pendragon.games.soc.rules.cards import (
    BLACK,
    KNIGHTS,
    LOCATION_KEYS,
    MERLIN,
    NUM_BLACK,
    NUM_KNIGHTS,
    NUM_LOCATIONS,
    NUM_WHITE,
    TRAVEL_KEYS,
    WHITE,
    Location,
)
from pendragon.games.soc.rules.data import (
    CHANCE_TASKS,
    DECISION_TASKS,
    END_REASON_KEYS,
    FACE_DOWN_BASE,
    GONE,
    KNOWN_BASE,
    NOTE_DIES,
    NOTE_LIFE,
    NOTE_OVER,
    NOTE_QUEST,
    NOTE_READ,
    NOTE_RELIC,
    NOTE_SHOWN,
    NOTE_SIEGE,
    NOTE_SWORDS,
    NOTE_TRAITOR,
    NOTE_TURNED,
    RELIC_KEYS,
    TASK_NAMES,
    VALUE_BASE,
    WITCH_BITS,
    Heroic,
    Loyalty,
    Note,
    Purpose,
    Result,
    Status,
    T,
    TurnFlag,
)
from pendragon.games.soc.rules.quests import fight_value
from pendragon.games.soc.rules.turn import TurnRules

_STATUS: Final = ("in-play", "dead", "unmasked")
_DECISION_NAMES: Final[dict[int, str]] = {
    code: TASK_NAMES[code][2:].lower().replace("_", "-") for code in DECISION_TASKS
}
#: Decisions the evaluator's layout has no slot for: its ``decision`` block reads them as
#: ``none`` with a seat ``to_act`` (a pair no other position shows), and the ``known`` block
#: names them (``known.bors_deal``).
_UNSLOTTED_DECISIONS: Final = frozenset((T.D_BORS_DEAL,))
_DECISIONS: Final = sorted(DECISION_TASKS - _UNSLOTTED_DECISIONS)
#: Tasks whose card argument is a black card that may be in limbo.
_BLACK_CARD_TASKS: Final = (T.BLACK_RESOLVE, T.EXCAL_OFFER, T.BLACK_AFTER_POOL)

#: Action labels more specific than ``soc.action.<kind>`` (see ``ViewRules.action_event``):
#: ``<decision>.<text>``, ``<text>``, ``heroic.play.<quest>`` or ``<decision>.<kind>``.
SPECIFIC_ACTION_LABELS: Final = frozenset({
    "armor.choose-black", "arthur-card.play", "arthur-return.play", "arthur-target.seat",
    "bors-deal.pass", "bors-deal.volunteer", "clairv.choose-black", "contrib.play",
    "convoke.pass", "deal-loyalty:loyal", "deal-loyalty:traitor", "discard.play", "excal.pass",
    "fate:loyal", "fate:reveal", "grail.pass", "heroic.play.excalibur", "heroic.play.grail",
    "heroism.target", "kay.pass", "kay.play", "merlin.target", "msg-card.done", "msg-card.play",
    "msg-target.seat", "perc-bottom.choose-black", "piety.others", "piety.self", "pool.pass",
    "reinf.others", "reinf.self", "share.seat", "siege.done", "siege.play", "slayer:draw",
    "slayer:fight", "target:siege", "traitor-target.seat", "travel.play", "volunteer.pass",
    "war-target.target",
})
#: The parameter an action's argument becomes, by the action's kind.
_ARGUMENT_PARAM: Final = {
    "play": "white", "special": "white", "heal": "white", "white-card": "white",
    "choose-black": "black", "black-card": "black", "move": "place", "target": "place",
    "seat": "seat", "accuse": "seat", "free": "seat", "random-seat": "seat", "leave": "seat",
    "value": "value", "die": "value", "deal-knight": "knight", "travel": "travel",
}
#: The catalog family of each term parameter (``soc.<family>.<key>``).
_TERM_FAMILY: Final = {"white": "white", "black": "black", "place": "place", "knight": "knight",
                       "travel": "travel"}

#: Labels of the features of one combat board (``_combat_features``): the White Fight
#: cards by value, then the black cards on the board, their visible value, the hidden ones.
_COMBAT_LABELS: Final = ("fight-1", "fight-2", "fight-3", "fight-4", "fight-5", "black_cards",
                         "black_visible_value", "black_hidden")
#: The once-a-turn flags of the turn under way the tensor shows (public: each is set by an
#: announced action), with their labels: what opens or closes an action this turn (Arthur's
#: exchange, Percival's peek, a sacrifice, the knights' free moves and powers).
_TURN_FLAGS: Final = (
    (TurnFlag.SACRIFICED, "sacrificed"), (TurnFlag.TRISTAN_FREE, "tristan_free"),
    (TurnFlag.GALAHAD_FREE, "galahad_free"), (TurnFlag.ARTHUR_USED, "arthur_used"),
    (TurnFlag.PEEKED, "peeked"), (TurnFlag.SKIP_HEROIC, "skip_heroic"),
    (TurnFlag.PERC_ARMOR, "percival_armor"), (TurnFlag.GAHERIS, "gaheris"),
    (TurnFlag.BEDIVERE, "bedivere"), (TurnFlag.CARADOC, "caradoc"),
    (TurnFlag.MERLIN_DRAWN, "merlin_drawn"),
)
#: The quests whose combat black cards a seat may see only as their quest's (SOC-BLACK-2),
#: in the order of the ``known.in_play.hidden.*`` elements.
_COMBAT_QUESTS: Final = tuple(sorted({card.quest for card in BLACK if card.combat_value}))
_COMBAT_QUEST_INDEX: Final = {quest: index for index, quest in enumerate(_COMBAT_QUESTS)}
#: The black deck's top positions the ``known`` block has a slot for: a card becomes known on
#: top (Percival's peek) or among the top 5 (Clairvoyance), and cards go back on top only as
#: many as were just drawn (SOC-RULING-21), so none known sinks deeper.
KNOWN_DEPTH: Final = 5
#: The Black Knight's reward in cards, the ``known.reward.count`` scale (Lancelot's 4: 4/3).
_REWARD_CARDS: Final = 3
#: The tensor's blocks in ``observation_tensor``'s order with their elements' labels: the one
#: description its size, :data:`TENSOR_LAYOUT` and :data:`TENSOR_NAMES` come from (issue 40
#: item 3). Seats are rotated: ``seat+0`` is the observer, ``seat+1`` the next seat, ...
TENSOR_BLOCKS: Final[tuple[Block, ...]] = (
    ("seats", per_item((f"seat+{k}" for k in range(MAX_SEATS)), (
        "present", *(f"status.{name}" for name in _STATUS), "life",
        *(f"location.{key}" for key in LOCATION_KEYS), "hand_size", "excalibur", "grail",
        "armor", "accused", "seen_traitor", "seen_loyal", "turn", "to_act",
        *(f"knight.{knight.key}" for knight in KNIGHTS)))),
    ("swords_siege", ("white_swords", "black_swords", "siege_engines")),
    ("black_knight", _COMBAT_LABELS),
    ("lancelot", ("phase.lancelot", "phase.dragon", "phase.over", *_COMBAT_LABELS)),
    ("excalibur", ("position", "over")),
    ("grail", ("white", "black", "dark_forest", "over")),
    ("wars", per_item(("picts", "saxons"), (
        "figures", "fight-1", "fight-2", "fight-3", "fight-4", "fight-5", "mordred"))),
    ("effects", ("vivien", "mist", "dark_forest",
                 *(f"heroism.{key}" for key in (*LOCATION_KEYS, "none")))),
    ("decks", ("white_deck", "black_deck", "white_discard", "black_discard")),
    ("hand", one_hot(card.key for card in WHITE)),
    ("loyalty", ("loyal", "traitor", "unknown")),
    ("decision", (*one_hot(_DECISION_NAMES[code] for code in _DECISIONS), "none")),
    ("table", (*(f"offer.{card.key}" for card in WHITE), "pledges", "siege_die",
               "siege_cards", *(f"held.{card.key}" for card in BLACK))),
    ("expansion", (*(f"merlin.{key}" for key in (*LOCATION_KEYS, "none")),
                   *(f"witch-{number}" for number, _ in WITCH_BITS), "divine_favor",
                   *(f"captured.seat+{k}" for k in range(MAX_SEATS)))),
    # What the turn under way has used (the JSON view's ``turn``; issue 38 item 1: the
    # actions these open or close are a function of the tensor).
    ("turn", ("actions_left", *(f"used.{name}" for _, name in Heroic.NAMES),
              *(f"flag.{name}" for _, name in _TURN_FLAGS))),
    # The black cards the seat has put in order (``you.ordered_black``), apart from those it
    # still holds (``table.held.*`` counts both).
    ("ordered", tuple(f"ordered.{card.key}" for card in BLACK)),
    # What the seat's JSON view shows of the decision under way and the black deck that the
    # blocks above leave out (environment version 2), after them so that the learned
    # evaluator's layout (EVALUATION_SIZE) stays as it was:
    # * ``in_play.<card>``: the black cards in play (``table.black_in_play``: the card a
    #   face-up/face-down choice, the Merlins' pool, Excalibur's cancel or a volunteer for
    #   Morgan is about), one per card; ``in_play.hidden.<quest>`` one per combat card the
    #   view shows only by its quest (another seat's draw, SOC-BLACK-2);
    # * ``deck.top+<d>.<card>``: the card the seat knows at depth ``d`` from the top of the
    #   black deck (``you.black_deck_known``, "top": Percival's peek, Clairvoyance);
    #   ``deck.bottom.<card>``: the cards it knows under the deck (the Armor's card put
    #   under, SOC-RELIC-ARMOR-1, SOC-RULING-21), 0.2 each, their order left out;
    # * ``accusations_open`` (SOC-ACCUSE-1), ``bors_deal`` (the ``bors-deal`` decision,
    #   MC-KNIGHT-BORS), and the solo quest's reward Sir Bors is asked about
    #   (``table.face_down_reward``, SOC-RULING-69): its cards (/ 3) and its winner.
    ("known", (
        *(f"in_play.{card.key}" for card in BLACK),
        *(f"in_play.hidden.{LOCATION_KEYS[quest]}" for quest in _COMBAT_QUESTS),
        *per_item((f"deck.top+{depth}" for depth in range(KNOWN_DEPTH)),
                  tuple(card.key for card in BLACK)),
        *(f"deck.bottom.{card.key}" for card in BLACK),
        "accusations_open", "bors_deal", "reward.count",
        *(f"reward.winner.seat+{k}" for k in range(MAX_SEATS)),
    )),
)
#: (name, length) of each block of the observation tensor, in order.
TENSOR_LAYOUT: Final[tuple[tuple[str, int], ...]] = tuple(
    (name, len(labels)) for name, labels in TENSOR_BLOCKS)
#: The name of every tensor element, in order (``block.label``).
TENSOR_NAMES: Final = tuple(block_names(TENSOR_BLOCKS))
TENSOR_SIZE: Final = blocks_size(TENSOR_BLOCKS)
#: What the learned evaluator reads (``evaluation_tensor``, ``Game.evaluation_tensor_size``):
#: the tensor before the ``known`` block, 542 entries. The shipped network
#: (``games/soc/evaluator.json``) was trained on that layout, and its fingerprint is of it;
#: the next retrain (``pendragon train soc``) may read the whole tensor.
EVALUATION_SIZE: Final = TENSOR_SIZE - len(TENSOR_BLOCKS[-1][1])


def _one_hot_rows(size: int, none_row: bool) -> tuple[tuple[float, ...], ...]:
    """Row ``i`` is the one-hot ``i`` of ``size``; with ``none_row``, one more row of zeros
    at the end, so that index -1 (nothing) reads it."""
    rows = [tuple(float(j == i) for j in range(size)) for i in range(size)]
    return tuple(rows + [(0.0,) * size] if none_row else rows)


# The tensor's one-hot blocks, built once (observation_tensor is on every learner's step).
#: "seat present" then the status one-hot, by status.
_STATUS_ROWS: Final = tuple((1.0, *row) for row in _one_hot_rows(len(_STATUS), False))
_LOCATION_ROWS: Final = _one_hot_rows(NUM_LOCATIONS, True)
#: A place or none as the last slot (-1 reads it): Heroism's and Merlin's blocks.
_LOCATION_OR_NONE_ROWS: Final = _one_hot_rows(NUM_LOCATIONS + 1, False)
_KNIGHT_ROWS: Final = _one_hot_rows(NUM_KNIGHTS, True)
#: The decision awaited, or none (-1, the last slot).
_DECISION_ROWS: Final = _one_hot_rows(len(_DECISIONS) + 1, False)
_DECISION_INDEX: Final = {int(code): index for index, code in enumerate(_DECISIONS)}
_EMPTY_SEAT: Final = (0.0,) * (TENSOR_LAYOUT[0][1] // MAX_SEATS)
#: Zeros for the seats beyond a table of ``n`` (the captured flags' padding).
_EMPTY_SEATS: Final = tuple((0.0,) * (MAX_SEATS - n) for n in range(MAX_SEATS + 1))
#: Three-slot one-hots: Lancelot's phase; the seat's own loyalty (loyal, traitor, unknown).
_THREE_ROWS: Final = _one_hot_rows(3, False)
_NO_WHITE: Final = (0.0,) * NUM_WHITE
_NO_BLACK: Final = (0.0,) * NUM_BLACK
#: A seat (rotated) or none (-1, the row of zeros): the reward's winner.
_SEAT_ROWS: Final = _one_hot_rows(MAX_SEATS, True)


def _loc_key(location: int) -> str | None:
    return LOCATION_KEYS[location] if location >= 0 else None



def _any_cards(codes: Sequence[int]) -> list[int]:
    """Where the "?" Fight cards lie among ``codes`` (MC-W-FIGHT-ANY): the table sees a "?"
    card played as its value, not a Fight card of that value."""
    return [i for i, code in enumerate(codes) if code >= VALUE_BASE]

class ViewRules(TurnRules):
    """Observation, tensor and narration."""

    # ------------------------------------------------------------------ helpers
    def loyalty_visible(self, viewer: int | None, seat: int) -> bool:
        """Whether ``viewer`` sees ``seat``'s loyalty card (an accused knight's is shown to
        everyone, SOC-ACCUSE-2)."""
        if self.status[seat] == Status.UNMASKED or self.result or self.loyalty_shown[seat]:
            return True
        if self.game.open_loyalty:
            return True
        return viewer == seat and self.loyalty_known_to_self(seat)

    def limbo_drawer(self) -> dict[int, int]:
        """Black cards in flight and who drew them (from the agenda)."""
        drawer: dict[int, int] = {}
        for code, a, b, _c in self.agenda:
            if code in _BLACK_CARD_TASKS:
                drawer[a] = b
            elif code in (T.D_FACE, T.D_WAR_TARGET):
                drawer[b] = a
        return drawer

    def black_in_play(self, viewer: int | None) -> list[tuple[int, bool]]:
        """The black cards in play (drawn, not yet placed or discarded) as ``viewer`` sees
        them, in order: (kind, hidden). A combat card is hidden, only its quest shown, to all
        but its drawer (SOC-BLACK-2: he may yet lay it face down); every other card is read
        out (SOC-EVIL-2). The JSON view and the tensor both show them by this."""
        drawers = self.limbo_drawer()
        return [(kind, bool(BLACK[kind].combat_value) and viewer != drawers.get(kind, -1))
                for kind in self.limbo]

    def _black_entry(self, code: int, viewer: int | None, dragon: bool) -> dict[str, Any]:
        kind = code % FACE_DOWN_BASE
        placer = code // FACE_DOWN_BASE - 1
        if placer >= 0 and viewer != placer:
            return {"hidden": True, "by": placer}  # the table saw who laid it
        value = BLACK[kind].combat_value + (4 if dragon else 0)
        entry: dict[str, Any] = {"card": BLACK[kind].key, "value": value}
        if placer >= 0:
            entry["face_down"] = True
            entry["by"] = placer
        return entry

    def decision_name(self) -> str:
        """Name of the decision or chance event under way."""
        if self.result or not self.agenda:
            return "none"
        code = self.agenda[-1][0]
        if code in CHANCE_TASKS:
            return "chance-" + TASK_NAMES[code][2:].lower()
        return _DECISION_NAMES.get(code, "none")

    # ------------------------------------------------------------------ observation
    def observation(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError(f"seat {seat} is not a seat of this {self.n}-player game")
        player = self.current_player()
        dragon = self.ld_phase == 1
        obs: dict[str, Any] = {
            "game": "soc",
            "players": self.n,
            "seat": seat,
            "version": self.version,
            "status": ("running", "loyal-win", "evil-win")[self.result],
            "end_reason": END_REASON_KEYS[self.end_reason],
            "waiting": {
                "seat": player if player >= 0 else None,
                "chance": player == CHANCE,
                "decision": self.decision_name(),
            },
            "turn": {
                "seat": self.turn_seat if self.turn_seat >= 0 else None,
                "number": self.turns + 1,
                "actions_left": self.actions_left,
                "used": [name for bit, name in Heroic.NAMES if self.used_types & bit],
                "first_seat": self.first_seat,
            },
            "round_table": {"white": self.white_swords, "black": self.black_swords},
            "siege_engines": self.siege,
            "accusations_open": self.accusations_open(),
            "knights": [self._knight_view(s, seat) for s in range(self.n)],
            "quests": {
                "black-knight": {
                    "white": [fight_value(k) for k in self.bk_white],
                    "white_any": _any_cards(self.bk_white),
                    "black": [self._black_entry(c, seat, False) for c in self.bk_black],
                    "knights": self.present(Location.BLACK_KNIGHT),
                },
                "lancelot": {
                    "side": ("lancelot", "dragon", "over")[self.ld_phase],
                    "white": [fight_value(k) for k in self.ld_white],
                    "white_any": _any_cards(self.ld_white),
                    "black": [self._black_entry(c, seat, dragon) for c in self.ld_black],
                    "knights": self.present(Location.LANCELOT),
                },
                "excalibur": {
                    "position": self.excal_pos,
                    "over": self.excal_over,
                    "knights": self.present(Location.EXCALIBUR),
                },
                "grail": {
                    "grail_cards": self.grail_white,
                    "black": [BLACK[k].key for k in self.grail_black],
                    "dark_forest": self.dark_forest,
                    "over": self.grail_over,
                    "knights": self.present(Location.GRAIL),
                },
                "picts": self._war_view(0),
                "saxons": self._war_view(1),
                "camelot": {"knights": self.present(Location.CAMELOT)},
            },
            "relics": {
                "excalibur": self._relic_view(self.excalibur_owner),
                "grail": self._relic_view(self.grail_owner),
                "armor": self._relic_view(self.armor_owner),
            },
            "effects": {
                "vivien": self.vivien,
                "mist": self.mist,
                "dark_forest": self.dark_forest,
                "mordred": ("picts", "saxons")[self.mordred] if self.mordred >= 0 else None,
                "heroism": _loc_key(self.heroism),
                "heroism_by": self.heroism_bound if self.heroism_bound >= 0 else None,
                "merlin": _loc_key(self.merlin_loc),
                "witches": [n for n, bit in WITCH_BITS if self.witches & bit],
                "divine_favor": self.divine_favor,
            },
            "decks": {
                "white": sum(self.white_deck),
                "black": self.black_deck_size(),
                "white_discard": sum(self.white_discard),
                "black_discard": sum(self.black_discard),
                # What everyone saw go there: read out when drawn, or turned face up at a
                # combat quest's end (SOC-RULING-65, SOC-RULING-34).
                "black_discard_seen": {
                    BLACK[kind].key: self.black_discard[kind] - self.black_discard_unseen[kind]
                    for kind in range(NUM_BLACK)
                    if self.black_discard[kind] > self.black_discard_unseen[kind]
                },
                "black_removed": sum(self.black_removed),
                "white_removed": sum(self.white_removed),
                "travel": sum(self.travel_deck),
                "travel_discard": sum(self.travel_discard),
            },
            "table": self._table_view(seat),
        }
        if seat is not None:
            obs["you"] = self._private_view(seat)
        return obs

    def _knight_view(self, s: int, viewer: int | None) -> dict[str, Any]:
        relics = [
            name
            for name, owner in (
                ("excalibur", self.excalibur_owner),
                ("grail", self.grail_owner),
                ("armor", self.armor_owner),
            )
            if owner == s
        ]
        loyalty = None
        if self.loyalty[s] >= 0 and self.loyalty_visible(viewer, s):
            loyalty = "traitor" if self.loyalty[s] == Loyalty.TRAITOR else "loyal"
        return {
            "seat": s,
            "knight": KNIGHTS[self.knight[s]].key if self.knight[s] >= 0 else None,
            "life": self.life[s],
            "location": _loc_key(self.loc[s]),
            "status": _STATUS[self.status[s]],
            "hand_size": self.hand_size(s),
            "relics": relics,
            "accusation_used": self.accused[s],
            "loyalty": loyalty,
            "captured": self.captured[s],
        }

    def _war_view(self, war: int) -> dict[str, Any]:
        return {
            "figures": self.war_figures[war],
            "white": [fight_value(k) for k in self.war_white[war]],
            "white_any": _any_cards(self.war_white[war]),
            "mordred": self.mordred == war,
            "knights": self.present(Location.PICTS + war),
        }

    @staticmethod
    def _relic_view(owner: int) -> str | int:
        return owner if owner >= 0 else ("on-quest" if owner == -1 else "lost")

    def _table_view(self, viewer: int | None) -> dict[str, Any]:
        table: dict[str, Any] = {
            "offer": [WHITE[k].key for k in self.offer],
            "offer_to": list(self.offer_eligible) if self.offer else [],
            "offer_giver": self.offer_giver if self.offer else None,
            # share="random" (SOC-RULING-77): the giver deals them face down, not by choice.
            "offer_dealt": bool(self.offer) and self.game.random_share,
            "pledges": list(self.pledges),
            "siege_fight": {
                "cards": [fight_value(k) for k in self.siege_cards],
                "cards_any": _any_cards(self.siege_cards),
                "die": self.siege_die or None,
                "kay_bonus": self.kay_bonus,
            },
            "contributions_made": [s for s in range(self.n) if self.contrib[s] >= 0],
        }
        table["black_in_play"] = [
            {"quest": LOCATION_KEYS[BLACK[kind].quest], "hidden": True} if hidden
            else {"card": BLACK[kind].key}
            for kind, hidden in self.black_in_play(viewer)
        ]
        table["held_by"] = self.held_seat if self.held_seat >= 0 else None
        table["held_count"] = len(self.held) + len(self.picks)
        # The solo quest's reward Sir Bors is asked to take part in: its winner and how
        # many cards, not yet drawn (they will be dealt face down, SOC-RULING-69).
        deal = self.bors_deal()
        table["face_down_reward"] = (
            {"winner": deal[0], "cards": deal[1]} if deal is not None and deal[0] >= 0 else None
        )
        return table

    def _private_view(self, seat: int) -> dict[str, Any]:
        hand = self.hands[seat]
        known = {
            str(holder): {WHITE[k].key: c for k, c in enumerate(cards) if c}
            for (viewer, holder), cards in sorted(self.known.items())
            if viewer == seat
        }
        bit = 1 << seat
        deck_known: list[dict[str, Any]] = []
        for depth, code in enumerate(reversed(self.black_top)):
            if (code // KNOWN_BASE) & bit:
                card = BLACK[code % KNOWN_BASE].key
                deck_known.append({"from": "top", "depth": depth, "card": card})
        for depth, code in enumerate(reversed(self.black_bottom)):
            if (code // KNOWN_BASE) & bit:
                deck_known.append(
                    {"from": "bottom", "depth": depth, "card": BLACK[code % KNOWN_BASE].key}
                )
        loyalty = None
        if self.loyalty[seat] >= 0 and self.loyalty_visible(seat, seat):
            loyalty = "traitor" if self.loyalty[seat] == Loyalty.TRAITOR else "loyal"
        mine = self.held_seat == seat
        return {
            "hand": {WHITE[k].key: c for k, c in enumerate(hand) if c},
            "loyalty": loyalty,
            "known_hands": known,
            "black_deck_known": deck_known,
            "held_black": [BLACK[k].key for k in self.held] if mine else [],
            "ordered_black": [BLACK[k].key for k in self.picks] if mine else [],
            "contribution": WHITE[self.contrib[seat]].key if self.contrib[seat] >= 0 else None,
            # MC-RULING-11: Sir Gaheris may search the discard pile for Merlins in his turn.
            "merlins_in_discard": (
                self.white_discard[MERLIN] if self.searches_discard(seat) else None
            ),
        }

    # ------------------------------------------------------------------ tensor
    def observation_tensor(self, seat: int) -> list[float]:
        """``seat``'s view as :data:`TENSOR_SIZE` floats, laid out by :data:`TENSOR_BLOCKS`."""
        return self._tensor(seat, with_known=True)

    def evaluation_tensor(self, seat: int) -> list[float]:
        """What the learned evaluator reads of ``seat``'s view: the observation tensor's
        first :data:`EVALUATION_SIZE` entries (the layout the shipped network was trained
        on), written without the ``known`` block after them (this runs at every search leaf).

        >>> import pendragon
        >>> state = pendragon.load_game("soc", players=4, seed=3).new_initial_state()
        >>> state.play_random_chance()
        >>> view = state.evaluation_tensor(1)
        >>> len(view) == EVALUATION_SIZE == 542 == state.game.evaluation_tensor_size()
        True
        >>> view == state.observation_tensor(1)[:EVALUATION_SIZE]
        True
        """
        return self._tensor(seat, with_known=False)

    def _tensor(self, seat: int, with_known: bool) -> list[float]:
        """The observation tensor of ``seat``; without its ``known`` block (the last) unless
        ``with_known``."""
        if not 0 <= seat < self.n:
            raise ValueError(f"seat {seat} is not a seat of this {self.n}-player game")
        out: list[float] = []
        player = self.current_player()
        n = self.n
        status, loyalty, knight, loc = self.status, self.loyalty, self.knight, self.loc
        life, accused, turn_seat = self.life, self.accused, self.turn_seat
        excalibur, grail, armor = self.excalibur_owner, self.grail_owner, self.armor_owner
        for offset in range(n):
            s = seat + offset - n if seat + offset >= n else seat + offset
            out += _STATUS_ROWS[status[s]]
            out.append(life[s] / 6)
            out += _LOCATION_ROWS[loc[s]]  # -1 (nowhere): the row of zeros
            side = loyalty[s]
            visible = side >= 0 and self.loyalty_visible(seat, s)
            out += [
                self.hand_size(s) / 12,
                float(excalibur == s),
                float(grail == s),
                float(armor == s),
                float(accused[s]),
                float(visible and side == Loyalty.TRAITOR),
                float(visible and side == Loyalty.LOYAL),
                float(turn_seat == s),
                float(player == s),
            ]
            out += _KNIGHT_ROWS[knight[s]]  # -1 (none yet): the row of zeros
        out += _EMPTY_SEAT * (MAX_SEATS - n)
        out += [self.white_swords / 12, self.black_swords / 12, self.siege / 12]
        out += self._combat_features(self.bk_white, self.bk_black, seat, False, 2, 4)
        out += _THREE_ROWS[self.ld_phase]
        out += self._combat_features(self.ld_white, self.ld_black, seat, self.ld_phase == 1, 3, 5)
        out += [(self.excal_pos + 5) / 10, float(self.excal_over)]
        out += [
            self.grail_white / 7,
            len(self.grail_black) / 7,
            float(self.dark_forest),
            float(self.grail_over),
        ]
        for war in range(2):
            out.append(self.war_figures[war] / 4)
            played = [0.0] * 5
            for kind in self.war_white[war]:
                played[fight_value(kind) - 1] += 0.5
            out += played
            out.append(float(self.mordred == war))
        out += [float(self.vivien), float(self.mist), float(self.dark_forest)]
        out += _LOCATION_OR_NONE_ROWS[self.heroism]  # -1 (none) is the last slot
        out += [
            sum(self.white_deck) / 107,
            self.black_deck_size() / 90,
            sum(self.white_discard) / 107,
            sum(self.black_discard) / 90,
        ]
        out += [c / 5 for c in self.hands[seat]]
        # Loyal, traitor (Loyalty 0, 1), or unknown to himself (the last slot).
        known = self.loyalty[seat] >= 0 and self.loyalty_visible(seat, seat)
        out += _THREE_ROWS[self.loyalty[seat] if known else 2]
        out += _DECISION_ROWS[_DECISION_INDEX.get(self.agenda[-1][0], -1) if player >= 0 else -1]
        if self.offer:
            offer = [0.0] * NUM_WHITE
            for kind in self.offer:
                offer[kind] += 1 / 7
            out += offer
        else:
            out += _NO_WHITE
        out += [
            len(self.pledges) / 3,
            self.siege_die / 8,
            sum(fight_value(k) for k in self.siege_cards) / 25,
        ]
        if self.held_seat == seat:
            held = [0.0] * NUM_BLACK
            for kind in self.held + self.picks:
                held[kind] += 0.2
            out += held
        else:
            out += _NO_BLACK
        out += _LOCATION_OR_NONE_ROWS[self.merlin_loc]  # -1 (not in play) is the last slot
        out += [float(bool(self.witches & bit)) for _, bit in WITCH_BITS]
        out.append(float(self.divine_favor))
        captured = self.captured
        out += [float(captured[s]) for s in range(seat, n)]
        out += [float(captured[s]) for s in range(seat)]
        out += _EMPTY_SEATS[n]
        used, flags = self.used_types, self.turn_flags
        out.append(self.actions_left / 2)
        out += [float(bool(used & bit)) for bit, _ in Heroic.NAMES]
        out += [float(bool(flags & bit)) for bit, _ in _TURN_FLAGS]
        if self.held_seat == seat and self.picks:
            ordered = [0.0] * NUM_BLACK
            for kind in self.picks:
                ordered[kind] += 0.2
            out += ordered
        else:
            out += _NO_BLACK
        if with_known:
            out += self._known_features(seat)
        return out

    def _known_features(self, seat: int) -> list[float]:
        """The tensor's ``known`` block for ``seat`` (see :data:`TENSOR_BLOCKS`): what its
        JSON view shows of the black cards in play (``table.black_in_play``), of the black
        deck (``you.black_deck_known``), of accusations (``accusations_open``) and of Sir
        Bors's decision and the reward it is about (``table.face_down_reward``)."""
        in_play = [0.0] * (NUM_BLACK + len(_COMBAT_QUESTS))
        if self.limbo:
            for kind, hidden in self.black_in_play(seat):
                if hidden:
                    in_play[NUM_BLACK + _COMBAT_QUEST_INDEX[BLACK[kind].quest]] += 1.0
                else:
                    in_play[kind] += 1.0
        deck = [0.0] * ((KNOWN_DEPTH + 1) * NUM_BLACK)
        bit = 1 << seat
        top = self.black_top
        for depth in range(min(KNOWN_DEPTH, len(top))):
            code = top[-1 - depth]  # [-1] is the top
            if (code // KNOWN_BASE) & bit:
                deck[depth * NUM_BLACK + code % KNOWN_BASE] = 1.0
        for code in self.black_bottom:
            if (code // KNOWN_BASE) & bit:
                deck[KNOWN_DEPTH * NUM_BLACK + code % KNOWN_BASE] += 0.2
        out = in_play + deck
        out.append(float(self.accusations_open()))
        deal = self.bors_deal()
        if deal is not None:
            winner, cards = deal
            out.append(1.0)
            if winner >= 0:  # else a random share's, its cards on show (``table.offer``)
                out.append(cards / _REWARD_CARDS)
                out += _SEAT_ROWS[winner - seat + self.n if winner < seat else winner - seat]
                return out
            out.append(0.0)
        else:
            out += [0.0, 0.0]
        out += _SEAT_ROWS[-1]
        return out

    def _combat_features(
        self, whites: tuple[int, ...], blacks: tuple[int, ...], seat: int, dragon: bool,
        most: int, spots: int,
    ) -> list[float]:
        counts = [0.0] * 5
        for kind in whites:
            counts[fight_value(kind) - 1] += 1 / most
        visible = 0
        hidden = 0
        for code in blacks:
            placer = code // FACE_DOWN_BASE - 1
            if placer >= 0 and placer != seat:
                hidden += 1
            else:
                visible += BLACK[code % FACE_DOWN_BASE].combat_value + (4 if dragon else 0)
        return counts + [len(blacks) / spots, visible / 40, hidden / spots]

    # ------------------------------------------------------------------ narration
    def narrate(self, action: int, viewer: int | None) -> list[Event]:
        """Narrate ``action`` (about to be applied) as ``viewer`` may know it."""
        if self.is_table_operation(action):
            if action == A.JOIN:
                return [event("soc.log.join", seat=Seat(self.n))]
            return [event("soc.log.leave", seat=Seat(action - A.LEAVE))]
        if self.current_player() == TERMINAL:
            return [event("soc.log.game-over")]
        _key, consequences, reveals = self._narration_entry(action)
        return [*self._told(action, viewer), *self._read_out(reveals, action, viewer),
                *consequences]

    def _read_out(
        self, reveals: list[tuple[int, int]], action: int, viewer: int | None
    ) -> list[Event]:
        """The black cards ``action`` has read out to the table (``reveals``: drawer and
        kind, as the rules noted them) besides a card it draws by chance (which its chance
        event names): a card drawn from the top or bottom of the deck that some seat knew
        (Percival's peek, Clairvoyance, the Armor's card put under, SOC-RULING-21, -22,
        -43), with no chance step, or the card the Armor's owner keeps. Everyone sees it
        read out (SOC-EVIL-2), so the narration names it as a drawn card's."""
        if not reveals:
            return []
        if self.current_player() == CHANCE:
            code, a, b, _c = self.agenda[-1]
            if code == T.C_BLACK and reveals[0] == (a, action - A.BLACK_CARD):
                reveals = reveals[1:]  # told by the chance event itself
        return [self._black_event(seat, kind, True, viewer) for seat, kind in reveals]

    def _black_event(self, seat: int, kind: int, public: bool, viewer: int | None) -> Event:
        """A black card ``seat`` drew, as ``viewer`` is told it (SOC-BLACK-2: a combat card
        read out shows only its quest until its face is chosen)."""
        black = BLACK[kind]
        term = Term(f"soc.black.{black.key}")
        if viewer == seat:
            return event("soc.log.draw-black-known", seat=Seat(seat), card=term)
        if public and (not black.combat_value or self.combat_quest_over(kind)):
            return event("soc.log.draw-black-public", seat=Seat(seat), card=term)
        if public:
            quest = Term(f"soc.place.{LOCATION_KEYS[black.quest]}")
            return event("soc.log.draw-black-combat", seat=Seat(seat), quest=quest)
        return event("soc.log.draw-black", seat=Seat(seat))

    def _told(self, action: int, viewer: int | None) -> list[Event]:
        """The action itself as ``viewer`` may know it (its consequences come after)."""
        player = self.current_player()
        code, a, b, _c = self.agenda[-1]
        if player == CHANCE:
            return [self._chance_event(code, a, b, action, viewer)]
        seat = Seat(player)
        private = (
            code in (T.D_CONTRIB, T.D_DISCARD, T.D_ARMOR, T.D_PERC_BOTTOM, T.D_CLAIRV)
            or (code == T.D_HEROIC and self.loc[player] == Location.EXCALIBUR
                and A.PLAY <= action < A.PLAY + NUM_WHITE)
        )
        passing = code in (T.D_MSG_CARD, T.D_ARTHUR_CARD, T.D_ARTHUR_RETURN) and action != A.DONE
        if passing and viewer not in (player, b):
            return [event("soc.log.pass-card", seat=seat, to=Seat(b))]
        if private and viewer != player:
            return [event("soc.log.choose-card", seat=seat, decision=self.decision_event())]
        events = [event("soc.log.act", seat=seat, action=self.action_event(action))]
        if code == T.D_HEROIC and A.ACCUSE <= action < A.ACCUSE + self.n:
            # SOC-ACCUSE-2: the accused shows his loyalty card to every player.
            target = action - A.ACCUSE
            side = Term(
                "soc.loyalty." + ("traitor" if self.loyalty[target] == Loyalty.TRAITOR else "loyal")
            )
            events.append(event("soc.log.shows-loyalty", seat=Seat(target), loyalty=side))
        return events

    def _narration_entry(
        self, action: int
    ) -> tuple[tuple[int, int], list[Event], list[tuple[int, int]]]:
        """(key, consequences, cards read out) of ``action``, worked out once per position
        and action: a table narrates each action to every seat and the spectators, and what
        the table saw happen is the same for all of them."""
        key = (len(self._history), action)
        memo: tuple[tuple[int, int], list[Event], list[tuple[int, int]]] | None = getattr(
            self, "_narration_memo", None)
        if memo is not None and memo[0] == key:
            return memo
        notes = self._notes_of(action)
        reveals = [(a, b) for kind, a, b, _c in notes if kind == NOTE_READ]
        entry = (key, self._consequences(notes), reveals)
        self._narration_memo: (
            tuple[tuple[int, int], list[Event], list[tuple[int, int]]] | None) = entry
        return entry

    def invalidate_cache(self) -> None:
        """Forget cached legal actions and narration (after editing fields)."""
        super().invalidate_cache()
        self._narration_memo = None

    def _notes_of(self, action: int) -> list[Note]:
        """What the rules noted while applying ``action`` (to a copy, as ``narrate`` is
        asked before the action is applied; the copy's ``log`` makes the rules note)."""
        twin = self.clone()
        notes: list[Note] = []
        twin.log = notes
        twin.apply_action(action)
        return notes

    def _consequences(self, notes: list[Note]) -> list[Event]:
        """What the table saw ``notes`` happen, as events the same for every viewer: quests
        won and lost, swords laid or turned black, siege engines, relics, lives and deaths,
        the traitors the end reveals and the result.

        Told category by category in that order, each change summed over the action (a
        knight's life gained and lost in one action is one line, or none); the totals
        (swords, engines, life left) are those after the action. Every note is public
        (``data`` Notes), so nothing here depends on the viewer.
        """
        quests: list[tuple[int, int]] = []
        white = black = turned = engines = 0
        relics: dict[int, tuple[int, int]] = {}
        life: dict[int, int] = {}
        dead: set[int] = set()
        traitors: list[int] = []
        shown: list[int] = []
        over: tuple[int, int] | None = None
        for kind, a, b, c in notes:
            if kind == NOTE_SHOWN:
                shown.append(a)
            elif kind == NOTE_QUEST:
                quests.append((a, b))
            elif kind == NOTE_LIFE:
                life[a] = life.get(a, 0) + b
            elif kind == NOTE_DIES:
                dead.add(a)
            elif kind == NOTE_SWORDS:
                white += a
                black += b
            elif kind == NOTE_TURNED:
                turned += a
            elif kind == NOTE_SIEGE:
                engines += a
            elif kind == NOTE_RELIC:
                relics[a] = (relics[a][0] if a in relics else b, c)
            elif kind == NOTE_TRAITOR:
                traitors.append(a)
            elif kind == NOTE_OVER:
                over = (a, b)
        out = [event("soc.log.black-turned-up", card=Term(f"soc.black.{BLACK[kind].key}"))
               for kind in shown]
        for location, won in sorted(quests, key=lambda quest: quest[0]):
            key = "soc.log.quest-won" if won else "soc.log.quest-lost"
            out.append(event(key, quest=Term(f"soc.place.{LOCATION_KEYS[location]}")))
        white_total = self.white_swords + white - turned
        black_total = self.black_swords + black + turned
        for count, colour in ((white, "white"), (black, "black")):
            if count:
                verb = "laid" if count > 0 else "removed"
                out.append(event(f"soc.log.{colour}-swords-{verb}", count=abs(count),
                                 white=white_total, black=black_total))
        if turned:
            out.append(event("soc.log.swords-turned-black", count=turned, white=white_total,
                             black=black_total))
        if engines:
            verb = "added" if engines > 0 else "removed"
            out.append(event(f"soc.log.siege-{verb}", count=abs(engines),
                             total=self.siege + engines))
        for relic in sorted(relics):
            first, last = relics[relic]
            term = Term(f"soc.relic.{RELIC_KEYS[relic]}")
            if last >= 0 and last != first:
                out.append(event("soc.log.relic-won", seat=Seat(last), relic=term))
            elif last == GONE and first != GONE:
                out.append(event("soc.log.relic-lost", relic=term))
        for seat in sorted(life.keys() | dead):
            change = life.get(seat, 0)
            if seat in dead:
                out.append(event("soc.log.dies", seat=Seat(seat)))
            elif change:
                key = "soc.log.life-gained" if change > 0 else "soc.log.life-lost"
                out.append(event(key, seat=Seat(seat), count=abs(change),
                                 left=self.life[seat] + change))
        out += [event("soc.log.shown-traitor", seat=Seat(seat)) for seat in traitors]
        if over is not None:
            result, reason = over
            name = ("running", "loyal-win", "evil-win")[result]
            if result == Result.EVIL_WIN and Loyalty.TRAITOR not in self.loyalty:
                name = "evil-win-alone"  # no traitor sat at the table (result_key)
            out.append(event("soc.log.game-result", result=Term(f"soc.result.{name}"),
                             reason=Term(f"soc.end.{END_REASON_KEYS[reason]}")))
        return out

    def _chance_event(
        self, code: int, a: int, b: int, action: int, viewer: int | None
    ) -> Event:
        if code == T.C_KNIGHT:
            knight = Term(f"soc.knight.{KNIGHTS[action - A.DEAL_KNIGHT].key}")
            return event("soc.log.dealt-knight", seat=Seat(a), knight=knight)
        if code == T.C_LOYALTY:
            side = Term("soc.loyalty." + ("traitor" if action == A.DEAL_TRAITOR else "loyal"))
            # VAR-NO-TRAITOR: the cards lie face up; VAR-THREE-BRAVE: nobody looks at his.
            if self.game.open_loyalty or (viewer == a and not self.game.three_brave_knights):
                return event("soc.log.dealt-loyalty-known", seat=Seat(a), loyalty=side)
            return event("soc.log.dealt-loyalty", seat=Seat(a))
        if code == T.C_WHITE:
            card = Term(f"soc.white.{WHITE[action - A.WHITE_CARD].key}")
            if b == Purpose.OFFER:
                return event("soc.log.reveal-white", card=card)
            if viewer == a:
                return event("soc.log.draw-white-known", seat=Seat(a), card=card)
            return event("soc.log.draw-white", seat=Seat(a))
        if code == T.C_BLACK:
            if b == Purpose.PEEK or (b == Purpose.HELD and len(self.agenda) > 1
                                     and self.agenda[-2][0] == T.CLAIRV_DRAW):
                # Percival's look and Clairvoyance's are no draw (SOC-RULING-59): the card
                # goes back on the deck unless he then draws it.
                if viewer == a:
                    card = Term(f"soc.black.{BLACK[action - A.BLACK_CARD].key}")
                    return event("soc.log.look-black-known", seat=Seat(a), card=card)
                return event("soc.log.look-black", seat=Seat(a))
            public = b in (Purpose.PLAY, Purpose.CHAIN) and self.armor_owner != a
            return self._black_event(a, action - A.BLACK_CARD, public, viewer)
        if code == T.C_DIE:
            return event("soc.log.die", value=action - A.DIE + 1)
        if code == T.C_HANDCARD:
            if viewer in (a, b):
                card = Term(f"soc.white.{WHITE[action - A.WHITE_CARD].key}")
                return event("soc.log.take-card-known", seat=Seat(b), victim=Seat(a), card=card)
            return event("soc.log.take-card", seat=Seat(b), victim=Seat(a))
        if code == T.C_DEAL:  # face down: only the knight dealt to sees the card
            if viewer == a:
                card = Term(f"soc.white.{WHITE[action - A.WHITE_CARD].key}")
                return event("soc.log.dealt-white-known", seat=Seat(a), card=card)
            return event("soc.log.dealt-white", seat=Seat(a))
        if code == T.C_TRAVEL:
            travel = Term(f"soc.travel.{TRAVEL_KEYS[action - A.TRAVEL]}")
            return event("soc.log.travel-card", seat=Seat(a), travel=travel)
        return event("soc.log.chance", action=self.action_event(action))

    def action_event(self, action: int) -> Event:
        """The words of ``action`` in the decision under way (a menu entry, a log line).

        The message is the most specific of ``soc.action.<decision>.<text>``,
        ``soc.action.<text>``, ``soc.action.heroic.play.<quest>`` (a card played where the
        knight stands), ``soc.action.<decision>.<kind>`` and ``soc.action.<kind>``; the
        action's argument becomes a parameter (``white``, ``black``, ``place``, ``seat``,
        ``value``, ``knight`` or ``travel``).
        """
        if A.HEAL_ANY <= action < A.CHARGE_ANY + 5:  # "?" cards make up a set (MC-RULING-4)
            if action >= A.CHARGE_ANY:
                key, card, own, extra = "charge-with-any", action - A.CHARGE_ANY, 1, 1
            else:
                key = "heal-with-any"
                card, extra = A.heal_any_parts(action)
                own = 3 - extra
            return Event(f"soc.action.{key}", {
                "white": Term(f"soc.white.{WHITE[card].key}"), "own": own, "extra": extra,
                "any": Term("soc.white.fight-any")})
        text = self.action_to_string(action)
        kind, _, argument = text.partition(":")
        decision = self.decision_name()
        candidates = [f"{decision}.{text}", text]
        if decision == "heroic" and kind == "play" and self.turn_seat >= 0:
            location = self.loc[self.turn_seat]
            if location >= 0:
                candidates.append(f"heroic.play.{LOCATION_KEYS[location]}")
        candidates.append(f"{decision}.{kind}")
        key = next((c for c in candidates if c in SPECIFIC_ACTION_LABELS), kind)
        params: dict[str, Param] = {}
        name = _ARGUMENT_PARAM.get(kind)
        # A label keyed by the whole text ("target:siege") names its argument itself.
        if name is not None and argument and not key.endswith(text):
            if name in ("seat", "value"):
                params[name] = Seat(int(argument)) if name == "seat" else int(argument)
            else:
                params[name] = Term(f"soc.{_TERM_FAMILY[name]}.{argument}")
        return Event(f"soc.action.{key}", params)

    def decision_event(self) -> Event:
        """The decision under way: ``soc.decision.<name>`` (``chance``, ``none`` too)."""
        name = self.decision_name()
        return Event("soc.decision." + ("chance" if name.startswith("chance-") else name))


def result_key(view: Mapping[str, Any]) -> str:
    """The result of a public view as a message key's last part: ``loyal-win``,
    ``evil-win``, or ``evil-win-alone`` when evil won with no traitor at the table.

    >>> result_key({"status": "evil-win", "knights": [{"loyalty": "loyal"}]})
    'evil-win-alone'
    """
    status = str(view["status"])
    knights = view.get("knights", [])
    if status == "evil-win" and not any(k.get("loyalty") == "traitor" for k in knights):
        return "evil-win-alone"
    return status
