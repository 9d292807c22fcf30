"""Set-up, the two phases of a turn, heroic actions, siege fights, death and the traitor.

Rule IDs: SOC-SETUP-*, SOC-TURN-*, SOC-EVIL-*, SOC-HERO-*, SOC-CAMELOT-*, SOC-SIEGE-1,
SOC-ACCUSE-*, SOC-TRAITOR-2, SOC-RELIC-GRAIL-1, SOC-KNIGHT-* (Galahad, Gawain, Kay,
Percival, Tristan), SOC-RULING-2..5, -22, -24..26, -37, -40.
"""

from __future__ import annotations

from pendragon.games.soc import actions as A
from pendragon.games.soc.cards import (
    ARTHUR,
    FIGHT_KINDS,
    GALAHAD,
    GAWAIN,
    HEAL_KINDS,
    KAY,
    MERLIN,
    NUM_WHITE,
    PERCIVAL,
    SPECIAL_KINDS,
    TRISTAN,
    WHITE,
    Location,
)
from pendragon.games.soc.data import Heroic, Loyalty, Purpose, Status, T, TurnFlag
from pendragon.games.soc.white_cards import WhiteCardRules


class TurnRules(WhiteCardRules):
    """The flow of a game from the deal to the last turn."""

    __slots__ = ()

    # ------------------------------------------------------------------ set-up
    def _auto_setup_merlin(self, seat: int, _b: int, _c: int) -> None:
        """SOC-SETUP-4: every knight starts with one Merlin card."""
        self.white_deck[MERLIN] -= 1
        self.hands[seat][MERLIN] += 1

    def _auto_setup_contrib(self, _a: int, _b: int, _c: int) -> None:
        """SOC-SETUP-7 then SOC-SETUP-6: first player, opening contributions."""
        arthur = self.knight.index(ARTHUR) if ARTHUR in self.knight else -1
        self.first_seat = arthur if arthur >= 0 else 0
        self.push(T.START_TURN, self.first_seat)
        self.push(T.REVEAL_CONTRIB)
        for seat in reversed(self.seats_from(self.first_seat)):
            self.push(T.D_CONTRIB, seat)

    def _legal_contrib(self, seat: int, _b: int, _c: int) -> list[int]:
        hand = self.hands[seat]
        return [A.PLAY + kind for kind in range(NUM_WHITE) if hand[kind]]

    def _decide_contrib(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        kind = action - A.PLAY
        self.take_from_hand(seat, kind, public=False)  # SOC-RULING-37: chosen face down
        self.contrib[seat] = kind

    def _auto_reveal_contrib(self, _a: int, _b: int, _c: int) -> None:
        order = self.seats_from(self.first_seat)
        self.offer = [self.contrib[s] for s in order if self.contrib[s] >= 0]
        self.contrib = [-1] * self.n
        self.offer_eligible = [s for s in order if self.status[s] == Status.IN_PLAY]
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
        else:
            self.push(T.D_HEROIC, seat)
            self.push(T.D_EVIL, seat)

    def _auto_end_turn(self, seat: int, _b: int, _c: int) -> None:
        """SOC-TURN-1: play passes clockwise to the next knight still taking turns."""
        self.turns += 1
        if self.check_end():
            return
        for nxt in self.seats_from(seat + 1):
            if self.status[nxt] != Status.DEAD:
                self.push(T.START_TURN, nxt)
                return

    # ------------------------------------------------------------------ evil phase
    def _legal_evil(self, seat: int, _b: int, _c: int) -> list[int]:
        if self.status[seat] != Status.IN_PLAY:
            return []
        legal = [A.DRAW_BLACK, A.ADD_SIEGE, A.LOSE_LIFE]  # SOC-EVIL-1
        if self.has_knight(seat, PERCIVAL) and not self.turn_flags & TurnFlag.PEEKED:
            legal.append(A.PEEK)  # SOC-RULING-22
        if self.can_arthur_exchange(seat):
            legal.append(A.ARTHUR_EXCHANGE)
        return legal

    def _decide_evil(self, action: int, seat: int, _b: int, _c: int) -> None:
        if action == A.PEEK:
            self.peek(seat)
            return
        if action == A.ARTHUR_EXCHANGE:
            self.start_arthur_exchange(seat)
            return
        self.agenda.pop()
        if action == A.DRAW_BLACK:  # SOC-EVIL-2
            self.draw_black(seat, Purpose.PLAY)
        elif action == A.ADD_SIEGE:  # SOC-EVIL-3
            self.add_siege(1)
        else:  # SOC-EVIL-4
            self.lose_life(seat, 1)

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
        if not used & Heroic.MOVE and (actions_left or free_move):  # SOC-HERO-3
            options += self.move_options(seat)
        if actions_left and not used & Heroic.QUEST:  # SOC-HERO-5
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
        if actions_left and not used & Heroic.ACCUSE and self.can_accuse(seat):  # SOC-HERO-8
            options += [
                A.ACCUSE + s
                for s in range(self.n)
                if s != seat and self.status[s] == Status.IN_PLAY
            ]
        return options

    def can_accuse(self, seat: int) -> bool:
        """SOC-ACCUSE-1: once per game, from 6 swords or 6 siege engines."""
        return not self.accused[seat] and (
            self.white_swords + self.black_swords >= 6 or self.siege >= 6
        )

    def _legal_heroic(self, seat: int, _b: int, _c: int) -> list[int]:
        if self.status[seat] != Status.IN_PLAY or self.turn_flags & TurnFlag.SKIP_HEROIC:
            return []
        options = self.heroic_options(seat, self.actions_left)
        if self.actions_left == 0:
            if (
                not self.turn_flags & TurnFlag.SACRIFICED
                and self.life[seat] >= 1
                and self.heroic_options(seat, 1)
            ):
                options.append(A.SACRIFICE)  # SOC-HERO-2
            if options:
                options.append(A.END_TURN)
        elif not options:
            options.append(A.END_TURN)  # nothing at all can be done
        if options and self.can_arthur_exchange(seat):
            options.append(A.ARTHUR_EXCHANGE)
        return options

    def _use(self, kind: int) -> None:
        self.actions_left -= 1
        self.used_types |= kind

    def _decide_heroic(self, action: int, seat: int, _b: int, _c: int) -> None:
        if action == A.END_TURN:
            self.agenda.pop()
        elif action == A.SACRIFICE:
            self.turn_flags |= TurnFlag.SACRIFICED
            self.actions_left += 1
            self.lose_life(seat, 1, deferred=True)  # SOC-RULING-3, SOC-RULING-26
        elif action == A.ARTHUR_EXCHANGE:
            self.start_arthur_exchange(seat)
        elif A.MOVE <= action < A.MOVE + len(Location):
            if (
                self.knight[seat] == TRISTAN
                and self.loc[seat] == Location.CAMELOT
                and not self.turn_flags & TurnFlag.TRISTAN_FREE
            ):  # SOC-KNIGHT-TRISTAN
                self.turn_flags |= TurnFlag.TRISTAN_FREE
                self.used_types |= Heroic.MOVE
            else:
                self._use(Heroic.MOVE)
            self.leave_location(seat)
            self.loc[seat] = action - A.MOVE
        elif action == A.DRAW_WHITE:  # SOC-CAMELOT-2, SOC-KNIGHT-GAWAIN
            self._use(Heroic.QUEST)
            self.draw_white(seat, 3 if self.knight[seat] == GAWAIN else 2)
        elif action == A.FIGHT_SIEGE:  # SOC-SIEGE-1
            self._use(Heroic.QUEST)
            self.siege_cards = []
            self.siege_die = 0
            self.push(T.D_SIEGE, seat)
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
            kind = action - A.HEAL
            for _ in range(3):
                self.take_from_hand(seat, kind, public=True)
            self.discard_white(kind, 3)
            self.gain_life(seat, 1)
        elif A.ACCUSE <= action < A.ACCUSE + self.n:
            self._use(Heroic.ACCUSE)
            self.accuse(seat, action - A.ACCUSE)

    def accuse(self, seat: int, target: int) -> None:
        """SOC-ACCUSE-2, SOC-ACCUSE-3."""
        self.accused[seat] = True
        if self.loyalty[target] == Loyalty.TRAITOR:
            self.unmask(target, by_accusation=True)
        elif self.white_swords:
            self.white_swords -= 1
            self.black_swords += 1
            self.check_end()

    # ------------------------------------------------------------------ siege fight
    def _legal_siege(self, seat: int, _b: int, _c: int) -> list[int]:
        hand = self.hands[seat]
        legal = [A.PLAY + kind for kind in FIGHT_KINDS if hand[kind]]
        if self.siege_cards:
            legal.append(A.DONE)
        return legal

    def _decide_siege(self, action: int, seat: int, _b: int, _c: int) -> None:
        if action != A.DONE:
            kind = action - A.PLAY
            self.take_from_hand(seat, kind, public=True)
            self.siege_cards.append(kind)
            return
        self.agenda.pop()
        self.kay_bonus = 0
        self.push(T.SIEGE_RESOLVE, seat)
        if self.knight[seat] == KAY:  # SOC-RULING-24: after seeing the die
            self.push(T.D_KAY, seat, -1)
        self.push(T.C_DIE, seat)

    def _legal_kay(self, seat: int, _quest: int, _c: int) -> list[int]:
        if self.status[seat] != Status.IN_PLAY:
            return []
        hand = self.hands[seat]
        return [A.PLAY + kind for kind in FIGHT_KINDS if hand[kind]] + [A.PASS]

    def _decide_kay(self, action: int, seat: int, _quest: int, _c: int) -> None:
        """SOC-KNIGHT-KAY: one more Fight card once the black cards (or the die) are known."""
        self.agenda.pop()
        if action != A.PASS:
            kind = action - A.PLAY
            self.take_from_hand(seat, kind, public=True)
            self.discard_white(kind)
            self.kay_bonus += WHITE[kind].fight_value

    def siege_total(self, seat: int) -> int:
        """The knight's side of a siege fight."""
        total = sum(WHITE[k].fight_value for k in self.siege_cards) + self.kay_bonus
        return total + (1 if self.excalibur_owner == seat else 0)

    def _auto_siege_resolve(self, seat: int, _b: int, _c: int) -> None:
        won = self.siege_total(seat) > self.siege_die  # SOC-END-3: ties to evil
        for kind in self.siege_cards:
            self.discard_white(kind)
        self.siege_cards = []
        self.kay_bonus = 0
        if won:
            self.siege -= 1
        else:
            self.lose_life(seat, 1)

    # ------------------------------------------------------------------ death
    def _auto_dying(self, seat: int, _b: int, _c: int) -> None:
        if self.status[seat] != Status.IN_PLAY or self.life[seat] > 0:
            return
        owner = self.grail_owner
        if owner >= 0 and self.status[owner] == Status.IN_PLAY:
            self.push(T.D_GRAIL, owner, seat)  # SOC-RELIC-GRAIL-1
        else:
            self.die(seat)

    def _legal_grail(self, owner: int, dying: int, _c: int) -> list[int]:
        return [A.DRINK_GRAIL, A.PASS]

    def _decide_grail(self, action: int, owner: int, dying: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.DRINK_GRAIL:
            self.life[dying] = 4
            self.grail_owner = -2
        else:
            self.die(dying)

    # ------------------------------------------------------------------ the traitor
    def _legal_traitor_target(self, seat: int, _b: int, _c: int) -> list[int]:
        return [
            A.SEAT + s
            for s in range(self.n)
            if self.status[s] == Status.IN_PLAY and self.hand_size(s)
        ]

    def _decide_traitor_target(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        self.push(T.C_HANDCARD, action - A.SEAT, seat)

    def _legal_traitor_evil(self, seat: int, _b: int, _c: int) -> list[int]:
        return [A.ADD_SIEGE, A.DRAW_BLACK]

    def _decide_traitor_evil(self, action: int, seat: int, _b: int, _c: int) -> None:
        self.agenda.pop()
        if action == A.ADD_SIEGE:
            self.add_siege(1)
        else:
            self.draw_black(seat, Purpose.PLAY)


R = TurnRules
R.AUTO.update(
    {
        T.SETUP_MERLIN: R._auto_setup_merlin,  # type: ignore[dict-item]
        T.SETUP_CONTRIB: R._auto_setup_contrib,  # type: ignore[dict-item]
        T.REVEAL_CONTRIB: R._auto_reveal_contrib,  # type: ignore[dict-item]
        T.START_TURN: R._auto_start_turn,  # type: ignore[dict-item]
        T.END_TURN: R._auto_end_turn,  # type: ignore[dict-item]
        T.SIEGE_RESOLVE: R._auto_siege_resolve,  # type: ignore[dict-item]
        T.DYING: R._auto_dying,  # type: ignore[dict-item]
    }
)
R.LEGAL.update(
    {
        T.D_CONTRIB: R._legal_contrib,  # type: ignore[dict-item]
        T.D_EVIL: R._legal_evil,  # type: ignore[dict-item]
        T.D_HEROIC: R._legal_heroic,  # type: ignore[dict-item]
        T.D_SIEGE: R._legal_siege,  # type: ignore[dict-item]
        T.D_KAY: R._legal_kay,  # type: ignore[dict-item]
        T.D_GRAIL: R._legal_grail,  # type: ignore[dict-item]
        T.D_TRAITOR_TARGET: R._legal_traitor_target,  # type: ignore[dict-item]
        T.D_TRAITOR_EVIL: R._legal_traitor_evil,  # type: ignore[dict-item]
    }
)
R.DECIDE.update(
    {
        T.D_CONTRIB: R._decide_contrib,  # type: ignore[dict-item]
        T.D_EVIL: R._decide_evil,  # type: ignore[dict-item]
        T.D_HEROIC: R._decide_heroic,  # type: ignore[dict-item]
        T.D_SIEGE: R._decide_siege,  # type: ignore[dict-item]
        T.D_KAY: R._decide_kay,  # type: ignore[dict-item]
        T.D_GRAIL: R._decide_grail,  # type: ignore[dict-item]
        T.D_TRAITOR_TARGET: R._decide_traitor_target,  # type: ignore[dict-item]
        T.D_TRAITOR_EVIL: R._decide_traitor_evil,  # type: ignore[dict-item]
    }
)
