"""Migrations: applied in order, once, each one all or nothing, on either backend; and once
when two processes start at the same time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.store import PostgresStore, dialect
from bot.store.migrate import (
    apply_migrations,
    apply_postgres_migrations,
    default_directory,
    discover,
    split_statements,
)
from bot.store.postgres import scratch_schema
from tests.store.helpers import AnyStore, Database

SHIPPED = [m.version for m in discover(default_directory())]


def shipped(folder: Path) -> Path:
    """A private copy of the real migrations, so a test can add its own next to them."""
    folder.mkdir()
    for migration in discover(default_directory()):
        (folder / migration.name).write_text(migration.sql, encoding="utf-8")
    return folder


async def versions(store: AnyStore) -> list[int]:
    rows = await store._all("SELECT version FROM schema_migrations ORDER BY version")
    return [row[0] for row in rows]


PG_TABLES = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"


async def table_names(store: AnyStore) -> set[str]:
    if isinstance(store, PostgresStore):
        sql = PG_TABLES
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return {row[0] for row in await store._all(sql)}


Connection = aiosqlite.Connection | asyncpg.Connection


@asynccontextmanager
async def connection(database: Database) -> AsyncIterator[Connection]:
    """A bare connection to the test's database, as a migrating process has."""
    if database.backend == "postgres":
        conn = await asyncpg.connect(str(database.location))
        try:
            yield conn
        finally:
            await conn.close()
        return
    database.location.parent.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
    async with aiosqlite.connect(database.location, isolation_level=None) as db:
        await db.execute_fetchall("PRAGMA busy_timeout=10000")
        yield db


async def migrate(conn: Connection, folder: Path | None = None) -> list[int]:
    if isinstance(conn, asyncpg.Connection):
        return await apply_postgres_migrations(conn, folder)
    return await apply_migrations(conn, folder)


async def test_shipped_migrations_are_found() -> None:
    found = discover(default_directory())
    assert [m.version for m in found][:2] == [1, 2]
    assert found[0].name == "0001_initial.sql"
    assert found[1].name == "0002_settings_ratings_timers.sql"


async def test_applied_once_and_skipped_on_reopen(database: Database) -> None:
    async with database.store() as store:
        assert await versions(store) == SHIPPED
        first = await store._all("SELECT applied_at FROM schema_migrations")
        await store.create_challenge("g", "c", "a", "b", {}, "2025-01-01T00:00:00Z")
    async with database.store() as store:
        assert await versions(store) == SHIPPED
        assert [tuple(r) for r in await store._all("SELECT applied_at FROM schema_migrations")] == [
            tuple(r) for r in first
        ]
        assert (await store.counts())["matches"] == 1


async def test_runner_returns_nothing_the_second_time(database: Database) -> None:
    async with connection(database) as conn:
        assert await migrate(conn) == SHIPPED
        assert await migrate(conn) == []


async def test_new_migrations_apply_in_order_and_only_once(
    database: Database, tmp_path: Path
) -> None:
    folder = shipped(tmp_path / "migrations")
    async with database.store(migrations=folder) as store:
        assert await versions(store) == SHIPPED

    # 0901 needs the table 0900 creates, so it only works if they run in number order.
    (folder / "0901_fill.sql").write_text(
        "INSERT INTO notes (body) VALUES ('third; with a semicolon');\n", encoding="utf-8"
    )
    (folder / "0900_notes.sql").write_text(
        "-- a table for notes; just for this test\n"
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);\n"
        "INSERT INTO notes (body) VALUES ('second');\n",
        encoding="utf-8",
    )
    (folder / "README.txt").write_text("not a migration", encoding="utf-8")
    async with database.store(migrations=folder) as store:
        assert await versions(store) == [*SHIPPED, 900, 901]
        bodies = [r[0] for r in await store._all("SELECT body FROM notes ORDER BY id")]
        assert bodies == ["second", "third; with a semicolon"]
    async with database.store(migrations=folder) as store:
        assert await versions(store) == [*SHIPPED, 900, 901]
        assert len(await store._all("SELECT body FROM notes")) == 2


