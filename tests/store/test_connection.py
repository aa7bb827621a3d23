"""Opening and closing: the backend GIN_DB names, pragmas, folders, in-memory databases."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from bot.store import PostgresStore, SqliteStore, store_for
from bot.store.errors import StoreClosed
from bot.store.postgres import redact, with_search_path
from bot.store.sqlite import CACHE_KIB
from tests.store.helpers import AnyStore, Database


@pytest.mark.parametrize(
    ("location", "kind"),
    [
        ("data/gin.sqlite3", SqliteStore),
        (Path("data/gin.sqlite3"), SqliteStore),
        (":memory:", SqliteStore),
        ("postgresql://gin:secret@db.example:5432/gin", PostgresStore),
        ("postgres://gin@localhost/gin?search_path=bot", PostgresStore),
    ],
)
def test_the_location_chooses_the_backend(location: str | Path, kind: type) -> None:
    assert isinstance(store_for(location), kind)


def test_urls_lose_their_password_in_messages_and_gain_a_search_path() -> None:
    assert redact("postgresql://gin:secret@db:5432/gin") == "postgresql://gin:***@db:5432/gin"
    assert redact("postgresql://gin@db/gin") == "postgresql://gin@db/gin"
    url = with_search_path("postgresql://gin@db/gin?sslmode=disable&search_path=old", "new")
    assert url == "postgresql://gin@db/gin?sslmode=disable&search_path=new"


@pytest.mark.sqlite_only
async def test_file_database_uses_wal_and_normal_sync(
    sqlite_file_store: SqliteStore, db_path: Path
) -> None:
    assert db_path.parent.is_dir()
    assert await sqlite_file_store.pragma("journal_mode") == "wal"
    assert await sqlite_file_store.pragma("synchronous") == 1  # NORMAL
    assert await sqlite_file_store.pragma("foreign_keys") == 1
    assert await sqlite_file_store.pragma("busy_timeout") == 5000
    assert await sqlite_file_store.pragma("cache_size") == -CACHE_KIB  # KiB, not pages


@pytest.mark.sqlite_only
async def test_memory_database_works(sqlite_store: SqliteStore) -> None:
    assert await sqlite_store.pragma("foreign_keys") == 1


async def test_a_new_database_is_empty(store: AnyStore) -> None:
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


async def test_close_is_idempotent_and_open_twice_is_harmless(database: Database) -> None:
    store = database.store()
    await store.close()
    await store.open()
    await store.open()
    await store.close()
    await store.close()
    with pytest.raises(RuntimeError, match="not open"):
        await store.counts()


@pytest.mark.sqlite_only
async def test_pragma_names_are_checked(sqlite_store: SqliteStore) -> None:
    with pytest.raises(ValueError):
        await sqlite_store.pragma("journal_mode; DROP TABLE matches")


async def test_players_are_upserted(store: AnyStore) -> None:
    await store.upsert_player("u1", "Old name", "2025-01-01T00:00:00Z")
    await store.upsert_player("u1", "New name", "2025-01-02T00:00:00Z")
    rows = await store._all("SELECT user_id, name, updated_at FROM players")
    assert [tuple(r) for r in rows] == [("u1", "New name", "2025-01-02T00:00:00Z")]


async def test_a_close_during_open_leaves_nothing_running(database: Database) -> None:
    """A stop in the bot's first second closes the store while it is still opening: the
    opening gives up, and no connection (for SQLite, no thread that would keep the process
    from exiting) is left behind. The store can still be opened afterwards."""
    before = {t for t in threading.enumerate() if not t.daemon}
    store = database.store()
    opening = asyncio.create_task(store.open())
    await asyncio.sleep(0)  # the open is under way, waiting for its connection
    await store.close()
    with pytest.raises(StoreClosed):
        await opening
    for thread in {t for t in threading.enumerate() if not t.daemon} - before:
        thread.join(timeout=10)  # a closed connection's thread ends a moment after its close
        assert not thread.is_alive(), f"{thread.name} outlived the store"
    async with store:
        assert await store.open_tables() == []
