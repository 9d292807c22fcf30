"""Connections that cannot starve the server (issue 36, items 2 and 8): uvicorn's own
protocols with what they lack.

uvicorn's HTTP protocol gives an idle keep-alive connection ``timeout_keep_alive`` seconds,
but a connection that never sends a whole request (nothing at all, or headers and body a
byte at a time) is kept for ever, and any number of them from one address; its WebSocket
protocol answers every ping frame without counting it. Here:

* :class:`ConnectionRegistry`: the connections open per client (the peer's address as
  :func:`~pendragon.web.limits.client_key` counts it); a client past
  :attr:`~pendragon.web.limits.Limits.connections_per_client` has its new connection
  closed at once, before anything is read. A trusted reverse proxy is not counted (it
  carries many clients: it must cap them itself, docs/web.md "Behind a reverse proxy").
* :class:`GuardedH11`: a request must arrive whole (headers and body) within
  :attr:`~pendragon.web.limits.Limits.request_timeout` seconds of the connection's opening
  or of the previous response, or the connection is closed.
* :class:`GuardedWebSocket`: ping frames count against a bucket of the connection's
  (``message_rate``/``message_burst``); a client that sends more than a burst past it is
  cut off (close code 1008).
* :class:`OncePerWindow`: a logging filter that lets one ``socket.accept()`` error through
  per window, so that running out of file descriptors cannot fill the disk with
  tracebacks.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from pendragon.web.limits import Limits, TokenBucket, client_key, trusted_peer

log = logging.getLogger("pendragon.web")


class ConnectionRegistry:
    """Open connections per client, for the cap on them.

    >>> registry = ConnectionRegistry(Limits(connections_per_client=2))
    >>> [registry.admit(t, ("10.0.0.1", 1)) for t in ("a", "b", "c")]
    [True, True, False]
    >>> registry.admit("d", ("10.0.0.2", 1)), registry.admit("a", ("10.0.0.1", 1))
    (True, True)
    >>> registry.release("a"); registry.admit("c", ("10.0.0.1", 1))
    True
    >>> registry.open("10.0.0.1"), registry.refused
    (2, 1)
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        #: Connections open per client, and the client of each connection (by the id of
        #: its transport, which a WebSocket keeps from the HTTP request that upgraded).
        self.counts: dict[str, int] = {}
        self.owners: dict[int, str] = {}
        #: Connections refused over the cap since the start.
        self.refused = 0

    def open(self, client: str) -> int:
        """Connections ``client`` holds open now."""
        return self.counts.get(client, 0)

    def admit(self, transport: object, peer: tuple[str, int] | None) -> bool:
        """Count a new connection of ``peer``; ``False`` if its client holds as many as it
        may (the connection is then not counted). A connection counted already (a
        WebSocket upgraded from its HTTP request) is admitted again."""
        if id(transport) in self.owners:
            return True
        cap = self.limits.connections_per_client
        if peer is None or cap <= 0:
            return True
        if trusted_peer(peer[0], self.limits):
            return True
        client = client_key(peer[0])
        if self.counts.get(client, 0) >= cap:
            self.refused += 1
            return False
        self.counts[client] = self.counts.get(client, 0) + 1
        self.owners[id(transport)] = client
        return True

    def release(self, transport: object) -> None:
        """A connection closed (nothing happens for one never counted, or counted off)."""
        client = self.owners.pop(id(transport), None)
        if client is None:
            return
        left = self.counts.get(client, 0) - 1
        if left > 0:
            self.counts[client] = left
        else:
            self.counts.pop(client, None)


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a per-client connection cap and a deadline for
    each request's headers and body (see the module's text). Made per server by
    :func:`guarded_protocols`."""

    registry: ClassVar[ConnectionRegistry]
    request_timeout: ClassVar[float] = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Count the connection (or close it at once, over the cap) and start the clock
        for its first request."""
        super().connection_made(transport)  # type: ignore[arg-type]
        if not self.registry.admit(transport, self.client):
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock and count the connection off."""
        self._disarm()
        self.registry.release(self.transport)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        """uvicorn's, then: once a whole request has arrived, its clock stops."""
        super().handle_events()
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED):
            self._disarm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """A WebSocket takes the connection over (and keeps its place in the count)."""
        self._disarm()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        """The next request on this connection has its own deadline."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def _arm(self) -> None:
        self._disarm()
        if self.request_timeout > 0:
            self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """The request did not arrive whole in time: close the connection."""
        self._deadline = None
        if not self.transport.is_closing() and self.conn.their_state not in (h11.DONE,):
            self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol that counts ping frames (see the module's text) and
    keeps its connection's place in the :class:`ConnectionRegistry`."""

    registry: ClassVar[ConnectionRegistry]
    ping_rate: ClassVar[float] = 0.0
    ping_burst: ClassVar[int] = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """As uvicorn's (counted already when it was an HTTP request)."""
        super().connection_made(transport)
        if not self.registry.admit(transport, self.client):
            transport.close()
        self._pings = TokenBucket(self.ping_rate, self.ping_burst, time.monotonic()) \
            if self.ping_rate > 0 else None
        self._over = 0

    def connection_lost(self, exc: Exception | None) -> None:
        """Count the connection off."""
        self.registry.release(self.transport)
        super().connection_lost(exc)

    def handle_ping(self) -> None:
        """Answer a ping within the rate; past a burst beyond it, close (1008)."""
        bucket = self._pings
        if self.conn.state is not State.OPEN or self.transport.is_closing():
            return  # being cut off: its pings are no longer answered
        if bucket is not None and bucket.take(time.monotonic()) > 0:
            self._over += 1
            if self._over > max(1, self.ping_burst):
                # The close frame, then the socket a second later at most (its answer to
                # the close frame closes it sooner).
                self.conn.send_close(1008, "too many pings")
                self.transport.write(b"".join(self.conn.data_to_send()))
                self.loop.call_later(1.0, self.transport.close)
                return
        elif bucket is not None:
            self._over = 0
        super().handle_ping()


