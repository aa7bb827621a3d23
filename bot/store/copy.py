"""Copy a SQLite database into PostgreSQL, then check the copy through the store interface.

    python -m bot.store.copy --from data/gin.sqlite3 --to postgresql://gin@db/gin

The source is left as it was: the copy is made from a snapshot of it (SQLite's backup API,
consistent even while a bot still writes to it), which is brought to the current schema like
the bot would at start-up. The target is migrated first, then every table is copied in one
transaction (all of it or nothing) and the match ids carry on after the highest copied. A
target that already holds rows is refused unless ``--replace`` says to empty it first.

Then the rows of each table are counted on both sides, and every match is read back through
both stores (table, seats, moves, hands, results), with every guild's settings and every
rating, and compared. The exit status is 0 when all of it agrees, 1 when something differs,
2 when nothing was copied (a missing source, a refused target).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store.postgres import PostgresStore, is_postgres_url, redact
from bot.store.sqlite import SqliteStore

# Parents before children, for the foreign keys.
TABLES = ("players", "matches", "seats", "moves", "hands", "results", "ratings", "guild_settings")
# Tournaments, seasons and the reviews sent: counted here, as ``Store.counts`` leaves them out.
EVENT_TABLES = (
    "tournaments",
    "tournament_entrants",
    "tournament_rounds",
    "tournament_pairings",
    "season_schedules",
    "season_settings",
    "division_members",
    "season_posts",
    "reviews",
)
COPIED = TABLES + EVENT_TABLES
# Rows read from SQLite at a time, so a large database is never all in memory.
CHUNK = 5000


class CopyRefused(Exception):
    """Nothing was copied: the message says why."""


@dataclass(slots=True)
class Report:
    source: str
    target: str
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)
    matches: int = 0
    settings: int = 0
    ratings: int = 0
    differences: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.differences and all(a == b for a, b in self.counts.values())

    def lines(self) -> list[str]:
        out = [f"Copied {self.source} into {self.target} in {self.seconds:.1f} s", ""]
        out.append(f"  {'table':<16}{'SQLite':>10}{'PostgreSQL':>12}")
        for table, (ours, theirs) in self.counts.items():
            mark = "" if ours == theirs else "   DIFFERENT"
            out.append(f"  {table:<16}{ours:>10}{theirs:>12}{mark}")
        out.append("")
        checked = (
            f"Read back through the store: {self.matches} matches (table, seats, moves, hands,"
            f" results), {self.settings} guilds' settings, {self.ratings} ratings"
        )
        if self.ok:
            out.append(checked + ": the same on both sides.")
            return out
        out.append(checked + f": {len(self.differences)} difference(s):")
        out.extend(f"  {d}" for d in self.differences[:20])
        if len(self.differences) > 20:
            out.append(f"  ... and {len(self.differences) - 20} more")
        return out


async def copy_database(source: Path, target: str, *, replace: bool = False) -> Report:
    """Copy ``source`` (a SQLite file) into the PostgreSQL database at ``target`` and check
    the copy; ``CopyRefused`` (nothing copied) for a missing source or a target with rows,
    unless ``replace``."""
    if not is_postgres_url(target):
        raise CopyRefused(f"the target must be a postgresql:// URL, not {target!r}")
    if not source.is_file():
        raise CopyRefused(f"there is no SQLite database at {source}")
    started = time.perf_counter()
    report = Report(str(source), redact(target))
    with tempfile.TemporaryDirectory(prefix="gin-copy-") as folder:
        snapshot = Path(folder) / "snapshot.sqlite3"
        await asyncio.to_thread(_snapshot, source, snapshot)
        async with SqliteStore(snapshot) as old, PostgresStore(target, max_size=2) as new:
            held = {table: n for table, n in (await _counts(new)).items() if n}
            if held and not replace:
                rows = ", ".join(f"{n} {table}" for table, n in held.items())
                raise CopyRefused(
                    f"the target already holds rows ({rows}); pass --replace to empty it "
                    "first, or copy into an empty database"
                )
            await _copy_rows(old, new)
            ours, theirs = await _counts(old), await _counts(new)
            report.counts = {table: (ours[table], theirs[table]) for table in ours}
            await _compare(old, new, report)
    report.seconds = time.perf_counter() - started
    return report


def _snapshot(source: Path, snapshot: Path) -> None:
    with (
        contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src,
        contextlib.closing(sqlite3.connect(snapshot)) as dst,
    ):
        src.backup(dst)


async def _copy_rows(old: SqliteStore, new: PostgresStore) -> None:
    """Every table in one transaction on the target, emptied first."""
    columns = {table: await _sqlite_columns(old, table) for table in COPIED}
    async with new._opened().acquire() as conn, conn.transaction():
        for table in COPIED:
            theirs = await conn.fetch(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = $1",
                table,
            )
            if {r[0] for r in theirs} != set(columns[table]):
                raise CopyRefused(f"the two databases' {table} tables have different columns")
        await conn.execute(f"TRUNCATE {', '.join(COPIED)} RESTART IDENTITY")
        for table in COPIED:
            names = columns[table]
            last = -1
            while True:
                rows = await old._all(
                    f"SELECT rowid, {', '.join(names)} FROM {table}"
                    " WHERE rowid > ? ORDER BY rowid LIMIT ?",
                    (last, CHUNK),
                )
                if not rows:
                    break
                last = rows[-1][0]
                records = [tuple(r)[1:] for r in rows]
                await conn.copy_records_to_table(table, records=records, columns=names)
        # New matches carry on after the copied ids.
        await conn.execute(
            "SELECT setval(pg_get_serial_sequence('matches', 'id'),"
            " COALESCE(MAX(id), 0) + 1, false) FROM matches"
        )
        await conn.execute(
            "SELECT setval(pg_get_serial_sequence('tournaments', 'id'),"
            " COALESCE(MAX(id), 0) + 1, false) FROM tournaments"
        )
    async with new._opened().acquire() as conn:
        await conn.execute("ANALYZE")  # the planner's statistics, for the tables just filled


async def _counts(store: SqliteStore | PostgresStore) -> dict[str, int]:
    """``Store.counts`` and the rows of the tournament and season tables."""
    counts = await store.counts()
    for table in EVENT_TABLES:
        rows = await store._all(f"SELECT COUNT(*) FROM {table}")
        counts[table] = int(rows[0][0])
    return counts


async def _sqlite_columns(store: SqliteStore, table: str) -> list[str]:
    return [str(r["name"]) for r in await store._all(f"PRAGMA table_info({table})")]


async def _compare(old: SqliteStore, new: PostgresStore, report: Report) -> None:
    """Every match, guild setting and rating read through both stores, side by side."""
    for row in await old._all("SELECT id FROM matches ORDER BY id"):
        mid = int(row[0])
        report.matches += 1
        for what in ("get_table", "moves", "hands", "results"):
            ours: Any = await getattr(old, what)(mid)
            theirs: Any = await getattr(new, what)(mid)
            if ours != theirs:
                report.differences.append(f"match {mid}: {what} differs")
    for row in await old._all("SELECT guild_id FROM guild_settings ORDER BY guild_id"):
        report.settings += 1
        if await old.get_guild_settings(row[0]) != await new.get_guild_settings(row[0]):
            report.differences.append(f"guild {row[0]}: settings differ")
    groups = await old._all("SELECT DISTINCT guild_id, mode FROM ratings ORDER BY 1, 2")
    for guild, mode in groups:
        users = [
            r[0]
            for r in await old._all(
                "SELECT user_id FROM ratings WHERE guild_id = ? AND mode = ?", (guild, mode)
            )
        ]
        ours_rated = await old.get_ratings(guild, users, mode)
        report.ratings += len(ours_rated)
        if ours_rated != await new.get_ratings(guild, users, mode):
            report.differences.append(f"guild {guild}, mode {mode}: ratings differ")
    for row in await old._all("SELECT id FROM tournaments ORDER BY id"):
        tid = int(row[0])
        if await old.get_tournament(tid) != await new.get_tournament(tid):
            report.differences.append(f"tournament {tid} differs")
    if await old.open_tables() != await new.open_tables():
        report.differences.append("the open tables differ")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.store.copy",
        description="Copy a SQLite database into PostgreSQL and check the copy.",
    )
    parser.add_argument("--from", dest="source", required=True, type=Path, help="SQLite file")
    parser.add_argument("--to", dest="target", required=True, help="postgresql:// URL")
    parser.add_argument(
        "--replace",
        action="store_true",
        help="empty the target's tables first (without it, a target with rows is refused)",
    )
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(copy_database(args.source, args.target, replace=args.replace))
    except CopyRefused as refused:
        print(f"Nothing copied: {refused}.", file=sys.stderr)
        return 2
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
