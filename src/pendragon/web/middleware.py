"""What every HTTP request goes through before a route: the cap on a body's size, the
per-client rate limits (``pendragon.web.limits``) and the security headers; and the JSON
shape of every error (:func:`error_response`)."""

from __future__ import annotations

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pendragon.web.limits import RateLimited, RateLimiter, client_address, current_client

#: Largest request body accepted.
MAX_BODY = 64 * 1024

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def error_response(code: str, message: str, status: int) -> JSONResponse:
    """The JSON error every refusal is: ``{"error": {"code", "message"}}``, never cached."""
    return JSONResponse(
        {"error": {"code": code, "message": message}},
        status_code=status,
        headers={"Cache-Control": "no-store"},
    )


def describe_validation(error: RequestValidationError,
                        known: frozenset[str] = frozenset()) -> str:
    """A refused body's problems, in a sentence (at most five of them). A field is named
    only if it is one of ``known`` (the request models' own field names) or a list's
    index; a name the client made up (an unknown field, an option's key) is never echoed
    (issue 36, item 8), nor is a value.

    >>> from pydantic import BaseModel, ConfigDict, ValidationError
    >>> class Body(BaseModel):
    ...     model_config = ConfigDict(extra="forbid")
    ...     version: int
    >>> try:
    ...     Body.model_validate({"version": "x", "<script>": 1})
    ... except ValidationError as problem:
    ...     print(describe_validation(RequestValidationError(problem.errors()),
    ...                               frozenset({"version"})).split("; ")[1:])
    ['a field this request does not take']
    """
    parts = []
    for item in error.errors()[:5]:
        kind = item.get("type")
        if kind == "json_invalid":
            return "the request body is not valid JSON"
        named = [str(x) for x in item.get("loc", ())
                 if x != "body" and ((isinstance(x, int) and 0 <= x < 1000) or x in known)]
        if kind == "extra_forbidden":
            parts.append("a field this request does not take")
            continue
        where = ".".join(named)
        message = str(item.get("msg", "invalid value"))
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts) or "invalid request"


class LimitBody:
    """Refuse request bodies over :data:`MAX_BODY` (413) and bodies of unknown length."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH"):
            headers = dict(scope.get("headers") or [])
            length = headers.get(b"content-length")
            problem: tuple[int, str, str] | None = None
            if length is None:
                if headers.get(b"transfer-encoding"):
                    problem = (411, "length_required", "send a Content-Length")
            elif not length.isdigit() or int(length) > MAX_BODY:
                problem = (413, "too_large", f"request bodies are limited to {MAX_BODY} bytes")
            if problem is not None:
                response = error_response(problem[1], problem[2], problem[0])
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


#: ``GET`` paths a monitor polls: never rate-limited.
UNLIMITED_READS = ("/api/health", "/api/metrics")


class RateLimit:
    """Per-client rate limits on writes over HTTP (``POST /api/tables`` has its own) and on
    reads of ``/api/`` (but :data:`UNLIMITED_READS`): beyond them, 429 ``rate_limited``
    with ``Retry-After`` (``pendragon.web.limits``)."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = None
        if scope["type"] in ("http", "websocket"):
            current_client.set(client_address(scope, self.limiter.limits))
        if scope["type"] == "http" and str(scope.get("path", "")).startswith("/api/"):
            path = str(scope["path"]).rstrip("/")
            if scope["method"] == "POST":
                kind = "create" if path == "/api/tables" else "write"
            elif scope["method"] in ("GET", "HEAD") and path not in UNLIMITED_READS:
                kind = "read"
            if kind is not None:
                client = client_address(scope, self.limiter.limits)
                try:
                    self.limiter.check(kind, client)
                except RateLimited as limited:
                    response = error_response("rate_limited", str(limited), 429)
                    response.headers["Retry-After"] = str(limited.retry_after)
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """Headers that keep tokens out of referrers and scripts out of user text."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            """Add the security headers to the response's start."""
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                headers += [
                    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)

