"""Opening and closing: pragmas, folders, in-memory databases."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import SqliteStore


async def test_file_database_uses_wal_and_normal_sync(
    file_store: SqliteStore, db_path: Path
) -> None:
    assert db_path.parent.is_dir()
    assert await file_store.pragma("journal_mode") == "wal"
    assert await file_store.pragma("synchronous") == 1  # NORMAL
    assert await file_store.pragma("foreign_keys") == 1
    assert await file_store.pragma("busy_timeout") == 5000


async def test_memory_database_works(store: SqliteStore) -> None:
    assert await store.pragma("foreign_keys") == 1
    assert await store.counts() == {
        "players": 0,
        "matches": 0,
        "seats": 0,
        "moves": 0,
        "hands": 0,
        "results": 0,
        "ratings": 0,
        "guild_settings": 0,
    }


async def test_close_is_idempotent_and_open_twice_is_harmless(db_path: Path) -> None:
    store = SqliteStore(db_path)
    await store.close()
    await store.open()
    await store.open()
    await store.close()
    await store.close()
    with pytest.raises(RuntimeError, match="not open"):
        await store.counts()


async def test_pragma_names_are_checked(store: SqliteStore) -> None:
    with pytest.raises(ValueError):
        await store.pragma("journal_mode; DROP TABLE matches")


async def test_players_are_upserted(store: SqliteStore) -> None:
    await store.upsert_player("u1", "Old name", "2025-01-01T00:00:00Z")
    await store.upsert_player("u1", "New name", "2025-01-02T00:00:00Z")
    rows = await store._all("SELECT user_id, name, updated_at FROM players")
    assert [tuple(r) for r in rows] == [("u1", "New name", "2025-01-02T00:00:00Z")]