def guarded_protocols(limits: Limits) -> tuple[type[GuardedH11], type[GuardedWebSocket],
                                                ConnectionRegistry]:
    """The HTTP and WebSocket protocol classes of one server, sharing one registry."""
    registry = ConnectionRegistry(limits)
    http = type("ServerH11", (GuardedH11,), {"registry": registry,
                                             "request_timeout": limits.request_timeout})
    ws = type("ServerWebSocket", (GuardedWebSocket,), {
        "registry": registry, "ping_rate": limits.message_rate,
        "ping_burst": limits.message_burst})
    return http, ws, registry


class OncePerWindow(logging.Filter):
    """Lets a record whose message begins with one of ``prefixes`` through once per
    ``window`` seconds for that prefix (every other record passes).

    >>> clock = iter([0.0, 1.0, 11.0]).__next__
    >>> accept = OncePerWindow(("socket.accept()",), 10.0, clock)
    >>> [accept.filter(logging.makeLogRecord({"msg": "socket.accept() out of system"
    ...                                       " resource"})) for _ in range(3)]
    [True, False, True]
    >>> accept.suppressed
    1
    """

    def __init__(self, prefixes: tuple[str, ...], window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.prefixes = prefixes
        self.window = window
        self.clock = clock
        self.last: dict[str, float] = {}
        self.suppressed = 0

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is logged."""
        text = str(record.msg)
        prefix = next((p for p in self.prefixes if text.startswith(p)), None)
        if prefix is None:
            return True
        now = self.clock()
        last = self.last.get(prefix)
        if last is not None and now - last < self.window:
            self.suppressed += 1
            return False
        self.last[prefix] = now
        return True


#: The filters on asyncio's logger (accept() out of file descriptors) and on uvicorn's
#: (requests past ``limit_concurrency``, malformed requests): one per process.
ACCEPT_ERRORS = OncePerWindow(("socket.accept()",), 10.0)
SERVER_WARNINGS = OncePerWindow(("Exceeded concurrency limit", "Invalid HTTP request"), 10.0)


def quiet_accept_errors() -> None:
    """Log ``socket.accept()`` errors (out of file descriptors), requests refused past the
    concurrency limit and malformed requests once per 10 s each at most: an attacker
    cannot fill the disk with them (issue 36, item 2)."""
    for name, quiet in (("asyncio", ACCEPT_ERRORS), ("uvicorn.error", SERVER_WARNINGS)):
        logger = logging.getLogger(name)
        if quiet not in logger.filters:
            logger.addFilter(quiet)
