"""Tokens and the cleaning of everything a user types.

A link's token is ``<table id>.<secret>``: the table id finds the table, the secret (192
random bits) proves the right to one seat or to watch. Only the SHA-256 of a secret is
stored, so a copy of the database opens no seat.

>>> token = new_token("abcdefgh1234")
>>> parse_token(token)[0]
'abcdefgh1234'
>>> len(hash_secret(parse_token(token)[1]))
64
>>> clean_text("  Sir <b>Kay</b>\\x00\\n ", 40)
'Sir <b>Kay</b>'
>>> clean_text("x" * 50, 40)
Traceback (most recent call last):
...
pendragon.web.security.InputError: text longer than 40 characters
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata

#: Longest display name, chat line and chat lines kept per table in memory.
MAX_NAME = 40
MAX_CHAT = 500
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{8,32}$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class InputError(ValueError):
    """A user's input that cannot be accepted (the message says why)."""


def new_table_id() -> str:
    """A random table id (12 URL-safe characters)."""
    return secrets.token_urlsafe(9)


def new_token(table_id: str) -> str:
    """A fresh link token for a seat or for spectators of ``table_id``."""
    return f"{table_id}.{secrets.token_urlsafe(24)}"


def parse_token(token: str) -> tuple[str, str]:
    """Split a token into (table id, secret); :class:`InputError` if malformed."""
    if not isinstance(token, str) or len(token) > 100:
        raise InputError("malformed token")
    table_id, dot, secret = token.partition(".")
    if not dot or not _TABLE_ID.match(table_id) or not _SECRET.match(secret):
        raise InputError("malformed token")
    return table_id, secret


def hash_secret(secret: str) -> str:
    """The stored form of a token's secret."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def secret_matches(secret: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of ``secret`` with a stored hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_secret(secret), stored_hash)


def clean_text(text: object, limit: int, *, multiline: bool = False) -> str:
    """``text`` normalised (NFC), without control characters, trimmed, at most ``limit``.

    HTML is not stripped here: the page inserts user text as text, never as markup.
    """
    if not isinstance(text, str):
        raise InputError("text expected")
    if len(text) > 4 * limit:
        raise InputError(f"text longer than {limit} characters")
    text = unicodedata.normalize("NFC", text)
    kept = []
    for char in text:
        if char == "\n" and multiline:
            kept.append(char)
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            if char in "\t\n\r":
                kept.append(" ")
        else:
            kept.append(char)
    cleaned = "".join(kept).strip()
    if len(cleaned) > limit:
        raise InputError(f"text longer than {limit} characters")
    return cleaned
