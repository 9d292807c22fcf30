"""The pages watching a table: :class:`Watcher` (one open WebSocket's queue), the JSON
encoding of what is sent (:func:`dumps`), and the latency figures (:class:`Metrics`)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from pendragon.web.access import Access

#: A watcher whose unsent messages pile up beyond this is disconnected.
MAX_QUEUE = 500


#: What a malformed ``held`` is told.
HELD_FORM = 'held must be {"log": n, "notices": n, "chat": id or null}, each n >= 0'


@dataclass(frozen=True, slots=True)
class Held:
    """What a page reconnecting to its table already holds, from its hello's ``held``:
    the action lines (``log``) and announcements (``notices``) of its log, and the id of
    its last chat line (``chat``, ``None`` for none). The first state then carries only
    the lines after these, and the chat only the lines after ``chat``."""

    log: int
    notices: int
    chat: int | None


def held_from(hello: Mapping[str, Any]) -> Held | None:
    """The ``held`` of a hello (``None`` when it has none: a page's first connection).

    Raises :class:`ValueError` naming what is wrong when it is present but malformed.

    >>> held_from({"type": "hello", "token": "t"}) is None
    True
    >>> held_from({"held": {"log": 12, "notices": 1, "chat": None}})
    Held(log=12, notices=1, chat=None)
    >>> held_from({"held": {"log": -1, "notices": 0, "chat": None}})
    Traceback (most recent call last):
    ...
    ValueError: held must be {"log": n, "notices": n, "chat": id or null}, each n >= 0
    """
    held = hello.get("held")
    if held is None:
        return None
    if not isinstance(held, dict) or set(held) != {"log", "notices", "chat"}:
        raise ValueError(HELD_FORM)
    log, notices, chat = held["log"], held["notices"], held["chat"]
    if not (_count(log) and _count(notices) and (chat is None or _count(chat))):
        raise ValueError(HELD_FORM)
    return Held(log, notices, chat)


def _count(value: object) -> bool:
    """Whether ``value`` is a whole number from 0 (a JSON ``true`` is not)."""
    return type(value) is int and value >= 0


class Watcher:
    """One open page (WebSocket) watching a table as a seat or a spectator.

    Messages are queued as text and sent by the connection's own task, so a slow page
    never holds up the table. Each queued message may carry the time its move was
    submitted, for the latency figures.
    """

    def __init__(self, viewer: int | None, access: Access | None = None) -> None:
        self.viewer = viewer
        #: Who the page's token is (``None``: a seat or spectator, as ``viewer`` says).
        self.access = access
        self.queue: asyncio.Queue[tuple[str, float | None]] = asyncio.Queue()
        self.log_sent = 0
        #: Announcements (``LiveTable.notices``) already sent.
        self.notices_sent = 0
        self.closed = False

    def put(self, text: str, submitted: float | None = None) -> None:
        """Queue ``text`` for sending (dropped once the watcher is closed)."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close()
            return
        self.queue.put_nowait((text, submitted))

    def close(self) -> None:
        """Stop sending; the connection task ends when it sees the sentinel."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(("", None))


@dataclass
class Metrics:
    """Counters and latency samples for the benchmark."""

    moves: int = 0
    actions: int = 0
    pushes: int = 0
    latencies: deque[float] = field(default_factory=lambda: deque(maxlen=500_000))
    started: float = field(default_factory=time.monotonic)

    def snapshot(self) -> dict[str, Any]:
        """The figures so far (latencies in milliseconds)."""
        samples = sorted(self.latencies)

        def pct(q: float) -> float | None:
            """The ``q`` quantile in milliseconds."""
            if not samples:
                return None
            return round(samples[min(len(samples) - 1, int(q * len(samples)))] * 1000, 3)

        return {
            "moves": self.moves,
            "actions": self.actions,
            "pushes": self.pushes,
            "seconds": round(time.monotonic() - self.started, 3),
            "latency_samples": len(samples),
            "latency_ms": {"p50": pct(0.50), "p90": pct(0.90), "p99": pct(0.99),
                           "max": pct(1.0)},
        }


def dumps(message: Mapping[str, Any]) -> str:
    """``message`` as JSON text."""
    # orjson: a busy table server spends a fifth of each move encoding views otherwise.
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
