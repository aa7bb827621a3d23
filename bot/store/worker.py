"""Run a whole transaction on aiosqlite's worker thread in one round trip, or reach the
connection itself for a short one on the event loop's own thread.

Each aiosqlite call is a hop from the event loop to its thread and back, and on a busy loop
the way back waits behind everything else that is ready to run: a transaction of a few
statements pays that wait a few times. Handing the thread one function that runs every
statement pays it once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar, cast

import aiosqlite

T = TypeVar("T")


async def run_in_worker(conn: aiosqlite.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work(db)`` on the connection's worker thread with its ``sqlite3.Connection``.

    aiosqlite has no public call for this, so this is the one place that reaches inside it:
    ``Connection._execute`` (queue a callable for the worker thread, in order with every
    other call on the connection) and ``Connection._conn`` (the sqlite3 connection), both
    present from 0.17 to 0.22. ``SqliteStore.open`` calls this once, so a change there
    fails at start-up; tests/store/test_worker.py checks the behaviour relied on.
    """
    try:
        execute = conn._execute
        db = conn._conn
    except AttributeError as error:
        raise RuntimeError(
            f"aiosqlite {aiosqlite.__version__} no longer lets bot.store.worker run a "
            "function on its thread; adapt run_in_worker"
        ) from error
    return cast(T, await execute(work, db))  # type: ignore[no-untyped-call]


def loop_connection(conn: aiosqlite.Connection) -> sqlite3.Connection:
    """The sqlite3 connection under ``conn``, to run a short transaction on the event loop's
    own thread.

    Only for a connection opened with ``check_same_thread=False``, by a caller that holds the
    lock keeping every other use of the connection out (``SqliteStore._lock``). Same private
    attribute as ``run_in_worker``, checked at start-up the same way.
    """
    try:
        return conn._conn
    except AttributeError as error:
        raise RuntimeError(
            f"aiosqlite {aiosqlite.__version__} no longer exposes its sqlite3 connection; "
            "adapt bot.store.worker.loop_connection"
        ) from error
