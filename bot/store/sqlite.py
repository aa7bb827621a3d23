"""The SQLite store: one connection, WAL, every accepted move committed before anyone is told.

Durability: ``journal_mode=WAL`` with ``synchronous=NORMAL`` means a commit has been written
to the WAL file (not fsynced) when it returns. Committed data survives the bot process
crashing or being killed (SIGKILL, OOM); only an operating-system crash or power loss can
lose the last few commits, never corrupt the database. That trade buys the move rate.

Concurrency: aiosqlite runs statements one at a time on a single worker thread, and an
``asyncio.Lock`` keeps each transaction's statements together, so tasks for many tables can
call the store at once without seeing each other's uncommitted work.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType
from typing import Any, get_args

import aiosqlite

from bot.store import codec
from bot.store import queries as q
from bot.store.base import Store
from bot.store.errors import ChannelBusy, StaleMove
from bot.store.migrate import apply_migrations
from bot.store.rows import (
    ClosedChallenge,
    HandRow,
    JsonObject,
    LeaderRow,
    MatchEnd,
    MoveRecord,
    MoveRow,
    PlayerStats,
    ResultRow,
    TableRow,
)

Params = tuple[Any, ...]


class SqliteStore:
    """``Store`` on one SQLite file; ``":memory:"`` gives a throwaway database for tests."""

    def __init__(
        self,
        path: str | Path,
        *,
        migrations: Traversable | None = None,
        busy_timeout_ms: int = 5000,
    ) -> None:
        self.path = path
        self._migrations = migrations
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # -- lifecycle -------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect, set the pragmas and apply pending migrations; a second call does nothing."""
        if self._conn is not None:
            return
        if not _is_special(self.path):
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions, only the explicit ones below.
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute_fetchall("PRAGMA journal_mode=WAL")
            await conn.execute_fetchall("PRAGMA synchronous=NORMAL")
            await conn.execute_fetchall("PRAGMA foreign_keys=ON")
            # A pragma cannot take a parameter; the value is an int we converted ourselves.
            await conn.execute_fetchall(f"PRAGMA busy_timeout={self._busy_timeout_ms:d}")
            await apply_migrations(conn, self._migrations)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn

    async def close(self) -> None:
        """Close the connection; safe to call twice or before ``open``."""
        conn, self._conn = self._conn, None
        if conn is not None:
            async with self._lock:
                await conn.close()

    async def __aenter__(self) -> SqliteStore:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def pragma(self, name: str) -> Any:
        """Read one pragma (diagnostics and tests); ``name`` must be a plain identifier."""
        if not name.isidentifier():
            raise ValueError(f"not a pragma name: {name!r}")
        async with self._exclusive() as conn:
            rows = list(await conn.execute_fetchall(f"PRAGMA {name}"))
        return rows[0][0] if rows else None

    # -- plumbing --------------------------------------------------------------------------

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("the store is not open")
        return self._conn

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, with no other task's transaction in progress."""
        async with self._lock:
            yield self._connection()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: committed on success, rolled back on any exception."""
        async with self._exclusive() as conn:
            try:
                # BEGIN sits inside the try: if this task is cancelled while BEGIN is queued,
                # BEGIN still runs on the worker thread and must be rolled back.
                await conn.execute_fetchall("BEGIN IMMEDIATE")
                yield conn
                await conn.execute_fetchall("COMMIT")
            except BaseException:
                # Queued after whatever is still pending; a no-op if nothing is open.
                await conn.rollback()
                raise

    async def _one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        async with self._exclusive() as conn:
            return _first(await conn.execute_fetchall(sql, params))

    async def _all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        async with self._exclusive() as conn:
            return list(await conn.execute_fetchall(sql, params))

    # -- writes ----------------------------------------------------------------------------

    async def upsert_player(self, user_id: str, name: str, now: str) -> None:
        await self._one(q.UPSERT_PLAYER, (user_id, name, now))

    async def create_challenge(
        self,
        guild_id: str,
        channel_id: str,
        challenger_id: str,
        opponent_id: str,
        settings: JsonObject,
        now: str,
    ) -> int:
        """Open a table in a channel; ``ChannelBusy`` if one is already open there."""
        if challenger_id == opponent_id:
            raise ValueError("a player cannot challenge themselves")
        params = (guild_id, channel_id, challenger_id, opponent_id, codec.dump(settings), now, now)
        async with self._exclusive() as conn:
            try:
                row = _first(await conn.execute_fetchall(q.CREATE_CHALLENGE, params))
            except sqlite3.IntegrityError as error:
                if error.sqlite_errorcode != sqlite3.SQLITE_CONSTRAINT_UNIQUE:
                    raise
                busy = _first(await conn.execute_fetchall(q.OPEN_MATCH_IN_CHANNEL, (channel_id,)))
                raise ChannelBusy(channel_id, None if busy is None else busy[0]) from None
        assert row is not None
        return int(row[0])

    async def set_display(self, match_id: int, display: JsonObject, now: str) -> None:
        """Remember Discord message ids and such; allowed in any status."""
        if await self._one(q.SET_DISPLAY, (codec.dump(display), now, match_id)) is None:
            raise StaleMove(match_id, "no such match")

    async def start_match(self, match_id: int, state: JsonObject, now: str) -> None:
        """Accept a challenge: status challenge -> playing with the first state."""
        if await self._one(q.START_MATCH, (codec.dump(state), now, match_id)) is None:
            raise StaleMove(match_id, "not an open challenge")

    async def close_challenge(self, match_id: int, status: ClosedChallenge, now: str) -> None:
        """End a challenge that was never accepted; frees the channel."""
        if status not in get_args(ClosedChallenge):
            raise ValueError(f"a challenge cannot close as {status!r}")
        if await self._one(q.CLOSE_CHALLENGE, (status, now, now, match_id)) is None:
            raise StaleMove(match_id, "not an open challenge")

    async def record_move(self, move: MoveRecord) -> None:
        """Write one move, the new state, and any finished hand or match, all or nothing.

        ``StaleMove`` (nothing written) unless the match is playing and
        ``move.seq == move_count + 1``: a repeated click loses the race cleanly.
        """
        hand = move.finished_hand
        if hand is not None and hand.match_id != move.match_id:
            raise ValueError("the finished hand belongs to another match")
        end = move.finished
        if end is not None and end.status != "finished":
            raise ValueError("a move can only finish a match; cancel with end_match")
        state = codec.dump(move.state)
        action = codec.dump(move.action)
        hand_params = None if hand is None else codec.hand_params(hand)
        advance = (state, move.seq, move.now, move.match_id, move.seq - 1)
        row = (move.match_id, move.seq, move.hand_number, move.seat, action, move.now)
        async with self._transaction() as conn:
            match = _first(await conn.execute_fetchall(q.ADVANCE_MATCH, advance))
            if match is None:
                raise StaleMove(move.match_id, f"move {move.seq} is not the next move")
            await conn.execute_fetchall(q.INSERT_MOVE, row)
            if hand_params is not None:
                await conn.execute_fetchall(q.INSERT_HAND, hand_params)
            if end is not None:
                await _finish(conn, move.match_id, None, end, move.now)

    async def end_match(
        self, match_id: int, state: JsonObject | None, end: MatchEnd, now: str
    ) -> None:
        """End a match in play without a move.

        ``MatchEnd(status="finished", reason="resign" | "forfeit", ...)`` records results;
        ``MatchEnd.cancelled(reason)`` sets status 'cancelled' and records none. ``state``
        None keeps the stored state. ``StaleMove`` if the match is not playing.
        """
        text = None if state is None else codec.dump(state)
        async with self._transaction() as conn:
            await _finish(conn, match_id, text, end, now)

    # -- reads -----------------------------------------------------------------------------

    async def open_tables(self) -> list[TableRow]:
        """Every challenge and match in play, to rebuild the tables at start-up."""
        rows = [codec.table_row(r) for r in await self._all(q.OPEN_TABLES)]
        return sorted(rows, key=lambda row: row.id)

    async def get_table(self, match_id: int) -> TableRow | None:
        row = await self._one(q.GET_TABLE, (match_id,))
        return None if row is None else codec.table_row(row)

    async def moves(self, match_id: int) -> list[MoveRow]:
        return [codec.move_row(r) for r in await self._all(q.MOVES, (match_id,))]

    async def hands(self, match_id: int) -> list[HandRow]:
        return [codec.hand_row(r) for r in await self._all(q.HANDS, (match_id,))]

    async def results(self, match_id: int) -> list[ResultRow]:
        return [codec.result_row(r) for r in await self._all(q.RESULTS, (match_id,))]

    async def leaderboard(
        self, guild_id: str, limit: int, offset: int
    ) -> tuple[list[LeaderRow], int]:
        """One page of the guild's ranking, and how many players it has in all."""
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must not be negative")
        async with self._exclusive() as conn:
            rows = await conn.execute_fetchall(q.LEADERBOARD, (guild_id, limit, offset))
            total = _first(await conn.execute_fetchall(q.LEADERBOARD_SIZE, (guild_id,)))
        page = [
            LeaderRow(
                user_id=r["user_id"],
                name=r["name"],
                played=r["played"],
                won=r["won"],
                lost=r["played"] - r["won"],
                win_rate=codec.win_rate(r["won"], r["played"]),
                points=r["points"],
            )
            for r in rows
        ]
        return page, 0 if total is None else int(total[0])

    async def player_stats(self, guild_id: str, user_id: str) -> PlayerStats | None:
        """A player's record in a guild, or None if they have not finished a match there."""
        r = await self._one(q.PLAYER_STATS, (guild_id, user_id, user_id))
        if r is None or r["played"] == 0:
            return None
        return PlayerStats(
            user_id=user_id,
            name=r["name"],
            played=r["played"],
            won=r["won"],
            lost=r["played"] - r["won"],
            win_rate=codec.win_rate(r["won"], r["played"]),
            hands_won=r["hands_won"],
            gins=r["gins"],
            big_gins=r["big_gins"],
            undercuts=r["undercuts"],
            knocks=r["knocks"],
            points=r["points"],
        )

    async def counts(self) -> dict[str, int]:
        """Rows per table, for tests and diagnostics."""
        row = await self._one(q.COUNTS)
        assert row is not None
        return {key: int(row[key]) for key in row.keys()}  # noqa: SIM118 (sqlite3.Row)