async def test_a_failing_migration_leaves_nothing_behind(
    database: Database, tmp_path: Path
) -> None:
    folder = shipped(tmp_path / "migrations")
    (folder / "0900_broken.sql").write_text(
        "CREATE TABLE half (id INTEGER);\nINSERT INTO no_such_table VALUES (1);\n",
        encoding="utf-8",
    )
    with pytest.raises((aiosqlite.OperationalError, asyncpg.UndefinedTableError)):
        await database.store(migrations=folder).open()
    (folder / "0900_broken.sql").unlink()
    async with database.store(migrations=folder) as store:
        assert await versions(store) == SHIPPED
        assert "half" not in await table_names(store)
        assert "matches" in await table_names(store)


async def test_two_processes_starting_at_once_apply_each_migration_once(
    database: Database, tmp_path: Path
) -> None:
    """Two connections (two bot processes) migrate one new database at the same moment; a
    slow last migration keeps the first busy while the second arrives. The second waits for
    the first (PostgreSQL's advisory lock, SQLite's write lock) and then has nothing to do:
    run twice, the migration would fail creating its table again."""
    folder = shipped(tmp_path / "migrations")
    slow = "SELECT pg_sleep(0.5);\n" if database.backend == "postgres" else ""
    (folder / "0900_notes.sql").write_text(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);\n"
        + slow
        + "INSERT INTO notes (body) VALUES ('once');\n",
        encoding="utf-8",
    )
    async with connection(database) as first, connection(database) as second:
        started = time.monotonic()
        outcomes = await asyncio.gather(migrate(first, folder), migrate(second, folder))
        took = time.monotonic() - started
    # Each migration once, by one or the other (on SQLite they may share the work, taking
    # turns migration by migration; on PostgreSQL the first does it all, the second waits).
    assert sorted(outcomes[0] + outcomes[1]) == [*SHIPPED, 900]
    if slow:
        assert sorted(outcomes) == [[], [*SHIPPED, 900]] and took >= 0.5
    async with database.store(migrations=folder) as store:
        assert await versions(store) == [*SHIPPED, 900]
        assert [tuple(r) for r in await store._all("SELECT id, body FROM notes")] == [(1, "once")]


@pytest.mark.postgres
async def test_the_postgres_lock_is_given_back_and_kept_per_schema(
    postgres_url_fixture: str,
) -> None:
    """After migrating, another session takes the lock at once; while one schema's lock is
    held, another schema of the same database migrates without waiting."""
    conn = await asyncpg.connect(postgres_url_fixture)
    try:
        assert await apply_postgres_migrations(conn) == SHIPPED
        try_lock = dialect.MIGRATION_LOCK.replace("pg_advisory_lock", "pg_try_advisory_lock")
        assert await conn.fetchval(try_lock) is True  # held now, by this session
        async with scratch_schema(postgres_url_fixture, prefix="gin_test") as elsewhere:
            other = await asyncpg.connect(elsewhere)
            try:
                migrated = await asyncio.wait_for(apply_postgres_migrations(other), timeout=10)
                assert migrated == SHIPPED
            finally:
                await other.close()
        assert await conn.fetchval(dialect.MIGRATION_UNLOCK) is True
    finally:
        await conn.close()


def test_duplicate_versions_are_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;", encoding="utf-8")
    (tmp_path / "1_b.sql").write_text("SELECT 2;", encoding="utf-8")
    with pytest.raises(ValueError, match="two migrations numbered 1"):
        discover(tmp_path)


def test_split_keeps_semicolons_in_strings_comments_and_triggers() -> None:
    script = """
    -- first; a comment
    CREATE TABLE t (x TEXT);
    INSERT INTO t VALUES ('a;b');
    CREATE TRIGGER t_copy AFTER INSERT ON t BEGIN
        INSERT INTO t VALUES ('copy;' || new.x);
    END;
    SELECT 1
    """
    statements = split_statements(script)
    assert len(statements) == 4
    assert statements[1].endswith("VALUES ('a;b');")
    assert statements[2].startswith("CREATE TRIGGER") and statements[2].endswith("END;")


def test_split_refuses_an_unfinished_statement() -> None:
    with pytest.raises(ValueError, match="incomplete"):
        split_statements("INSERT INTO t VALUES ('open string;")
