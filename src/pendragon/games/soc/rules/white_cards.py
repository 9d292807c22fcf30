"""Special white cards and the card-passing powers (King Arthur, Messenger).

Rule IDs: SOC-HERO-6, SOC-W-*, SOC-KNIGHT-ARTHUR, SOC-RULING-18, -23, -27, -28, -29, -31,
-36, -43, -44.
"""

from __future__ import annotations

from typing import Final

import pendragon.games.soc.rules.actions as A
from pendragon.core.tuples import added, replaced, without
from pendragon.games.soc.rules.black_cards import BlackCardRules
from pendragon.games.soc.rules.cards import (
    CALL_FOR_HELP,
    CLAIRVOYANCE,
    CONVOCATION,
    DARK_FOREST,
    DISPEL,
    DIVINE_FAVOR,
    DRAGON_SLAYER,
    FATE,
    HEROISM,
    LADY,
    MERLIN,
    MERLIN_RESCUE,
    MESSENGER,
    MIST,
    MORDRED,
    NEW_HOPE,
    NUM_LOCATIONS,
    NUM_WHITE,
    PIETY,
    REINFORCEMENTS,
    TOURNAMENT,
    TRUCE,
    VIVIEN,
    WITCH_KINDS,
    Location,
)
from pendragon.games.soc.rules.data import (
    FACE_DOWN_BASE,
    KNOWN_BASE,
    WITCH_BITS,
    Loyalty,
    Purpose,
    Status,
    T,
    TurnFlag,
)
from pendragon.games.soc.rules.quests import WARS

#: The special cards whose whole effect, once played, is a decision of the player's: that
#: decision's task, by card kind (:meth:`WhiteCardRules.play_special`).
_DECISION_OF: Final[dict[int, int]] = {
    MERLIN: T.D_MERLIN,
    FATE: T.D_FATE,
    HEROISM: T.D_HEROISM,
    MESSENGER: T.D_MSG_TARGET,
    PIETY: T.D_PIETY,
    REINFORCEMENTS: T.D_REINF,
    DISPEL: T.D_DISPEL,
    DRAGON_SLAYER: T.D_SLAYER,
    MERLIN_RESCUE: T.D_RESCUE,
    TOURNAMENT: T.D_TOURNAMENT,
    TRUCE: T.D_TRUCE,
}


