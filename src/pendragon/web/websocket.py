"""A page's live connection, ``WS /ws``: it says hello with its link's token, then
receives pushes (welcome, seats, state, chat, errors) and sends requests (move, chat, name,
seat to a bot, reclaim, leave, ping). Every message counts against the client's rate before
any work is done on it; a message too big or a client far past its rate is cut off."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import SQLAlchemyError

from pendragon.web.errors import TableError
from pendragon.web.limits import RateLimited, RateLimiter, client_address
from pendragon.web.manager import TableManager
from pendragon.web.security import InputError
from pendragon.web.settings import Settings
from pendragon.web.tables import LiveTable
from pendragon.web.watchers import Watcher, held_from

#: Largest WebSocket message accepted.
MAX_WS_MESSAGE = 8 * 1024
#: Seconds a new WebSocket has to say hello.
HELLO_TIMEOUT = 10.0
#: What a request that could not be stored is told (nothing changed: it may be sent again).
STORAGE_BUSY = "the table could not be saved just now; try again"
#: The requests a page may send (an error answers with its ``request`` only if it is one
#: of them: a client's own text is never echoed).
REQUEST_TYPES = frozenset({"move", "chat", "name", "seat_to_bot", "reclaim", "leave", "ping"})


def websocket_routes(manager: Callable[[], TableManager], settings: Settings,
                     limiter: RateLimiter) -> APIRouter:
    """The ``/ws`` route (``manager``: the running table manager)."""
    router = APIRouter()

    # -------------------------------------------------------------- WebSocket
    @router.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        """A page's live connection: hello, then pushes and requests."""
        await ws.accept()
        client = client_address(ws.scope, settings.limits)
        try:
            limiter.check("connect", client)
        except RateLimited as limited:
            await ws.send_text(json.dumps({"type": "error", "code": "rate_limited",
                                           "message": str(limited),
                                           "retry_after": limited.retry_after}))
            await _close(ws, 4429, str(limited))
            return
        try:
            hello = await asyncio.wait_for(_receive_json(ws), HELLO_TIMEOUT)
        except (TimeoutError, _BadMessage, WebSocketDisconnect) as problem:
            await _close(ws, 4400, str(problem) or "say hello first")
            return
        if hello.get("type") != "hello":
            await _close(ws, 4400, "the first message must be {\"type\": \"hello\", \"token\"}")
            return
        try:  # before the token is looked at: a malformed hello changes nothing
            held = held_from(hello)
        except ValueError as problem:
            await _close(ws, 4400, str(problem))
            return
        try:
            table, access = await manager().identify(hello.get("token"))
        except TableError as error:
            await ws.send_text(json.dumps({"type": "error", "code": error.code,
                                           "message": error.message}))
            await _close(ws, 4401, error.message)
            return
        except SQLAlchemyError:  # nothing changed: the page says hello again (issue 36, 3)
            await ws.send_text(json.dumps({"type": "error", "code": "storage_busy",
                                           "message": STORAGE_BUSY}))
            await _close(ws, 1011, STORAGE_BUSY)
            return
        viewer = access.viewer
        watcher = Watcher(viewer, access)
        table.attach(watcher, held)
        # How the server ends the connection: 4408 unless a message was too big (1009).
        closing = [4408, "closed by the server"]
        sender = asyncio.get_running_loop().create_task(
            _send_loop(ws, watcher, manager(), closing))
        # Messages sent while over the rate, since the last one let through: a client
        # that goes on past another burst's worth is cut off rather than answered.
        ignored = 0
        try:
            while True:
                raw = await _receive_text(ws)
                # Every message counts, well-formed or not, before any work is done on it.
                try:
                    limiter.check("message", client)
                    ignored = 0
                except RateLimited as limited:
                    ignored += 1
                    if ignored > max(settings.limits.message_burst, 1):
                        closing[:] = [4429, "too many messages: this connection is closed"]
                        break
                    watcher.put(json.dumps({"type": "error", "code": "rate_limited",
                                            "message": str(limited),
                                            "retry_after": limited.retry_after}))
                    continue
                try:
                    message = _parse_message(raw)
                except _BadMessage as problem:
                    watcher.put(json.dumps({"type": "error", "code": "bad_request",
                                            "message": str(problem)}))
                    if problem.fatal:
                        closing[:] = [1009, str(problem)]
                        break
                    continue
                await _handle(table, viewer, watcher, message, client)
                if watcher.closed:
                    break
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(watcher)
            try:
                await asyncio.wait_for(sender, 5.0)
            except (TimeoutError, asyncio.CancelledError, Exception):
                sender.cancel()


    return router


