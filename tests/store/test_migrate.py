"""Migrations: applied in order, once, each one all or nothing."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.store import SqliteStore
from bot.store.migrate import apply_migrations, default_directory, discover, split_statements

SHIPPED = [m.version for m in discover(default_directory())]


def shipped(folder: Path) -> Path:
    """A private copy of the real migrations, so a test can add its own next to them."""
    folder.mkdir()
    for migration in discover(default_directory()):
        (folder / migration.name).write_text(migration.sql, encoding="utf-8")
    return folder


async def versions(store: SqliteStore) -> list[int]:
    rows = await store._all("SELECT version FROM schema_migrations ORDER BY version")
    return [row[0] for row in rows]


async def test_shipped_migrations_are_found() -> None:
    found = discover(default_directory())
    assert [m.version for m in found][:2] == [1, 2]
    assert found[0].name == "0001_initial.sql"
    assert found[1].name == "0002_settings_ratings_timers.sql"


async def test_applied_once_and_skipped_on_reopen(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        assert await versions(store) == SHIPPED
        first = await store._all("SELECT applied_at FROM schema_migrations")
        await store.create_challenge("g", "c", "a", "b", {}, "2025-01-01T00:00:00Z")
    async with SqliteStore(db_path) as store:
        assert await versions(store) == SHIPPED
        assert [tuple(r) for r in await store._all("SELECT applied_at FROM schema_migrations")] == [
            tuple(r) for r in first
        ]
        assert (await store.counts())["matches"] == 1


async def test_runner_returns_nothing_the_second_time(tmp_path: Path) -> None:
    async with aiosqlite.connect(tmp_path / "x.db", isolation_level=None) as conn:
        assert await apply_migrations(conn) == SHIPPED
        assert await apply_migrations(conn) == []


async def test_new_migrations_apply_in_order_and_only_once(tmp_path: Path) -> None:
    folder = shipped(tmp_path / "migrations")
    db = tmp_path / "bot.sqlite3"
    async with SqliteStore(db, migrations=folder) as store:
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
    async with SqliteStore(db, migrations=folder) as store:
        assert await versions(store) == [*SHIPPED, 900, 901]
        bodies = [r[0] for r in await store._all("SELECT body FROM notes ORDER BY id")]
        assert bodies == ["second", "third; with a semicolon"]
    async with SqliteStore(db, migrations=folder) as store:
        assert await versions(store) == [*SHIPPED, 900, 901]
        assert len(await store._all("SELECT body FROM notes")) == 2


async def test_a_failing_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    folder = shipped(tmp_path / "migrations")
    (folder / "0900_broken.sql").write_text(
        "CREATE TABLE half (id INTEGER);\nINSERT INTO no_such_table VALUES (1);\n",
        encoding="utf-8",
    )
    db = tmp_path / "bot.sqlite3"
    with pytest.raises(aiosqlite.OperationalError):
        await SqliteStore(db, migrations=folder).open()
    (folder / "0900_broken.sql").unlink()
    async with SqliteStore(db, migrations=folder) as store:
        assert await versions(store) == SHIPPED
        tables = await store._all("SELECT name FROM sqlite_master WHERE name = 'half'")
        assert tables == []


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
