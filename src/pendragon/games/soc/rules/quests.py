"""Quests: what may be played on each, when each ends, and what its end brings.

Rule IDs: SOC-QUEST-*, SOC-BK-*, SOC-LANCELOT-*, SOC-DRAGON-*, SOC-EXCALIBUR-*, SOC-GRAIL-*,
SOC-WAR-*, SOC-SIEGE-1 and the sharing of rewards (SOC-RULING-1, SOC-RULING-14); the Black
Knight's reward is a private draw instead, which Sir Bors may take part in (SOC-RULING-69,
MC-KNIGHT-BORS).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import pendragon.games.soc.rules.actions as A
from pendragon.core.tuples import added, replaced, without
from pendragon.games.soc.rules.cards import (
    BLACK,
    BORS,
    DARK_FOREST,
    DESOLATION,
    DESPAIR,
    DRAGON_BONUS,
    FIGHT_ANY,
    FIGHT_KINDS,
    GRAIL_CARD,
    KAY,
    MERLIN,
    MORDRED,
    PALAMEDES,
    VIVIEN,
    WHITE,
    WITCH_KINDS,
    Location,
)
from pendragon.games.soc.rules.data import (
    ARMOR_RELIC,
    EXCALIBUR_RELIC,
    FACE_DOWN_BASE,
    GONE,
    GRAIL_RELIC,
    NOTE_QUEST,
    NOTE_SHOWN,
    VALUE_BASE,
    WITCH_ABSENT_PAY,
    WITCH_BITS,
    WITCH_MERLIN_GONE,
    WITCH_NO_SACRIFICE,
    Status,
    T,
)
from pendragon.games.soc.rules.engine import Engine

#: Fight kinds a knight may play (the "?" card only exists with the expansion).
FIGHTS: Final = (*FIGHT_KINDS, FIGHT_ANY)
#: Excalibur's river: the sword starts at 0 and is won at +5, lost at -5 (SOC-RULING-16).
EXCALIBUR_HOME: Final = 5
GRAIL_SPOTS: Final = 7
WARS: Final = (Location.PICTS, Location.SAXONS)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What winning or losing a quest brings (the pictograms of the Book of Quests)."""

    swords: int
    cards: int
    life: int
    siege: int = 0


#: (victory, defeat) per quest; the Lancelot board's entry is chosen by its phase.
OUTCOMES: Final[dict[str, tuple[Outcome, Outcome]]] = {
    "black-knight": (Outcome(1, 3, 1), Outcome(1, 0, -1)),  # SOC-BK-3, SOC-BK-4
    "lancelot": (Outcome(1, 4, 1), Outcome(1, 0, -1)),  # SOC-LANCELOT-3, -4
    "dragon": (Outcome(2, 7, 2), Outcome(2, 0, -2)),  # SOC-DRAGON-3, -4
    "excalibur": (Outcome(2, 7, 1), Outcome(2, 0, -1)),  # SOC-EXCALIBUR-2, -3
    "grail": (Outcome(3, 7, 1), Outcome(3, 0, -1)),  # SOC-GRAIL-3, -4
    "war": (Outcome(1, 4, 1), Outcome(1, 0, -1, siege=2)),  # SOC-WAR-3, -4
}


def fight_value(code: int) -> int:
    """Value of a white Fight card on a board or in a fight (a "?" card carries its value)."""
    if code >= VALUE_BASE:
        return code // VALUE_BASE
    return WHITE[code].fight_value


def black_value(code: int, dragon: bool) -> int:
    """Value of a black combat card on its quest (Dragon side +4, SOC-DRAGON-1)."""
    kind = code % FACE_DOWN_BASE
    return BLACK[kind].combat_value + (DRAGON_BONUS if dragon else 0)


