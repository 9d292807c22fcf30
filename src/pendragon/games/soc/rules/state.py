"""The concrete Shadows over Camelot state: the API glue, copying, storage and checks."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from typing import Any, Final

import pendragon.games.soc.rules.actions as A
from pendragon.core import rng
from pendragon.core.api import CHANCE, TERMINAL
from pendragon.core.errors import CorruptStateError, IllegalActionError
from pendragon.core.storage import (
    check_playable,
    read_agenda,
    whole_number,
    whole_numbers,
)
from pendragon.core.tuples import replaced
from pendragon.games.soc.rules.cards import (
    BLACK,
    COMBAT_BLACK_KINDS,
    DARK_FOREST as BLACK_DARK_FOREST,
    DIVINE_FAVOR,
    GRAIL_CARD as WHITE_GRAIL,
    HEROISM as WHITE_HEROISM,
    MERLIN as WHITE_MERLIN,
    MIST as BLACK_MIST,
    MORDRED as BLACK_MORDRED,
    NUM_BLACK,
    NUM_LOCATIONS,
    NUM_WHITE,
    VIVIEN as BLACK_VIVIEN,
    WITCH_KINDS,
    Location,
)
from pendragon.games.soc.rules.data import (
    ARMOR_RELIC,
    CHANCE_TASKS,
    FACE_DOWN_BASE,
    FIRST_DECISION,
    GONE,
    KNOWN_BASE,
    TASK_NAMES,
    TRAVEL_COUNTS,
    VALUE_BASE,
    WITCH_BITS,
    Loyalty,
    Result,
    Status,
    T,
)
from pendragon.games.soc.rules.view import KNOWN_DEPTH, ViewRules

FORMAT: Final = "pendragon-soc-state"
FORMAT_VERSION: Final = 1


class SocState(ViewRules):
    """A position of Shadows over Camelot. Create it with ``game.new_initial_state()``."""

    # ------------------------------------------------------------------ API glue
    def current_player(self) -> int:
        if self.result:
            return TERMINAL
        task = self.agenda[-1]
        return CHANCE if task[0] < FIRST_DECISION else task[1]

    def _legal_actions(self) -> list[int]:
        code, a, b, c = self.agenda[-1]
        return self.legal_of(code, a, b, c)

    def _chance_counts(self) -> tuple[int, Sequence[int]] | None:
        """The draws from a pile kept as counts (white and black cards, a card from a hand,
        a travel card): the core samples and checks the drawn card from the counts."""
        code, a, _b, _c = self.agenda[-1]
        if code == T.C_WHITE:
            return A.WHITE_CARD, self.white_deck
        if code == T.C_BLACK:
            return A.BLACK_CARD, self.black_deck
        if code == T.C_HANDCARD:
            return A.WHITE_CARD, self.hands[a]
        if code == T.C_TRAVEL:
            return A.TRAVEL, self.travel_deck
        if code == T.C_DEAL:
            offered = [0] * NUM_WHITE
            for kind in self.offer:
                offered[kind] += 1
            return A.WHITE_CARD, offered
        return None

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        pile = self._chance_counts()
        if pile is not None:
            return rng.weighted(pile[0], pile[1])
        code, a, b, _c = self.agenda[-1]
        if code == T.C_DIE:
            return [(A.DIE + i, 1 / 8) for i in range(8)]
        if code == T.C_KNIGHT:
            free = [k for k in self.game.knight_pool if k not in self.knight]
            return [(A.DEAL_KNIGHT + k, 1 / len(free)) for k in free]
        if code == T.C_LOYALTY:
            loyal, traitors = self.loyalty_left()
            total = loyal + traitors
            outcomes = []
            if loyal:
                outcomes.append((A.DEAL_LOYAL, loyal / total))
            if traitors:
                outcomes.append((A.DEAL_TRAITOR, traitors / total))
            return outcomes
        raise AssertionError(f"no chance outcomes for task {code}")

    def loyalty_left(self) -> tuple[int, int]:
        """Loyal and traitor cards not yet dealt (SOC-SETUP-5, VAR-MIDST)."""
        loyal, traitors = self.game.loyalty_deck_for(self.n)
        for card in self.loyalty:
            if card == Loyalty.LOYAL:
                loyal -= 1
            elif card == Loyalty.TRAITOR:
                traitors -= 1
        return loyal, traitors

    def _apply(self, action: int) -> None:
        code, a, b, c = self.agenda[-1]
        if code < FIRST_DECISION:
            self.agenda.pop()
            self._apply_chance(code, a, b, action)
        else:
            self.decide(code, action, a, b, c)
        self._run()

    def _apply_chance(self, code: int, a: int, b: int, action: int) -> None:
        if code == T.C_WHITE:
            self.white_drawn(a, b, action - A.WHITE_CARD)
        elif code == T.C_BLACK:
            self.black_drawn(a, b, action - A.BLACK_CARD)
        elif code == T.C_DIE:
            self.siege_die = action - A.DIE + 1
        elif code == T.C_HANDCARD:  # SOC-TRAITOR-2: seen by victim and thief only
            kind = action - A.WHITE_CARD
            self.take_from_hand(a, kind, public=False, seen_by=1 << b)
            self.discard_white(kind)
        elif code == T.C_KNIGHT:
            self.knight[a] = action - A.DEAL_KNIGHT
        elif code == T.C_LOYALTY:
            self.loyalty[a] = Loyalty.TRAITOR if action == A.DEAL_TRAITOR else Loyalty.LOYAL
        elif code == T.C_DEAL:
            self.deal_offered(a, action - A.WHITE_CARD)
        elif code == T.C_TRAVEL:
            self.travel_drawn(a, b, action - A.TRAVEL)

    # ------------------------------------------------------------------ dispatch
    # The tasks of every turn are called directly (most of a playout's calls; a native call,
    # where one through a table is a Python-level call); the rest through the tables.
    def auto(self, code: int, a: int, b: int, c: int) -> None:
        if code == T.START_TURN:
            self._auto_start_turn(a, b, c)
        elif code == T.END_TURN:
            self._auto_end_turn(a, b, c)
        elif code == T.QUEST_CHECK:
            self._auto_quest_check(a, b, c)
        else:
            AUTO[code](self, a, b, c)

    def legal_of(self, code: int, a: int, b: int, c: int) -> list[int]:
        if code == T.D_HEROIC:
            return self._legal_heroic(a, b, c)
        if code == T.D_EVIL:
            return self._legal_evil(a, b, c)
        return LEGAL[code](self, a, b, c)

    def decide(self, code: int, action: int, a: int, b: int, c: int) -> None:
        if code == T.D_HEROIC:
            self._decide_heroic(action, a, b, c)
        elif code == T.D_EVIL:
            self._decide_evil(action, a, b, c)
        else:
            DECIDE[code](self, action, a, b, c)

    def forsake(self, code: int, a: int, b: int, c: int) -> None:
        settle = FORSAKEN.get(code)
        if settle is None:
            # His own choice, which nobody makes for him: it lapses, he plays no more of it
            # (what he had already laid or spent stays where it went).
            self.agenda.pop()
        else:
            settle(self, a, b, c)

    # ------------------------------------------------------------------ table operations
    def can_join(self) -> bool:
        """VAR-JOIN: a seat, a coat of arms and a loyalty card are free for a newcomer, once
        the game is under way: 003 joins «v průběhu hry» (in the course of the game), and a
        newcomer only draws his cards and waits for his turn, so he neither lays nor shares
        the opening contribution (SOC-SETUP-6)."""
        if self.result or self.n >= self.game.info.max_players or self.turn_seat < 0 \
                or self.loyalty[-1] < 0:
            return False
        if sum(self.loyalty_left()) == 0:
            return False
        return self.game.squires or any(k not in self.knight for k in self.game.knight_pool)

    def can_leave(self, seat: int) -> bool:
        """VAR-JOIN: any seat whose knight still plays may leave."""
        return not self.result and 0 <= seat < self.n and self.status[seat] != Status.DEAD

    def join(self) -> int:
        """VAR-JOIN: seat a new player mid-game; returns the new seat's number.

        He sits to the left of King Arthur (or of the first player), with 4 life, 5 white
        cards, a free coat of arms and a loyalty card from those not dealt, and waits for
        his turn. A table operation: recorded in the history as ``join``.
        """
        self.apply_table_operation(A.JOIN)
        return self.n - 1

    def leave(self, seat: int) -> None:
        """VAR-JOIN: a player who leaves is treated as dead (his loyalty stays secret), and
        no decision waits on him (MC-RULING-23)."""
        self.apply_table_operation(A.LEAVE + seat)

    def is_table_operation(self, action: int) -> bool:
        return action == A.JOIN or A.LEAVE <= action < A.LEAVE + A.MAX_SEATS

    def apply_table_operation(self, action: int) -> None:
        if not self.is_table_operation(action):
            raise IllegalActionError(f"{action!r} is not a table operation")
        allowed = self.can_join() if action == A.JOIN else self.can_leave(action - A.LEAVE)
        if not allowed:
            raise IllegalActionError(f"{self.action_to_string(action)!r} is not possible now")
        self._history.append(action)
        if action == A.JOIN:
            self._seat_newcomer()
        else:
            self._remove_leaver(action - A.LEAVE)
        self._legal_at = -1
        self._run()

    def _seat_newcomer(self) -> None:
        seat = self.n
        self.n += 1
        for numbers, value in ((self.knight, -1), (self.life, 4), (self.loyalty, -1)):
            numbers.append(value)
        self.loc += (Location.CAMELOT,)
        self.status += (Status.IN_PLAY,)
        self.contrib += (-1,)
        self.accused += (False,)
        self.loyalty_shown += (False,)
        self.captured += (False,)
        self.hands.append([0] * NUM_WHITE)
        arthur = self.seat_of_knight(0)
        left_of = arthur if arthur >= 0 else self.first_seat
        after = self.seat_order.index(left_of) + 1
        self.seat_order = self.seat_order[:after] + (seat,) + self.seat_order[after:]
        # VAR-JOIN, MC-RULING-10: a free coat of arms, a loyalty card, 5 white cards; in the
        # Squire's Challenge too (only those who start the game start as squires).
        tasks = [(T.C_KNIGHT, seat, 0, 0), (T.C_LOYALTY, seat, 0, 0)]
        tasks += [(T.C_WHITE, seat, 0, 0)] * 5
        self.push_all(tasks)

    def _remove_leaver(self, seat: int) -> None:
        """VAR-JOIN: he dies then and there (003: «prostě předčasně zemře»); a decision
        left waiting on him settles without him as the agenda runs on (MC-RULING-23)."""
        if self.status[seat] == Status.UNMASKED:
            # Treated as dead (VAR-JOIN): Lancelot's Armor, which he kept when unmasked,
            # leaves the game as a dead knight's does (SOC-DEATH-1).
            if self.armor_owner == seat:
                self.set_relic(ARMOR_RELIC, GONE)
            self.status = replaced(self.status, seat, Status.DEAD)
        else:
            self.die(seat)
        self.check_end()

    def returns(self) -> list[float]:
        """SOC-END-4: +1 to the winning side (a traitor wins with evil), -1 to the other."""
        if not self.result:
            return [0.0] * self.n
        loyal_won = self.result == Result.LOYAL_WIN
        return [
            1.0 if (self.loyalty[s] == Loyalty.TRAITOR) != loyal_won else -1.0
            for s in range(self.n)
        ]

    def decision_summary(self) -> str:
        player = self.current_player()
        if player == TERMINAL:
            return "game over"
        if player == CHANCE:
            return f"waiting for chance ({self.decision_name()})"
        return f"waiting for seat {player}: {self.decision_name()}"

    def seat_count(self) -> int:
        """The seats now, newcomers included (VAR-JOIN)."""
        return self.n

    # ------------------------------------------------------------------ copying
    def clone(self) -> SocState:
        new = SocState(self.game)
        # Every field, spelled out: a clone is on every search step's path, and a compiled
        # class copies each field natively (a loop of getattr/setattr would not).
        new._history = self._history[:]
        new._chance_count = self._chance_count
        new._rng_seed = self._rng_seed
        new._world = self._world
        new.log = None  # a copy records nothing unless its narrator asks
        # The hands are shared until changed (SocData.own_hand), by either state.
        new.hands = self.hands[:]
        new.hands_shared = self.hands_shared = -1
        new.known = self.known.copy() if self.known else {}
        new.n = self.n
        new.excalibur_owner = self.excalibur_owner
        new.grail_owner = self.grail_owner
        new.armor_owner = self.armor_owner
        new.ld_phase = self.ld_phase
        new.excal_pos = self.excal_pos
        new.excal_over = self.excal_over
        new.grail_white = self.grail_white
        new.grail_over = self.grail_over
        new.dark_forest = self.dark_forest
        new.mordred = self.mordred
        new.heroism = self.heroism
        new.heroism_bound = self.heroism_bound
        new.vivien = self.vivien
        new.mist = self.mist
        new.white_swords = self.white_swords
        new.black_swords = self.black_swords
        new.siege = self.siege
        new.turn_seat = self.turn_seat
        new.first_seat = self.first_seat
        new.turns = self.turns
        new.actions_left = self.actions_left
        new.used_types = self.used_types
        new.turn_flags = self.turn_flags
        new.offer_giver = self.offer_giver
        new.siege_die = self.siege_die
        new.kay_bonus = self.kay_bonus
        new.cancelled = self.cancelled
        new.held_seat = self.held_seat
        new.volunteer = self.volunteer
        new.doomed = self.doomed
        new.result = self.result
        new.end_reason = self.end_reason
        new.merlin_loc = self.merlin_loc
        new.witches = self.witches
        new.divine_favor = self.divine_favor
        new.siege_won = self.siege_won
        new.siege_reached_six = self.siege_reached_six
        # The lists are copied...
        new.knight = self.knight[:]
        new.life = self.life[:]
        new.loyalty = self.loyalty[:]
        new.white_deck = self.white_deck[:]
        new.white_discard = self.white_discard[:]
        new.black_discard_unseen = self.black_discard_unseen[:]
        new.agenda = self.agenda[:]
        # ...and the tuples shared (a change replaces the tuple: SocData.TUPLES).
        new.war_white = self.war_white
        new.loc = self.loc
        new.status = self.status
        new.accused = self.accused
        new.loyalty_shown = self.loyalty_shown
        new.black_deck = self.black_deck
        new.black_top = self.black_top
        new.black_bottom = self.black_bottom
        new.black_discard = self.black_discard
        new.limbo = self.limbo
        new.bk_white = self.bk_white
        new.bk_black = self.bk_black
        new.ld_white = self.ld_white
        new.ld_black = self.ld_black
        new.grail_black = self.grail_black
        new.war_figures = self.war_figures
        new.offer = self.offer
        new.offer_eligible = self.offer_eligible
        new.contrib = self.contrib
        new.siege_cards = self.siege_cards
        new.pledges = self.pledges
        new.held = self.held
        new.picks = self.picks
        new.answered = self.answered
        new.travel_deck = self.travel_deck
        new.travel_discard = self.travel_discard
        new.black_removed = self.black_removed
        new.white_removed = self.white_removed
        new.captured = self.captured
        new.seat_order = self.seat_order
        return new

    # ------------------------------------------------------------------ storage
    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-compatible data (used by :meth:`serialize` and fixtures)."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "options": dict(self.game.options),  # whole: its seed too, ignored when read
            **self.history_fields(),
        }
        for name in self.SCALARS:
            data[name] = getattr(self, name)
        for name in self.FLAT_LISTS:
            value = getattr(self, name)
            data[name] = [list(t) for t in value] if name == "agenda" else list(value)
        data["hands"] = [list(h) for h in self.hands]
        data["war_white"] = [list(w) for w in self.war_white]
        data["known"] = [[v, h, list(c)] for (v, h), c in sorted(self.known.items())]
        return data

    @classmethod
    def _from_dict(cls, game: Any, data: Any) -> SocState:
        """:meth:`to_dict` data's own fields, each checked; only for ``deserialize_state``,
        whose :func:`~pendragon.core.storage.read_state` checked the format and options."""
        state = SocState(game)
        state.restore_history_fields(data)
        state.log = None
        for name in cls.SCALARS:
            if name == "siege_reached_six" and name not in data:
                # Saved before the field existed: as many as stand now tell all we know.
                state.siege_reached_six = whole_number(data["siege"], "siege") >= 6
                continue
            if name == "heroism_bound" and name not in data:
                continue  # saved before the field existed: read below, once the seats are
            value = data[name]
            if isinstance(value, bool):
                setattr(state, name, value)
            else:
                setattr(state, name, whole_number(value, name))
        for name in cls.FLAT_LISTS:
            if name == "agenda":
                state.agenda = read_agenda(data[name], TASK_NAMES)
            elif name == "black_discard_unseen" and name not in data:
                # Saved before the field existed: the whole discard pile counts as seen.
                state.black_discard_unseen = [0] * NUM_BLACK
            elif name == "loyalty_shown" and name not in data:
                # Saved before the field existed: no card was shown.
                state.loyalty_shown = (False,) * len(data["accused"])
            elif name in ("accused", "loyalty_shown", "captured"):
                flags = data[name]
                if not isinstance(flags, list) or not all(isinstance(x, bool) for x in flags):
                    raise CorruptStateError(f"{name} must be a list of true/false")
                setattr(state, name, tuple(flags))
            elif name in cls.TUPLES:
                setattr(state, name, tuple(whole_numbers(data[name], name)))
            else:
                setattr(state, name, whole_numbers(data[name], name))
        state.hands = [whole_numbers(h, "hand") for h in data["hands"]]
        state.war_white = tuple([tuple(whole_numbers(w, "war_white")) for w in data["war_white"]])
        state.known = {}
        for viewer, holder, cards in data["known"]:
            key = (whole_number(viewer, "known"), whole_number(holder, "known"))
            state.known[key] = tuple(whole_numbers(cards, "known"))
        if "heroism_bound" not in data:  # SOC-RULING-72: the knight on its solo quest
            state.heroism_bound = state.solo_knight(state.heroism)
        if not game.num_players() <= state.n <= game.info.max_players:
            raise CorruptStateError(f"state has {state.n} seats, the game {game.num_players()}")
        state.check_invariants()
        state._check_agenda()
        check_playable(state, seats=state.n)  # VAR-JOIN: a newcomer's seat is shown too
        return state

    def _check_agenda(self) -> None:
        """The agenda waits on a chance node or a seat's decision, with seats in range."""
        if self.result:
            return
        if not self.agenda:
            raise CorruptStateError("a running game must have something to wait for")
        code = self.agenda[-1][0]
        if code not in CHANCE_TASKS and code not in LEGAL:
            raise CorruptStateError("the agenda's top task is neither chance nor a decision")
        for code, a, b, c in self.agenda:
            seat_arg = a if code not in _CARD_FIRST else b
            if code in _CARD_FIRST and not 0 <= a < NUM_BLACK and code != T.QUEST_CHECK:
                raise CorruptStateError(f"agenda task {TASK_NAMES[code]} names no black card")
            if not -1 <= seat_arg < self.n:
                raise CorruptStateError(f"agenda task {TASK_NAMES[code]} names seat {seat_arg}")
            if code in _QUEST_ENDS and not 0 <= c <= self.n:  # 1 + a black card's placer
                raise CorruptStateError(f"agenda task {TASK_NAMES[code]} names seat {c - 1}")

    # ------------------------------------------------------------------ invariants
    def check_invariants(self) -> None:
        """Raise ``CorruptStateError`` unless every card is in exactly one place, etc."""
        n = self.n
        for name in (
            "knight", "life", "loc", "status", "loyalty", "accused", "loyalty_shown", "contrib",
            "captured",
        ):
            if len(getattr(self, name)) != n:
                raise CorruptStateError(f"{name} must have one entry per seat")
        if len(self.hands) != n or any(len(h) != NUM_WHITE for h in self.hands):
            raise CorruptStateError("hands must be one count vector per seat")
        white = [0] * NUM_WHITE
        for pile in (self.white_deck, self.white_discard, *self.hands):
            if len(pile) != NUM_WHITE or min(pile) < 0:
                raise CorruptStateError("a white pile has a bad length or a negative count")
            for kind, count in enumerate(pile):
                white[kind] += count
        for code in (
            self.bk_white + self.ld_white + self.war_white[0] + self.war_white[1]
            + self.offer + self.siege_cards + tuple([k for k in self.contrib if k >= 0])
        ):
            white[code % VALUE_BASE] += 1
        white[WHITE_GRAIL] += self.grail_white
        white[WHITE_MERLIN] += len(self.pledges)
        if self.heroism >= 0:
            white[WHITE_HEROISM] += 1
        if not (0 <= self.heroism_bound < n if self.is_solo(self.heroism)
                else self.heroism_bound == -1):
            raise CorruptStateError("heroism_bound must be a seat when Heroism lies on a solo "
                                    "quest (SOC-RULING-72), else -1")
        if self.divine_favor:
            white[DIVINE_FAVOR] += 1
        for kind, count in enumerate(self.white_removed):
            white[kind] += count
        if white != self.game.white_total:
            raise CorruptStateError("white cards are not all accounted for exactly once")
        black = [0] * NUM_BLACK
        for counts in (self.black_deck, self.black_discard):
            if len(counts) != NUM_BLACK or min(counts) < 0:
                raise CorruptStateError("a black pile has a bad length or a negative count")
            for kind, count in enumerate(counts):
                black[kind] += count
        top = len(self.black_top)
        for index, code in enumerate(self.black_top + self.black_bottom):
            black[code % KNOWN_BASE] += 1
            knowers = code // KNOWN_BASE  # ``black_top[-1]`` is the top, at depth 0
            if knowers >> n or (knowers and KNOWN_DEPTH <= top - 1 - index < top):
                # The tensor's ``known`` block has a slot for the top KNOWN_DEPTH only.
                raise CorruptStateError("a known black card names no seat or lies too deep")
        for code in self.bk_black + self.ld_black:
            black[code % FACE_DOWN_BASE] += 1
        for kind in self.grail_black + self.limbo + self.held + self.picks:
            black[kind] += 1
        for flag, kind in (
            (self.dark_forest, BLACK_DARK_FOREST),
            (self.mist, BLACK_MIST),
            (self.vivien, BLACK_VIVIEN),
            (self.mordred >= 0, BLACK_MORDRED),
        ):
            if flag:
                black[kind] += 1
        for number, bit in WITCH_BITS:
            if self.witches & bit:
                black[WITCH_KINDS[number - 1]] += 1
        for kind, count in enumerate(self.black_removed):
            black[kind] += count
        if black != self.game.black_total:
            raise CorruptStateError("black cards are not all accounted for exactly once")
        unseen = self.black_discard_unseen
        if len(unseen) != NUM_BLACK or any(
            not 0 <= count <= self.black_discard[kind]
            or (count and not BLACK[kind].combat_value)
            for kind, count in enumerate(unseen)
        ):
            # Only combat cards can leave play unseen (SOC-RULING-65).
            raise CorruptStateError("unseen black discards must be combat cards of the pile")
        for seat in range(n):
            if not 0 <= self.life[seat] <= 6:
                raise CorruptStateError(f"seat {seat} has life {self.life[seat]}")
            if self.status[seat] == Status.IN_PLAY and self.loyalty[-1] >= 0 and not (
                0 <= self.loc[seat] < NUM_LOCATIONS
            ):
                raise CorruptStateError(f"seat {seat} stands nowhere")
        for (viewer, holder), cards in self.known.items():
            if not (0 <= viewer < n and 0 <= holder < n) or any(
                c > h for c, h in zip(cards, self.hands[holder], strict=True)
            ):
                raise CorruptStateError("a knowledge record exceeds the hand it describes")
        if not 0 <= self.siege <= 12 or self.white_swords < 0 or self.black_swords < 0:
            raise CorruptStateError("siege engines or swords out of range")
        if self.siege >= 6 and not self.siege_reached_six:
            raise CorruptStateError("six siege engines stand, yet siege_reached_six is false")
        if sorted(self.seat_order) != list(range(n)):
            raise CorruptStateError("the turn order must list every seat once")
        travel = [a + b for a, b in zip(self.travel_deck, self.travel_discard, strict=True)]
        if travel != list(TRAVEL_COUNTS if self.game.expansion else [0] * len(TRAVEL_COUNTS)):
            raise CorruptStateError("travel cards are not all accounted for")

    # ------------------------------------------------------------------ determinization
    def resample_hidden(self, seat: int, generator: random.Random) -> SocState:
        """A state ``seat`` cannot tell from this one: hidden cards and loyalties redealt.

        What ``seat`` cannot see is pooled and dealt again at random into the same places:
        the other hands (beyond the cards ``seat`` knows are there), the white and black
        decks (but the positions ``seat`` knows), the white discard pile, the black cards
        discarded unseen, face-down black cards others placed, privately held cards, and the
        loyalty cards it has not seen. The black discard pile's publicly seen cards stay in
        place: every black card read out when drawn is remembered (perfect recall,
        SOC-RULING-65); only the unseen ones are redealt, each as a combat card of its
        known quest. Then the copy becomes a world (``State.become_world``, after the
        redeal's draws from ``generator``): its chance stream is reseeded so the real future
        cannot be read from it, and it keeps no past, which would tell the real deal.
        """
        if not 0 <= seat < self.n:
            raise ValueError(f"seat {seat} is not a seat of this {self.n}-player game")
        new = self.clone()
        new._resample_white(seat, generator)
        new._resample_black(seat, generator)
        new._resample_loyalty(seat, generator)
        new.become_world(generator)
        return new

    def with_traitors(self, seat: int, traitors: Collection[int],
                      generator: random.Random) -> SocState:
        """A state ``seat`` cannot tell from this one in which, of the knights whose
        loyalty card ``seat`` has not seen, exactly ``traitors`` hold a traitor card
        (SOC-SETUP-5: the cards not dealt stay unseen). ``ValueError`` for a seat whose
        card ``seat`` has seen or a deal the loyalty deck cannot make. ``generator`` is
        unused: the deal is fully given.

        >>> import pendragon, random
        >>> state = pendragon.load_game("soc", players=4, seed=3).new_initial_state()
        >>> state.play_random_chance()
        >>> world = state.with_traitors(0, [2], random.Random(1))
        >>> [world.observation(s)["you"]["loyalty"] for s in (1, 2, 3)]
        ['loyal', 'traitor', 'loyal']
        >>> world.observation(0) == state.observation(0)
        True
        """
        hidden = [
            p for p in range(self.n)
            if self.loyalty[p] >= 0 and not self.loyalty_visible(seat, p)
        ]
        wanted = set(traitors)
        if not wanted <= set(hidden):
            raise ValueError(f"seats {sorted(wanted - set(hidden))} have no unseen loyalty card")
        new = self.clone()
        for p in hidden:
            new.loyalty[p] = Loyalty.TRAITOR if p in wanted else Loyalty.LOYAL
        if min(new.loyalty_left()) < 0:
            raise ValueError("the loyalty deck cannot make that deal")
        return new

    def _resample_white(self, seat: int, generator: random.Random) -> None:
        pool: list[int] = []
        slots: list[int] = []  # per other seat, how many unknown cards it holds
        for holder in range(self.n):
            if holder == seat:
                slots.append(0)
                continue
            known = self.known.get((seat, holder))
            hand = self.own_hand(holder)
            unknown = 0
            for kind in range(NUM_WHITE):
                extra = hand[kind] - (known[kind] if known else 0)
                pool += [kind] * extra
                unknown += extra
                hand[kind] -= extra
            slots.append(unknown)
        hidden_contrib = [p for p in range(self.n) if p != seat and self.contrib[p] >= 0]
        pool += [self.contrib[p] for p in hidden_contrib]
        # Sir Gaheris searches the discard pile for Merlins in his turn, so he knows their
        # number there then (MC-RULING-11): for him those stay where they are.
        kept_merlins = self.white_discard[WHITE_MERLIN] if self.searches_discard(seat) else 0
        if not kept_merlins and any(task[0] == T.GAHERIS_TAKE for task in self.agenda):
            # Everyone saw Gaheris choose his search, which needs a Merlin there: it stays
            # until he takes it (after his three discards).
            kept_merlins = min(1, self.white_discard[WHITE_MERLIN])
        for kind in range(NUM_WHITE):
            pool += [kind] * (self.white_deck[kind] + self.white_discard[kind])
        for _ in range(kept_merlins):
            pool.remove(WHITE_MERLIN)
        deck_size = sum(self.white_deck)
        pool.sort()  # the redeal depends on what the seat knows, not on the truth
        generator.shuffle(pool)
        if self.searches_discard(seat):
            # ...and no other Merlin may be dealt into it: fill it from the others first.
            rest = sum(self.white_discard) - kept_merlins
            discard: list[int] = []
            others: list[int] = []
            for kind in pool:
                if kind != WHITE_MERLIN and len(discard) < rest:
                    discard.append(kind)
                else:
                    others.append(kind)
            pool = others + discard
        position = 0
        for holder, count in enumerate(slots):
            for kind in pool[position : position + count]:
                self.own_hand(holder)[kind] += 1
            position += count
        for p in hidden_contrib:
            self.contrib = replaced(self.contrib, p, pool[position])
            position += 1
        self.white_deck = [0] * NUM_WHITE
        self.white_discard = [0] * NUM_WHITE
        for kind in pool[position : position + deck_size]:
            self.white_deck[kind] += 1
        for kind in pool[position + deck_size :]:
            self.white_discard[kind] += 1
        self.white_discard[WHITE_MERLIN] += kept_merlins
        # What another knight knows of a third one's hand is kept only as far as the seat
        # knows it too (a shared reward, a card shown to all): the rest is none of the
        # seat's knowledge, and the redeal must not follow it.
        nothing = (0,) * NUM_WHITE
        for (viewer, holder), cards in list(self.known.items()):
            if viewer != seat:
                hand = self.hands[holder]
                own = tuple(hand) if holder == seat else self.known.get((seat, holder), nothing)
                self.known[(viewer, holder)] = tuple(
                    [min(cards[kind], hand[kind], own[kind]) for kind in range(NUM_WHITE)]
                )
        self.known = {k: v for k, v in self.known.items() if any(v)}

    def _resample_black(self, seat: int, generator: random.Random) -> None:
        bit = 1 << seat
        pool: list[int] = []
        grouped: list[tuple[str, int, int]] = []  # (where, index, quest) of combat-only slots
        free: list[tuple[str, int]] = []
        # The piles as lists while they are redealt (they are tuples in the state).
        piles = {
            "black_top": list(self.black_top), "black_bottom": list(self.black_bottom),
            "bk_black": list(self.bk_black), "ld_black": list(self.ld_black),
            "held": list(self.held), "picks": list(self.picks),
        }
        limbo = list(self.limbo)
        discard = list(self.black_discard)
        for where in ("black_top", "black_bottom"):
            pile = piles[where]
            for index, code in enumerate(pile):
                if not (code // KNOWN_BASE) & bit:
                    pool.append(code % KNOWN_BASE)
                    free.append((where, index))
        for where in ("bk_black", "ld_black"):
            pile = piles[where]
            for index, code in enumerate(pile):
                placer = code // FACE_DOWN_BASE - 1
                if placer >= 0 and placer != seat:
                    kind = code % FACE_DOWN_BASE
                    pool.append(kind)
                    grouped.append((where, index, BLACK[kind].quest))
        drawers = self.limbo_drawer()
        limbo_swaps: list[tuple[int, int]] = []  # (index in limbo, quest)
        for index, kind in enumerate(limbo):
            if BLACK[kind].combat_value and drawers.get(kind, -1) not in (seat, -1):
                pool.append(kind)
                limbo_swaps.append((index, BLACK[kind].quest))
        if self.held_seat not in (seat, -1):
            for index, kind in enumerate(self.held):
                pool.append(kind)
                free.append(("held", index))
            for index, kind in enumerate(self.picks):
                pool.append(kind)
                free.append(("picks", index))
        deck_size = sum(self.black_deck)
        # Perfect recall (SOC-RULING-65): the seen part of the discard stays where it is;
        # an unseen card is a combat card whose quest everyone knows, so it is redealt as one.
        unseen_quests: list[int] = []
        for kind in range(NUM_BLACK):
            unseen = self.black_discard_unseen[kind]
            pool += [kind] * (self.black_deck[kind] + unseen)
            unseen_quests += [BLACK[kind].quest] * unseen
            discard[kind] -= unseen
        pool.sort()  # the redeal depends on what the seat knows, not on the truth
        generator.shuffle(pool)

        def take_combat(quest: int) -> int:
            for i, kind in enumerate(pool):
                if kind in COMBAT_BLACK_KINDS and BLACK[kind].quest == quest:
                    return pool.pop(i)
            raise AssertionError("a hidden combat card has no candidate")

        for where, index, quest in grouped:
            pile = piles[where]
            placer = pile[index] // FACE_DOWN_BASE
            pile[index] = take_combat(quest) + FACE_DOWN_BASE * placer
        renamed: dict[int, int] = {}
        for index, quest in limbo_swaps:
            old = limbo[index]
            limbo[index] = renamed[old] = take_combat(quest)
        if renamed:
            self.agenda = [
                (code, renamed.get(a, a), b, c) if code in _LIMBO_A else
                (code, a, renamed.get(b, b), c) if code in _LIMBO_B else (code, a, b, c)
                for code, a, b, c in self.agenda
            ]
        self.black_discard_unseen = [0] * NUM_BLACK
        for quest in unseen_quests:
            kind = take_combat(quest)
            discard[kind] += 1
            self.black_discard_unseen[kind] += 1
        position = 0
        for where, index in free:
            pile = piles[where]
            kind = pool[position]
            position += 1
            if where in ("black_top", "black_bottom"):
                pile[index] = kind + KNOWN_BASE * (pile[index] // KNOWN_BASE)
            else:
                pile[index] = kind
        deck = [0] * NUM_BLACK
        for kind in pool[position:]:
            deck[kind] += 1
        self.black_deck = tuple(deck)
        self.black_discard = tuple(discard)
        self.limbo = tuple(limbo)
        self.black_top = tuple(piles["black_top"])
        self.black_bottom = tuple(piles["black_bottom"])
        self.bk_black = tuple(piles["bk_black"])
        self.ld_black = tuple(piles["ld_black"])
        self.held = tuple(piles["held"])
        self.picks = tuple(piles["picks"])
        if len(pool) - position != deck_size:
            raise AssertionError("the black redeal changed the deck's size")

    def _resample_loyalty(self, seat: int, generator: random.Random) -> None:
        hidden = [
            p
            for p in range(self.n)
            if self.loyalty[p] >= 0 and not self.loyalty_visible(seat, p)
        ]
        if not hidden:
            return
        loyal, traitors = self.loyalty_left()
        pool = [self.loyalty[p] for p in hidden] + [0] * loyal + [1] * traitors
        original = [self.loyalty[p] for p in hidden]
        pool.sort()
        for _attempt in range(100):
            generator.shuffle(pool)
            for p, card in zip(hidden, pool, strict=False):
                self.loyalty[p] = card
            if any(
                self.status[p] == Status.IN_PLAY and self.loyalty[p] == Loyalty.LOYAL
                for p in range(self.n)
            ):
                return
        for p, card in zip(hidden, original, strict=True):
            self.loyalty[p] = card


_LIMBO_A: Final = frozenset((T.BLACK_RESOLVE, T.EXCAL_OFFER, T.BLACK_AFTER_POOL))
#: Tasks whose first argument is a card or a quest and whose second is a seat.
_CARD_FIRST: Final = frozenset(
    (T.BLACK_RESOLVE, T.EXCAL_OFFER, T.BLACK_AFTER_POOL, T.MORGAN_FALLBACK, T.QUEST_CHECK,
     T.COMBAT_COMPARE)
)
#: Tasks that may end a quest: their third argument names the black card's placer.
_QUEST_ENDS: Final = frozenset((T.QUEST_CHECK, T.COMBAT_COMPARE))
_LIMBO_B: Final = frozenset((T.D_FACE, T.D_WAR_TARGET, T.D_EXCAL, T.D_POOL))


# ------------------------------------------------------------------ the tasks' handlers
# Each handler is a method of the module of its mechanism (the comments name it) and takes
# the whole state: SocState has every one. SocState.auto, legal_of and decide call those
# of every turn directly, the rest from these tables.
AutoHandler = Callable[[SocState, int, int, int], None]
LegalHandler = Callable[[SocState, int, int, int], list[int]]
DecideHandler = Callable[[SocState, int, int, int, int], None]

S: Final = SocState
#: The automatic steps, by task code.
AUTO: Final[dict[int, AutoHandler]] = {
    # quests.py
    T.QUEST_CHECK: S._auto_quest_check,
    T.COMBAT_COMPARE: S._auto_combat_compare,
    T.SHARE_NEXT: S._auto_share_next,
    # black_cards.py
    T.ARMOR_SECOND: S._auto_armor_second,
    T.BLACK_AFTER_POOL: S._auto_after_pool,
    T.EXCAL_OFFER: S._auto_excal_offer,
    T.BLACK_RESOLVE: S._auto_resolve,
    T.MORGAN_FALLBACK: S._auto_morgan_fallback,
    T.CHAIN_DRAW: S._auto_chain_draw,
    T.PERC_ARMOR_SECOND: S._auto_perc_armor_second,
    # white_cards.py
    T.CALL_RESOLVE: S._auto_call_resolve,
    T.CONVOKE_RESOLVE: S._auto_convoke_resolve,
    T.CLAIRV_DRAW: S._auto_clairv_draw,
    # turn.py
    T.SETUP_MERLIN: S._auto_setup_merlin,
    T.SETUP_CONTRIB: S._auto_setup_contrib,
    T.REVEAL_CONTRIB: S._auto_reveal_contrib,
    T.START_TURN: S._auto_start_turn,
    T.END_TURN: S._auto_end_turn,
    T.SIEGE_RESOLVE: S._auto_siege_resolve,
    T.DYING: S._auto_dying,
    T.GAHERIS_TAKE: S._auto_gaheris_take,
    T.BEDIVERE_DRAW: S._auto_bedivere_draw,
    T.AMBUSH_AFTER: S._auto_ambush_after,
    # engine.py
    T.JUDGE_END: S._auto_judge_end,
}
#: The decisions, by task code: the legal actions, and the handler that applies one.
DECISIONS: Final[dict[int, tuple[LegalHandler, DecideHandler]]] = {
    # quests.py
    T.D_SHARE: (S._legal_share, S._decide_share),
    T.D_KNIGHTING: (S._legal_knighting, S._decide_knighting),
    T.D_BORS_DEAL: (S._legal_bors_deal, S._decide_bors_deal),
    # black_cards.py
    T.D_ARMOR: (S._legal_held_black, S._decide_armor),
    T.D_POOL: (S._legal_pool, S._decide_pool),
    T.D_EXCAL: (S._legal_excal, S._decide_excal),
    T.D_FACE: (S._legal_face, S._decide_face),
    T.D_WAR_TARGET: (S._legal_war_target, S._decide_war_target),
    T.D_VOLUNTEER: (S._legal_volunteer, S._decide_volunteer),
    T.D_DISCARD: (S._legal_discard, S._decide_discard),
    T.D_PERC_BOTTOM: (S._legal_held_black, S._decide_perc_bottom),
    T.D_WITCH4: (S._legal_witch4, S._decide_witch4),
    # white_cards.py
    T.D_CALL: (S._legal_call, S._decide_convoke),
    T.D_DISPEL: (S._legal_dispel, S._decide_dispel),
    T.D_TRUCE: (S._legal_truce, S._decide_truce),
    T.D_SLAYER: (S._legal_slayer, S._decide_slayer),
    T.D_SLAYER_PLAY: (S._legal_slayer_play, S._decide_slayer_play),
    T.D_RESCUE: (S._legal_rescue, S._decide_rescue),
    T.D_TOURNAMENT: (S._legal_tournament, S._decide_tournament),
    T.D_MERLIN: (S._legal_merlin, S._decide_merlin),
    T.D_CONVOKE: (S._legal_convoke, S._decide_convoke),
    T.D_FATE: (S._legal_fate, S._decide_fate),
    T.D_HEROISM: (S._legal_heroism, S._decide_heroism),
    T.D_PIETY: (S._legal_self_others, S._decide_piety),
    T.D_REINF: (S._legal_self_others, S._decide_reinforcements),
    T.D_CLAIRV: (S._legal_clairv, S._decide_clairv),
    T.D_MSG_TARGET: (S._legal_msg_target, S._decide_msg_target),
    T.D_MSG_CARD: (S._legal_msg_card, S._decide_msg_card),
    T.D_ARTHUR_TARGET: (S._legal_arthur_target, S._decide_arthur_target),
    T.D_ARTHUR_CARD: (S._legal_give_to, S._decide_arthur_card),
    T.D_ARTHUR_RETURN: (S._legal_give_to, S._decide_arthur_return),
    # turn.py
    T.D_CONTRIB: (S._legal_contrib, S._decide_contrib),
    T.D_EVIL: (S._legal_evil, S._decide_evil),
    T.D_HEROIC: (S._legal_heroic, S._decide_heroic),
    T.D_SIEGE: (S._legal_siege, S._decide_siege),
    T.D_KAY: (S._legal_kay, S._decide_kay),
    T.D_GRAIL: (S._legal_grail, S._decide_grail),
    T.D_TRAITOR_TARGET: (S._legal_traitor_target, S._decide_traitor_target),
    T.D_TRAITOR_EVIL: (S._legal_traitor_evil, S._decide_traitor_evil),
    T.D_TRAVEL: (S._legal_travel, S._decide_travel),
    T.D_FREE_CARD: (S._legal_free_card, S._decide_free_card),
    T.D_VALUE: (S._legal_value, S._decide_value),
    T.D_LAMORAK: (S._legal_lamorak, S._decide_lamorak),
}
#: MC-RULING-23: what becomes of a decision whose decider is dead (his player left the
#: table, VAR-JOIN, or he died while it waited), where it does not simply lapse: the rules'
#: way without him, or the next knight in play clockwise from him decides. Every other
#: decision is his own choice and lapses (``SocState.forsake``).
FORSAKEN: Final[dict[int, AutoHandler]] = {
    # quests.py: the first squire present chooses (MC-RULING-9)
    T.D_KNIGHTING: S._forsaken_knighting,
    # black_cards.py: a card drawn is still played and placed
    T.D_FACE: S._forsaken_face,  # face up (SOC-BLACK-7)
    T.D_WAR_TARGET: S._forsaken_war_target,  # the next knight in play chooses the war
    T.D_ARMOR: S._forsaken_armor,  # the first card drawn is played, the other goes under
    T.D_PERC_BOTTOM: S._forsaken_perc_bottom,  # the top card stays, the other goes under
    # white_cards.py
    T.D_CLAIRV: S._forsaken_clairv,  # the cards looked at go back on the deck
    T.D_FATE: S._forsaken_fate,  # played as by a loyal knight: every knight draws a card
    # turn.py
    T.D_SIEGE: S._forsaken_siege,  # not fought on; the cards laid are discarded
    T.D_GRAIL: S._forsaken_grail,  # the Grail is gone with him: the dying knight dies
}
LEGAL: Final = {code: legal for code, (legal, _decide) in DECISIONS.items()}
DECIDE: Final = {code: decide for code, (_legal, decide) in DECISIONS.items()}
