"""Migration 0002 on a fresh database and on one that only ever had 0001."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.store import SqliteStore
from bot.store.migrate import apply_migrations, default_directory, discover

T0 = "2025-01-01T00:00:00Z"
T1 = "2025-01-01T00:05:00Z"

pytestmark = pytest.mark.sqlite_only


async def names(store: SqliteStore, kind: str) -> set[str]:
    rows = await store._all("SELECT name FROM sqlite_master WHERE type = ?", (kind,))
    return {r[0] for r in rows}


async def test_fresh_database_has_the_new_schema(sqlite_store: SqliteStore) -> None:
    assert {"guild_settings", "ratings"} <= await names(sqlite_store, "table")
    indexes = await names(sqlite_store, "index")
    assert {"matches_open_deadline", "results_guild_user_finished"} <= indexes
    assert "results_guild_user" not in indexes
    columns = {r["name"]: r for r in await sqlite_store._all("PRAGMA table_info(matches)")}
    assert columns["deadline"]["notnull"] == 0
    assert (columns["vs_bot"]["notnull"], columns["vs_bot"]["dflt_value"]) == (1, "0")


async def test_a_version_1_database_is_upgraded_with_its_data(tmp_path: Path) -> None:
    only_first = tmp_path / "v1"
    only_first.mkdir()
    first = discover(default_directory())[0]
    (only_first / first.name).write_text(first.sql, encoding="utf-8")
    db = tmp_path / "old.sqlite3"

    async with aiosqlite.connect(db, isolation_level=None) as conn:
        assert await apply_migrations(conn, only_first) == [1]
        await conn.execute_fetchall(
            "INSERT INTO players (user_id, name, updated_at) VALUES ('ann', 'Ann', ?), "
            "('bob', 'Bob', ?)",
            (T0, T0),
        )
        await conn.execute_fetchall(
            "INSERT INTO matches (id, guild_id, channel_id, status, challenger_id, opponent_id,"
            " settings, state, move_count, created_at, updated_at, finished_at, winner_id,"
            " end_reason) VALUES"
            " (1, 'g', 'c1', 'finished', 'ann', 'bob', '{}', '{\"s\":1}', 1, ?, ?, ?, 'ann',"
            " 'target'),"
            " (2, 'g', 'c2', 'playing', 'bob', 'ann', '{}', '{\"s\":2}', 0, ?, ?, NULL, NULL,"
            " NULL)",
            (T0, T1, T1, T0, T0),
        )
        await conn.execute_fetchall(
            "INSERT INTO hands (match_id, number, dealer_seat, seed, outcome, knocker_seat,"
            " winner_seat, points, result) VALUES (1, 1, 0, 's', 'gin', 0, 0, 30, '{}')"
        )
        await conn.execute_fetchall(
            "INSERT INTO results (match_id, guild_id, user_id, seat, opponent_id, won, points,"
            " final_score, reason, finished_at) VALUES"
            " (1, 'g', 'ann', 0, 'bob', 1, 130, 155, 'target', ?),"
            " (1, 'g', 'bob', 1, 'ann', 0, 0, 0, 'target', ?)",
            (T1, T1),
        )

    async with SqliteStore(db) as store:
        rows = await store._all("SELECT version FROM schema_migrations ORDER BY version")
        assert [r[0] for r in rows][:2] == [1, 2]
        assert (await store.counts())["results"] == 2
        (open_table,) = await store.open_tables()
        assert (open_table.id, open_table.deadline, open_table.vs_bot) == (2, None, False)
        assert open_table.state == {"s": 2}
        board, total = await store.leaderboard("g", 10, 0, sort="rating")
        assert total == 2
        assert [(r.user_id, r.won, r.rating) for r in board] == [("ann", 1, None), ("bob", 0, None)]
        stats = await store.player_stats("g", "ann")
        assert stats is not None
        assert (stats.gins, stats.hands_played, stats.knocks, stats.rating) == (1, 1, 1, None)
        history, count = await store.history("g", "bob", 10, 0)
        assert count == 1 and history[0].opponent_name == "Ann" and not history[0].vs_bot
        # The upgraded database takes the new features straight away.
        await store.set_deadline(2, T1, T1)
        assert await store.due_deadlines(T1) == [(2, T1)]
