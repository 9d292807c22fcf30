"""Black cards: drawing (Lancelot's Armor), cancelling (3 Merlins, Excalibur), effects.

Rule IDs: SOC-EVIL-2, SOC-BLACK-*, SOC-B-*, SOC-RELIC-ARMOR-1, SOC-RELIC-EXCALIBUR-2,
SOC-RULING-19, -20, -21, -30, -32, -35.
"""

from __future__ import annotations

import pendragon.games.soc.rules.actions as A
from pendragon.core.tuples import added, replaced, without
from pendragon.games.soc.rules.cards import (
    BLACK,
    DARK_FOREST,
    DESOLATION,
    DESPAIR,
    EXCALIBUR_CARD,
    GRAIL_CARD,
    GUINEVERE,
    MERCENARIES,
    MERLIN,
    MIST,
    MORDRED,
    MORGAN_1,
    MORGAN_2,
    MORGAN_3,
    MORGAN_4,
    MORGAN_5,
    PICTS_CARD,
    SAXONS_CARD,
    VIVIEN,
    WITCH_KINDS,
    Location,
)
from pendragon.games.soc.rules.data import (
    EXCALIBUR_RELIC,
    GONE,
    KNOWN_BASE,
    NOTE_READ,
    WITCH_BITS,
    Purpose,
    Status,
    T,
    TurnFlag,
)
from pendragon.games.soc.rules.quests import QuestRules


