"""Fixtures of the web table's tests: databases (SQLite always, PostgreSQL when
``PENDRAGON_TEST_POSTGRES`` names one) and a live server."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip(
    "fastapi", reason="the web table needs the 'web' extras (pip install -e '.[web]')"
)

from tests.web.browser import chromium_browser  # noqa: E402
from tests.web.support import FAST, LiveServer, live_server  # noqa: E402

POSTGRES_ENV = "PENDRAGON_TEST_POSTGRES"
SKIP_POSTGRES = (
    f"PostgreSQL tests need {POSTGRES_ENV}=postgresql://user:password@host/db"
    " (scripts/system-deps.sh installs PostgreSQL and prints one)"
)


def postgres_dsn() -> str | None:
    """The DSN of the PostgreSQL test database, if one is configured."""
    return os.environ.get(POSTGRES_ENV) or None


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A database URL whose tables live in a fresh schema, dropped afterwards."""
    dsn = postgres_dsn()
    if dsn is None:
        pytest.skip(SKIP_POSTGRES)
    import psycopg

    schema = "pendragon_test_" + secrets.token_hex(6)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in dsn else "?"
    try:
        yield f"{dsn}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: SQLite, then PostgreSQL (skipped when not configured)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    else:
        with postgres_schema() as url:
            yield url


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server with instant bots, shared by a module's tests (each test makes its
    own tables): on SQLite, then on PostgreSQL (skipped when not configured)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'tables.sqlite3'}"
        with live_server(url, FAST) as running:
            yield running
    else:
        with postgres_schema() as url, live_server(url, FAST) as running:
            yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Chromium for one module of browser tests (``tests/web/browser.py``). Not one for the
    whole session: Playwright's synchronous API runs an event loop in the test's thread for
    as long as it is open, and the tests of other modules that call ``asyncio.run`` (or start
    Playwright themselves) cannot run inside it."""
    with chromium_browser() as chromium:
        yield chromium
