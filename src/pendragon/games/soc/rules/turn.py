"""Set-up, the two phases of a turn, heroic actions, siege fights, death and the traitor.

Rule IDs: SOC-SETUP-*, SOC-TURN-*, SOC-EVIL-*, SOC-HERO-*, SOC-CAMELOT-*, SOC-SIEGE-1,
SOC-ACCUSE-*, SOC-TRAITOR-2, SOC-RELIC-GRAIL-1, SOC-KNIGHT-* (Galahad, Gawain, Kay,
Percival, Tristan), SOC-RULING-2..5, -22, -24..26, -37, -40, -63, -70.
"""

from __future__ import annotations

import pendragon.games.soc.rules.actions as A
from pendragon.core.tuples import added, replaced
from pendragon.games.soc.rules.cards import (
    ARTHUR,
    BEDIVERE,
    CARADOC,
    FIGHT_ANY,
    FIGHT_KINDS,
    GAHERIS,
    GALAHAD,
    GAWAIN,
    GERAINT,
    GRAIL_CARD,
    HEAL_KINDS,
    KAY,
    MERLIN,
    NUM_LOCATIONS,
    NUM_WHITE,
    OWAIN,
    PERCIVAL,
    SPECIAL_KINDS,
    TRISTAN,
    WHITE,
    Location,
)
from pendragon.games.soc.rules.data import (
    AMBUSHED,
    CAPTURED,
    CHARGED,
    GONE,
    GRAIL_RELIC,
    LOST,
    MERLIN_TRAVELS,
    NOTHING,
    VALUE_BASE,
    VISION,
    WITCH_DOUBLE_ACCUSE,
    WITCH_NO_SACRIFICE,
    Heroic,
    Loyalty,
    Purpose,
    Status,
    T,
    TurnFlag,
)
from pendragon.games.soc.rules.quests import FIGHTS, fight_value
from pendragon.games.soc.rules.white_cards import WhiteCardRules