async def _finish(
    conn: aiosqlite.Connection, match_id: int, state: str | None, end: MatchEnd, now: str
) -> None:
    """Close a match in play and write its results; runs inside the caller's transaction."""
    params = (end.status, state, end.winner_id, end.reason, now, now, match_id)
    match = _first(await conn.execute_fetchall(q.END_MATCH, params))
    if match is None:
        raise StaleMove(match_id, "not a match in play")
    players = {match["challenger_id"]: match["opponent_id"]}
    players[match["opponent_id"]] = match["challenger_id"]
    if end.results and {r.user_id for r in end.results} != set(players):
        raise ValueError("results must name exactly the two players of the match")
    for result in end.results:
        won = 1 if result.user_id == end.winner_id else 0
        await conn.execute_fetchall(
            q.INSERT_RESULT,
            (
                match_id,
                match["guild_id"],
                result.user_id,
                result.seat,
                players[result.user_id],
                won,
                result.points,
                result.final_score,
                end.reason,
                now,
            ),
        )


def _satisfies_store(store: SqliteStore) -> Store:
    """Never called: mypy checks here that this class still implements the interface."""
    return store


def _first(rows: Iterable[sqlite3.Row]) -> sqlite3.Row | None:
    return next(iter(rows), None)


def _is_special(path: str | Path) -> bool:
    text = str(path)
    return text == ":memory:" or text == "" or text.startswith("file:")
