"""The agenda runner and the primitive moves every rule is built from.

Each task code (see ``data.T``) has its handlers, methods of the rules module of its
mechanism: an automatic step (``_auto_*(a, b, c)``: pops itself, may push more tasks), or
a decision's legal actions (``_legal_*(a, b, c) -> list[int]``) and the handler that
applies one (``_decide_*(action, a, b, c)``). Their tables are in :mod:`.state`, after
:class:`~.state.SocState`, the last class of the chain, which has every handler and calls
them (``SocState.auto``, ``legal_of``, ``decide``).

:meth:`Engine._run` executes automatic steps until a chance node or a decision is on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from pendragon.core.tuples import added, replaced, without
from pendragon.games.soc.rules.cards import (
    BLACK,
    DIVINE_FAVOR,
    GARETH,
    HEROISM,
    LAMORAK,
    NUM_BLACK,
    NUM_WHITE,
    OFF_BOARD,
    Location,
)
from pendragon.games.soc.rules.data import (
    ARMOR_RELIC,
    EXCALIBUR_RELIC,
    FIRST_AUTO,
    FIRST_DECISION,
    GONE,
    GRAIL_RELIC,
    KNOWN_BASE,
    NOTE_DIES,
    NOTE_LIFE,
    NOTE_OVER,
    NOTE_RELIC,
    NOTE_SIEGE,
    NOTE_SWORDS,
    NOTE_TRAITOR,
    NOTE_TURNED,
    VALUE_BASE,
    EndReason,
    Loyalty,
    Purpose,
    Result,
    SocData,
    Status,
    T,
    Task,
    TurnFlag,
)

#: The round cap of SOC-RULING-45.
MAX_ROUNDS: Final = 400
#: The knowledge of one white card of each kind (a record is an immutable count vector).
_ONE_CARD: Final = tuple(
    tuple([int(other == kind) for other in range(NUM_WHITE)]) for kind in range(NUM_WHITE)
)


class Engine(SocData):
    """Agenda execution, card movement, life and death, end of game."""

    # ------------------------------------------------------------------ agenda
    def push(self, code: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        """Schedule a task to run next (the agenda is a stack)."""
        self.agenda.append((code, a, b, c))

    def push_all(self, tasks: Sequence[Task]) -> None:
        """Schedule ``tasks`` to run in the order given."""
        self.agenda.extend(reversed(tasks))

    def _run(self) -> None:
        """Run automatic tasks until a chance node, a decision or the end."""
        agenda = self.agenda
        while agenda and not self.result:
            code, a, b, c = agenda[-1]
            if code == T.D_HEROIC and self.doomed == a and self.actions_left == 0:
                # SOC-RULING-26: the life sacrificed for this action was his last; he dies
                # whatever the action gave him back (b=1), unless the Grail saves him.
                self.doomed = -1
                self.push(T.DYING, a, 1)
                continue
            if code >= FIRST_AUTO:
                agenda.pop()
                self.auto(code, a, b, c)
            elif code < FIRST_DECISION:
                if self._chance_ready(code, a, b):
                    return
                agenda.pop()
            elif self.status[a] == Status.DEAD:
                # MC-RULING-23: no decision waits on a knight who is gone (he died, or his
                # player left the table, VAR-JOIN); the task settles itself without him.
                self.forsake(code, a, b, c)
            elif self._decision_ready(code, a, b, c):
                return
            else:
                agenda.pop()
        if self.result:
            agenda.clear()

    def _chance_ready(self, code: int, a: int, b: int) -> bool:
        """Whether a chance task has outcomes; refills decks first (SOC-BLACK-5)."""
        if code == T.C_WHITE:
            if b == 0 and a >= 0 and self.status[a] != Status.IN_PLAY:
                return False  # a knight who died meanwhile draws nothing
            if not any(self.white_deck):
                self.reshuffle()
            return any(self.white_deck)
        if code == T.C_BLACK:
            return any(self.black_deck)
        if code == T.C_HANDCARD:  # (victim, thief): a traitor who left takes nothing
            return any(self.hands[a]) and self.status[b] != Status.DEAD
        if code == T.C_DIE:  # a siege fight whose knight is gone is not fought on
            return self.in_play(a)
        if code == T.C_DEAL:
            # A card dealt to a knight who is gone stays offered: the share deals it again
            # among those still in play (SHARE_NEXT, beneath).
            return self.in_play(a)
        if code == T.C_TRAVEL:
            if not any(self.travel_deck):  # MC-TRAVEL: the travel deck is reshuffled
                self.travel_deck = self.travel_discard
                self.travel_discard = (0,) * len(self.travel_deck)
            return any(self.travel_deck) and self.in_play(a)
        if code == T.C_KNIGHT:
            return any(k not in self.knight for k in self.game.knight_pool)
        return True

    def _decision_ready(self, code: int, a: int, b: int, c: int) -> bool:
        """Whether a decision task still has a decider; otherwise it is dropped. When it
        has, the agenda stops at it: its legal actions, just listed, are kept for
        ``legal_actions`` (listing a heroic turn's options is a third of a playout)."""
        legal = self.legal_of(code, a, b, c)
        if not legal:
            return False
        self.keep_legal(legal)
        return True

    # The handlers, called by task code: by SocState, the class that has every handler.
    def auto(self, code: int, a: int, b: int, c: int) -> None:
        """Run the automatic step ``code``."""
        raise NotImplementedError

    def legal_of(self, code: int, a: int, b: int, c: int) -> list[int]:
        """The legal actions of the decision ``code``."""
        raise NotImplementedError

    def decide(self, code: int, action: int, a: int, b: int, c: int) -> None:
        """Apply ``action`` to the decision ``code``."""
        raise NotImplementedError

    def forsake(self, code: int, a: int, b: int, c: int) -> None:
        """Settle the decision ``code``, on top of the agenda, whose decider ``a`` is dead
        (MC-RULING-23): take it off (and whatever follows from that) without him."""
        raise NotImplementedError

    def top(self) -> Task:
        """The task waiting for an action."""
        return self.agenda[-1]

    # ------------------------------------------------------------------ seats
    def in_play(self, seat: int) -> bool:
        """A living knight who has not been unmasked (SOC-RULING-39)."""
        return self.status[seat] == Status.IN_PLAY

    def seats_from(self, first: int) -> list[int]:
        """All seats in turn (clockwise) order starting with ``first``."""
        order = self.seat_order
        start = order.index(first % self.n)
        seats = list(order[start:])
        seats.extend(order[:start])
        return seats

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in turn order."""
        order = self.seat_order
        return order[(order.index(seat) + 1) % len(order)]

    def hand_over(self) -> None:
        """The decision on top of the agenda passes from its decider, who is gone, to the
        next knight in play clockwise from him (MC-RULING-23); with none left (the game is
        being judged lost, SOC-END-1) it lapses."""
        code, gone, b, c = self.agenda[-1]
        heirs = self.knights_in_play_from(gone)
        if heirs:
            self.agenda[-1] = (code, heirs[0], b, c)
        else:
            self.agenda.pop()

    def knights_in_play_from(self, first: int) -> list[int]:
        """Knights in play in turn order starting with ``first`` (or the next after it)."""
        return [s for s in self.seats_from(first) if self.status[s] == Status.IN_PLAY]

    def loyalty_known_to_self(self, seat: int) -> bool:
        """VAR-THREE: with three brave knights no one reads his card before 6 swords."""
        return not (
            self.game.three_brave_knights
            and self.white_swords + self.black_swords < 6
            and self.status[seat] != Status.UNMASKED
            and not self.result
        )

    def has_knight(self, seat: int, knight: int) -> bool:
        """Whether ``seat`` is in play with the coat of arms ``knight`` (its power works)."""
        return self.knight[seat] == knight and self.status[seat] == Status.IN_PLAY

    def seat_of_knight(self, knight: int) -> int:
        """The seat in play holding ``knight``, or -1."""
        for seat in range(self.n):
            if self.knight[seat] == knight and self.status[seat] == Status.IN_PLAY:
                return seat
        return -1

    def present(self, location: int) -> list[int]:
        """Knights in play at ``location``, in turn order from the current turn's seat."""
        start = self.turn_seat if self.turn_seat >= 0 else 0
        return [s for s in self.knights_in_play_from(start) if self.loc[s] == location]

    # ------------------------------------------------------------------ cards
    def hand_size(self, seat: int) -> int:
        """Number of white cards in ``seat``'s hand."""
        size = 0
        for count in self.hands[seat]:  # a native loop: sum() is a generic builtin call
            size += count
        return size

    def take_from_hand(self, seat: int, kind: int, public: bool, seen_by: int = 0) -> None:
        """Remove one ``kind`` from ``seat``'s hand, keeping others' knowledge honest.

        A viewer who saw the card leave (everyone when ``public``, else the seats in the
        bitmask ``seen_by``) knows exactly what left; for the others the removal is hidden:
        the card may have been any one of those they knew of, so they can be sure of one
        fewer of each (two Merlins known, one card gone unseen: one Merlin still known).
        """
        self.own_hand(seat)[kind] -= 1
        if not self.known:
            return
        for key in [key for key in self.known if key[1] == seat and key[0] != seat]:
            cards = self.known[key]
            if public or seen_by >> key[0] & 1:
                if cards[kind]:
                    cards = added(cards, kind, -1)
            else:
                cards = tuple(count - 1 if count else 0 for count in cards)
            if any(cards):
                self.known[key] = cards
            else:
                del self.known[key]

    def learn(self, viewer: int, holder: int, kind: int, count: int = 1) -> None:
        """Record that ``viewer`` knows ``holder`` holds ``count`` more ``kind``."""
        if viewer == holder:
            return
        cards = self.known.get((viewer, holder))
        if cards is None and count == 1:
            self.known[(viewer, holder)] = _ONE_CARD[kind]  # the usual case: nothing to build
        else:
            self.known[(viewer, holder)] = added(cards or (0,) * NUM_WHITE, kind, count)

    def forget_hand(self, seat: int) -> None:
        """Drop every knowledge record about ``seat``'s hand (it was emptied)."""
        for key in [k for k in self.known if k[1] == seat]:
            del self.known[key]

    def discard_white(self, kind: int, count: int = 1) -> None:
        """Put white cards on the white discard pile."""
        self.white_discard[kind] += count

    def discard_hand(self, seat: int) -> None:
        """Discard a whole hand (death, unmasking)."""
        hand = self.own_hand(seat)
        for kind in range(NUM_WHITE):
            self.white_discard[kind] += hand[kind]
            hand[kind] = 0
        self.forget_hand(seat)

    def combat_quest_over(self, kind: int) -> bool:
        """Whether ``kind`` is a combat card of a quest that is over (Lancelot/Dragon after
        the Dragon): it can never be laid face down, so it is read out like any card
        (SOC-BLACK-2, SOC-RULING-65)."""
        black = BLACK[kind]
        return bool(black.combat_value) and black.quest == Location.LANCELOT and self.ld_phase >= 2

    def discard_black(self, kind: int) -> None:
        """Put a black card (leaving limbo) on the black discard pile.

        A card in limbo was read out when drawn, except a combat card that might still be
        laid face down: only its drawer saw it (SOC-BLACK-2), so one discarded from limbo
        (cancelled by Excalibur) goes unseen (SOC-RULING-65).
        """
        self.limbo = without(self.limbo, kind)
        self.black_discard = added(self.black_discard, kind, 1)
        if BLACK[kind].combat_value and not self.combat_quest_over(kind):
            self.black_discard_unseen[kind] += 1

    def discard_code(self, code: int) -> None:
        """Discard a white card from a board or a fight (a "?" card carries its value)."""
        self.white_discard[code % VALUE_BASE] += 1

    def reshuffle(self) -> None:
        """SOC-BLACK-5: both discard piles go back into their decks (decks are unordered)."""
        for kind in range(NUM_WHITE):
            self.white_deck[kind] += self.white_discard[kind]
            self.white_discard[kind] = 0
        deck = list(self.black_deck)
        for kind in range(NUM_BLACK):
            deck[kind] += self.black_discard[kind]
            self.black_discard_unseen[kind] = 0
        for code in self.black_top:
            deck[code % KNOWN_BASE] += 1
        for code in self.black_bottom:
            deck[code % KNOWN_BASE] += 1
        self.black_deck = tuple(deck)
        self.black_discard = (0,) * NUM_BLACK
        self.black_top = ()
        self.black_bottom = ()

    def black_deck_size(self) -> int:
        """Cards in the black deck (known top and bottom included)."""
        return sum(self.black_deck) + len(self.black_top) + len(self.black_bottom)

    def draw_white(self, seat: int, count: int) -> None:
        """Schedule ``count`` white draws into ``seat``'s hand (chance nodes)."""
        for _ in range(count):
            self.push(T.C_WHITE, seat, 0)

    def white_drawn(self, seat: int, purpose: int, kind: int) -> None:
        """A white card came off the deck: into a hand or onto the table for sharing."""
        self.white_deck[kind] -= 1
        if purpose == 0:
            self.own_hand(seat)[kind] += 1
        else:
            self.offer += (kind,)
        if not any(self.white_deck):
            self.reshuffle()

    def draw_black(self, seat: int, purpose: int) -> None:
        """Take the top black card for ``purpose``: a known card at once, else chance."""
        if self.black_top:
            top = self.black_top[-1]
            self.black_top = self.black_top[:-1]
            self.black_drawn(seat, purpose, top % KNOWN_BASE, from_deck=False)
        elif any(self.black_deck):
            self.push(T.C_BLACK, seat, purpose)
        elif self.black_bottom:
            bottom = self.black_bottom[0]
            self.black_bottom = self.black_bottom[1:]
            self.black_drawn(seat, purpose, bottom % KNOWN_BASE, from_deck=False)
        else:
            self.reshuffle()
            if self.black_deck_size():
                self.draw_black(seat, purpose)

    def black_drawn(self, seat: int, purpose: int, kind: int, from_deck: bool = True) -> None:
        """A black card left the deck; hand it to the purpose's rule."""
        if from_deck:
            self.black_deck = added(self.black_deck, kind, -1)
        self.limbo += (kind,)
        if not self.black_deck_size() and purpose != Purpose.PEEK:
            # SOC-RULING-59; Percival's look puts the card back: the deck is not used up.
            self.reshuffle()
        self.on_black_drawn(seat, purpose, kind)

    def on_black_drawn(self, seat: int, purpose: int, kind: int) -> None:
        """Dispatch a drawn black card (implemented by the black-card rules)."""
        raise NotImplementedError

    def to_black_bottom(self, kind: int, knowers: int) -> None:
        """Put a card from limbo under the black deck, known to the seats in ``knowers``."""
        self.limbo = without(self.limbo, kind)
        self.black_bottom += (kind + KNOWN_BASE * knowers,)

    def to_black_top(self, kind: int, knowers: int) -> None:
        """Put a card from limbo on top of the black deck, known to ``knowers``."""
        self.limbo = without(self.limbo, kind)
        self.black_top += (kind + KNOWN_BASE * knowers,)

    # ------------------------------------------------------------------ life
    def set_life(self, seat: int, life: int) -> None:
        """``seat``'s life becomes ``life`` (noted for the narration, SOC-QUEST-2)."""
        if life != self.life[seat]:
            self.note(NOTE_LIFE, seat, life - self.life[seat])
            self.life[seat] = life

    def gain_life(self, seat: int, amount: int) -> None:
        """SOC-LIFE-1: life never exceeds 6."""
        if self.status[seat] == Status.IN_PLAY:
            self.set_life(seat, min(6, self.life[seat] + amount))

    def lose_life(
        self, seat: int, amount: int, deferred: bool = False, voluntary: bool = False,
        hidden: bool = False,
    ) -> None:
        """Lose life; at 0 the knight is dying (SOC-DEATH-1, SOC-RULING-26).

        ``deferred``: the life was sacrificed for a second heroic action, so death waits
        until that action is finished. ``voluntary``: chosen by the knight himself, so Sir
        Lamorak's power (MC-KNIGHT-LAMORAK) does not apply. ``hidden``: whether it was his
        choice turns on his hidden hand (Witch 4 with a Grail card, MC-RULING-3), so Lamorak
        is asked either way, his only answer then to give the life.
        """
        if self.status[seat] != Status.IN_PLAY or self.life[seat] == 0:
            return
        if (not voluntary or hidden) and self.knight[seat] == LAMORAK and self.hand_size(seat) >= 2:
            # He may discard 2 cards per life instead (not when the life is his choice).
            self.push(T.D_LAMORAK, seat, amount, 1 if voluntary else 0)
            return
        self.set_life(seat, max(0, self.life[seat] - amount))
        if self.life[seat] == 0:
            if deferred:
                self.doomed = seat
            else:
                self.push(T.DYING, seat)

    def die(self, seat: int) -> None:
        """SOC-DEATH-1: the knight leaves the game (Excalibur, Armor and Grail with him)."""
        if self.armor_owner == seat:
            self.set_relic(ARMOR_RELIC, GONE)
        self.take_off_board(seat, Status.DEAD)
        self.check_end()

    def take_off_board(self, seat: int, status: int) -> None:
        """A knight dies or is unmasked: off the board, hand discarded, Excalibur and the
        Grail gone (SOC-DEATH-1, SOC-TRAITOR-1); his turn as a knight is over."""
        self.leave_location(seat)
        self.status = replaced(self.status, seat, status)
        if status == Status.DEAD:
            self.note(NOTE_DIES, seat)
        self.set_life(seat, 0)
        self.loc = replaced(self.loc, seat, OFF_BOARD)
        self.discard_hand(seat)
        if self.excalibur_owner == seat:
            self.set_relic(EXCALIBUR_RELIC, GONE)
        if self.grail_owner == seat:
            self.set_relic(GRAIL_RELIC, GONE)
        if self.doomed == seat:
            self.doomed = -1
        if seat == self.turn_seat:
            self.turn_flags |= TurnFlag.SKIP_HEROIC

    def arrive(self, seat: int, destination: int, journey: bool = True) -> None:
        """A knight goes to ``destination``; at the end of a journey of his own (his move,
        Call for Help), not carried to Camelot (``journey`` false: a quest's end,
        Convocation), Sir Gareth draws a card there (MC-KNIGHT-GARETH, MC-RULING-2). One
        sent where he already is (a Vision on the Grail quest) arrives nowhere (MC-RULING-15)."""
        if self.loc[seat] == destination:
            return
        self.leave_location(seat)
        self.loc = replaced(self.loc, seat, destination)
        if journey and self.knight[seat] == GARETH:  # MC-KNIGHT-GARETH
            self.draw_white(seat, 1)

    def leave_location(self, seat: int) -> None:
        """Leaving a solo quest before its end costs the white cards played there, and
        Heroism lying on it if it was laid in his attempt or by him (SOC-HERO-4,
        SOC-RULING-72)."""
        location = self.loc[seat]
        if location == Location.BLACK_KNIGHT:
            for code in self.bk_white:
                self.discard_code(code)
            self.bk_white = ()
        elif location == Location.LANCELOT and self.ld_phase == 0:
            for code in self.ld_white:
                self.discard_code(code)
            self.ld_white = ()
        else:
            return
        if self.heroism_bound == seat:
            self.lift_heroism(location)

    def lift_heroism(self, location: int) -> bool:
        """Discard Heroism if it lies on ``location`` (SOC-W-HEROISM); whether it did: its
        quest ended (it counts), its solo quest was left (SOC-RULING-72), Truce cleared its
        war's board (MC-W-TRUCE)."""
        if self.heroism != location:
            return False
        self.heroism = -1
        self.heroism_bound = -1
        self.discard_white(HEROISM)
        return True

    # ------------------------------------------------------------------ end
    def check_end(self) -> bool:
        """SOC-END-1, SOC-END-2: end the game if a condition holds; return whether it ended.

        While a lost quest's deaths are still landing (its ``JUDGE_END`` waits beneath
        them), the end is not judged: a knight at 0 life is not yet dead, and whether the
        traitor flips swords or the last loyal knight is gone depends on it (SOC-RULING-75).
        """
        if self.result:
            return True
        if any(task[0] == T.JUDGE_END for task in self.agenda):
            return False
        if self.siege >= 12:
            return self.finish(Result.EVIL_WIN, EndReason.SIEGE)
        if self.black_swords >= 7:
            return self.finish(Result.EVIL_WIN, EndReason.BLACK_SWORDS)
        if self.loyalty[-1] != Loyalty.UNDEALT and not any(
            self.status[s] == Status.IN_PLAY and self.loyalty[s] == Loyalty.LOYAL
            for s in range(self.n)
        ):
            return self.finish(Result.EVIL_WIN, EndReason.ALL_DEAD)
        if self.loyalty[-1] != Loyalty.UNDEALT and not any(
            self.status[s] == Status.UNMASKED
            or (self.status[s] == Status.IN_PLAY and not self.captured[s])
            for s in range(self.n)
        ):
            # MC-RULING-14: every knight in play is captured and nobody takes turns who
            # could free him (MC-TRAVEL-CAPTURED: never the captive himself).
            return self.finish(Result.EVIL_WIN, EndReason.ALL_CAPTURED)
        if self.white_swords + self.black_swords >= 12:
            # SOC-TRAITOR-3: a hidden living traitor turns two white swords black;
            # MC-LOYALTY: two of them, three swords.
            hidden = sum(
                1
                for seat in range(self.n)
                if self.loyalty[seat] == Loyalty.TRAITOR and self.status[seat] == Status.IN_PLAY
            )
            self.turn_swords_black(min((0, 2, 3)[min(hidden, 2)], self.white_swords))
            won = self.white_swords > self.black_swords  # SOC-END-3: ties go to evil
            if self.white_swords == self.black_swords and self.use_divine_favor():
                won = True  # MC-W-DIVINE-FAVOR
            return self.finish(Result.LOYAL_WIN if won else Result.EVIL_WIN, EndReason.SWORDS)
        if self.turns >= MAX_ROUNDS * self.n:
            return self.finish(Result.EVIL_WIN, EndReason.EXHAUSTED)
        return False

    def _auto_judge_end(self, _a: int, _b: int, _c: int) -> None:
        """A lost quest's deaths have landed: judge the end (SOC-RULING-47, -75)."""
        self.check_end()

    def finish(self, result: int, reason: int) -> bool:
        """Record the end of the game; a traitor still hidden shows himself (SOC-TRAITOR-3)."""
        if self.log is not None:
            for seat in range(self.n):
                if (self.loyalty[seat] == Loyalty.TRAITOR and self.status[seat] != Status.UNMASKED
                        and not self.loyalty_shown[seat] and not self.game.open_loyalty):
                    self.note(NOTE_TRAITOR, seat)
            self.note(NOTE_OVER, result, reason)
        self.result = int(result)
        self.end_reason = int(reason)
        self.agenda.clear()
        return True

    def add_siege(self, count: int = 1) -> None:
        """SOC-SIEGE-2: siege engines gather; the 12th ends the game."""
        self.gather_siege(count)
        self.check_end()

    def gather_siege(self, count: int) -> None:
        """``count`` siege engines come (or, negative, go): never more than 12, and no end
        check (the caller judges the end when every penalty has landed, SOC-RULING-47)."""
        siege = min(12, self.siege + count)
        if siege != self.siege:
            self.note(NOTE_SIEGE, siege - self.siege)
            self.siege = siege
            if siege >= 6:
                self.siege_reached_six = True  # SOC-ACCUSE-1: accusations open for good

    def lay_swords(self, white: int, black: int) -> None:
        """Lay swords on the Round Table without judging the end (SOC-RULING-47)."""
        self.white_swords += white
        self.black_swords += black
        self.note(NOTE_SWORDS, white, black)

    def add_swords(self, white: int, black: int) -> None:
        """Lay swords on the Round Table."""
        self.lay_swords(white, black)
        self.check_end()

    def turn_swords_black(self, count: int) -> None:
        """``count`` white swords turn black: a false accusation (SOC-ACCUSE-3) or a hidden
        traitor at the end (SOC-TRAITOR-3)."""
        if count:
            self.white_swords -= count
            self.black_swords += count
            self.note(NOTE_TURNED, count)

    def set_relic(self, relic: int, owner: int) -> None:
        """A relic (:data:`~pendragon.games.soc.rules.data.RELIC_KEYS`) goes to ``owner`` (a
        seat, ``ON_QUEST`` or ``GONE``), noted for the narration (SOC-QUEST-4)."""
        old = (self.excalibur_owner, self.grail_owner, self.armor_owner)[relic]
        if owner == old:
            return
        if relic == EXCALIBUR_RELIC:
            self.excalibur_owner = owner
        elif relic == GRAIL_RELIC:
            self.grail_owner = owner
        else:
            self.armor_owner = owner
        self.note(NOTE_RELIC, relic, old, owner)

    def use_divine_favor(self) -> bool:
        """MC-W-DIVINE-FAVOR: if the card is in play, it turns this tie; then it is gone."""
        if not self.divine_favor:
            return False
        self.divine_favor = False
        self.discard_white(DIVINE_FAVOR)
        return True