class TurnRules(WhiteCardRules):
    """The flow of a game from the deal to the last turn."""

    # ------------------------------------------------------------------ set-up
    def _auto_setup_merlin(self, seat: int, _b: int, _c: int) -> None:
        """SOC-SETUP-4: every knight starts with one Merlin card (not one whose player
        has already left the table, VAR-JOIN)."""
        if self.in_play(seat):
            self.white_deck[MERLIN] -= 1
            self.own_hand(seat)[MERLIN] += 1

    def _auto_setup_contrib(self, _a: int, _b: int, _c: int) -> None:
        """SOC-SETUP-7 then SOC-SETUP-6: first player, opening contributions (a player who
        left the table during the set-up, VAR-JOIN, is not the first)."""
        arthur = self.seat_of_knight(ARTHUR)
        in_play = self.knights_in_play_from(0)
        self.first_seat = arthur if arthur >= 0 else in_play[0] if in_play else 0
        self.push(T.START_TURN, self.first_seat)
        self.push(T.REVEAL_CONTRIB)
        for seat in reversed(self.seats_from(self.first_seat)):
            self.push(T.D_CONTRIB, seat)

    def _legal_contrib(self, seat: int, _b: int, _c: int) -> list[int]:
        return self.hand_plays(seat)

    def _decide_contrib(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        kind = action - A.PLAY
        self.take_from_hand(seat, kind, public=False)  # SOC-RULING-37: chosen face down
        self.contrib = replaced(self.contrib, seat, kind)

    def _auto_reveal_contrib(self, _a: int, _b: int, _c: int) -> None:
        order = self.seats_from(self.first_seat)
        self.offer = tuple([self.contrib[s] for s in order if self.contrib[s] >= 0])
        self.contrib = (-1,) * self.n
        self.offer_eligible = tuple([s for s in order if self.status[s] == Status.IN_PLAY])
        self.offer_giver = self.first_seat
        self.push(T.SHARE_NEXT)

    # ------------------------------------------------------------------ turns
    def _auto_start_turn(self, seat: int, _b: int, _c: int) -> None:
        self.turn_seat = seat
        self.actions_left = 1
        self.used_types = 0
        self.turn_flags = 0
        self.doomed = -1
        self.push(T.END_TURN, seat)
        if self.status[seat] == Status.UNMASKED:  # SOC-TRAITOR-2
            self.push(T.D_TRAITOR_EVIL, seat)
            self.push(T.D_TRAITOR_TARGET, seat)
        elif not self.captured[seat]:
            self.push(T.D_HEROIC, seat)
            self.push(T.D_EVIL, seat)
        # MC-TRAVEL-CAPTURED: a captured knight skips his whole turn, Evil included, until
        # another knight frees him (000: "Игрок пропускает ход до тех пор, пока кто-нибудь
        # (но не он сам) не освободит его").

    def _auto_end_turn(self, seat: int, _b: int, _c: int) -> None:
        """SOC-TURN-1: play passes clockwise to the next knight still taking turns."""
        self.turns += 1
        if self.check_end():
            return
        for nxt in self.seats_from(self.next_seat(seat)):
            if self.status[nxt] != Status.DEAD:
                self.push(T.START_TURN, nxt)
                return

    # ------------------------------------------------------------------ evil phase
    def _legal_evil(self, seat: int, _b: int, _c: int) -> list[int]:
        if self.status[seat] != Status.IN_PLAY:
            return []
        legal = [A.DRAW_BLACK, A.ADD_SIEGE]  # SOC-EVIL-1
        if not self.witches & WITCH_NO_SACRIFICE:  # MC-B-WITCH-2
            legal.append(A.LOSE_LIFE)
        if self.has_knight(seat, PERCIVAL) and not self.turn_flags & TurnFlag.PEEKED:
            legal.append(A.PEEK)  # SOC-RULING-22
        if self.has_knight(seat, GERAINT) and self.hand_size(seat) >= 2:
            legal.append(A.GERAINT)  # MC-KNIGHT-GERAINT
        return legal + self.free_powers(seat, heroic=False)

    def free_powers(self, seat: int, heroic: bool = True) -> list[int]:
        """The knights' powers that are no heroic action: Arthur's exchange and Merlin's
        gift in either phase, once a turn (SOC-RULING-23, MC-RULING-24); Gaheris's (as often
        as he pays), Bedivere's and Caradoc's (once a turn) in the heroic phase (MC-RULING-1).
        """
        powers = []
        flags = self.turn_flags
        if self.can_arthur_exchange(seat):
            powers.append(A.ARTHUR_EXCHANGE)
        if not heroic:
            return powers + self.merlin_gift(seat)
        if (
            self.has_knight(seat, GAHERIS)  # as often as he pays (MC-RULING-1)
            and self.white_discard[MERLIN]
            and self.hand_size(seat) >= 3
        ):
            powers.append(A.GAHERIS)  # MC-KNIGHT-GAHERIS
        if self.has_knight(seat, BEDIVERE) and not flags & TurnFlag.BEDIVERE and any(
            self.hands[seat]
        ):
            powers.append(A.BEDIVERE)  # MC-KNIGHT-BEDIVERE
        if (
            self.has_knight(seat, CARADOC)
            and not flags & TurnFlag.CARADOC
            and not self.witches & WITCH_NO_SACRIFICE
        ):
            powers.append(A.CARADOC)  # MC-KNIGHT-CARADOC
        return powers + self.merlin_gift(seat)  # MC-MERLIN, MC-RULING-24: either phase

    def use_free_power(self, seat: int, action: int) -> bool:
        """Apply a knight's power; return whether ``action`` was one."""
        if action == A.ARTHUR_EXCHANGE:
            self.start_arthur_exchange(seat)
        elif action == A.GAHERIS:  # three cards for a Merlin from the discard pile
            self.turn_flags |= TurnFlag.GAHERIS  # used this turn (the tensor shows it)
            self.push(T.GAHERIS_TAKE, seat)
            self.push(T.D_DISCARD, seat, 3)
        elif action == A.BEDIVERE:  # one card discarded, one drawn
            self.turn_flags |= TurnFlag.BEDIVERE
            self.push(T.BEDIVERE_DRAW, seat)
            self.push(T.D_DISCARD, seat, 1)
        elif action == A.CARADOC:  # one life for two cards
            self.turn_flags |= TurnFlag.CARADOC
            self.draw_white(seat, 2)
            self.lose_life(seat, 1, voluntary=True)
        elif action == A.MERLIN_DRAW:  # MC-MERLIN: the wizard's gift, once a turn
            self.turn_flags |= TurnFlag.MERLIN_DRAWN
            self.draw_white(seat, 1)
        else:
            return False
        return True

    def _auto_gaheris_take(self, seat: int, _b: int, _c: int) -> None:
        if self.white_discard[MERLIN] and self.in_play(seat):
            self.white_discard[MERLIN] -= 1
            self.own_hand(seat)[MERLIN] += 1
            for viewer in range(self.n):
                self.learn(viewer, seat, MERLIN)

    def _auto_bedivere_draw(self, seat: int, _b: int, _c: int) -> None:
        self.draw_white(seat, 1)

    def _decide_evil(self, action: int, seat: int, _b: int, _c: int) -> None:
        if action == A.PEEK:
            self.peek(seat)
            return
        if self.use_free_power(seat, action):
            return
        self.agenda.pop()
        if action == A.GERAINT:  # MC-KNIGHT-GERAINT: two cards instead of any evil
            self.push(T.D_DISCARD, seat, 2)
        elif action == A.DRAW_BLACK:  # SOC-EVIL-2
            self.draw_black(seat, Purpose.PLAY)
        elif action == A.ADD_SIEGE:  # SOC-EVIL-3
            self.add_siege(1)
        else:  # SOC-EVIL-4
            self.lose_life(seat, 1, voluntary=True)

    # ------------------------------------------------------------------ heroic phase
    def heroic_options(self, seat: int, actions_left: int) -> list[int]:
        """Heroic actions ``seat`` could take with ``actions_left`` regular actions."""
        used = self.used_types
        flags = self.turn_flags
        options: list[int] = []
        location = self.loc[seat]
        knight = self.knight[seat]
        free_move = (
            knight == TRISTAN and location == Location.CAMELOT and not flags & TurnFlag.TRISTAN_FREE
        )
        # SOC-HERO-3; SOC-HERO-5 and SOC-RULING-76: Camelot's actions are for a knight who
        # does not move this turn (002 "не перемещает своего рыцаря"), in either order.
        if not used & Heroic.MOVE and not flags & TurnFlag.CAMELOT_ACTED and (
            actions_left or free_move
        ):
            options += self.move_options(seat)
        if actions_left and not used & Heroic.QUEST and not (
            location == Location.CAMELOT and used & Heroic.MOVE
        ):
            options += self.quest_plays(seat)
        free_special = knight == GALAHAD and not flags & TurnFlag.GALAHAD_FREE
        if not used & Heroic.SPECIAL and (actions_left or free_special):  # SOC-HERO-6
            hand = self.hands[seat]
            options += [
                A.SPECIAL + kind
                for kind in SPECIAL_KINDS
                if hand[kind] and self.special_playable(seat, kind)
            ]
        if actions_left and not used & Heroic.HEAL and self.life[seat] < 6:  # SOC-HERO-7
            hand = self.hands[seat]
            options += [A.HEAL + kind for kind in HEAL_KINDS if hand[kind] >= 3]
            if hand[FIGHT_ANY]:  # MC-RULING-4: "?" cards make up three of a value
                options += [
                    A.heal_any(kind, extra)
                    for kind in FIGHT_KINDS for extra in (1, 2)
                    if hand[kind] >= 3 - extra and hand[FIGHT_ANY] >= extra
                ]
        if (actions_left and not used & Heroic.SPECIAL and any(self.captured)
                and self._free_cards(seat)):  # MC-TRAVEL-CAPTURED
            options += [
                A.FREE + s for s in range(self.n) if self.captured[s] and s != seat
                and self.in_play(s)
            ]
        if actions_left and not used & Heroic.ACCUSE and self.can_accuse(seat):  # SOC-HERO-8
            options += [
                A.ACCUSE + s
                for s in range(self.n)
                if s != seat and self.status[s] == Status.IN_PLAY
            ]
        return options

    def has_second_action(self, seat: int) -> bool:
        """Whether a sacrificed life would buy any action (a move is the usual one)."""
        if (not self.used_types & Heroic.MOVE and not self.turn_flags & TurnFlag.CAMELOT_ACTED
                and self.move_options(seat)):
            return True
        return bool(self.heroic_options(seat, 1))

    def searches_discard(self, seat: int) -> bool:
        """Whether ``seat`` is Sir Gaheris in his own turn, when he may search the face-down
        white discard pile for a Merlin and so knows how many lie there (MC-RULING-11)."""
        return (self.knight[seat] == GAHERIS and self.turn_seat == seat
                and self.status[seat] == Status.IN_PLAY)

    def sacrifice_open(self, seat: int) -> bool:
        """SOC-HERO-2: the once-a-turn sacrifice is still to be had, as everyone can see
        (whether it would buy an action is :meth:`has_second_action`)."""
        return (
            not self.turn_flags & TurnFlag.SACRIFICED
            and not self.witches & WITCH_NO_SACRIFICE  # MC-B-WITCH-2
            and self.life[seat] >= 1
        )

    def may_act_unseen(self, seat: int) -> bool:
        """Whether, for all the table can see, ``seat``'s hand might still give him something
        to do after his actions (SOC-RULING-70): he holds a card and the sacrifice is open, or
        Galahad's free special card is unused, or Gaheris's search is (the Merlins in the
        discard pile are hidden from the others). Then he is asked, with ending his turn among
        his answers, whether his hand gives him anything or not."""
        if not self.hand_size(seat):
            return False  # an empty hand: what is left to do is public
        if self.sacrifice_open(seat):
            return True
        flags = self.turn_flags
        if (
            self.knight[seat] == GALAHAD
            and not flags & TurnFlag.GALAHAD_FREE
            and not self.used_types & Heroic.SPECIAL
        ):
            return True
        return self.has_knight(seat, GAHERIS) and self.hand_size(seat) >= 3

    def can_accuse(self, seat: int) -> bool:
        """SOC-ACCUSE-1: once per game, from the moment 6 swords lie on the Round Table or 6
        siege engines stand at Camelot (open for good: engines destroyed after do not close
        it, SOC-RULING-5)."""
        return not self.accused[seat] and self.accusations_open()

    def accusations_open(self) -> bool:
        """SOC-ACCUSE-1: whether 6 swords or 6 siege engines have been reached (engines
        standing now were reached: ``siege_reached_six`` is set with the sixth)."""
        return self.white_swords + self.black_swords >= 6 or self.siege_reached_six

    def _legal_heroic(self, seat: int, _b: int, _c: int) -> list[int]:
        if self.status[seat] != Status.IN_PLAY or self.turn_flags & TurnFlag.SKIP_HEROIC:
            return []
        options = self.heroic_options(seat, self.actions_left)
        if self.actions_left == 0:
            if self.sacrifice_open(seat) and self.has_second_action(seat):
                options.append(A.SACRIFICE)  # SOC-HERO-2
            options.extend(self.free_powers(seat))
            if options or self.may_act_unseen(seat):
                options.append(A.END_TURN)  # SOC-RULING-63, SOC-RULING-70
            return options
        heroic = bool(options)
        options.extend(self.free_powers(seat))  # Merlin's gift among them (MC-MERLIN)
        if not heroic:
            options.append(A.END_TURN)  # no heroic action can be taken: only these, or end
        return options

    def merlin_gift(self, seat: int) -> list[int]:
        """MC-MERLIN: a knight on an open quest with the Merlin figure may draw, once a turn."""
        if (
            self.merlin_loc == self.loc[seat]
            and self.quest_open(self.loc[seat])
            and not self.turn_flags & TurnFlag.MERLIN_DRAWN
            and self.hand_size(seat) < 12
        ):
            return [A.MERLIN_DRAW]
        return []

    def _use(self, kind: int) -> None:
        self.actions_left -= 1
        self.used_types |= kind

    def _decide_heroic(self, action: int, seat: int, _b: int, _c: int) -> None:
        if action == A.END_TURN:
            self.agenda.pop()
        elif action == A.SACRIFICE:
            self.turn_flags |= TurnFlag.SACRIFICED
            self.actions_left += 1
            self.lose_life(seat, 1, deferred=True, voluntary=True)  # SOC-RULING-3, -26
        elif self.use_free_power(seat, action):
            pass
        elif A.FREE <= action < A.FREE + self.n:
            self._use(Heroic.SPECIAL)
            self.push(T.D_FREE_CARD, seat, action - A.FREE)
        elif A.MOVE <= action < A.MOVE + NUM_LOCATIONS:
            if (
                self.knight[seat] == TRISTAN
                and self.loc[seat] == Location.CAMELOT
                and not self.turn_flags & TurnFlag.TRISTAN_FREE
            ):  # SOC-KNIGHT-TRISTAN
                self.turn_flags |= TurnFlag.TRISTAN_FREE
                self.used_types |= Heroic.MOVE
            else:
                self._use(Heroic.MOVE)
            destination = action - A.MOVE
            if self.game.expansion and destination != Location.CAMELOT:
                self.push(T.C_TRAVEL, seat, destination)  # MC-TRAVEL: a travel card first
            else:
                self.arrive(seat, destination)
        elif action == A.DRAW_WHITE:  # SOC-CAMELOT-2, SOC-KNIGHT-GAWAIN
            self._use(Heroic.QUEST)
            self.turn_flags |= TurnFlag.CAMELOT_ACTED
            self.draw_white(seat, 3 if self.knight[seat] == GAWAIN else 2)
        elif action == A.FIGHT_SIEGE:  # SOC-SIEGE-1
            self._use(Heroic.QUEST)
            self.turn_flags |= TurnFlag.CAMELOT_ACTED
            self.start_siege_fight(seat)
        elif A.PLAY <= action < A.PLAY + NUM_WHITE:
            self._use(Heroic.QUEST)
            self.play_on_quest(seat, action - A.PLAY)
        elif A.SPECIAL <= action < A.SPECIAL + NUM_WHITE:
            if self.knight[seat] == GALAHAD and not self.turn_flags & TurnFlag.GALAHAD_FREE:
                self.turn_flags |= TurnFlag.GALAHAD_FREE  # SOC-KNIGHT-GALAHAD
                self.used_types |= Heroic.SPECIAL
            else:
                self._use(Heroic.SPECIAL)
            self.play_special(seat, action - A.SPECIAL)
        elif A.HEAL <= action < A.HEAL + NUM_WHITE:  # SOC-HERO-7, SOC-RULING-4
            self._use(Heroic.HEAL)
            self.discard_cards(seat, action - A.HEAL, 3)
            self.gain_life(seat, 1)
        elif A.HEAL_ANY <= action < A.HEAL_ANY + 10:  # SOC-HERO-7 with "?" (MC-RULING-4)
            self._use(Heroic.HEAL)
            kind, extra = A.heal_any_parts(action)
            self.discard_cards(seat, kind, 3 - extra)
            self.discard_cards(seat, FIGHT_ANY, extra)
            self.gain_life(seat, 1)
        elif A.ACCUSE <= action < A.ACCUSE + self.n:
            self._use(Heroic.ACCUSE)
            self.accuse(seat, action - A.ACCUSE)

    def accuse(self, seat: int, target: int) -> None:
        """SOC-ACCUSE-2, SOC-ACCUSE-3 (two swords under Morgan's Witch 5).

        The accused shows his loyalty card to every player, loyal or not (003: "obviněný
        rytíř musí okamžitě ukázat svou kartu věrnosti všem hráčům").
        """
        self.accused = replaced(self.accused, seat, True)
        self.loyalty_shown = replaced(self.loyalty_shown, target, True)
        if self.loyalty[target] == Loyalty.TRAITOR:
            self.unmask(target, by_accusation=True)
        elif self.white_swords:
            self.turn_swords_black(
                min(2 if self.witches & WITCH_DOUBLE_ACCUSE else 1, self.white_swords))
            self.check_end()

    def start_siege_fight(self, seat: int) -> None:
        """SOC-SIEGE-1; Sir Owain rolls first and plays his cards after (MC-KNIGHT-OWAIN)."""
        self.siege_cards = ()
        self.siege_die = 0
        self.siege_won = False
        if self.knight[seat] == OWAIN:
            self.push(T.D_SIEGE, seat, 1)
            self.push(T.C_DIE, seat)
        else:
            self.push(T.D_SIEGE, seat)

    # ------------------------------------------------------------------ travel (MC-TRAVEL)
    def travel_drawn(self, seat: int, destination: int, card: int) -> None:
        """Resolve the travel card a moving knight drew."""
        self.travel_deck = added(self.travel_deck, card, -1)
        self.travel_discard = added(self.travel_discard, card, 1)
        if card == NOTHING:
            self.arrive(seat, destination)
        elif card == VISION:  # to the Grail instead, if its quest is still open
            self.arrive(seat, destination if self.grail_over else Location.GRAIL)
        elif card == MERLIN_TRAVELS:
            self.merlin_loc = destination
            self.arrive(seat, destination)
        elif card == AMBUSHED:
            self.add_siege(1)
            self.push(T.D_TRAVEL, seat, card, destination)
        elif card == CAPTURED:
            self.captured = replaced(self.captured, seat, True)
            if seat == self.turn_seat:
                self.turn_flags |= TurnFlag.SKIP_HEROIC  # nothing more until freed
        else:  # Lost!, Charged!
            self.push(T.D_TRAVEL, seat, card, destination)

    def _legal_travel(self, seat: int, card: int, _destination: int) -> list[int]:
        hand = self.hands[seat]
        if card == LOST:
            return [A.STAY] + ([A.GO] if hand[GRAIL_CARD] else [])
        if card == AMBUSHED:  # a siege fight, with any number of cards (SOC-RULING-25)
            return [A.STAY, A.GO]
        pairs = [A.PLAY + k for k in FIGHTS if hand[k] >= 2]
        if hand[FIGHT_ANY]:  # MC-RULING-4: a "?" makes the pair
            pairs += [A.CHARGE_ANY + k for k in FIGHT_KINDS if hand[k]]
        return [A.STAY, *pairs]

    def discard_cards(self, seat: int, kind: int, count: int) -> None:
        """Discard ``count`` cards of ``kind`` from ``seat``'s hand, face up (a heal, 000:
        «в открытую»; Charged!)."""
        for _ in range(count):
            self.take_from_hand(seat, kind, public=True)
        self.discard_white(kind, count)

    def _decide_travel(self, action: int, seat: int, card: int, destination: int) -> None:
        self.agenda.pop()
        if action == A.STAY:
            if card == CHARGED:  # the challenge refused: a black sword
                self.add_swords(0, 1)
            return
        if card == LOST:  # a Grail card spent to find the way
            self.take_from_hand(seat, GRAIL_CARD, public=True)
            self.discard_white(GRAIL_CARD)
            self.arrive(seat, destination)
        elif card == AMBUSHED:  # fight the new engine; the way is clear only if it falls
            self.push(T.AMBUSH_AFTER, seat, destination)
            self.start_siege_fight(seat)
        elif action >= A.CHARGE_ANY:  # Charged!: a Fight card and a "?" (MC-RULING-4)
            self.discard_cards(seat, action - A.CHARGE_ANY, 1)
            self.discard_cards(seat, FIGHT_ANY, 1)
            self.arrive(seat, destination)
        else:  # Charged!: two identical Fight cards
            self.discard_cards(seat, action - A.PLAY, 2)
            self.arrive(seat, destination)

    def _auto_ambush_after(self, seat: int, destination: int, _c: int) -> None:
        if self.siege_won and self.in_play(seat):
            self.arrive(seat, destination)

    def _free_cards(self, seat: int) -> list[int]:
        """The special white cards ``seat`` may spend to free a captive (MC-TRAVEL-CAPTURED):
        any he holds, but a Merlin while Vivien forbids them (SOC-B-VIVIEN: for any purpose;
        MC-RULING-7: freeing plays the card)."""
        hand = self.hands[seat]
        return [kind for kind in SPECIAL_KINDS
                if hand[kind] and not (kind == MERLIN and self.vivien)]

    def _legal_free_card(self, seat: int, captive: int, _c: int) -> list[int]:
        if not self.in_play(captive):  # the captive left the table (VAR-JOIN)
            return []
        return [A.PLAY + kind for kind in self._free_cards(seat)]

    def _decide_free_card(self, action: int, seat: int, captive: int, _c: int) -> None:
        self.agenda.pop()
        kind = action - A.PLAY
        self.take_from_hand(seat, kind, public=True)
        if kind == MERLIN:
            self.spend_merlins(1)  # MC-B-WITCH-6: a Merlin played leaves the game
        else:
            self.discard_white(kind)
        self.captured = replaced(self.captured, captive, False)

    # ------------------------------------------------------------------ "?" cards, Lamorak
    def _legal_value(self, seat: int, context: int, location: int) -> list[int]:
        if context == 0:  # on a quest: values that keep the combination possible
            return [A.VALUE + v - 1 for v in self.fight_values_allowed(location, FIGHT_ANY)]
        return [A.VALUE + v for v in range(5)]

    def _decide_value(self, action: int, seat: int, context: int, location: int) -> None:
        """MC-W-FIGHT-ANY: the "?" card takes the chosen value for good."""
        self.agenda.pop()
        value = action - A.VALUE + 1
        code = FIGHT_ANY + VALUE_BASE * value
        self.take_from_hand(seat, FIGHT_ANY, public=True)
        if context == 0:
            self.place_fight(location, code)
            self.push(T.QUEST_CHECK, location, seat)
        elif context == 1:
            self.siege_cards += (code,)
        else:
            self.discard_white(FIGHT_ANY)
            self.kay_bonus += value

    def _legal_lamorak(self, seat: int, amount: int, chosen: int) -> list[int]:
        """``chosen``: the life is his own choice (Witch 4 with a Grail card held), so only
        giving it is his answer (MC-RULING-3)."""
        if not self.in_play(seat):
            return []
        return [A.LAMORAK, A.PASS] if self.hand_size(seat) >= 2 and not chosen else [A.PASS]

    def _decide_lamorak(self, action: int, seat: int, amount: int, _c: int) -> None:
        """MC-KNIGHT-LAMORAK: two white cards instead of each life he must lose."""
        self.agenda.pop()
        if action == A.PASS:
            self.lose_life(seat, amount, voluntary=True)
            return
        if amount > 1:
            self.push(T.D_LAMORAK, seat, amount - 1)
        self.push(T.D_DISCARD, seat, 2)

    # ------------------------------------------------------------------ siege fight
    def _legal_siege(self, seat: int, _rolled: int, _c: int) -> list[int]:
        # SOC-RULING-25: any number of Fight cards, none included ("libovolný počet").
        hand = self.hands[seat]
        return [A.PLAY + kind for kind in FIGHTS if hand[kind]] + [A.DONE]

    def _decide_siege(self, action: int, seat: int, rolled: int, _c: int) -> None:
        if action != A.DONE:
            kind = action - A.PLAY
            if kind == FIGHT_ANY:  # it leaves the hand once its value is chosen
                self.push(T.D_VALUE, seat, 1)
            else:
                self.take_from_hand(seat, kind, public=True)
                self.siege_cards += (kind,)
            return
        self.agenda.pop()
        self.kay_bonus = 0
        self.push(T.SIEGE_RESOLVE, seat)
        if self.knight[seat] == KAY:  # SOC-RULING-24: after seeing the die
            self.push(T.D_KAY, seat, -1)
        if not rolled:
            self.push(T.C_DIE, seat)

    def _forsaken_siege(self, _seat: int, _rolled: int, _c: int) -> None:
        """MC-RULING-23: the knight is gone in the middle of his siege fight: it is not
        fought on, and the Fight cards he laid go to the discard pile."""
        self.agenda.pop()
        self.abandon_siege_fight()

    def abandon_siege_fight(self) -> None:
        """A siege fight whose knight is gone ends without a result (MC-RULING-23)."""
        for code in self.siege_cards:
            self.discard_code(code)
        self.siege_cards = ()
        self.kay_bonus = 0
        self.siege_won = False

    def _legal_kay(self, seat: int, _quest: int, _c: int) -> list[int]:
        if self.status[seat] != Status.IN_PLAY:
            return []
        hand = self.hands[seat]
        return [A.PLAY + kind for kind in FIGHTS if hand[kind]] + [A.PASS]

    def _decide_kay(self, action: int, seat: int, _quest: int, _c: int) -> None:
        """SOC-KNIGHT-KAY: one more Fight card once the black cards (or the die) are known."""
        self.agenda.pop()
        if action != A.PASS:
            kind = action - A.PLAY
            if kind == FIGHT_ANY:
                self.push(T.D_VALUE, seat, 2)
                return
            self.take_from_hand(seat, kind, public=True)
            self.discard_white(kind)
            self.kay_bonus += WHITE[kind].fight_value

    def siege_total(self, seat: int) -> int:
        """The knight's side of a siege fight."""
        total = sum(fight_value(k) for k in self.siege_cards) + self.kay_bonus
        return total + (1 if self.excalibur_owner == seat else 0)

    def _auto_siege_resolve(self, seat: int, _b: int, _c: int) -> None:
        if not self.in_play(seat):  # gone before the fight was decided (MC-RULING-23)
            self.abandon_siege_fight()
            return
        total = self.siege_total(seat)
        won = total > self.siege_die  # SOC-END-3: ties to evil...
        if total == self.siege_die and self.use_divine_favor():
            won = True  # ...unless Divine Favor is in play
        for code in self.siege_cards:
            self.discard_code(code)
        self.siege_cards = ()
        self.kay_bonus = 0
        self.siege_won = won
        if won:
            self.gather_siege(-1)
        else:
            self.lose_life(seat, 1)

    # ------------------------------------------------------------------ death
    def _auto_dying(self, seat: int, doomed: int, _c: int) -> None:
        """A knight at 0 life dies unless the Grail's owner saves him (SOC-DEATH-1); one who
        sacrificed his last life (``doomed``) dies even if his action gave life back
        (SOC-HERO-2, SOC-RULING-26: "bez ohledu na výsledný efekt akce")."""
        if self.status[seat] != Status.IN_PLAY or (self.life[seat] > 0 and not doomed):
            return
        owner = self.grail_owner
        if owner >= 0 and self.status[owner] == Status.IN_PLAY:
            self.push(T.D_GRAIL, owner, seat)  # SOC-RELIC-GRAIL-1
        else:
            self.die(seat)

    def _legal_grail(self, owner: int, dying: int, _c: int) -> list[int]:
        if not self.in_play(dying):  # the dying knight's player left the table (VAR-JOIN)
            return []
        return [A.DRINK_GRAIL, A.PASS]

    def _forsaken_grail(self, _owner: int, dying: int, _c: int) -> None:
        """MC-RULING-23: the Grail's owner is gone before he chose, and the Grail with him
        (SOC-DEATH-1): nobody saves the dying knight."""
        self.agenda.pop()
        if self.in_play(dying):
            self.die(dying)

    def _decide_grail(self, action: int, owner: int, dying: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.DRINK_GRAIL:
            self.set_life(dying, 4)
            self.set_relic(GRAIL_RELIC, GONE)
        else:
            self.die(dying)

    # ------------------------------------------------------------------ the traitor
    def _legal_traitor_target(self, seat: int, _b: int, _c: int) -> list[int]:
        if self.status[seat] != Status.UNMASKED:  # he left the game: treated as dead (VAR-JOIN)
            return []
        return [
            A.SEAT + s
            for s in range(self.n)
            if self.status[s] == Status.IN_PLAY and self.hand_size(s)
        ]

    def _decide_traitor_target(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        self.push(T.C_HANDCARD, action - A.SEAT, seat)

    def _legal_traitor_evil(self, seat: int, _b: int, _c: int) -> list[int]:
        if self.status[seat] != Status.UNMASKED:  # he left the game: treated as dead (VAR-JOIN)
            return []
        return [A.ADD_SIEGE, A.DRAW_BLACK]

    def _decide_traitor_evil(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.ADD_SIEGE:
            self.add_siege(1)
        else:
            self.draw_black(seat, Purpose.PLAY)
