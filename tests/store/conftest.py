"""Store fixtures: every test that takes ``store``, ``file_store`` or ``database`` runs once on
SQLite and once on PostgreSQL.

PostgreSQL is reached at ``GIN_TEST_POSTGRES`` (default below), each test in a schema of its
own that is dropped afterwards. Without a server there, those tests are skipped and the run
says why in one line; with ``GIN_REQUIRE_POSTGRES=1`` (as in CI) they fail instead. Tests that
only make sense on SQLite (its files, WAL and connection) are marked ``sqlite_only``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store import SqliteStore
from bot.store.postgres import redact, scratch_schema
from tests.store.helpers import AnyStore, Database

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]

_reachable: dict[str, str | None] = {}


def postgres_url() -> str:
    return os.environ.get("GIN_TEST_POSTGRES", "").strip() or DEFAULT_POSTGRES


def postgres_required() -> bool:
    return os.environ.get("GIN_REQUIRE_POSTGRES", "").strip() == "1"


def _why_unreachable(url: str) -> str | None:
    """None if a server answers at ``url``, else what went wrong; asked once a run."""
    if url not in _reachable:

        async def probe() -> None:
            conn = await asyncpg.connect(url, timeout=5)
            await conn.close()

        try:
            # On a thread of its own: fixtures call this with their event loop running.
            with ThreadPoolExecutor(1) as thread:
                thread.submit(asyncio.run, probe()).result()
            _reachable[url] = None
        except (TimeoutError, OSError, asyncpg.PostgresError) as error:
            _reachable[url] = f"{type(error).__name__}: {error}"
    return _reachable[url]


def require_postgres() -> str:
    """The test server's URL; skips the test (fails it, if required) when none answers."""
    url = postgres_url()
    why = _why_unreachable(url)
    if why is not None:
        message = f"no PostgreSQL server at {redact(url)} ({why})"
        if postgres_required():
            pytest.fail(f"GIN_REQUIRE_POSTGRES=1 and {message}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {message}; set GIN_TEST_POSTGRES to run them")
    return url


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line for all the skipped PostgreSQL tests, rather than none or one each (asked
    here too: with the tests run by workers, this process may not have asked yet)."""
    why = _why_unreachable(postgres_url())
    if why is not None and not postgres_required():
        terminalreporter.write_line(
            f"PostgreSQL store tests skipped: no server at {redact(postgres_url())} ({why}); "
            "set GIN_TEST_POSTGRES to a reachable server to run them"
        )


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def database(backend: str, db_path: Path) -> AsyncIterator[Database]:
    if backend == "sqlite":
        yield Database("sqlite", db_path)
        return
    async with scratch_schema(require_postgres(), prefix="gin_test") as url:
        yield Database("postgres", url)


@pytest.fixture
async def store(backend: str, database: Database) -> AsyncIterator[AnyStore]:
    """An open store: an in-memory SQLite database, or a PostgreSQL schema."""
    opened = SqliteStore(":memory:") if backend == "sqlite" else database.store()
    async with opened:
        yield opened


@pytest.fixture
async def file_store(database: Database) -> AsyncIterator[AnyStore]:
    """An open store that outlives its connections: a SQLite file, or a PostgreSQL schema."""
    async with database.store() as opened:
        yield opened


@pytest.fixture
async def sqlite_store() -> AsyncIterator[SqliteStore]:
    async with SqliteStore(":memory:") as opened:
        yield opened


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A file path in a folder that does not exist yet: open() must create it."""
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def sqlite_file_store(db_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore(db_path) as opened:
        yield opened


@pytest.fixture
async def postgres_url_fixture() -> AsyncIterator[str]:
    """A fresh PostgreSQL schema's URL, for tests of PostgreSQL alone."""
    async with scratch_schema(require_postgres(), prefix="gin_test") as url:
        yield url