class _BadMessage(Exception):
    def __init__(self, message: str, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


class _Raw:
    """A received WebSocket message before it is parsed: its text, or why it has none."""

    __slots__ = ("problem", "text")

    def __init__(self, text: str | None, problem: _BadMessage | None = None) -> None:
        self.text = text
        self.problem = problem


async def _receive_text(ws: WebSocket) -> _Raw:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        return _Raw(None, _BadMessage("send JSON text messages"))
    if len(text) > MAX_WS_MESSAGE:
        return _Raw(None, _BadMessage(f"messages are limited to {MAX_WS_MESSAGE} characters",
                                      fatal=True))
    return _Raw(text)


def _parse_message(raw: _Raw) -> dict[str, Any]:
    if raw.problem is not None:
        raise raw.problem
    try:
        data = json.loads(raw.text or "")
    except RecursionError:
        raise _BadMessage("a message may not nest that deep") from None
    except ValueError as error:  # not JSON, or an integer past Python's digit limit
        reason = "a message must be a JSON object"
        if not isinstance(error, json.JSONDecodeError):
            reason = "a number in the message is too long"
        raise _BadMessage(reason) from None
    if not isinstance(data, dict):
        raise _BadMessage("a message must be a JSON object")
    return data


async def _receive_json(ws: WebSocket) -> dict[str, Any]:
    return _parse_message(await _receive_text(ws))


async def _handle(table: LiveTable, viewer: int | None, watcher: Watcher,
                  message: dict[str, Any], client: str) -> None:
    kind = message.get("type")
    try:
        if kind == "move":
            if viewer is None:
                raise TableError("forbidden", "spectators cannot move", 403)
            await table.submit(viewer, message.get("version"), message.get("action"))
        elif kind == "chat":
            await table.say(viewer, message.get("text"))
        elif kind == "name":
            if viewer is None:
                raise TableError("forbidden", "spectators have no seat to name", 403)
            await table.rename(viewer, message.get("name"))
        elif kind == "seat_to_bot":
            await table.seat_to_bot(viewer, message.get("seat"), message.get("bot"), client)
        elif kind == "reclaim":
            if viewer is None:
                raise TableError("forbidden", "spectators have no seat to take back", 403)
            await table.reclaim(viewer)
        elif kind == "leave":
            if viewer is None:
                raise TableError("forbidden", "spectators have no seat to give up", 403)
            await table.leave(viewer, message.get("bot"), client)
        elif kind == "ping":
            watcher.put(json.dumps({"type": "pong"}))
        else:
            raise TableError("bad_request", "unknown message type", 400)
    except TableError as error:
        watcher.put(json.dumps({"type": "error", "code": error.code, "message": error.message,
                                "request": kind if kind in REQUEST_TYPES else None}))
        if error.code == "stale_version":
            watcher.put(json.dumps(table.state_message(viewer, watcher.log_sent)))
            watcher.log_sent = len(table.lines)
    except SQLAlchemyError:
        watcher.put(json.dumps({"type": "error", "code": "storage_busy", "message": STORAGE_BUSY,
                                "request": kind if kind in REQUEST_TYPES else None}))
    except InputError as error:
        watcher.put(json.dumps({"type": "error", "code": "bad_request", "message": str(error),
                                "request": kind if kind in REQUEST_TYPES else None}))


async def _send_loop(ws: WebSocket, watcher: Watcher, manager: TableManager,
                     closing: list[Any]) -> None:
    try:
        while True:
            text, submitted = await watcher.queue.get()
            if not text:
                break
            await ws.send_text(text)
            metrics = manager.metrics
            if submitted is not None and metrics is not None:
                metrics.latencies.append(time.perf_counter() - submitted)
    except Exception:  # the connection is gone: the receive loop notices
        return
    await _close(ws, int(closing[0]), str(closing[1]))


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):  # already closed by the other side
        await ws.close(code=code, reason=reason[:120])
