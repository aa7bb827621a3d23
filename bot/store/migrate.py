"""Numbered SQL migrations applied in order at open, so every database reaches the same schema.

Files are named ``NNNN_description.sql`` and written in SQLite's dialect; PostgreSQL runs
them as ``bot.store.dialect`` translates them. Each one runs in its own transaction together
with its row in ``schema_migrations``, so a failed migration leaves nothing behind and is
retried at the next open; an applied one is never run again.

Processes starting at once: on SQLite the write lock of ``BEGIN IMMEDIATE`` and a second look
at the ledger inside it keep a migration from running twice; on PostgreSQL an advisory lock
per schema makes the later process wait until the first has finished migrating.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

import aiosqlite
import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store import dialect

_NAME = re.compile(r"^(\d+)_[\w-]+\.sql$")

CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    applied_at TEXT NOT NULL
)
"""
# The database clock is fine here: migration times are for people, not for game logic.
RECORD = (
    "INSERT INTO schema_migrations (version, applied_at) "
    "VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"
)


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def default_directory() -> Traversable:
    """The migrations shipped inside this package (works from a wheel too)."""
    return files("bot.store").joinpath("migrations")


def discover(directory: Traversable) -> list[Migration]:
    """All migrations in a folder, by version; a repeated version is a packaging mistake."""
    found: dict[int, Migration] = {}
    for entry in directory.iterdir():
        match = _NAME.match(entry.name)
        if match is None or not entry.is_file():
            continue
        version = int(match.group(1))
        if version in found:
            raise ValueError(
                f"two migrations numbered {version}: {found[version].name}, {entry.name}"
            )
        found[version] = Migration(version, entry.name, entry.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


def split_statements(script: str) -> list[str]:
    """Cut a script into single statements (sqlite3 runs one per call) without a parser.

    Pieces are joined until SQLite says the text is a complete statement, so semicolons
    inside strings, comments and trigger bodies stay where they are.
    """
    statements: list[str] = []
    buffer = ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \t\r\n;"):
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip(" \t\r\n;"):
        raise ValueError(f"incomplete SQL statement at the end of the script: {buffer[:80]!r}")
    return statements


async def applied_versions(conn: aiosqlite.Connection) -> set[int]:
    rows = await conn.execute_fetchall("SELECT version FROM schema_migrations")
    return {int(row[0]) for row in rows}


async def apply_migrations(
    conn: aiosqlite.Connection, directory: Traversable | None = None
) -> list[int]:
    """Apply the pending migrations in order and return their versions.

    The connection must be in autocommit mode (``isolation_level=None``) so the explicit
    transactions here are the only ones.
    """
    migrations = discover(directory if directory is not None else default_directory())
    await conn.execute_fetchall(CREATE_LEDGER)
    done = await applied_versions(conn)
    applied: list[int] = []
    for migration in migrations:
        if migration.version in done:
            continue
        try:
            await conn.execute_fetchall("BEGIN IMMEDIATE")
            # Checked again inside the transaction in case another process got here first.
            if migration.version in await applied_versions(conn):
                await conn.execute_fetchall("ROLLBACK")
                continue
            for statement in split_statements(migration.sql):
                await conn.execute_fetchall(statement)
            await conn.execute_fetchall(RECORD, (migration.version,))
            await conn.execute_fetchall("COMMIT")
        except BaseException:
            await conn.rollback()
            raise
        applied.append(migration.version)
    return applied


async def apply_postgres_migrations(
    conn: asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record],
    directory: Traversable | None = None,
) -> list[int]:
    """``apply_migrations`` for PostgreSQL, under the schema's migration lock.

    The lock is a session lock on ``conn``, released here: the migrations of a process
    that starts while another is migrating wait, then find them applied and do nothing.
    """
    migrations = discover(directory if directory is not None else default_directory())
    await conn.execute(dialect.MIGRATION_LOCK)
    try:
        await conn.execute(dialect.CREATE_LEDGER)
        done = {int(row[0]) for row in await conn.fetch(dialect.APPLIED)}
        applied: list[int] = []
        for migration in migrations:
            if migration.version in done:
                continue
            script = dialect.postgres_migration(migration.version, migration.sql)
            async with conn.transaction():
                await conn.execute(script)  # a whole script: no arguments, many statements
                await conn.execute(dialect.RECORD, migration.version)
            applied.append(migration.version)
        return applied
    finally:
        if not conn.is_closed():  # a lost connection took its lock with it
            await conn.execute(dialect.MIGRATION_UNLOCK)
