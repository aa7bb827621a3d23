"""What the store relies on inside aiosqlite to run a transaction in one round trip.

If one of these fails after an aiosqlite upgrade, ``bot/store/worker.py`` needs adapting:
the store's writes depend on it.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from typing import Any

import pytest

from bot.store import SqliteStore
from bot.store.worker import run_in_worker

pytestmark = pytest.mark.sqlite_only


async def test_work_runs_on_the_worker_thread_with_the_live_connection(
    sqlite_store: SqliteStore,
) -> None:
    conn = sqlite_store._connection()

    def probe(db: sqlite3.Connection) -> tuple[int, bool, Any]:
        row = db.execute("SELECT 41 + 1 AS answer").fetchone()
        return threading.get_ident(), db.row_factory is sqlite3.Row, row["answer"]

    thread, rows_by_name, answer = await run_in_worker(conn, probe)
    assert thread != threading.get_ident()
    assert rows_by_name and answer == 42


async def test_work_is_ordered_with_the_connection_s_other_calls(sqlite_store: SqliteStore) -> None:
    """Queued behind calls made before it and ahead of calls made after, like any call."""
    conn = sqlite_store._connection()
    await conn.execute_fetchall("CREATE TEMP TABLE seen (n INTEGER)")

    def count(db: sqlite3.Connection) -> int:
        return int(db.execute("SELECT COUNT(*) FROM seen").fetchone()[0])

    _, counted, _, last = await asyncio.gather(
        conn.execute_fetchall("INSERT INTO seen VALUES (1)"),
        run_in_worker(conn, count),
        conn.execute_fetchall("INSERT INTO seen VALUES (2)"),
        run_in_worker(conn, count),
    )
    assert (counted, last) == (1, 2)


async def test_errors_reach_the_caller(sqlite_store: SqliteStore) -> None:
    conn = sqlite_store._connection()

    def broken(db: sqlite3.Connection) -> None:
        db.execute("SELECT * FROM no_such_table")

    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        await run_in_worker(conn, broken)
    assert (await run_in_worker(conn, lambda db: db.execute("SELECT 1").fetchone()))[0] == 1


async def test_a_changed_aiosqlite_fails_with_a_clear_message() -> None:
    class WithoutInternals:
        pass

    with pytest.raises(RuntimeError, match="run_in_worker"):
        await run_in_worker(WithoutInternals(), lambda db: None)  # type: ignore[arg-type]