class BlackCardRules(QuestRules):
    """What happens from the moment a black card leaves the deck."""

    def on_black_drawn(self, seat: int, purpose: int, kind: int) -> None:
        if purpose == Purpose.PEEK:  # SOC-KNIGHT-PERCIVAL: only he learns it
            self.to_black_top(kind, 1 << seat)
            return
        if purpose == Purpose.HELD:
            self.limbo = without(self.limbo, kind)
            self.held += (kind,)
            self.held_seat = seat
            return
        armor_blocked = purpose == Purpose.PLAY and self.turn_flags & TurnFlag.PERC_ARMOR
        if self.armor_owner == seat and not armor_blocked and self.black_deck_size():
            # SOC-RELIC-ARMOR-1: draw a second card, keep one, the other goes under the deck.
            self.limbo = without(self.limbo, kind)
            self.held += (kind,)
            self.held_seat = seat
            self.push(T.ARMOR_SECOND, seat, purpose)
            return
        self.start_black(kind, seat)

    def _auto_armor_second(self, seat: int, purpose: int, _c: int) -> None:
        self.push(T.D_ARMOR, seat, purpose)
        self.draw_black(seat, Purpose.HELD)

    def _legal_held_black(self, _seat: int, _b: int, _c: int) -> list[int]:
        """One of the black cards held aside (the Armor's two, SOC-RELIC-ARMOR-1; Percival's
        two with the Armor, SOC-RULING-21): the one to resolve, or to keep on top."""
        return sorted({A.CHOOSE_BLACK + kind for kind in self.held})

    def _decide_armor(self, action: int, seat: int, _purpose: int, _c: int) -> None:
        self.agenda.pop()
        kind = action - A.CHOOSE_BLACK
        for other in without(self.held, kind):  # SOC-RULING-21: only the owner knows
            self.limbo += (other,)  # the card below
            self.to_black_bottom(other, 1 << seat)
        self.held = ()
        self.held_seat = -1
        self.limbo += (kind,)
        self.start_black(kind, seat)

    def _forsaken_armor(self, seat: int, purpose: int, c: int) -> None:
        """MC-RULING-23: the Armor's owner is gone before he chose: the card he drew first is
        played as if he had drawn it alone, and the Armor's second card goes under the deck
        as the one not chosen does (SOC-RELIC-ARMOR-1)."""
        if self.held:
            self._decide_armor(A.CHOOSE_BLACK + self.held[0], seat, purpose, c)
        else:  # pragma: no cover - the first card is held before the decision is pushed
            self.agenda.pop()

    def start_black(self, kind: int, seat: int) -> None:
        """Reveal and resolve a drawn card, after the chances to cancel it.

        Three Merlins may cancel a special card "только в момент появления карты" (000):
        every card appears as it is drawn, in Morgan's chain too (SOC-RULING-10, -19), and
        Excalibur may cancel any card just drawn (SOC-RULING-20).
        """
        self.note(NOTE_READ, seat, kind)  # SOC-EVIL-2: read out to the table
        self.cancelled = False
        self.pledges = ()
        self.push(T.BLACK_RESOLVE, kind, seat)
        self.push(T.EXCAL_OFFER, kind, seat)
        if BLACK[kind].special and not self.vivien:
            # SOC-BLACK-4, SOC-RULING-19: every knight in play is asked, holder or not.
            self.push(T.BLACK_AFTER_POOL, kind, seat)
            for knight in reversed(self.knights_in_play_from(seat)):
                self.push(T.D_POOL, knight, kind)

    # ------------------------------------------------------------------ cancelling
    def _legal_pool(self, seat: int, _kind: int, _c: int) -> list[int]:
        if len(self.pledges) >= 3 or self.status[seat] != Status.IN_PLAY:
            return []
        if self.hands[seat][MERLIN]:
            return [A.PLEDGE_MERLIN, A.PASS]
        return [A.PASS]

    def _decide_pool(self, action: int, seat: int, _kind: int, _c: int) -> None:
        if action == A.PASS:
            self.agenda.pop()
            return
        self.take_from_hand(seat, MERLIN, public=True)
        self.pledges += (seat,)  # the seat is asked again until it passes

    def _auto_after_pool(self, _kind: int, _seat: int, _c: int) -> None:
        if len(self.pledges) >= 3:
            self.cancelled = True
            self.spend_merlins(3)
        else:  # too few: the pledged cards go back, and everyone saw them
            for seat in self.pledges:
                if not self.in_play(seat):
                    # Pledged by a knight gone since (VAR-JOIN): it goes where his hand went
                    # (SOC-DEATH-1).
                    self.discard_white(MERLIN)
                    continue
                self.own_hand(seat)[MERLIN] += 1
                for viewer in range(self.n):
                    self.learn(viewer, seat, MERLIN)
        self.pledges = ()

    def _auto_excal_offer(self, kind: int, _seat: int, _c: int) -> None:
        owner = self.excalibur_owner
        if not self.cancelled and owner >= 0 and self.status[owner] == Status.IN_PLAY:
            self.push(T.D_EXCAL, owner, kind)  # SOC-RELIC-EXCALIBUR-2, SOC-RULING-20

    def _legal_excal(self, owner: int, _kind: int, _c: int) -> list[int]:
        if self.excalibur_owner != owner or self.status[owner] != Status.IN_PLAY:
            return []
        return [A.SACRIFICE_EXCALIBUR, A.PASS]

    def _decide_excal(self, action: int, _owner: int, _kind: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.SACRIFICE_EXCALIBUR:
            self.set_relic(EXCALIBUR_RELIC, GONE)
            self.cancelled = True

    # ------------------------------------------------------------------ effects
    def _auto_resolve(self, kind: int, seat: int, _c: int) -> None:
        if self.cancelled:
            self.cancelled = False
            self.discard_black(kind)
            return
        if BLACK[kind].combat_value:
            if self.combat_quest_over(kind):
                self._for_finished_quest(kind)
            else:
                self.push(T.D_FACE, seat, kind)  # SOC-BLACK-2
        elif kind in (DESPAIR, DESOLATION):
            if self.grail_over:
                self._for_finished_quest(kind)
            else:
                self.place_on_grail(kind)
        elif kind == DARK_FOREST:
            if self.grail_over:
                self._for_finished_quest(kind)
            else:
                self.limbo = without(self.limbo, kind)
                self.dark_forest = True
        elif kind == EXCALIBUR_CARD:
            if self.excal_over:
                self._for_finished_quest(kind)
            else:
                self.discard_black(kind)
                self.excal_pos -= 1
                self.push(T.QUEST_CHECK, Location.EXCALIBUR, -1)
        elif kind in (PICTS_CARD, SAXONS_CARD):
            self.discard_black(kind)
            self.add_figure(Location.PICTS if kind == PICTS_CARD else Location.SAXONS)
        elif kind in (MERCENARIES, MORDRED):
            self.push(T.D_WAR_TARGET, seat, kind)
        elif kind == GUINEVERE:
            self.discard_black(kind)
            for knight in self.knights_in_play_from(seat):
                if not self.captured[knight]:  # MC-RULING-13: a captive stays held
                    self.leave_location(knight)
                    self.loc = replaced(self.loc, knight, Location.CAMELOT)
            if seat == self.turn_seat:
                self.turn_flags |= TurnFlag.SKIP_HEROIC
        elif kind == MIST:
            self.limbo = without(self.limbo, kind)
            self.mist = True
        elif kind == VIVIEN:
            self.limbo = without(self.limbo, kind)
            self.vivien = True
        elif kind == MORGAN_1:
            self.discard_black(kind)
            for knight in reversed(self.knights_in_play_from(seat)):
                self.lose_life(knight, 1)
        elif kind in (MORGAN_2, MORGAN_5):
            self.discard_black(kind)
            self.volunteer = -1
            self.push(T.MORGAN_FALLBACK, kind, seat)
            for knight in reversed(self.knights_in_play_from(seat)):
                self.push(T.D_VOLUNTEER, knight, kind)
        elif kind == MORGAN_3:
            self.discard_black(kind)
            for _ in range(3):
                self.push(T.CHAIN_DRAW, seat)
        elif kind == MORGAN_4:
            self.discard_black(kind)
            self.add_siege(2)
        elif kind in WITCH_KINDS:
            self.resolve_witch(WITCH_KINDS.index(kind) + 1, kind, seat)

    def resolve_witch(self, number: int, kind: int, seat: int) -> None:
        """MC-B-WITCH-1..7: the seven Morgan's Witch cards."""
        for witch, bit in WITCH_BITS:
            if witch == number:  # 2, 5, 6, 7 stay on the table while they act
                self.limbo = without(self.limbo, kind)
                self.witches |= bit
                return
        if number == 1:  # both decks refreshed, then the Witch is discarded
            self.reshuffle()
        self.discard_black(kind)
        if number == 3:  # a Pict and a Saxon
            self.add_figure(Location.SAXONS)
            self.add_figure(Location.PICTS)
        elif number == 4:  # each knight discards a Grail card or loses a life
            for knight in reversed(self.knights_in_play_from(seat)):
                self.push(T.D_WITCH4, knight)

    def _legal_witch4(self, seat: int, _b: int, _c: int) -> list[int]:
        if self.status[seat] != Status.IN_PLAY:
            return []
        grail = [A.PLAY + GRAIL_CARD] if self.hands[seat][GRAIL_CARD] else []
        return [*grail, A.LOSE_LIFE]

    def _decide_witch4(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.LOSE_LIFE:
            # With a Grail card he could have given, the life is his choice, not a loss he
            # is obliged to take (MC-RULING-3); the table cannot see which it is.
            self.lose_life(seat, 1, voluntary=self.hands[seat][GRAIL_CARD] > 0, hidden=True)
        else:
            self.take_from_hand(seat, GRAIL_CARD, public=True)
            self.discard_white(GRAIL_CARD)

    def _for_finished_quest(self, kind: int) -> None:
        """SOC-BLACK-3: a card for a quest that is over adds a siege engine instead.

        With the played-black-cards rule (on by default with the expansion) the card then
        leaves the game (MC-PLAYED-BLACK). The Merlin figure standing on that quest changes
        nothing (MC-MERLIN: no seed says otherwise).
        """
        if self.game.played_black:
            self.limbo = without(self.limbo, kind)
            self.black_removed = added(self.black_removed, kind, 1)
        else:
            self.discard_black(kind)
        self.add_siege(1)

    def add_figure(self, war: int) -> None:
        """SOC-WAR-2: a Pict or Saxon figure joins its war; the fourth ends it."""
        index = war - Location.PICTS
        self.war_figures = replaced(self.war_figures, index, min(4, self.war_figures[index] + 1))
        self.push(T.QUEST_CHECK, war, -1)

    def _legal_face(self, seat: int, _kind: int, _c: int) -> list[int]:
        if self.status[seat] != Status.IN_PLAY:  # an unmasked traitor draws no white card
            return [A.FACE_DOWN, A.FACE_UP]
        return [A.FACE_DOWN, A.FACE_UP, A.FACE_DOWN_NO_CARD]  # SOC-RULING-67

    def _decide_face(self, action: int, seat: int, kind: int, _c: int) -> None:
        self.agenda.pop()
        self.place_black_on_quest(kind, seat, action != A.FACE_UP)
        if action == A.FACE_DOWN and self.status[seat] == Status.IN_PLAY:
            self.draw_white(seat, 1)  # SOC-BLACK-2; his right, SOC-RULING-67

    def _forsaken_face(self, seat: int, kind: int, c: int) -> None:
        """MC-RULING-23: the drawer is gone before he chose; nobody chose to hide the card,
        so it is placed face up (SOC-BLACK-7), and no white card is drawn for it."""
        self._decide_face(A.FACE_UP, seat, kind, c)

    def _forsaken_war_target(self, _seat: int, _kind: int, _c: int) -> None:
        """MC-RULING-23: Mordred or the Mercenaries still go to a war: the next knight in
        play clockwise from the drawer, who is gone, chooses which."""
        self.hand_over()

    def _legal_war_target(self, seat: int, kind: int, _c: int) -> list[int]:
        return [A.TARGET + Location.PICTS, A.TARGET + Location.SAXONS]

    def _decide_war_target(self, action: int, seat: int, kind: int, _c: int) -> None:
        self.agenda.pop()
        war = action - A.TARGET
        if kind == MORDRED:  # SOC-B-MORDRED, SOC-RULING-32
            self.limbo = without(self.limbo, kind)
            self.mordred = war - Location.PICTS
        else:
            self.discard_black(kind)
            self.add_figure(war)

    def _legal_volunteer(self, seat: int, kind: int, _c: int) -> list[int]:
        if self.volunteer >= 0 or self.status[seat] != Status.IN_PLAY:
            return []
        if kind == MORGAN_2 and self.hand_size(seat) < 3:  # SOC-RULING-30
            return []
        return [A.VOLUNTEER, A.PASS]

    def _decide_volunteer(self, action: int, seat: int, kind: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.VOLUNTEER:
            self.volunteer = seat
            if kind == MORGAN_2:
                self.push(T.D_DISCARD, seat, 3)
            else:  # a volunteer is not obliged to: no Lamorak power (MC-RULING-3)
                self.lose_life(seat, 2, voluntary=True)

    def _auto_morgan_fallback(self, kind: int, drawer: int, _c: int) -> None:
        if self.volunteer < 0:  # nobody volunteered: every knight discards one card
            for knight in reversed(self.knights_in_play_from(drawer)):
                if self.hand_size(knight):
                    self.push(T.D_DISCARD, knight, 1)
        self.volunteer = -1

    def _legal_discard(self, seat: int, remaining: int, _c: int) -> list[int]:
        if remaining <= 0 or self.status[seat] != Status.IN_PLAY:
            return []
        hand = self.hands[seat]
        return [A.PLAY + kind for kind in range(len(hand)) if hand[kind]]

    def _decide_discard(self, action: int, seat: int, remaining: int, _c: int) -> None:
        self.agenda.pop()
        kind = action - A.PLAY
        self.take_from_hand(seat, kind, public=False)  # SOC-BLACK-6: discards face down
        self.discard_white(kind)
        if remaining > 1:
            self.push(T.D_DISCARD, seat, remaining - 1)

    def _auto_chain_draw(self, seat: int, _b: int, _c: int) -> None:
        self.draw_black(seat, Purpose.CHAIN)  # SOC-B-MORGAN-3

    def _auto_perc_armor_second(self, seat: int, _b: int, _c: int) -> None:
        self.draw_black(seat, Purpose.HELD)

    def _decide_perc_bottom(self, action: int, seat: int, _b: int, _c: int) -> None:
        """SOC-RULING-21: Percival with the Armor keeps one card on top, one goes under."""
        self.agenda.pop()
        kind = action - A.CHOOSE_BLACK
        self.limbo += (kind,)
        self.to_black_bottom(kind, 1 << seat)
        for other in without(self.held, kind):
            self.limbo += (other,)
            self.to_black_top(other, 1 << seat)
        self.held = ()
        self.held_seat = -1

    def _forsaken_perc_bottom(self, seat: int, b: int, c: int) -> None:
        """MC-RULING-23: Percival is gone before he chose: the top card he looked at stays
        on top, and the Armor's second card goes under the deck (as with the Armor's draw,
        :meth:`_forsaken_armor`)."""
        if self.held:
            self._decide_perc_bottom(A.CHOOSE_BLACK + self.held[-1], seat, b, c)
        else:  # the deck had nothing to show him
            self.agenda.pop()
            self.held_seat = -1

    def peek(self, seat: int) -> None:
        """SOC-KNIGHT-PERCIVAL: look at the top black card (two with the Armor)."""
        self.turn_flags |= TurnFlag.PEEKED
        if self.armor_owner == seat:
            self.turn_flags |= TurnFlag.PERC_ARMOR
            self.push(T.D_PERC_BOTTOM, seat)
            self.push(T.PERC_ARMOR_SECOND, seat)
            self.draw_black(seat, Purpose.HELD)
        elif self.black_top:
            code = self.black_top[-1]
            if not (code // KNOWN_BASE) & (1 << seat):
                self.black_top = self.black_top[:-1] + (code + KNOWN_BASE * (1 << seat),)
        else:
            self.draw_black(seat, Purpose.PEEK)