class WhiteCardRules(BlackCardRules):
    """Playing special white cards and passing cards between knights."""

    def merlin_targets(self) -> list[int]:
        """SOC-RULING-18: what a Merlin card can remove right now."""
        targets = []
        if self.siege:
            targets.append(A.TARGET_SIEGE)
        if self.bk_black:
            targets.append(A.TARGET + Location.BLACK_KNIGHT)
        if self.ld_black and self.ld_phase < 2:
            targets.append(A.TARGET + Location.LANCELOT)
        if self.last_standard_black(Location.GRAIL) >= 0:
            targets.append(A.TARGET + Location.GRAIL)
        for war in WARS:
            if self.war_figures[war - Location.PICTS]:
                targets.append(A.TARGET + war)
        return targets

    def hand_plays(self, seat: int) -> list[int]:
        """A ``play:`` action for each kind of white card in ``seat``'s hand."""
        hand = self.hands[seat]
        return [A.PLAY + kind for kind in range(NUM_WHITE) if hand[kind]]

    def others_in_play(self, seat: int) -> list[int]:
        """Every other knight in play, in turn order after ``seat``."""
        return [s for s in self.knights_in_play_from(seat) if s != seat]

    def special_playable(self, seat: int, kind: int) -> bool:
        """Whether ``seat`` may play special card ``kind`` now (it holds one)."""
        if kind == MERLIN:
            return not self.vivien and bool(self.merlin_targets())  # SOC-B-VIVIEN
        if kind == MESSENGER:
            return self.hand_size(seat) >= 2 and bool(self.others_in_play(seat))
        if kind == CLAIRVOYANCE:
            return self.black_deck_size() + sum(self.black_discard) > 0
        if kind == CALL_FOR_HELP:  # MC-W-CALL-FOR-HELP: only to a group quest
            location = self.loc[seat]
            return location != Location.CAMELOT and not self.is_solo(location)
        if kind == DISPEL:
            return bool(self.dispel_targets())
        if kind == TRUCE:
            return bool(self._legal_truce(seat, 0, 0))
        return kind in (
            CONVOCATION, FATE, HEROISM, LADY, PIETY, REINFORCEMENTS, DIVINE_FAVOR,
            DRAGON_SLAYER, MERLIN_RESCUE, NEW_HOPE, TOURNAMENT,
        )

    def play_special(self, seat: int, kind: int) -> None:
        """Play special card ``kind`` from ``seat``'s hand (SOC-HERO-6)."""
        if kind == MERLIN:
            self.take_from_hand(seat, kind, public=True)
            self.spend_merlins(1)  # MC-B-WITCH-6 may take it out of the game
        elif kind == DIVINE_FAVOR:  # it stays in play until the next tie (MC-W-DIVINE-FAVOR)
            self.take_from_hand(seat, kind, public=True)
            if self.divine_favor:
                self.discard_white(kind)
            self.divine_favor = True
            return
        elif kind != HEROISM:  # Heroism leaves the hand when it is laid on its quest
            self.take_from_hand(seat, kind, public=True)
            self.discard_white(kind)
        decision = _DECISION_OF.get(kind)
        if decision is not None:  # the card's own choice comes next
            self.push(decision, seat)
        elif kind == CONVOCATION:
            self._ask_around(seat, T.CONVOKE_RESOLVE, T.D_CONVOKE,
                             self.knights_in_play_from(seat))
        elif kind == CALL_FOR_HELP:
            self._ask_around(seat, T.CALL_RESOLVE, T.D_CALL, self.others_in_play(seat))
        elif kind == LADY:  # SOC-W-LADY, SOC-RULING-31
            if self.excal_over:
                self.gain_life(seat, 2)
            else:
                self.excal_pos += 1
                self.push(T.QUEST_CHECK, Location.EXCALIBUR, seat)
        elif kind == CLAIRVOYANCE:
            self.held = ()
            self.held_seat = seat
            self.push(T.D_CLAIRV, seat)
            self.push(T.CLAIRV_DRAW, seat, min(5, self._clairvoyance_reach()))
        elif kind == NEW_HOPE:  # MC-W-NEW-HOPE: a new hand of the same size
            count = self.hand_size(seat)
            self.discard_hand(seat)
            self.draw_white(seat, count)

    def _ask_around(self, seat: int, resolve: int, ask: int, knights: list[int]) -> None:
        """Ask ``knights`` in turn order (the decision ``ask`` each), then ``resolve``:
        Convocation and Call for Help, played by ``seat``."""
        self.answered = ()
        self.push(resolve, seat)
        for knight in reversed(knights):
            self.push(ask, knight, seat)

    # ------------------------------------------------------------------ Merlin's Company
    def _legal_call(self, seat: int, caller: int, _c: int) -> list[int]:
        if (not self.in_play(seat) or self.captured[seat] or not self.in_play(caller)
                or self.loc[seat] == self.loc[caller]):
            return []  # a caller gone (VAR-JOIN) calls nobody: there is nowhere to go
        return [A.ANSWER, A.PASS]

    def _auto_call_resolve(self, caller: int, _b: int, _c: int) -> None:
        """MC-W-CALL-FOR-HELP: they come without an action and without a travel card."""
        for seat in self.answered:
            if self.in_play(seat) and self.in_play(caller):
                self.arrive(seat, self.loc[caller])
        self.answered = ()

    def dispel_targets(self) -> list[int]:
        """MC-W-DISPEL: special black cards whose lasting effect is on the table."""
        targets = []
        for flag, kind in ((self.vivien, VIVIEN), (self.dark_forest, DARK_FOREST),
                           (self.mist, MIST), (self.mordred >= 0, MORDRED)):
            if flag:
                targets.append(A.CHOOSE_BLACK + kind)
        for number, bit in WITCH_BITS:
            if self.witches & bit:
                targets.append(A.CHOOSE_BLACK + WITCH_KINDS[number - 1])
        return targets

    def _legal_dispel(self, seat: int, _b: int, _c: int) -> list[int]:
        return self.dispel_targets()

    def _decide_dispel(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        kind = action - A.CHOOSE_BLACK
        if kind == VIVIEN:
            self.vivien = False
        elif kind == DARK_FOREST:
            self.dark_forest = False
        elif kind == MIST:
            self.mist = False
        elif kind == MORDRED:
            # MC-RULING-25: his war no longer needs the extra 5, so a 1-5 run there wins it.
            war = self.mordred
            self.mordred = -1
            self.push(T.QUEST_CHECK, Location.PICTS + war, seat)
        else:
            self.witches &= ~dict(WITCH_BITS)[WITCH_KINDS.index(kind) + 1]
        self.black_discard = added(self.black_discard, kind, 1)

    def _legal_truce(self, seat: int, _b: int, _c: int) -> list[int]:
        return [
            A.TARGET + war
            for war in WARS
            if self.war_figures[war - Location.PICTS] or self.war_white[war - Location.PICTS]
            or self.mordred == war - Location.PICTS or self.heroism == war
        ]

    def _decide_truce(self, action: int, seat: int, _b: int, _c: int) -> None:
        """MC-W-TRUCE: every figure and card leaves that war's board, Heroism lying there
        included (000: "Уберите все фигурки (и карты)")."""
        self.agenda.pop()
        self.lift_heroism(action - A.TARGET)
        war = action - A.TARGET - Location.PICTS
        self.war_figures = replaced(self.war_figures, war, 0)
        for code in self.war_white[war]:
            self.discard_code(code)
        self.war_white = replaced(self.war_white, war, ())
        if self.mordred == war:
            self.mordred = -1
            self.black_discard = added(self.black_discard, MORDRED, 1)

    def _legal_slayer(self, seat: int, _b: int, _c: int) -> list[int]:
        on_dragon = self.loc[seat] == Location.LANCELOT and self.ld_phase == 1
        return [A.SLAYER_DRAW] + ([A.SLAYER_FIGHT] if on_dragon and self.quest_plays(seat) else [])

    def _decide_slayer(self, action: int, seat: int, _b: int, _c: int) -> None:
        """MC-W-DRAGON-SLAYER: 3 white cards, or two Fight cards at once on the Dragon."""
        self.agenda.pop()
        if action == A.SLAYER_DRAW:
            self.draw_white(seat, 3)
        else:
            self.push(T.D_SLAYER_PLAY, seat, 2)

    def _legal_slayer_play(self, seat: int, _remaining: int, _c: int) -> list[int]:
        if self.loc[seat] != Location.LANCELOT or self.ld_phase != 1:
            return []
        return self.quest_plays(seat)

    def _decide_slayer_play(self, action: int, seat: int, remaining: int, _c: int) -> None:
        self.agenda.pop()
        if remaining > 1:
            self.push(T.D_SLAYER_PLAY, seat, remaining - 1)
        self.play_on_quest(seat, action - A.PLAY)

    def _legal_rescue(self, seat: int, _b: int, _c: int) -> list[int]:
        return [A.TARGET + loc for loc in range(1, NUM_LOCATIONS) if loc != self.merlin_loc]

    def _decide_rescue(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        self.merlin_loc = action - A.TARGET  # MC-W-MERLIN-RESCUE: any quest, over or not

    def _legal_tournament(self, seat: int, _b: int, _c: int) -> list[int]:
        squires = [A.SEAT + s for s in range(self.n) if self.in_play(s) and self.knight[s] < 0]
        return [A.SELF, *squires] if self.game.squires else [A.SELF]

    def _decide_tournament(self, action: int, seat: int, _b: int, _c: int) -> None:
        """MC-W-TOURNAMENT: 2 life, or (VAR-SQUIRES) a squire is knighted at once."""
        self.agenda.pop()
        if action == A.SELF:
            self.gain_life(seat, 2)
        else:
            self.push(T.C_KNIGHT, action - A.SEAT)

    def _clairvoyance_reach(self) -> int:
        """How many black cards Clairvoyance can take: the deck's, and once it runs out the
        discard pile's, reshuffled into a new deck as at any draw (SOC-RULING-43)."""
        return self.black_deck_size() + sum(self.black_discard)

    # ------------------------------------------------------------------ Merlin
    def _legal_merlin(self, seat: int, _b: int, _c: int) -> list[int]:
        return self.merlin_targets()

    def _decide_merlin(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.TARGET_SIEGE:
            self.gather_siege(-1)
            return
        location = action - A.TARGET
        if location in WARS:
            self.war_figures = added(self.war_figures, location - Location.PICTS, -1)
            return
        index = self.last_standard_black(location)
        if location == Location.BLACK_KNIGHT:
            code = self.bk_black[index]
            self.bk_black = self.bk_black[:index] + self.bk_black[index + 1 :]
        elif location == Location.LANCELOT:
            code = self.ld_black[index]
            self.ld_black = self.ld_black[:index] + self.ld_black[index + 1 :]
        else:
            code = self.grail_black[index]
            self.grail_black = self.grail_black[:index] + self.grail_black[index + 1 :]
        kind = code % FACE_DOWN_BASE
        self.black_discard = added(self.black_discard, kind, 1)
        if code >= FACE_DOWN_BASE:  # a face-down card goes unseen (SOC-RULING-18, -65)
            self.black_discard_unseen[kind] += 1

    # ------------------------------------------------------------------ Convocation
    def _legal_convoke(self, seat: int, _player: int, _c: int) -> list[int]:
        # SOC-RULING-27: only a knight away from Camelot can return there; MC-RULING-13:
        # a captive is held where he is until freed.
        if (self.status[seat] != Status.IN_PLAY or self.loc[seat] == Location.CAMELOT
                or self.captured[seat]):
            return []
        return [A.ANSWER, A.PASS]

    def _decide_convoke(self, action: int, seat: int, _player: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.ANSWER:
            self.answered += (seat,)

    def _auto_convoke_resolve(self, player: int, _b: int, _c: int) -> None:
        """SOC-W-CONVOCATION, SOC-RULING-27: one white card for each knight who returns
        (002: "Для каждого рыцаря вернувшегося в Камелот"), shared among those knights."""
        returning = [
            s for s in self.answered
            if self.status[s] == Status.IN_PLAY and self.loc[s] != Location.CAMELOT
            and not self.captured[s]
        ]
        self.answered = ()
        for seat in returning:
            self.arrive(seat, Location.CAMELOT, journey=False)  # MC-RULING-2
        if returning:
            self.start_offer(len(returning), returning, player)

    # ------------------------------------------------------------------ Fate
    def _legal_fate(self, seat: int, _b: int, _c: int) -> list[int]:
        # Every player of Fate is asked, so being asked reveals nothing (SOC-RULING-28).
        if (
            self.loyalty[seat] == Loyalty.TRAITOR
            and self.status[seat] == Status.IN_PLAY
            and self.loyalty_known_to_self(seat)  # VAR-THREE: he may not know it yet
        ):
            return [A.FATE_LOYAL, A.FATE_REVEAL]
        return [A.FATE_LOYAL]

    def _decide_fate(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.FATE_LOYAL:
            for knight in reversed(self.knights_in_play_from(seat)):
                self.draw_white(knight, 1)
            return
        others = self.others_in_play(seat)
        self.unmask(seat, by_accusation=False)
        for knight in reversed(others):
            if self.hand_size(knight):
                self.push(T.D_DISCARD, knight, 2)

    def _forsaken_fate(self, seat: int, b: int, c: int) -> None:
        """MC-RULING-23: the player of Fate is gone before he said how: the card does what it
        does played by a loyal knight (000: «Если карту играет лояльный Рыцарь, все Рыцари
        получают по одной белой карте»); a knight gone cannot reveal himself."""
        self._decide_fate(A.FATE_LOYAL, seat, b, c)

    def unmask(self, seat: int, by_accusation: bool) -> None:
        """SOC-TRAITOR-1: the traitor leaves the board, his hand and two relics."""
        self.take_off_board(seat, Status.UNMASKED)  # he keeps Lancelot's Armor
        if by_accusation:
            self.add_swords(1, 0)  # SOC-ACCUSE-2
        self.check_end()

    # ------------------------------------------------------------------ Heroism, Piety...
    def _legal_heroism(self, seat: int, _b: int, _c: int) -> list[int]:
        return [
            A.TARGET + loc
            for loc in range(1, NUM_LOCATIONS)
            if self.quest_open(loc)
        ]

    def _decide_heroism(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        self.take_from_hand(seat, HEROISM, public=True)
        self.heroism = action - A.TARGET  # SOC-RULING-29: it stays there until that quest ends
        if self.is_solo(self.heroism):  # SOC-RULING-72: his attempt's, else the layer's
            knight = self.solo_knight(self.heroism)
            self.heroism_bound = knight if knight >= 0 else seat

    def _legal_self_others(self, seat: int, _b: int, _c: int) -> list[int]:
        return [A.SELF, A.OTHERS]

    def _decide_piety(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.SELF:
            self.gain_life(seat, 3)
        else:  # SOC-RULING-12, SOC-RULING-36
            for knight in self.others_in_play(seat):
                self.gain_life(knight, 1)

    def _decide_reinforcements(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.SELF:
            self.draw_white(seat, 4)
        else:
            for knight in reversed(self.others_in_play(seat)):
                self.draw_white(knight, 1)

    # ------------------------------------------------------------------ Clairvoyance
    def _auto_clairv_draw(self, seat: int, remaining: int, _c: int) -> None:
        if remaining > 0 and self.in_play(seat):  # gone meanwhile: he looks at no more
            self.push(T.CLAIRV_DRAW, seat, remaining - 1)
            self.draw_black(seat, Purpose.HELD)
        elif len(self.held) == 1:  # one card looked at: no order to choose (SOC-RULING-43)
            self._clairv_put_back(seat)

    def _legal_clairv(self, seat: int, _b: int, _c: int) -> list[int]:
        return sorted({A.CHOOSE_BLACK + kind for kind in self.held})

    def _decide_clairv(self, action: int, seat: int, _b: int, _c: int) -> None:
        """SOC-W-CLAIRVOYANCE: choose the order; the first chosen card will be drawn first.

        Every place but the last is chosen, one decision each, even when the cards left are
        alike (a choice of one): how many times the player is asked is public, and must not
        tell the table what he saw (SOC-RULING-43)."""
        kind = action - A.CHOOSE_BLACK
        self.held = without(self.held, kind)
        self.picks += (kind,)
        if len(self.held) <= 1:
            self.agenda.pop()
            self._clairv_put_back(seat)

    def _forsaken_clairv(self, seat: int, _b: int, _c: int) -> None:
        """MC-RULING-23: the player of Clairvoyance is gone before he finished ordering the
        cards: they go back on the deck as they stand, those he placed first."""
        self.agenda.pop()
        self._clairv_put_back(seat)

    def _clairv_put_back(self, seat: int) -> None:
        """The chosen cards, then the one left, go back on the deck, known to ``seat``."""
        picks = self.picks + self.held
        self.held = ()
        for card in reversed(picks):
            self.black_top += (card + KNOWN_BASE * (1 << seat),)
        self.picks = ()
        self.held_seat = -1

    # ------------------------------------------------------------------ passing cards
    def _legal_msg_target(self, seat: int, _b: int, _c: int) -> list[int]:
        if not self.hand_size(seat):
            return []
        return [A.SEAT + s for s in self.others_in_play(seat)]

    def _decide_msg_target(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        self.push(T.D_MSG_CARD, seat, action - A.SEAT, 0)

    def _legal_msg_card(self, seat: int, target: int, given: int) -> list[int]:
        if self.status[target] != Status.IN_PLAY or given >= 3:
            return []
        plays = self.hand_plays(seat)
        if plays and given:
            plays.append(A.DONE)
        return plays

    def _decide_msg_card(self, action: int, seat: int, target: int, given: int) -> None:
        """SOC-W-MESSENGER, SOC-RULING-44: up to 3 cards, face down."""
        self.agenda.pop()
        if action == A.DONE:
            return
        self.pass_card(seat, target, action - A.PLAY)
        self.push(T.D_MSG_CARD, seat, target, given + 1)

    def pass_card(self, giver: int, receiver: int, kind: int) -> None:
        """A card passed face down: giver and receiver know it, no one else."""
        self.take_from_hand(giver, kind, public=False, seen_by=1 << receiver)
        self.own_hand(receiver)[kind] += 1
        self.learn(giver, receiver, kind)

    def can_arthur_exchange(self, seat: int) -> bool:
        """SOC-KNIGHT-ARTHUR, SOC-RULING-23: once per turn, with a card and a partner."""
        return (
            self.has_knight(seat, 0)
            and not self.turn_flags & TurnFlag.ARTHUR_USED
            and self.hand_size(seat) > 0
            and bool(self.others_in_play(seat))
        )

    def start_arthur_exchange(self, seat: int) -> None:
        """King Arthur begins the exchange."""
        self.turn_flags |= TurnFlag.ARTHUR_USED
        self.push(T.D_ARTHUR_TARGET, seat)

    def _legal_arthur_target(self, seat: int, _b: int, _c: int) -> list[int]:
        return [A.SEAT + s for s in self.others_in_play(seat)]

    def _decide_arthur_target(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        self.push(T.D_ARTHUR_CARD, seat, action - A.SEAT)

    def _legal_give_to(self, seat: int, other: int, _c: int) -> list[int]:
        """A card of ``seat``'s hand for ``other``, while he is in play: King Arthur's card
        and the one he gets back (SOC-KNIGHT-ARTHUR)."""
        if self.status[other] != Status.IN_PLAY:
            return []
        return self.hand_plays(seat)

    def _decide_arthur_card(self, action: int, seat: int, target: int, _c: int) -> None:
        self.agenda.pop()
        self.pass_card(seat, target, action - A.PLAY)
        self.push(T.D_ARTHUR_RETURN, target, seat)

    def _decide_arthur_return(self, action: int, seat: int, arthur: int, _c: int) -> None:
        self.agenda.pop()
        self.pass_card(seat, arthur, action - A.PLAY)
