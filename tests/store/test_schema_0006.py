"""Migration 0006 (the players' names in their entrant rows) on a database whose tournaments
were written before it, on SQLite and PostgreSQL: they load unchanged, the names read from
where they were kept (beside the Discord layer's ids, as ``name:<user id>``), and a player who
joins after the upgrade has theirs in their row."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.store.migrate import default_directory, discover
from bot.tournaments import TournamentService, TournamentSettings
from tests.store.helpers import Database
from tests.store.test_migrate import connection, migrate

T0 = "2025-03-01T10:00:00+00:00"
KEPT = {
    "signup": 111,
    "name:p1": "Ann",
    "name:p2": "Bob",
    "round:1": 222,
    "thread:1:0": 333,
    "standings": 444,
}


def before_0006(folder: Path) -> Path:
    folder.mkdir()
    for migration in discover(default_directory()):
        if migration.version < 6:
            (folder / migration.name).write_text(migration.sql, encoding="utf-8")
    return folder


async def test_tournaments_stored_before_the_names_column_load_unchanged(
    database: Database, tmp_path: Path
) -> None:
    settings = {**TournamentSettings().checked().to_dict(), "screens": KEPT}
    async with database.store(migrations=before_0006(tmp_path / "old")) as old:
        tid = await old.create_tournament("g1", "c1", "org", "swiss", settings, T0)
    # The rows as the older version wrote them on joining: no name column yet.
    async with connection(database) as conn:
        for user in ("p1", "p2"):
            sql = (
                "INSERT INTO tournament_entrants (tournament_id, user_id, status, joined_at) "
                f"VALUES ({tid}, '{user}', 'joined', '{T0}')"
            )
            if database.backend == "postgres":
                await conn.execute(sql)  # type: ignore[union-attr]
            else:
                await conn.execute_fetchall(sql)  # type: ignore[union-attr]
        assert 6 in await migrate(conn)
    async with database.store() as store:
        service = TournamentService(store, lambda: datetime(2025, 3, 1, 10, 5, tzinfo=UTC))
        tournament = await service.get(tid)
        assert tournament.screens == KEPT  # the ids as they were, byte for byte
        assert tournament.names == {"p1": "Ann", "p2": "Bob"}
        assert tournament.settings == TournamentSettings().checked()
        await service.join(tid, "p3", "Cleo")  # after the upgrade: the name in the row
        rows = await store._all("SELECT user_id, name FROM tournament_entrants ORDER BY user_id")
        assert [tuple(r) for r in rows] == [("p1", None), ("p2", None), ("p3", "Cleo")]
        assert (await service.get(tid)).names == {"p1": "Ann", "p2": "Bob", "p3": "Cleo"}
