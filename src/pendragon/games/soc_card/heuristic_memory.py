"""What the card game heuristic remembers of the table: :class:`TableMemory`, fed one
observation of its seat (or the public view) after another, and what it keeps of each card
laid (:class:`PileEntry`), each turn watched (:class:`TurnSeen`) and each piece of evidence
(:class:`Evidence`).

An observation keeps no count (SCG-RULING-8), so the bot counts for itself: which cards it
has seen and where, and so which cards it has not seen (:meth:`TableMemory.unseen`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields

from mypy_extensions import mypyc_attr

from pendragon.games.soc_card.heuristic_values import QUEST_INDEX, Obs
from pendragon.games.soc_card.rules.cards import (
    CARD_QUEST,
    IS_QUEST,
    KIND,
    MERLIN_6,
    NUM_KINDS,
    NUM_QUESTS,
    deck_counts,
)


def _reshuffled(last: Obs, obs: Obs) -> bool:
    """Whether the discard pile became the rumor deck between two observations
    (SCG-QUEST-10): it shrank, or the deck grew by more than the Morgans brought back
    (SCG-EXPERT-2) — a deck that ran out is rebuilt as soon as cards are discarded, so the
    discard pile may have been empty before and be empty after.

    >>> seen = {"deck": 0, "discard": 0, "morgans_aside": 3}
    >>> _reshuffled(seen, {"deck": 12, "discard": 0, "morgans_aside": 3})
    True
    >>> _reshuffled(seen, {"deck": 1, "discard": 0, "morgans_aside": 2})  # a Morgan back
    False
    """
    returned = int(last["morgans_aside"]) - int(obs["morgans_aside"])
    return bool(obs["discard"] < last["discard"]
                or int(obs["deck"]) - int(last["deck"]) > max(0, returned))


# ---------------------------------------------------------------------- memory
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class PileEntry:
    """One card of the threat pile as the table saw it.

    ``kind`` is -1 for a card the table has not seen (face down, or laid while the bot was
    not looking); ``announced`` the quest named for a face-down card (SCG-MORGAN-1), else
    -1; ``secret`` the face-down card's kind, for its layer ``by`` only; ``told`` the card
    named for it (its quest and value, SCG-RULING-6), -1 if unknown.
    """

    kind: int
    announced: int = -1
    by: int = -1
    secret: int = -1
    told: int = -1

    def known_to(self, seat: int | None) -> int:
        """The card's kind as ``seat`` knows it (-1: unknown)."""
        if self.kind >= 0:
            return self.kind
        if seat is not None and seat == self.by:
            return self.secret
        return -1


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class TurnSeen:
    """A turn the table watched: the position before it and what the player did.

    ``action`` is ``listen``, ``quest``, ``accuse``, ``galahad`` (a turn) or ``arthur`` (a
    quest stopped); ``quest`` the quest gone on (-1 if not seen).
    """

    seat: int
    before: Obs
    entries: list[PileEntry]
    discard_seen: list[int]
    action: str
    quest: int


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class Evidence:
    """A public fact about loyalty: ``kind`` is ``lie`` (one of ``seats`` named a quest
    falsely under Morgan #1), ``turn`` (a watched turn), ``arthur`` or ``gawain`` (a Knight
    card played by ``seats[0]``), ``accused`` (``seats[0]`` accused ``seats[1]``, who
    proved loyal), or ``vivien`` (loyalty cards may have changed hands)."""

    kind: str
    seats: tuple[int, ...] = ()
    turn: TurnSeen | None = None
    before: Obs | None = None


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class TableMemory:
    """What one bot has seen of the table, kept by itself (the observations keep no count).

    Feed it observations in the order they were seen (:meth:`observe`); it keeps the threat
    pile card by card, the cards seen going to the discard pile since the last reshuffle,
    the count under Morgan #2, the public evidence about loyalty and the turns it watched.
    """

    players: int = 0
    total: list[int] = field(default_factory=list)
    entries: list[PileEntry] = field(default_factory=list)
    discard_seen: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    #: Cards a seat saw go face down to the discard pile (Gawain's, the unmasked
    #: traitor's), by seat.
    private_discard: dict[int, list[int]] = field(default_factory=dict)
    evidence: list[Evidence] = field(default_factory=list)
    morgan_2_count: int = 0
    #: Seats a resolution proved to have lied (no other announcer of that quest).
    proven: set[int] = field(default_factory=set)
    #: The quest each seat chose for Merlin #6 (the observation does not show it).
    merlin_6_quest: dict[int, int] = field(default_factory=dict)
    #: Seats in the order their loyalty card was (last) shown.
    revealed_order: list[int] = field(default_factory=list)
    last: Obs | None = None
    _pending_turn: Obs | None = None
    _pending_entries: list[PileEntry] = field(default_factory=list)
    _pending_discard: list[int] = field(default_factory=list)
    _flight: dict[int, int] = field(default_factory=dict)

    # ------------------------------------------------------------------ feeding
    def copy(self) -> TableMemory:
        """An independent copy: every rollout of a search goes on from the same memory."""
        return TableMemory(
            players=self.players, total=self.total[:], entries=self._snapshot(),
            discard_seen=self.discard_seen[:],
            private_discard={s: c[:] for s, c in self.private_discard.items()},
            evidence=self.evidence[:], morgan_2_count=self.morgan_2_count,
            proven=set(self.proven), merlin_6_quest=dict(self.merlin_6_quest),
            revealed_order=self.revealed_order[:], last=self.last,
            _pending_turn=self._pending_turn, _pending_entries=self._pending_entries[:],
            _pending_discard=self._pending_discard[:], _flight=dict(self._flight))

    def reset(self) -> None:
        """Forget everything (a new game)."""
        fresh = TableMemory()
        for name in fields(self):
            setattr(self, name.name, getattr(fresh, name.name))

    def observe(self, obs: Obs) -> None:
        """Take in the next observation (of any seat, or a spectator's)."""
        if self.last is not None and self._is_new_game(obs):
            self.reset()
        if self.last is None:
            self._start(obs)
        last = self.last
        pile = obs["pile"]
        count = int(pile["count"])
        resolution = obs["last_resolution"]
        if last is not None and self._pending_turn is not None:
            self._finish_turn(obs)
        if last is not None and resolution is not None and resolution != last[
                "last_resolution"]:
            self._resolved(resolution, obs)
        elif count < len(self.entries):
            self.entries = []  # a pile resolved out of sight
        if last is not None and _reshuffled(last, obs):
            self.discard_seen = [0] * NUM_KINDS  # SCG-QUEST-10: the discard became the deck
            self.private_discard.clear()
        self._private(obs)
        new = count - len(self.entries)
        if new > 0:
            self.entries += [PileEntry(-1) for _ in range(new - 1)]
            self.entries.append(self._top_entry(obs))
        in_force = bool(obs["in_force"]["morgan-2"])
        if in_force and last is not None and not last["in_force"]["morgan-2"]:
            self.morgan_2_count = 0  # counting starts after Morgan #2 (SCG-RULING-12)
        elif in_force and new > 0:
            self.morgan_2_count += new
        for seat, entry in enumerate(obs["seats"]):
            if entry["loyalty"] is None:
                continue
            if seat not in self.revealed_order:
                self.revealed_order.append(seat)
            elif last is not None and last["seats"][seat]["loyalty"] is None:
                # Shown again after Vivien hid his card (an accusation, an end, or the next
                # turn of an unmasked traitor who kept it: SCG-RULING-9): the latest shown.
                self.revealed_order.remove(seat)
                self.revealed_order.append(seat)
        if last is not None:
            self._knights(last, obs)
            self._accusations(last, obs)
        if (obs["decision"] == "turn" and obs["to_act"] != obs.get("seat")
                and obs["resolving"] is None):
            self._pending_turn = obs
            self._pending_entries = self._snapshot()
            self._pending_discard = list(self.discard_seen)
        self.last = obs

    def _snapshot(self) -> list[PileEntry]:
        return [PileEntry(e.kind, e.announced, e.by, e.secret, e.told) for e in self.entries]

    def _start(self, obs: Obs) -> None:
        self.players = int(obs["players"])
        cards = int(obs["deck"]) + int(obs["discard"]) + int(obs["pile"]["count"]) + int(
            obs["morgans_aside"]) + (int(obs["hand"]["count"]) if obs["hand"] else 0)
        if obs["decision"] == "announce":
            cards += 1  # the card in flight
        promos = cards > sum(deck_counts(promos=(False, False)))
        self.total = deck_counts(promos=(promos, promos))

    def _is_new_game(self, obs: Obs) -> bool:
        last = self.last
        assert last is not None
        if obs["players"] != last["players"]:
            return True
        swords, before = obs["swords"], last["swords"]
        if swords["white"] + swords["black"] < before["white"] + before["black"]:
            return True
        # The deck grows only by a reshuffle (the discard shrinks, unless it was empty: a deck
        # that ran out is rebuilt as soon as cards are discarded) or a Morgan coming back.
        return bool(obs["deck"] > last["deck"] and obs["discard"] >= last["discard"] > 0
                    and obs["morgans_aside"] >= last["morgans_aside"])

    def _top_entry(self, obs: Obs) -> PileEntry:
        top = obs["pile"]["top"]
        if top is None:
            return PileEntry(-1)
        if top.get("face_down"):
            by = int(top["by"])
            entry = PileEntry(-1, QUEST_INDEX[top["announced"]], by,
                              told=KIND.get(str(top.get("announced_card")), -1))
            you = obs.get("you")
            if you is not None and you.get("top_card"):
                entry.secret = KIND[you["top_card"]]
            elif by in self._flight:
                entry.secret = self._flight[by]
            self._flight.pop(by, None)
            return entry
        kind = KIND[top["card"]]
        if kind in (KIND.get("morgan-8", -1), MERLIN_6) and sum(self.total) < sum(
                deck_counts(promos=(True, True))):
            self.total = deck_counts(promos=(True, True))
        return PileEntry(kind)

    def _private(self, obs: Obs) -> None:
        you = obs.get("you")
        seat = obs.get("seat")
        if you is None or seat is None:
            return
        if obs["decision"] == "announce" and obs["to_act"] == seat and you["hand"]:
            self._flight[seat] = KIND[you["hand"][0]]
        if you.get("top_card") and self.entries and self.entries[-1].by == seat:
            self.entries[-1].secret = KIND[you["top_card"]]
        last = self.last
        if last is not None and last.get("seat") == seat:
            held = last["you"]["hand"] if last.get("you") else []
            if len(held) > 1 and not you["hand"]:
                # The cards of a hand not laid went face down to the discard pile.
                laid = self._last_laid(obs)
                rest = [KIND[c] for c in held]
                if laid in rest:
                    rest.remove(laid)
                counts = self.private_discard.setdefault(seat, [0] * NUM_KINDS)
                for kind in rest:
                    counts[kind] += 1

    def _last_laid(self, obs: Obs) -> int:
        top = obs["pile"]["top"]
        if top is not None and "card" in top:
            return KIND[top["card"]]
        return -1

    def _resolved(self, resolution: Obs, obs: Obs) -> None:
        """A pile was resolved and laid out (SCG-QUEST-2, SCG-RULING-8): check Morgan #1's
        announcements against the cards and send them to the discard pile."""
        cards = [KIND[name] for name in resolution["cards"]]
        entries = self.entries
        if all(e.kind >= 0 or e.announced >= 0 for e in entries) and any(
                e.announced >= 0 for e in entries):
            rest = list(cards)
            for entry in entries:
                if entry.kind >= 0 and entry.kind in rest:
                    rest.remove(entry.kind)
            actual = [0] * NUM_QUESTS
            for kind in rest:
                if IS_QUEST[kind]:
                    actual[CARD_QUEST[kind]] += 1
            named = [0] * NUM_QUESTS
            for entry in entries:
                if entry.kind < 0 and entry.announced >= 0:
                    named[entry.announced] += 1
            for quest in range(NUM_QUESTS):
                if named[quest] > actual[quest]:
                    seats = tuple(sorted({e.by for e in entries
                                          if e.kind < 0 and e.announced == quest}))
                    self.evidence.append(Evidence("lie", seats))
                    honest = {s for s, seat in enumerate(obs["seats"])
                              if seat["loyalty"] == "loyal"}
                    suspects = [s for s in seats if s not in honest]
                    if len(suspects) == 1:
                        self.proven.add(suspects[0])
        for kind in cards:
            self.discard_seen[kind] += 1
        self.entries = []

    def _knights(self, last: Obs, obs: Obs) -> None:
        if not obs["expert"]:
            return
        played, before = obs["knights_played"], last["knights_played"]
        for name in ("arthur", "gawain"):
            if played[name] > before[name]:
                player = next((s for s in range(self.players)
                               if obs["seats"][s]["knights"] < last["seats"][s]["knights"]),
                              -1)
                if player >= 0:
                    seen = TurnSeen(player, last, self._snapshot(), list(self.discard_seen),
                                    name, -1)
                    self.evidence.append(Evidence(name, (player,), seen, before=last))

    def _accusations(self, last: Obs, obs: Obs) -> None:
        if obs["pile"]["top"] != last["pile"]["top"] and obs["pile"]["top"] is not None and (
                obs["pile"]["top"].get("card") == "vivien"):
            self.evidence.append(Evidence("vivien"))
        for accuser in range(self.players):
            if obs["seats"][accuser]["accused"] and not last["seats"][accuser]["accused"]:
                shown = [s for s in range(self.players) if obs["seats"][s]["loyalty"] is not None
                         and last["seats"][s]["loyalty"] is None]
                turn = int(obs["turn"])
                if len(shown) > 1 and turn in shown and obs["seats"][turn]["loyalty"] == "traitor":
                    # The next turn began with a traitor card Vivien hid shown again
                    # (SCG-RULING-9): that seat is not the accused.
                    shown.remove(turn)
                target = shown[0] if shown else -1
                if target >= 0 and obs["seats"][target]["loyalty"] == "loyal":
                    self.evidence.append(Evidence("accused", (accuser, target), before=last))

    def _finish_turn(self, obs: Obs) -> None:
        before = self._pending_turn
        assert before is not None
        seat = int(before["to_act"])
        action, quest = "listen", -1
        if obs["seats"][seat]["accused"] and not before["seats"][seat]["accused"]:
            action = "accuse"
        elif obs["expert"] and obs["knights_played"]["tristan"] > before["knights_played"][
                "tristan"]:
            return  # Tristan: the turn goes on; wait for its action
        elif obs["expert"] and obs["knights_played"]["galahad"] > before["knights_played"][
                "galahad"]:
            action = "galahad"
        elif obs["resolving"] is not None:
            action, quest = "quest", QUEST_INDEX[obs["resolving"]["quest"]]
        elif obs["last_resolution"] != before["last_resolution"]:
            action = "quest"
            if obs["last_resolution"] is not None:
                quest = QUEST_INDEX[obs["last_resolution"]["quest"]]
        elif obs["decision"] == "arthur":
            action = "quest"
        self._pending_turn = None
        self.evidence.append(Evidence("turn", (seat,), TurnSeen(
            seat, before, self._pending_entries, self._pending_discard, action, quest)))

    # ------------------------------------------------------------------ reading
    def unseen(self, seat: int | None, obs: Obs, entries: Sequence[PileEntry] | None = None,
               discard_seen: Sequence[int] | None = None) -> list[int]:
        """Cards ``seat`` has not seen anywhere (they are in the deck, set aside, face down or
        in someone's hand)."""
        pool = list(self.total)
        for entry in self.entries if entries is None else entries:
            kind = entry.known_to(seat)
            if kind >= 0:
                pool[kind] -= 1
        for kind, count in enumerate(self.discard_seen if discard_seen is None
                                     else discard_seen):
            pool[kind] -= count
        if seat is not None:
            for kind, count in enumerate(self.private_discard.get(seat, ())):
                pool[kind] -= count
        you = obs.get("you") if seat is not None and obs.get("seat") == seat else None
        if you is not None:
            for name in you["hand"]:
                pool[KIND[name]] -= 1
            for name in you["deck_seen"]:
                pool[KIND[name]] -= 1
        return [max(0, c) for c in pool]