def combination_mask(values: list[int], max_count: int, max_distinct: int) -> int:
    """The Fight values (bit ``v`` for value ``v``, 1 to 5) that may join ``values`` with
    the whole still able to grow into the quest's combination.

    Two pairs of different values: at most 2 of a value, at most 2 values (SOC-BK-1).
    A full house: at most 3 of a value, at most 2 values (SOC-LANCELOT-1).
    Three different three-of-a-kinds: at most 3 of a value, 3 values (SOC-DRAGON-1).

    >>> bin(combination_mask([1, 1], 2, 2)), bin(combination_mask([1, 1, 3], 2, 2))
    ('0b111100', '0b1000')
    >>> bin(combination_mask([4, 4, 2, 2], 3, 2)), bin(combination_mask([4, 2, 5], 3, 2))
    ('0b10100', '0b0')
    """
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    most = max(counts.values(), default=0)
    mask = 0
    for value in range(1, 6):
        count = counts.get(value, 0)
        if len(counts) + (0 if count else 1) <= max_distinct and max(most, count + 1) <= max_count:
            mask |= 1 << value
    return mask


def fight_fits(kind: int, values: int) -> bool:
    """Whether Fight card ``kind`` has one of the ``values`` (bits, as
    :func:`combination_mask`'s); a "?" card takes any value (MC-W-FIGHT-ANY)."""
    if kind == FIGHT_ANY:
        return values != 0
    return kind in FIGHT_KINDS and bool(values >> WHITE[kind].fight_value & 1)


