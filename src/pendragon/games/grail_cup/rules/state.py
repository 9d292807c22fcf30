"""A position of Grail Cup: flat integer fields, a cheap clone, storage and determinisation.

>>> import pendragon
>>> state = pendragon.load_game("grail-cup", players=3, seed=4).new_initial_state()
>>> state.play_random_chance()
>>> state.decision_event().key, state.version  # 12 tokens laid, 3 deals, 1 ally set aside
('grail-cup.decision.draft', 16)
>>> len(state.observation(state.current_player())["you"]["packet"])
8
>>> copy = state.clone()
>>> copy.apply_action(copy.legal_actions()[0])
>>> state.version, copy.version
(16, 17)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from pendragon.core.api import CHANCE, TERMINAL, Observation, State, winner_takes_all
from pendragon.core.errors import CorruptStateError
from pendragon.core.events import Event, Seat
from pendragon.core.storage import (
    check_playable,
    read_agenda,
    stored_options,
    whole_number,
    whole_numbers,
)
from pendragon.games.grail_cup.rules import codes as C, engine as E, view
from pendragon.games.grail_cup.rules.data import (
    ASIDE,
    CLOVER_TOTAL,
    DIE,
    MAX_ROUNDS,
    NUM_ALLIES,
    NUM_CLOVERS,
    SPEARS,
)
from pendragon.games.grail_cup.rules.recall import Recall, own_recall, redraw_others
from pendragon.games.grail_cup.rules.track import MAX_SPACES, Track

FORMAT: Final = "grail-cup"
FORMAT_VERSION: Final = 3
#: Scalar fields, stored by name.
SCALARS: Final = (
    "n", "round_no", "first", "direction", "next_stamp", "supply", "dragon", "seal_roller",
    "revealed", "last_called", "curse", "sorceress", "squire", "named", "flight", "chain",
    "winner", "epoch",
)
#: Integer list fields, stored by name.
LISTS: Final = ("pos", "stamp", "spears", "ally_loc", "sightings", "merlin_spaces", "pin", "known",
                "born", "fill", "bag", "last_round", "clovers_seen", "die_seen")

#: List fields kept as tuples (replaced, never changed in place), which clones share.
SHARED: Final = ("born", "fill", "bag")

if TYPE_CHECKING:  # named in GrailCupState's base, State["GrailCupGame"]
    from pendragon.games.grail_cup.rules.game import GrailCupGame  # noqa: F401

EventRecord = tuple[Event, int, Event | None]


def _read_recall(value: Any) -> tuple[Recall, ...]:
    """:meth:`GrailCupState.to_dict`'s ``recall``, each entry ``[seat, [spaces], [kinds],
    aware]`` of whole numbers (checked further by ``check_invariants``)."""
    shape = "recall must be a list of [seat, spaces, kinds, aware]"
    # (At most one memory a seat per clover space: memories of one seat never share one.)
    if not isinstance(value, list) or len(value) > 8 * MAX_SPACES:
        raise CorruptStateError(shape)
    entries: list[Recall] = []
    for entry in value:
        if not isinstance(entry, list) or len(entry) != 4:
            raise CorruptStateError(shape)
        entries.append((whole_number(entry[0], "recall seat"),
                        tuple(whole_numbers(entry[1], "recall spaces")),
                        tuple(whole_numbers(entry[2], "recall kinds")),
                        whole_number(entry[3], "recall aware")))
    return tuple(entries)


class GrailCupState(State["GrailCupGame"]):
    """One position of Grail Cup (fields are plain ints and int lists; see ``engine``).

    >>> from pendragon.games.grail_cup.rules.fixtures import load_state
    >>> state = load_state({"knights": [{"space": 9}, {"space": 30}], "hands": {0: ["fairy"]},
    ...                     "call": 8})
    >>> state.apply_text("move:4") == state.string_to_action("move:4")
    True
    >>> state.pos, state.is_chance_node()  # 13 is a trail space; the next round begins
    ([13, 30], True)
    >>> state.game.deserialize_state(state.serialize()).pos
    [13, 30]
    """

    def set_up(self) -> None:
        """The position before the deal of start spaces (a chance node): a state's
        constructor is cheap (``State``), so the game calls this for a new game."""
        track: Track = self.game.track
        n = self.game.num_players()
        self.track = track
        self.n = n
        self.round_no = 0
        self.first = -1
        self.direction = 0
        self.pos = [0] * n
        self.stamp = [0] * n
        self.next_stamp = 0
        self.spears = [0] * n
        self.supply = SPEARS
        self.dragon = track.dragon_start  # GC-SETUP-2
        self.seal_roller = -1
        self.ally_loc = [C.DECK] * NUM_ALLIES
        self.revealed = 0
        self.last_called = 0
        self.sightings: list[int] = []
        self.curse = -1
        self.sorceress = -1
        self.squire = -1
        self.named = -1
        self.merlin_spaces: list[int] = []
        # The clover tokens (GC-SETUP-6, GC-CLOVER-3), as the physical tokens: ``pin`` the
        # kind lying face down on each clover space, ``known`` who has seen it there (a bit
        # per seat), ``bag`` the supply. A token is ``born`` (``epoch``) when it last went
        # back to the supply (0: never), and a space was filled (``fill``) at the epoch its
        # token was laid: a token can only lie where it was laid after it was born, which
        # keeps the worlds a search samples possible (resample_hidden).
        self.pin = [-1] * len(track)
        self.known = [0] * len(track)
        # (Tuples, replaced when they change: rarely, so a clone shares them.)
        self.born: tuple[int, ...] = (0,) * len(track)
        self.fill: tuple[int, ...] = (0,) * len(track)
        self.bag: tuple[int, ...] = tuple(
            kind for kind in range(NUM_CLOVERS) for _ in range(CLOVER_TOTAL[kind])
        )
        self.epoch = 0
        # What seats remember of tokens Merlin rearranged (recall.Recall, GC-RULING-11).
        self.recall: tuple[Recall, ...] = ()
        self.flight = -1
        self.chain = 0
        self.winner = -1
        # Public memory: who revealed each ally last round, the clover tokens turned and the
        # village die's faces so far (everyone saw them; views keep them).
        self.last_round = [-1] * NUM_ALLIES
        self.clovers_seen = [0] * NUM_CLOVERS
        self.die_seen = [0] * len(DIE)
        self._events: list[EventRecord] | None = None
        self.agenda: list[E.Task] = [(C.SETUP_END, 0, 0, 0)]
        self.agenda += [(C.DEAL, seat, 0, 0) for seat in range(n - 1, -1, -1)]
        # GC-SETUP-6 comes before the deal (GC-SETUP-3): a token on every clover space.
        self.agenda += [(C.LAY, 0, space, 0) for space in reversed(track.clover_spaces)]

    # ------------------------------------------------------------------ the API
    # The engine's functions do the work (a compiled build calls them directly).
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""
        return E.current_player(self)

    def _legal_actions(self) -> list[int]:
        return E.legal_actions(self)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return E.chance_outcomes(self)

    def _chance_counts(self) -> tuple[int, Sequence[int]]:
        return E.chance_counts(self)

    def _apply(self, action: int) -> None:
        E.apply(self, action)

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for every other seat; 0 while the race runs (GC-END-2)."""
        return winner_takes_all(self.winner, self.n)

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know (``None``: a spectator); layout in :mod:`.view`."""
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError(f"seat {seat} is not a seat of this {self.n}-player game")
        return view.observation(self, seat)

    def observation_tensor(self, seat: int) -> list[float]:
        """Fixed-length numeric view of ``seat``."""
        return view.observation_tensor(self, seat)

    def evaluation_tensor(self, seat: int) -> list[float]:
        """The learned evaluator's view of ``seat``: its observation tensor turned to it,
        one length at every table (:func:`.view.evaluation_tensor`)."""
        return view.evaluation_tensor(self.observation_tensor(seat), self.n, len(self.track),
                                      self.track.finish)

    def narrate(self, action: int, viewer: int | None) -> list[Event]:
        """What ``viewer`` learns of ``action`` (computed on a copy, before applying it)."""
        actor = self.current_player()
        copy = self.clone()
        copy._events = []
        copy.apply_action(action)
        shown: list[Event] = []
        for event, seen_by, others in copy._events:
            if seen_by == -1 or (viewer is not None and seen_by >> viewer & 1):
                shown.append(event)
            elif others is not None:
                shown.append(others)
        if not shown:
            seat = max(actor, 0)
            shown.append(Event("grail-cup.log.acts", {"seat": Seat(seat)}))
        return shown

    def action_event(self, action: int) -> Event:
        """The menu words of a legal ``action``."""
        return view.action_event(action)

    def decision_event(self) -> Event:
        """What the state awaits (``grail-cup.decision.<task>``)."""
        return view.decision_event(self)

    def decision_summary(self) -> str:
        """A short description of what the state is waiting for."""
        player = self.current_player()
        if player == TERMINAL:
            return "game over"
        what = view.waiting(self)["decision"]
        return f"waiting for chance ({what})" if player == CHANCE else (
            f"waiting for seat {player}: {what}"
        )

    # ------------------------------------------------------------------ copying
    def clone(self) -> GrailCupState:
        """An independent copy (lists copied; tasks are immutable tuples)."""
        new = self.copy_base()
        new.track = self.track
        new.n = self.n
        new.round_no = self.round_no
        new.first = self.first
        new.direction = self.direction
        new.pos = self.pos.copy()
        new.stamp = self.stamp.copy()
        new.next_stamp = self.next_stamp
        new.spears = self.spears.copy()
        new.supply = self.supply
        new.dragon = self.dragon
        new.seal_roller = self.seal_roller
        new.ally_loc = self.ally_loc.copy()
        new.revealed = self.revealed
        new.last_called = self.last_called
        new.sightings = self.sightings.copy()
        new.curse = self.curse
        new.sorceress = self.sorceress
        new.squire = self.squire
        new.named = self.named
        new.merlin_spaces = self.merlin_spaces.copy()
        new.pin = self.pin.copy()
        new.known = self.known.copy()
        new.born = self.born
        new.fill = self.fill
        new.bag = self.bag
        new.epoch = self.epoch
        new.recall = self.recall
        new.flight = self.flight
        new.chain = self.chain
        new.agenda = self.agenda.copy()
        new.winner = self.winner
        new.last_round = self.last_round.copy()
        new.clovers_seen = self.clovers_seen.copy()
        new.die_seen = self.die_seen.copy()
        new._events = None
        return new

    # ------------------------------------------------------------------ storage
    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-compatible data."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "options": stored_options(self.game),
            **self.history_fields(),
        }
        for name in SCALARS:
            data[name] = getattr(self, name)
        for name in LISTS:
            data[name] = list(getattr(self, name))
        data["agenda"] = [list(task) for task in self.agenda]
        data["recall"] = [[who, list(spaces), list(kinds), aware]
                          for who, spaces, kinds, aware in self.recall]
        return data

    @classmethod
    def _from_dict(cls, game: Any, data: Any) -> GrailCupState:
        """:meth:`to_dict` data's own fields, each checked; only for ``deserialize_state``,
        whose :func:`~pendragon.core.storage.read_state` checked the format and options."""
        state = GrailCupState(game)
        state.set_up()
        state.restore_history_fields(data)
        for name in SCALARS:
            object.__setattr__(state, name, whole_number(data[name], name))
        for name in LISTS:
            values = whole_numbers(data[name], name)
            object.__setattr__(state, name, tuple(values) if name in SHARED else values)
        state.agenda = read_agenda(data["agenda"])
        state.recall = _read_recall(data["recall"])
        if state.n != game.num_players():
            raise CorruptStateError(f"state has {state.n} seats, the game {game.num_players()}")
        state.check_invariants()
        check_playable(state)  # a last look at the trust boundary
        return state

    # ------------------------------------------------------------------ invariants
    def check_invariants(self) -> None:
        """Raise ``CorruptStateError`` unless every piece is somewhere possible."""
        n, track = self.n, self.track
        size = len(track)

        def need(condition: bool, what: str) -> None:
            if not condition:
                raise CorruptStateError(what)

        need(2 <= n <= 8, "2 to 8 seats")
        for name in ("pos", "stamp", "spears"):
            need(len(getattr(self, name)) == n, f"{name} needs one entry per seat")
        need(0 <= self.round_no <= MAX_ROUNDS, "round out of range")
        need(-1 <= self.winner < n, "winner out of range")
        need(0 <= self.dragon < track.finish, "the dragon never stands on the finish")
        dealt = not any(task[0] == C.DEAL for task in self.agenda)
        for seat in range(n):
            space = self.pos[seat]
            need(0 <= space < size, f"knight {seat} is off the track")
            need(space != track.finish or self.winner == seat, "only a winner is on the finish")
            need(space != self.dragon or not dealt, "a knight shares the dragon's space")
            need(0 <= self.spears[seat] <= SPEARS, "spears out of range")
            need(0 <= self.stamp[seat] < max(self.next_stamp, 1), "arrival order out of range")
        need(
            not dealt or len(set(self.stamp)) == n, "two knights cannot have arrived together"
        )
        need(self.supply >= 0 and self.supply + sum(self.spears) == SPEARS, "spears lost")
        need(self.next_stamp < 1 << 40, "arrival counter out of range")
        # Allies.
        need(len(self.ally_loc) == NUM_ALLIES, "one location per ally")
        for card, location in enumerate(self.ally_loc):
            need(
                0 <= location <= C.DISCARD or C.HAND <= location < C.HAND + n,
                f"ally {card} is nowhere",
            )
        per_hand = 2 if n <= 3 else 1
        for seat in range(n):
            need(self.ally_loc.count(C.HAND + seat) <= per_hand, "too many allies in a hand")
        up, down = ASIDE[n]
        need(self.ally_loc.count(C.ASIDE_UP) <= up, "too many allies set aside face up")
        need(self.ally_loc.count(C.ASIDE_DOWN) <= down, "too many allies set aside face down")
        need(self.ally_loc.count(C.RANDOM) <= (1 if n == 3 else 0), "random discard")
        need(self.ally_loc.count(C.DISCARD) <= 1, "one ally discarded after the draft")
        need(0 <= self.last_called <= NUM_ALLIES, "called allies out of range")
        need(0 <= self.revealed < 1 << NUM_ALLIES, "revealed allies out of range")
        for card in range(NUM_ALLIES):
            held = self.ally_loc[card] >= C.HAND
            shown = bool(self.revealed >> card & 1)
            need(not shown or (held and card < self.last_called), "a revealed ally is not held")
            need(
                not held or card >= self.last_called or shown, "a called ally stayed hidden"
            )
        need(-1 <= self.curse < NUM_ALLIES and self.curse != 0, "the curse names no ally")
        for name in ("first", "seal_roller", "sorceress", "squire", "named"):
            need(-1 <= getattr(self, name) < n, f"{name} is no seat")
        need(self.direction in (-1, 0, 1), "direction out of range")
        sights = self.sightings
        need(len(sights) % 2 == 0 and len(sights) <= 40, "bad sightings")
        for i in range(0, len(sights), 2):
            need(0 <= sights[i] < n and 0 < sights[i + 1] < 1 << NUM_ALLIES, "bad sighting")
        # Clover tokens.
        for name in ("pin", "known", "born", "fill"):
            need(len(getattr(self, name)) == size, "one clover slot per space")
        need(0 <= self.epoch < 1 << 40, "bad clover epoch")
        need(-1 <= self.flight < NUM_CLOVERS, "bad clover in play")
        counts = [0] * NUM_CLOVERS
        for token in self.bag:
            need(0 <= token <= self.epoch * NUM_CLOVERS + NUM_CLOVERS - 1, "bad clover supply")
            counts[token % NUM_CLOVERS] += 1
        laying = {b for code, _a, b, _c in self.agenda if code == C.LAY}
        for space in range(size):
            kind, known = self.pin[space], self.known[space]
            born, fill = self.born[space], self.fill[space]
            need(-1 <= kind < NUM_CLOVERS, "bad clover token")
            need(kind < 0 or track.is_clover(space), "a clover token off a clover space")
            need(0 <= known < 1 << n and (known == 0 or kind >= 0), "bad clover knowledge")
            need(0 <= born <= fill <= self.epoch, "a clover token laid before it was born")
            need(
                kind >= 0 or not track.is_clover(space) or space in laying
                or self.winner >= 0  # the race ended in the middle of a clover's effect
                or any(task[0] == C.RETURN and task[2] == space for task in self.agenda),
                "a clover space without its token",
            )
            if kind >= 0:
                counts[kind] += 1
        if self.flight >= 0:
            counts[self.flight] += 1
        need(counts == list(CLOVER_TOTAL), "clover tokens are not all accounted for")
        taken: set[tuple[int, int]] = set()
        for who, spaces, kinds, aware in self.recall:
            need(0 <= who < n and 1 <= len(kinds) <= len(spaces) <= size
                 and aware >> who & 1 == 1 and 0 <= aware < 1 << n
                 and list(spaces) == sorted(set(spaces)) and list(kinds) == sorted(kinds),
                 "bad clover recall")
            lying = [0] * NUM_CLOVERS
            for space in spaces:
                need(0 <= space < size and self.pin[space] >= 0
                     and not self.known[space] >> who & 1 and (who, space) not in taken
                     and self.fill[space] == self.fill[spaces[0]], "bad clover recall")
                taken.add((who, space))
                lying[self.pin[space]] += 1
            for kind in kinds:
                need(0 <= kind < NUM_CLOVERS, "bad clover recall")
                lying[kind] -= 1
                need(lying[kind] >= 0, "a recalled clover token is not there")
        need(
            len(self.merlin_spaces) <= 3
            and all(track.is_clover(sp) for sp in self.merlin_spaces)
            and len(set(self.merlin_spaces)) == len(self.merlin_spaces),
            "Merlin looked at impossible spaces",
        )
        need(0 <= self.chain <= 1000, "bad chain count")
        need(len(self.last_round) == NUM_ALLIES and all(-1 <= p < n for p in self.last_round),
             "last round's allies name no seat")
        need(len(self.clovers_seen) == NUM_CLOVERS and len(self.die_seen) == len(DIE)
             and min(self.clovers_seen + self.die_seen) >= 0, "bad public tallies")
        self._check_agenda()

    def _check_agenda(self) -> None:
        if self.winner >= 0:
            if self.agenda:
                raise CorruptStateError("a finished game has nothing left to do")
            return
        if not self.agenda or len(self.agenda) > 200:
            raise CorruptStateError("a running game must have something to wait for")
        for code, a, b, c in self.agenda:
            if code not in C.TASK_NAMES:
                raise CorruptStateError(f"unknown agenda task {code}")
            if code == C.CALL:
                ok = 0 <= a <= NUM_ALLIES
            elif code in (C.SETUP_END, C.ROUND, C.ASIDE_UP_DRAW, C.ASIDE_DOWN_DRAW, C.RETURN,
                          C.LAY, C.ROUND_END):
                ok = a == 0
            else:
                ok = 0 <= a < self.n
            if code in (C.LAND, C.CLOVER, C.LAY, C.RETURN, C.TO):
                ok = ok and 0 <= b < len(self.track)
            elif code in (C.STEPS, C.BACK, C.LOOK):
                ok = ok and 1 <= b <= 6
            elif code == C.RESOLVE:
                ok = ok and 0 <= b < NUM_ALLIES and self.ally_loc[b] == C.HAND + a
            elif code == C.STRIKE:
                # The cursed ally's holder, the Sorceress' own player too (GC-RULING-10).
                ok = ok and 0 <= b < self.n
            elif code == C.PLACE:
                ok = ok and 0 <= b < len(self.merlin_spaces) - 1 and all(
                    self.pin[sp] >= 0 for sp in self.merlin_spaces
                )
            elif code == C.MERLIN_DONE:
                # Pushed by Merlin's last look (GC-ALLY-MERLIN-1): he has looked somewhere.
                ok = ok and b == 0 and bool(self.merlin_spaces)
            elif code in (C.CHOOSE_MOVE, C.MOVE_DRAGON):
                ok = ok and b in (0, 1)
            elif code == C.SPEAR:
                # Asked only where a spear takes him on (GC-RULING-22).
                ok = ok and self.pos[a] < self.dragon <= b < len(self.track) and (
                    E.spear_goes_on(self, b, c)
                )
            else:
                ok = ok and b == 0
            if code in (C.CLOVER, C.LAY, C.RETURN):
                ok = ok and self.track.is_clover(b)
            if code == C.CLOVER:
                ok = ok and self.pin[b] >= 0
            # A landing's third argument: the end of the knight's own ally's effect, which
            # lands moved or not (engine.OWN_EFFECT, GC-RULING-12); a forward move's and its
            # spear's: the castle or church it is bound for.
            if not ok or c != 0 and not (code == C.LAND and c == 1) and not (
                code in (C.TO, C.SPEAR) and c in (1, 2)
            ):
                raise CorruptStateError(f"bad agenda task {C.TASK_NAMES[code]} {a} {b} {c}")
        code = self.agenda[-1][0]
        if code not in C.WAITING:
            raise CorruptStateError("the agenda's top task is neither chance nor a decision")
        if code == C.LAY and (not self.bag or self.pin[self.agenda[-1][2]] >= 0):
            raise CorruptStateError("no clover token to lay, or its space is taken")
        if code == C.SPEAR and not self.spears[self.agenda[-1][1]]:
            raise CorruptStateError("a spear decision without a spear")

    # ------------------------------------------------------------------ determinisation
    def resample_hidden(self, seat: int, generator: random.Random) -> GrailCupState:
        """A state ``seat`` cannot tell from this one: hidden allies and tokens redealt.

        Allies: each ally whose place ``seat`` does not see is redealt among the places of
        the allies that left ``seat``'s sight at the same moment of the draft (between two
        of its own looks at the packet), so every packet it saw keeps its contents; an ally
        already called and not shown can only land where no player holds it. Clover tokens:
        the tokens ``seat`` does not know (face down on the track, and the supply) are redealt
        as their history allows (:meth:`_resample_clovers`). The chance stream is reseeded,
        and the world keeps no past (``State.forget_past``): the real history would tell the
        real deal, the tokens laid and Merlin's placements.

        >>> import pendragon
        >>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
        >>> state.play_random_chance()
        >>> world = state.resample_hidden(0, random.Random(2))
        >>> world.is_world(), world.version == state.version, world.observation(0) == (
        ...     state.observation(0))
        (True, True, True)
        """
        if not 0 <= seat < self.n:
            raise ValueError(f"seat {seat} is not a seat of this {self.n}-player game")
        new = self.clone()
        new._resample_allies(seat, generator)
        new._resample_clovers(seat, generator)
        new.become_world(generator)
        return new

    def _resample_allies(self, seat: int, generator: random.Random) -> None:
        sights = [self.sightings[i + 1] for i in range(0, len(self.sightings), 2)
                  if self.sightings[i] == seat]
        groups: dict[int, list[int]] = {}
        for card in range(NUM_ALLIES):
            location = self.ally_loc[card]
            if location in (C.ASIDE_UP, C.HAND + seat) or self.revealed >> card & 1:
                continue
            seen = sum(1 for mask in sights if mask >> card & 1)
            groups.setdefault(seen, []).append(card)
        for cards in groups.values():
            if len(cards) < 2:
                continue
            # The places in their own order, not in the order of the allies that really
            # lie there: the redeal depends on what the seat knows, not on the truth.
            slots = sorted(self.ally_loc[c] for c in cards)
            called = [c for c in cards if c < self.last_called]
            free = [c for c in cards if c >= self.last_called]
            open_slots = [i for i, loc in enumerate(slots) if loc < C.HAND]
            generator.shuffle(open_slots)
            assignment: dict[int, int] = {}
            for card, slot in zip(called, open_slots, strict=False):
                assignment[slot] = card
            rest = [i for i in range(len(slots)) if i not in assignment]
            generator.shuffle(free)
            for slot, card in zip(rest, free, strict=True):
                assignment[slot] = card
            for slot, card in assignment.items():
                self.ally_loc[card] = slots[slot]

    def _resample_clovers(self, seat: int, generator: random.Random) -> None:
        """Redeal the tokens ``seat`` does not know: those face down on the spaces it has
        not seen and the supply. A token can only lie where it was laid after it was born
        (see ``__init__``), so each space, from the earliest filled, takes one at random
        among the hidden tokens born by then; the supply keeps the rest. The tokens ``seat``
        remembers among spaces Merlin rearranged go first, each to one of those spaces at
        random (the latest born of its kind that may lie there, which leaves the most room
        for the rest); what the others remember is drawn again from the tokens now among
        their spaces. Every such world has a history that shows ``seat`` everything it saw
        (GC-CLOVER-3, GC-RULING-11)."""
        bit = 1 << seat
        fill = self.fill
        spaces = sorted(
            (sp for sp in self.track.clover_spaces if self.pin[sp] >= 0
             and not self.known[sp] & bit),
            key=lambda sp: fill[sp],
        )
        if spaces or len(self.bag) > 1:
            tokens = sorted([*(self.born[sp] * NUM_CLOVERS + self.pin[sp] for sp in spaces),
                             *self.bag])
            born = list(self.born)
            fixed = own_recall(self, seat, generator)
            for space in sorted(fixed, key=lambda sp: fill[sp]):
                # Some token of its kind may lie there: the one that really does, or one
                # born no later (a recall's spaces share their laying, engine._merlin_done).
                limit = (fill[space] + 1) * NUM_CLOVERS
                at = -1
                for index in range(len(tokens)):
                    if tokens[index] >= limit:
                        break
                    if tokens[index] % NUM_CLOVERS == fixed[space]:
                        at = index
                if at < 0:  # (the real token or an earlier one is always there)
                    raise CorruptStateError(f"no token for a remembered clover on {space}")
                token = tokens.pop(at)
                self.pin[space] = token % NUM_CLOVERS
                born[space] = token // NUM_CLOVERS
            open_tokens: list[int] = []
            next_token = 0
            for space in spaces:
                if space in fixed:
                    continue
                limit = (fill[space] + 1) * NUM_CLOVERS
                while next_token < len(tokens) and tokens[next_token] < limit:
                    open_tokens.append(tokens[next_token])
                    next_token += 1
                # The real token of this space (or one born no later, when the recalled ones
                # took another) is among them, so there is always one to take.
                index = generator.randrange(len(open_tokens))
                token = open_tokens[index]
                open_tokens[index] = open_tokens[-1]
                open_tokens.pop()
                self.pin[space] = token % NUM_CLOVERS
                born[space] = token // NUM_CLOVERS
            self.born = tuple(born)
            self.bag = tuple(sorted([*open_tokens, *tokens[next_token:]]))
        if self.recall:
            redraw_others(self, seat, generator)