class QuestRules(Engine):
    """Quest plays, quest ends, rewards and their sharing."""

    # ------------------------------------------------------------------ status
    def quest_open(self, location: int) -> bool:
        """Whether ``location`` can still be travelled to and played on (SOC-RULING-41)."""
        if location == Location.LANCELOT:
            return self.ld_phase < 2
        if location == Location.EXCALIBUR:
            return not self.excal_over
        if location == Location.GRAIL:
            return not self.grail_over
        return True

    def is_solo(self, location: int) -> bool:
        """Solo quests: the Black Knight and Lancelot (SOC-HERO-4)."""
        return location == Location.BLACK_KNIGHT or (
            location == Location.LANCELOT and self.ld_phase == 0
        )

    def solo_knight(self, location: int) -> int:
        """The knight on the solo quest ``location``, or -1 (nobody, or not a solo quest)."""
        if not self.is_solo(location):
            return -1
        present = self.present(location)
        return present[0] if present else -1

    def can_move(self, seat: int, location: int) -> bool:
        """SOC-HERO-3: to another open quest; a solo quest only while free."""
        if location == self.loc[seat] or not self.quest_open(location):
            return False
        return not (self.is_solo(location) and self.present(location))

    def move_options(self, seat: int) -> list[int]:
        """``move:`` ids open to ``seat`` (SOC-HERO-3, SOC-RULING-41), in one pass."""
        # Bit masks of closed quests and of occupied solo quests; this is on the hot path.
        closed = (
            (4 if self.ld_phase >= 2 else 0)
            | (8 if self.excal_over else 0)
            | (16 if self.grail_over else 0)
        )
        solo = 2 | (4 if self.ld_phase == 0 else 0)
        loc = self.loc
        status = self.status
        for other in range(self.n):
            if other != seat and status[other] == 0:
                closed |= solo & (1 << loc[other]) if loc[other] >= 0 else 0
        closed |= 1 << loc[seat]
        base = A.MOVE
        return [base + location for location in range(7) if not closed >> location & 1]

    # ------------------------------------------------------------------ plays
    def combat_white(self, location: int) -> tuple[int, ...]:
        """The white cards on a combat quest."""
        return self.bk_white if location == Location.BLACK_KNIGHT else self.ld_white

    def fight_values_allowed(self, location: int, kind: int) -> list[int]:
        """Values with which Fight card ``kind`` may be played on ``location`` (a "?" card
        may take any value that keeps the combination possible, MC-W-FIGHT-ANY)."""
        values = self.playable_values(location)
        if kind == FIGHT_ANY:
            return [v for v in range(1, 6) if values >> v & 1]
        if fight_fits(kind, values):
            return [fight_value(kind)]
        return []

    def can_play_fight(self, location: int, kind: int) -> bool:
        """Whether Fight card ``kind`` may be played on ``location`` as a quest action."""
        return fight_fits(kind, self.playable_values(location))

    def playable_values(self, location: int) -> int:
        """The values a Fight card played on ``location`` may have (bit ``v`` for value
        ``v``): those that fit its combination (one pass over the board for all five)."""
        if location == Location.BLACK_KNIGHT:
            return combination_mask([fight_value(k) for k in self.bk_white], 2, 2)
        if location == Location.LANCELOT:
            values = [fight_value(k) for k in self.ld_white]
            return combination_mask(values, 3, 2 if self.ld_phase == 0 else 3)
        if location in WARS:
            war = location - Location.PICTS
            played = [fight_value(k) for k in self.war_white[war]]
            mask = 0
            for value in range(1, 6):
                if value not in played or (
                    value == 5 and self.mordred == war and played.count(5) == 1
                ):
                    mask |= 1 << value
            return mask
        return 0

    def quest_plays(self, seat: int) -> list[int]:
        """Legal quest-action ids for ``seat`` where it stands (SOC-HERO-5)."""
        location = self.loc[seat]
        hand = self.hands[seat]
        if location == Location.CAMELOT:
            plays = []
            if self.hand_size(seat) < 12:  # SOC-RULING-2
                plays.append(A.DRAW_WHITE)
            if self.siege:  # SOC-RULING-55; any number of Fight cards (SOC-RULING-25)
                plays.append(A.FIGHT_SIEGE)
            return plays
        if location == Location.EXCALIBUR:  # any card; no Merlin under Vivien (SOC-RULING-78)
            return [A.PLAY + k for k in range(len(hand))
                    if hand[k] and not (k == MERLIN and self.vivien)]
        if location == Location.GRAIL:
            if self.dark_forest or not hand[GRAIL_CARD]:  # SOC-B-DARKFOREST
                return []
            return [A.PLAY + GRAIL_CARD]
        values = self.playable_values(location)
        return [A.PLAY + k for k in FIGHTS if hand[k] and fight_fits(k, values)]

    def play_on_quest(self, seat: int, kind: int) -> None:
        """Apply a knight's quest action with white card ``kind``."""
        location = self.loc[seat]
        if location == Location.EXCALIBUR:
            # SOC-EXCALIBUR-1: any white card, discarded face down (SOC-RULING-42); a Merlin
            # pays as one played (SOC-RULING-78), so Witch 6 takes it out of the game.
            self.take_from_hand(seat, kind, public=False)
            if kind == MERLIN:
                self.spend_merlins(1)
            else:
                self.discard_white(kind)
            self.excal_pos += 1
        elif location == Location.GRAIL:
            self.take_from_hand(seat, kind, public=True)
            if self.grail_white + len(self.grail_black) < GRAIL_SPOTS:
                self.grail_white += 1
            else:  # SOC-GRAIL-2: a full board; the nearest black card goes with the Grail card
                nearest = self.grail_black[-1]
                self.grail_black = self.grail_black[:-1]
                self.black_discard = added(self.black_discard, nearest, 1)
                self.discard_white(kind)
        else:
            if kind == FIGHT_ANY:  # its value is chosen as it is played (MC-W-FIGHT-ANY)
                self.push(T.D_VALUE, seat, 0, location)
                return
            self.take_from_hand(seat, kind, public=True)
            self.place_fight(location, kind)
        self.push(T.QUEST_CHECK, location, seat)

    def spend_merlins(self, count: int) -> None:
        """Played Merlin cards are discarded, or leave the game under Morgan's Witch 6."""
        if self.witches & WITCH_MERLIN_GONE:
            self.white_removed = added(self.white_removed, MERLIN, count)
        else:
            self.discard_white(MERLIN, count)

    def place_fight(self, location: int, code: int) -> None:
        """Lay a Fight card (or a valued "?" card) on a combat quest or a war."""
        if location in WARS:
            war = location - Location.PICTS
            self.war_white = replaced(self.war_white, war, self.war_white[war] + (code,))
        elif location == Location.BLACK_KNIGHT:
            self.bk_white += (code,)
        else:
            self.ld_white += (code,)

    # ------------------------------------------------------------------ ends
    def _auto_quest_check(self, location: int, finisher: int, ender_plus_one: int) -> None:
        """End ``location``'s quest if one side has completed it. ``finisher``: the knight
        whose quest action completed it (-1: evil's card); ``ender_plus_one``: 1 + the seat
        whose black card did (0: none), who chooses the squire knighted (MC-RULING-9)."""
        if location == Location.BLACK_KNIGHT:
            if len(self.bk_white) >= 4 or len(self.bk_black) >= 4:
                self._begin_combat_end(location, finisher, ender_plus_one)
        elif location == Location.LANCELOT:
            if self.ld_phase == 0:
                done = len(self.ld_white) >= 5 or len(self.ld_black) >= 5
            else:
                done = len(self.ld_white) >= 9 or len(self.ld_black) >= 5
            if self.ld_phase < 2 and done:
                self._begin_combat_end(location, finisher, ender_plus_one)
        elif location == Location.EXCALIBUR:
            if not self.excal_over and abs(self.excal_pos) >= EXCALIBUR_HOME:
                self.end_quest(location, self.excal_pos > 0, finisher)
        elif location == Location.GRAIL:
            if not self.grail_over and self.grail_white >= GRAIL_SPOTS:
                self.end_quest(location, True, finisher)
            elif not self.grail_over and len(self.grail_black) >= GRAIL_SPOTS:
                self.end_quest(location, False, finisher)
        else:
            if self.war_figures[location - Location.PICTS] >= 4:
                self.end_quest(location, False, finisher)
            elif not self.playable_values(location):  # 1-5, Mordred's extra 5 (SOC-WAR-1)
                self.end_quest(location, True, finisher)

    def _begin_combat_end(self, location: int, finisher: int, ender_plus_one: int) -> None:
        """SOC-BK-2: the black cards are revealed; Sir Kay may add one card; compare.

        They are shuffled before they are turned up, "k ochraně identity jednotlivých
        hráčů" (003): revealed sorted by card, an order that tells no one who placed which
        (SOC-RULING-34).
        """
        blacks = self.bk_black if location == Location.BLACK_KNIGHT else self.ld_black
        revealed = tuple(sorted(code % FACE_DOWN_BASE for code in blacks))
        for kind in sorted(code % FACE_DOWN_BASE for code in blacks if code >= FACE_DOWN_BASE):
            self.note(NOTE_SHOWN, kind)  # turned face up for all to see (003, 002)
        if location == Location.BLACK_KNIGHT:
            self.bk_black = revealed
        else:
            self.ld_black = revealed
        self.kay_bonus = 0
        self.push(T.COMBAT_COMPARE, location, finisher, ender_plus_one)
        kay = self.seat_of_knight(KAY)
        if kay >= 0 and self.loc[kay] == location:
            # Asked even without a Fight card, so that being asked reveals nothing.
            self.push(T.D_KAY, kay, location)

    def combat_totals(self, location: int) -> tuple[int, int]:
        """(knights' total, evil's total) on a combat quest right now."""
        dragon = location == Location.LANCELOT and self.ld_phase == 1
        whites = self.combat_white(location)
        blacks = self.bk_black if location == Location.BLACK_KNIGHT else self.ld_black
        white_total = sum(fight_value(k) for k in whites) + self.kay_bonus
        owner = self.excalibur_owner
        if owner >= 0 and self.loc[owner] == location:  # SOC-RELIC-EXCALIBUR-1
            white_total += 1
        return white_total, sum(black_value(code, dragon) for code in blacks)

    def _auto_combat_compare(self, location: int, finisher: int, ender_plus_one: int) -> None:
        white_total, black_total = self.combat_totals(location)
        self.kay_bonus = 0
        won = white_total > black_total  # SOC-END-3: ties go to evil...
        if white_total == black_total and self.use_divine_favor():
            won = True  # ...unless Divine Favor is in play (MC-W-DIVINE-FAVOR)
        self.end_quest(location, won, finisher, ender_plus_one - 1)

    def end_quest(self, location: int, won: bool, finisher: int, drawer: int = -1) -> None:
        """SOC-QUEST-1..5: clear the board, bring knights home, apply the outcome.
        ``drawer``: the seat whose black card ended it, if one did (MC-RULING-9)."""
        self.note(NOTE_QUEST, location, int(won))
        present = self.present(location)
        solo = self.is_solo(location)  # before _advance_board turns Lancelot to the Dragon
        key = self._outcome_key(location)
        outcome = OUTCOMES[key][0 if won else 1]
        self._clear_board(location)
        heroism = 1 if self.lift_heroism(location) else 0  # SOC-W-HEROISM
        for seat in present:
            self.arrive(seat, Location.CAMELOT, journey=False)  # carried home (MC-RULING-2)
        if won:
            if self.vivien:  # SOC-B-VIVIEN: a quest won lifts her spell
                self.vivien = False
                self.black_discard = added(self.black_discard, VIVIEN, 1)
            self.lift_witch(WITCH_NO_SACRIFICE)  # MC-B-WITCH-2: until a quest is won
            if self.game.squires:
                self.knight_a_squire(present, finisher if finisher >= 0 else drawer)
            if self.dark_forest and location != Location.GRAIL:  # SOC-RULING-17
                self.dark_forest = False
                self.black_discard = added(self.black_discard, DARK_FOREST, 1)
            for seat in present:
                bonus = 1 if self.knight[seat] == PALAMEDES else 0  # SOC-KNIGHT-PALAMEDES
                self.gain_life(seat, outcome.life + bonus)
            self._award_relic(location, finisher, present)
            self.add_swords(outcome.swords + heroism, 0)
            if present and outcome.cards and not self.result:
                if solo and len(present) == 1:
                    # SOC-RULING-69: a solo quest's lone winner (the Black Knight's, Lancelot's)
                    # draws his reward face down; a group quest's is revealed and shared.
                    self.deal_face_down_reward(present[0], outcome.cards)
                else:
                    giver = finisher if finisher >= 0 and self.in_play(finisher) else present[0]
                    self.start_offer(outcome.cards, present, giver)
        else:
            self._lose_relic(location)
            # Every penalty lands before the end is judged (SOC-RULING-47), the deaths it
            # causes included: judged beneath them, once each dying knight has died or been
            # saved by the Grail (SOC-RULING-75).
            self.push(T.JUDGE_END)
            for seat in reversed(present):
                self.lose_life(seat, -outcome.life)  # SOC-QUEST-5: nobody present, no loss
            if self.witches & WITCH_ABSENT_PAY:  # MC-B-WITCH-7: the absent pay a life
                self.lift_witch(WITCH_ABSENT_PAY)
                for seat in reversed(self.knights_in_play_from(self.turn_seat)):
                    if seat not in present:
                        self.lose_life(seat, 1)
            mist = 1 if self.mist else 0  # SOC-B-MIST
            self.lay_swords(0, outcome.swords + heroism + mist)
            self.gather_siege(outcome.siege)
        self._advance_board(location)

    def _outcome_key(self, location: int) -> str:
        if location == Location.LANCELOT:
            return "lancelot" if self.ld_phase == 0 else "dragon"
        if location in WARS:
            return "war"
        return ("", "black-knight", "", "excalibur", "grail")[location]

    def _clear_board(self, location: int) -> None:
        """Discard the cards and figures of a finished quest."""
        whites: tuple[int, ...] = ()
        blacks: tuple[int, ...] = ()
        if location == Location.BLACK_KNIGHT:
            whites, blacks = self.bk_white, self.bk_black
            self.bk_white = self.bk_black = ()
        elif location == Location.LANCELOT:
            whites, blacks = self.ld_white, self.ld_black
            self.ld_white = self.ld_black = ()
        elif location == Location.GRAIL:
            self.discard_white(GRAIL_CARD, self.grail_white)
            self.grail_white = 0
            blacks = self.grail_black
            self.grail_black = ()
            if self.dark_forest:
                self.dark_forest = False
                self.black_discard = added(self.black_discard, DARK_FOREST, 1)
        elif location in WARS:
            war = location - Location.PICTS
            whites = self.war_white[war]
            self.war_white = replaced(self.war_white, war, ())
            self.war_figures = replaced(self.war_figures, war, 0)
            if self.mordred == war:  # SOC-B-MORDRED
                self.mordred = -1
                self.black_discard = added(self.black_discard, MORDRED, 1)
        else:
            return
        for code in whites:
            self.discard_code(code)
        # Seen cards, all of them: combat cards were turned face up by _begin_combat_end
        # (SOC-RULING-34), so none adds to black_discard_unseen (SOC-RULING-65).
        if blacks:
            discard = list(self.black_discard)
            for code in blacks:
                discard[code % FACE_DOWN_BASE] += 1
            self.black_discard = tuple(discard)

    def _advance_board(self, location: int) -> None:
        """One-time quests close; the Lancelot board turns to the Dragon (SOC-LANCELOT-5)."""
        if location == Location.LANCELOT:
            self.ld_phase += 1
        elif location == Location.EXCALIBUR:
            self.excal_over = True
        elif location == Location.GRAIL:
            self.grail_over = True

    def _award_relic(self, location: int, finisher: int, present: list[int]) -> None:
        """SOC-QUEST-4: the relic goes to the knight whose action ended the quest."""
        winner = finisher if finisher >= 0 and self.status[finisher] == Status.IN_PLAY else (
            present[0] if present else -1
        )
        relic = self._quest_relic(location)
        if relic >= 0:
            self.set_relic(relic, winner if winner >= 0 else GONE)

    def _lose_relic(self, location: int) -> None:
        """SOC-QUEST-4: a lost legendary quest loses its relic for good."""
        relic = self._quest_relic(location)
        if relic >= 0:
            self.set_relic(relic, GONE)

    def _quest_relic(self, location: int) -> int:
        """The relic a quest's end decides (Lancelot's Armor only on Lancelot's side), or -1."""
        if location == Location.LANCELOT and self.ld_phase == 0:
            return ARMOR_RELIC
        if location == Location.EXCALIBUR:
            return EXCALIBUR_RELIC
        if location == Location.GRAIL:
            return GRAIL_RELIC
        return -1

    # ------------------------------------------------------------------ sharing
    def lift_witch(self, bit: int) -> None:
        """A persistent Morgan's Witch card leaves the table."""
        if self.witches & bit:
            self.witches &= ~bit
            for number, witch_bit in WITCH_BITS:
                if witch_bit == bit:
                    self.black_discard = added(self.black_discard, WITCH_KINDS[number - 1], 1)

    def bors_deal(self) -> tuple[int, int] | None:
        """The reward Sir Bors is asked to take part in, while he is (SOC-RULING-69): its
        winner (-1: a random share's, its cards on show) and how many cards; else ``None``."""
        if self.agenda and not self.result and self.agenda[-1][0] == T.D_BORS_DEAL:
            _code, _bors, winner, cards = self.agenda[-1]
            return winner, cards
        return None

    def knight_a_squire(self, present: list[int], chooser: int) -> None:
        """VAR-SQUIRES: a won quest knights one squire present; the player whose action
        ended the quest (``chooser``: the finisher, or the drawer of the black card that ended
        it) chooses (MC-RULING-9)."""
        squires = [s for s in present if self.knight[s] < 0]
        if len(squires) == 1:
            self.push(T.C_KNIGHT, squires[0])
        elif squires:
            decider = chooser if chooser >= 0 and self.in_play(chooser) else squires[0]
            self.push(T.D_KNIGHTING, decider, sum(1 << s for s in squires))

    def _legal_knighting(self, decider: int, squires: int, _c: int) -> list[int]:
        return [
            A.SEAT + s
            for s in range(self.n)
            if squires >> s & 1 and self.knight[s] < 0 and self.in_play(s)
        ]

    def _decide_knighting(self, action: int, _decider: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        self.push(T.C_KNIGHT, action - A.SEAT)

    def _forsaken_knighting(self, _decider: int, squires: int, _c: int) -> None:
        """MC-RULING-9, MC-RULING-23: the knight choosing is gone before he chose; the first
        squire present (as the quest's end found them) still at the table chooses, as when
        the quest's finisher is not in play."""
        self.agenda.pop()
        self.knight_a_squire(
            [s for s in range(self.n) if squires >> s & 1 and self.in_play(s)], -1)

    def deal_face_down_reward(self, winner: int, count: int) -> None:
        """SOC-RULING-69: a solo quest's ``count`` reward cards (the Black Knight's 3,
        Lancelot's 4), dealt face down to its lone ``winner``; with Sir Bors in play (and not
        the winner) Bors is asked first whether he takes part, and if he does they go round
        from the winner, to him and Bors by turns (MC-KNIGHT-BORS: «может участвовать», he
        may, not must)."""
        self.draw_white(winner, count)  # the winner alone: what stands if Bors declines
        bors = self.seat_of_knight(BORS)
        if bors not in (-1, winner):
            # On top of the winner's draws, which it replaces if Bors takes part; a Bors who
            # leaves the table meanwhile (VAR-JOIN) is not asked, and the winner draws all.
            self.push(T.D_BORS_DEAL, bors, winner, count)

    def _legal_bors_deal(self, bors: int, _winner: int, _count: int) -> list[int]:
        return [A.VOLUNTEER, A.PASS] if self.in_play(bors) else []

    def _decide_bors_deal(self, action: int, bors: int, winner: int, count: int) -> None:
        self.agenda.pop()
        if action != A.VOLUNTEER:
            return
        if winner < 0:  # a random share's deal (SOC-RULING-77): he is dealt in with the rest
            self.offer_eligible = (*self.offer_eligible, bors)
            return
        for _ in range(count):  # the winner's own draws, waiting beneath
            if self.agenda and self.agenda[-1] == (T.C_WHITE, winner, 0, 0):
                self.agenda.pop()
        takers = (winner, bors)
        for deal in reversed(range(count)):  # round from the winner (a stack: first on top)
            self.draw_white(takers[deal % 2], 1)

    def start_offer(self, count: int, eligible: list[int], giver: int) -> None:
        """Reveal ``count`` white cards and share them among ``eligible`` (SOC-RULING-1).

        MC-KNIGHT-BORS: Sir Bors may take part in every distribution. Shared by a giver, he is
        among those the giver may choose; dealt face down (``share="random"``, SOC-RULING-77)
        he is asked once the cards are seen whether he is dealt in (``bors-deal``, as for the
        Black Knight's reward, SOC-RULING-69)."""
        bors = self.seat_of_knight(BORS)
        ask_bors = False
        if bors >= 0 and bors not in eligible:
            ask_bors = self.game.random_share
            if not ask_bors:
                eligible = [*eligible, bors]
        self.offer_eligible = tuple(eligible)
        self.offer_giver = giver
        self.push(T.SHARE_NEXT)
        if ask_bors:
            self.push(T.D_BORS_DEAL, bors, -1, count)  # after the cards are revealed
        for _ in range(count):
            self.push(T.C_WHITE, -1, 1)

    def _auto_share_next(self, _a: int, _b: int, _c: int) -> None:
        if not self.offer:
            self.offer_eligible = ()
            self.offer_giver = -1
            return
        eligible = [s for s in self.offer_eligible if self.status[s] == Status.IN_PLAY]
        if not eligible:
            for kind in self.offer:
                self.discard_white(kind)
            self.offer = ()
            return
        self.push(T.SHARE_NEXT)
        if len(eligible) == 1:
            self.give_offered(eligible[0])
        elif self.game.random_share:
            self.deal_offer(eligible)
        else:
            giver = self.offer_giver
            if giver < 0 or self.status[giver] != Status.IN_PLAY:
                # Gone since (VAR-JOIN; his own decision lapsed, MC-RULING-23): the first of
                # the knights sharing them, in turn order, gives (SOC-RULING-57).
                giver = eligible[0]
            self.push(T.D_SHARE, giver)

    def give_offered(self, seat: int) -> None:
        """The first revealed card goes to ``seat``; everyone saw it."""
        kind = self.offer[0]
        self.offer = self.offer[1:]
        self.own_hand(seat)[kind] += 1
        for viewer in range(self.n):
            self.learn(viewer, seat, kind)

    def deal_offer(self, eligible: list[int]) -> None:
        """``share="random"``: the offered cards are shuffled and dealt face down, one at a
        time round the table from the giver (or the next eligible knight after him), so each
        knight sees only his own (SOC-RULING-1, SOC-RULING-77)."""
        giver = self.offer_giver if self.offer_giver >= 0 else eligible[0]
        order = [s for s in self.seats_from(giver) if s in eligible]
        deals = [order[i % len(order)] for i in range(len(self.offer))]
        for seat in reversed(deals):  # the agenda is a stack: the first deal on top
            self.push(T.C_DEAL, seat)

    def deal_offered(self, seat: int, kind: int) -> None:
        """One offered card, drawn from the shuffled ones, goes face down to ``seat``."""
        self.offer = without(self.offer, kind)
        self.own_hand(seat)[kind] += 1

    def share_targets(self) -> list[int]:
        """Seats that may receive the card being shared."""
        return [s for s in self.offer_eligible if self.status[s] == Status.IN_PLAY]

    def _legal_share(self, giver: int, _b: int, _c: int) -> list[int]:
        if not self.offer:
            return []
        return [A.SEAT + s for s in self.share_targets()]

    def _decide_share(self, action: int, _giver: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        self.give_offered(action - A.SEAT)

    # ------------------------------------------------------------------ black on quests
    def place_black_on_quest(self, kind: int, placer: int, face_down: bool) -> None:
        """SOC-BLACK-1, SOC-BLACK-2: a combat card goes on its quest (maybe face down)."""
        self.limbo = without(self.limbo, kind)
        code = kind + (FACE_DOWN_BASE * (placer + 1) if face_down else 0)
        # The placer's card may end the quest: then he chooses the squire knighted if the
        # knights still win (MC-RULING-9).
        if BLACK[kind].quest == Location.BLACK_KNIGHT:
            self.bk_black += (code,)
            self.push(T.QUEST_CHECK, Location.BLACK_KNIGHT, -1, placer + 1)
        else:
            self.ld_black += (code,)
            self.push(T.QUEST_CHECK, Location.LANCELOT, -1, placer + 1)

    def place_on_grail(self, kind: int) -> None:
        """SOC-B-DESPAIR, SOC-B-DESOLATION, SOC-GRAIL-2."""
        self.limbo = without(self.limbo, kind)
        if kind == DESOLATION and self.grail_white:
            self.grail_white -= 1
            self.discard_white(GRAIL_CARD)
        if self.grail_white + len(self.grail_black) < GRAIL_SPOTS:
            self.grail_black += (kind,)
        else:  # a Despair on a full board takes the nearest Grail card with it
            if self.grail_white:
                self.grail_white -= 1
                self.discard_white(GRAIL_CARD)
            self.black_discard = added(self.black_discard, kind, 1)
        self.push(T.QUEST_CHECK, Location.GRAIL, -1)

    def last_standard_black(self, location: int) -> int:
        """Index of the last standard black card on a quest, for Merlin (SOC-RULING-18)."""
        if location == Location.BLACK_KNIGHT:
            return len(self.bk_black) - 1
        if location == Location.LANCELOT:
            return len(self.ld_black) - 1 if self.ld_phase < 2 else -1
        if location == Location.GRAIL:
            for index in range(len(self.grail_black) - 1, -1, -1):
                if self.grail_black[index] == DESPAIR:
                    return index
        return -1
