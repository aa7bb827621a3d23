"""The SQLite store: one connection, WAL, every accepted move committed before anyone is told.

Durability: ``journal_mode=WAL`` with ``synchronous=NORMAL`` means a commit has been written
to the WAL file (not fsynced) when it returns. Committed data survives the bot process
crashing or being killed (SIGKILL, OOM); only an operating-system crash or power loss can
lose the last few commits, never corrupt the database. That trade buys the move rate.

Concurrency: aiosqlite runs statements one at a time on a single worker thread, and an
``asyncio.Lock`` keeps each transaction's statements together, so tasks for many tables can
call the store at once without seeing each other's uncommitted work.

Speed: every aiosqlite call is a round trip to that thread, and on a busy event loop the
way back waits behind whatever else is ready, so write transactions go to the thread whole
(``run_in_worker``), one round trip each. Moves are also group-committed: moves that arrive
while a transaction is being written wait in a queue, and the next transaction writes them
all. Each caller still gets its own answer, after the COMMIT that holds its move; a move
refused or failing undoes itself alone (a savepoint each) and the others commit.

Moves, the hot path, are written on the event loop's own thread (``loop_connection``, under
the same lock): a batch takes a fraction of a millisecond there, while on the worker thread
every statement had to win the GIL back from a busy loop, which made a batch take tens of
milliseconds under load. That is only cheap because a commit never waits for the disk: the
automatic checkpoint is off and ``Checkpointer`` runs it on a thread of its own.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, get_args

import aiosqlite

from bot.store import codec, writes
from bot.store import queries as q
from bot.store.base import Store, TableChanged, TableLock
from bot.store.checkpoint import Checkpointer
from bot.store.errors import ChannelBusy, StaleMove, StoreClosed, StoreUnavailable
from bot.store.migrate import apply_migrations
from bot.store.reads import Params
from bot.store.rows import (
    CLASSIC,
    ClosedChallenge,
    HistoryRow,
    JsonObject,
    LeaderRow,
    LeaderSort,
    MatchEnd,
    MoveRecord,
    PlayerStats,
    RatingRow,
    ReviewKey,
    ReviewState,
    SeatRow,
    StartClocks,
    TableRow,
    review_state,
)
from bot.store.tournaments import SqliteTournaments
from bot.store.worker import loop_connection, run_in_worker

# The most moves one transaction writes: bounds how long a batch holds the connection.
MAX_BATCH = 200
CACHE_KIB = 512  # the connection's page cache, in KiB (SQLite's default is 2,000)


@dataclass(slots=True, eq=False)
class _Pending:
    """A move waiting in the queue for the writer task."""

    encoded: writes.EncodedMove
    future: asyncio.Future[None]
    # Set once a batch holds the move: from then on the batch decides its fate.
    taken: bool = False


class SqliteStore(SqliteTournaments):
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
        # A file on disk has a WAL to checkpoint; an in-memory database has none.
        self._checkpointer = None if _is_special(path) else Checkpointer(path)
        self._pending: list[_Pending] = []
        self._writer: asyncio.Task[None] | None = None
        # Transactions that wrote moves, for diagnostics: moves / this = the batch size.
        self.move_transactions = 0
        # Calls of close(): an open() that a close() overtook gives its connection up.
        self._closes = 0

    # -- lifecycle -------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect, set the pragmas and apply pending migrations; a second call does nothing."""
        if self._conn is not None:
            return
        closes = self._closes
        conn = await self._connect()
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute_fetchall("PRAGMA journal_mode=WAL")
            await conn.execute_fetchall("PRAGMA synchronous=NORMAL")
            await conn.execute_fetchall("PRAGMA foreign_keys=ON")
            # SQLite's own page cache (2 MB by default) would fill with pages the OS caches
            # anyway: a move writes a few pages, and reads are rare.
            await conn.execute_fetchall(f"PRAGMA cache_size=-{CACHE_KIB:d}")
            # A pragma cannot take a parameter; the value is an int we converted ourselves.
            await conn.execute_fetchall(f"PRAGMA busy_timeout={self._busy_timeout_ms:d}")
            if self._checkpointer is not None:
                await conn.execute_fetchall("PRAGMA wal_autocheckpoint=0")
            await apply_migrations(conn, self._migrations)
            # Fails here, at start-up, if aiosqlite stops allowing it.
            await run_in_worker(conn, _check_worker)
            _check_worker(loop_connection(conn))
            if self._closes != closes:
                # Closed while opening (a stop during start-up): the connection's thread
                # must not outlive the store, or the process would never exit.
                raise StoreClosed("the store was closed while it opened")
        except BaseException:
            await conn.close()
            raise
        self._conn = conn

    async def _connect(self) -> aiosqlite.Connection:
        """The connection, its file's folder made if need be; a path the bot cannot use is
        named in the error, with what to do."""
        where = str(self.path) if _is_special(self.path) else str(Path(self.path).resolve())
        try:
            if not _is_special(self.path):
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: no implicit transactions, only the explicit ones below.
            # check_same_thread=False: moves are written from the event loop's thread.
            conn = await aiosqlite.connect(self.path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as error:
            raise StoreUnavailable(where, _reason(error)) from error
        try:
            await conn.execute_fetchall("PRAGMA user_version")  # a database it can read
        except (OSError, sqlite3.Error) as error:
            await conn.close()
            raise StoreUnavailable(where, _reason(error)) from error
        return conn

    async def close(self) -> None:
        """Write the queued moves, then close the connection; safe to call twice or before
        ``open``, or while it opens."""
        self._closes += 1
        while self._writer is not None:
            await asyncio.wait([self._writer])
        if self._checkpointer is not None:
            await self._checkpointer.close()
        conn, self._conn = self._conn, None
        if conn is not None:
            async with self._lock:
                await conn.close()

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
        *,
        vs_bot: bool = False,
        mode: str = CLASSIC,
    ) -> int:
        """Open a table in a channel; ``ChannelBusy`` if one is already open there.

        ``vs_bot`` marks a match against the bot's own account, which must be the opponent:
        such matches stay off the leaderboard and ratings and show in ``bot_records``.
        A lobby, whose players are only known when it starts, has ``opponent_id`` "".
        """
        params = writes.challenge_params(
            guild_id, channel_id, challenger_id, opponent_id, settings, now, vs_bot, mode
        )
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

    async def start_match(
        self,
        match_id: int,
        state: JsonObject,
        now: str,
        *,
        seats: Sequence[SeatRow] = (),
        clocks: StartClocks | None = None,
    ) -> None:
        """Accept a challenge or start a lobby: status challenge -> playing with the first
        state, and the seats, in one transaction.

        Without ``seats`` the match is two-player: the challenger in seat 0, the opponent in
        seat 1 (a bot's seat in a match against the bot). Given, they are numbered from 0,
        two or more with a player each; a match created with an opponent must seat exactly
        those two, in that order. ``ValueError`` (nothing written) for seats that break this
        or a lobby started without seats; ``StaleMove`` unless the match is a challenge.
        ``clocks``, given, are written in the same transaction (else display and deadline
        stay as stored).
        """
        text = codec.dump(state)
        chosen = tuple(seats)
        async with self._exclusive() as conn:
            await run_in_worker(
                conn, lambda db: writes.start_match(db, match_id, text, now, chosen, clocks)
            )

    async def close_challenge(self, match_id: int, status: ClosedChallenge, now: str) -> None:
        """End a challenge that was never accepted; frees the channel and clears its deadline."""
        if status not in get_args(ClosedChallenge):
            raise ValueError(f"a challenge cannot close as {status!r}")
        if await self._one(q.CLOSE_CHALLENGE, (status, now, now, match_id)) is None:
            raise StaleMove(match_id, "not an open challenge")

    async def record_move(self, move: MoveRecord) -> None:
        """Write one move, the new state, and any finished hand or match, all or nothing.

        ``StaleMove`` (nothing written) unless the match is playing and
        ``move.seq == move_count + 1``: a repeated click loses the race cleanly. A finishing
        move also clears the deadline and saves ``move.ratings`` (see ``end_match``).
        ``move.display`` and the deadline fields are written in the same statement.

        Moves of many tables called at once share one transaction (see the module's
        docstring); this returns once the COMMIT holding the move is done, or raises this
        move's own error. Moves queued by one task are written in the order of the calls.
        Cancelled while still queued, the move is dropped; cancelled once its transaction
        is under way, the call waits for that transaction before raising, so the move is
        then either committed or not written at all and ``get_table`` tells which.
        """
        pending = _Pending(writes.encode(move), asyncio.get_running_loop().create_future())
        self._connection()  # a closed store fails here, not later in the writer
        self._pending.append(pending)
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_queued())
        future = pending.future
        try:
            await asyncio.shield(future)
        except asyncio.CancelledError:
            if not future.done():
                if pending.taken:
                    await asyncio.wait([future])
                else:
                    future.cancel()  # the writer skips it
            raise

    @asynccontextmanager
    async def lock_table(self, match_id: int) -> AsyncIterator[TableLock]:
        """``Store.lock_table`` on SQLite: the connection's lock and the database's write lock
        (``BEGIN IMMEDIATE``) for the block, so neither this process's other tables nor another
        process write meanwhile; queued moves wait for the block to end."""
        async with self._exclusive() as conn:
            db = loop_connection(conn)
            locked: _SqliteTableLock | None = None
            with writes.transaction(db):
                row = db.execute(q.GET_TABLE, (match_id,)).fetchone()
                if row is None:
                    raise StaleMove(match_id, "no such match")
                seats = db.execute(q.SEATS, (match_id,)).fetchall()
                locked = _SqliteTableLock(
                    db, codec.table_row(row, [codec.seat_row(r) for r in seats])
                )
                yield locked
            if self._checkpointer is not None and locked.written:
                self._checkpointer.written(locked.written)

    async def _write_queued(self) -> None:
        """Write queued moves batch by batch until none are left; one such task at a time."""
        batch: list[_Pending] = []
        try:
            while self._pending:
                outcomes: list[BaseException | None]
                async with self._lock:
                    # Taken only now: a caller cancelled while the lock was busy drops out.
                    batch = [p for p in self._pending[:MAX_BATCH] if not p.future.done()]
                    del self._pending[:MAX_BATCH]
                    for pending in batch:
                        pending.taken = True
                    try:
                        outcomes = await self._write_batch(self._connection(), batch)
                    except Exception as error:
                        outcomes = [error] * len(batch)
                for pending, outcome in zip(batch, outcomes, strict=True):
                    _settle(pending.future, outcome)
                batch = []
        except BaseException:
            # Only cancellation gets here (the loop is closing): nobody may wait forever.
            for pending in [*batch, *self._pending]:
                pending.future.cancel()
            self._pending.clear()
            raise
        finally:
            self._writer = None

    async def _write_batch(
        self, conn: aiosqlite.Connection, batch: list[_Pending]
    ) -> list[BaseException | None]:
        """Each move's outcome: None if committed, else its error. Raises only for the batch."""
        if not batch:
            return []
        self.move_transactions += 1
        outcomes = writes.write_moves(loop_connection(conn), [p.encoded for p in batch])
        if self._checkpointer is not None:
            self._checkpointer.written(len(batch))
        return outcomes

    async def end_match(
        self,
        match_id: int,
        state: JsonObject | None,
        end: MatchEnd,
        now: str,
        *,
        ratings: tuple[RatingRow, ...] = (),
    ) -> None:
        """End a match in play without a move.

        ``MatchEnd(status="finished", reason="resign" | "forfeit", ...)`` records results;
        ``MatchEnd.cancelled(reason)`` sets status 'cancelled' and records none. ``state``
        None keeps the stored state. ``StaleMove`` if the match is not playing. Either way
        the deadline is cleared.

        The results must name every seat of the match with its player; each gets its place
        (derived from the winner in a two-seat match when none is given), its team and
        whether it is a bot's, from the seats.

        ``ratings`` (the players' new ratings) are saved with the results, so a rating never
        counts a match that is not recorded; ignored for a cancelled match. ``ValueError``
        (nothing written) for ratings of a match against the bot, of another guild or mode,
        of a bot's seat or of someone who did not play. The rows are written as given: a
        caller that reads, updates and writes ratings must not finish two matches of one
        guild at once, or one update overwrites the other.
        """
        text = None if state is None else codec.dump(state)
        async with self._exclusive() as conn:
            await run_in_worker(
                conn, lambda db: writes.end_match(db, match_id, text, end, now, ratings)
            )

    async def set_deadline(self, match_id: int, deadline: str | None, now: str) -> None:
        """Set (or clear, with None) the next timer event of an open table.

        Kept in the database so timers survive a restart. Setting one on a table that is no
        longer open raises ``StaleMove``, which tells a late timer there is nothing left to
        do; clearing one there does nothing, since closing already cleared it.
        """
        async with self._exclusive() as conn:
            row = _first(await conn.execute_fetchall(q.SET_DEADLINE, (deadline, now, match_id)))
            if row is not None:
                return
            exists = _first(await conn.execute_fetchall(q.MATCH_EXISTS, (match_id,)))
        if deadline is not None or exists is None:
            raise StaleMove(match_id, "not an open table")

    async def claim_deadline(
        self, match_id: int, deadline: str, claimant: str, now: str, until: str
    ) -> bool:
        """Claim an open table's due deadline for ``claimant`` (a process, say) until
        ``until``; True for the one caller that gets it.

        Of several processes that saw the same deadline due in ``due_deadlines``, one wins
        and acts on the timer. A claim holds until ``until`` (so the claim of a process that
        died lapses) or until the deadline is set or cleared. False for a deadline that is
        not due at ``now``, not the table's deadline any more (it moved on), or claimed by
        someone whose claim still holds, and for a table that is not open. Times compare as
        text, like every other time in the store.
        """
        params = {
            "claimant": claimant,
            "until": until,
            "id": match_id,
            "deadline": deadline,
            "now": now,
        }
        return await self._one(q.CLAIM_DEADLINE, params) is not None

    async def claim_review(self, key: ReviewKey, now: str, lapses: str) -> ReviewState | None:
        """``Store.claim_review``: the row's primary key lets one of racing claims in."""
        if await self._one(q.CLAIM_REVIEW, key.claim_params(now, lapses)) is not None:
            return None
        row = await self._one(q.REVIEW_STATE, key.params())
        return review_state(None if row is None else row[0])

    async def settle_review(self, key: ReviewKey, sent: bool) -> None:
        await self._one(q.REVIEW_SENT if sent else q.REVIEW_DROPPED, key.params())

    async def set_guild_settings(self, guild_id: str, data: JsonObject, now: str) -> None:
        """Replace a guild's settings; the store keeps the JSON object without reading it."""
        await self._one(q.SET_GUILD_SETTINGS, (guild_id, codec.dump(data), now))

    # -- reads -----------------------------------------------------------------------------

    async def open_tables(self) -> list[TableRow]:
        """Every challenge and match in play with its seats, to rebuild the tables at
        start-up."""
        async with self._exclusive() as conn:
            tables = await conn.execute_fetchall(q.OPEN_TABLES)
            seat_rows = await conn.execute_fetchall(q.OPEN_SEATS)
        seats: dict[int, list[SeatRow]] = {}
        for r in seat_rows:
            seats.setdefault(r["match_id"], []).append(codec.seat_row(r))
        rows = [codec.table_row(r, seats.get(r["id"], ())) for r in tables]
        return sorted(rows, key=lambda row: row.id)

    async def get_table(self, match_id: int) -> TableRow | None:
        """A match of any status, with its seats once it started."""
        async with self._exclusive() as conn:
            row = _first(await conn.execute_fetchall(q.GET_TABLE, (match_id,)))
            seats = await conn.execute_fetchall(q.SEATS, (match_id,))
        if row is None:
            return None
        return codec.table_row(row, [codec.seat_row(s) for s in seats])

    async def leaderboard(
        self,
        guild_id: str,
        limit: int,
        offset: int,
        *,
        sort: LeaderSort = "wins",
        provisional_below: int = 0,
        mode: str = CLASSIC,
    ) -> tuple[list[LeaderRow], int]:
        """One page of the guild's ranking in one mode from matches without a bot seat, and
        how many players it has. A place of 1 counts as a match won.

        ``sort``: 'wins' (won, win rate, total of final scores); 'points' (the total of final
        scores, bonuses included, then won); 'rating' (players with at least
        ``provisional_below`` matches first, then the conservative rating of this mode,
        unrated players after rated ones, then won). Ties end on the user id.
        """
        order = q.LEADERBOARD.get(sort)
        if order is None:
            raise ValueError(f"unknown leaderboard sort {sort!r}")
        return await self._standings(order, guild_id, limit, offset, False, provisional_below, mode)

    async def bot_records(
        self, guild_id: str, limit: int, offset: int, mode: str = CLASSIC
    ) -> tuple[list[LeaderRow], int]:
        """One page of the players' records in matches of one mode with a bot seat, by wins,
        and how many there are; the bots' own rows are left out."""
        return await self._standings(q.LEADERBOARD["wins"], guild_id, limit, offset, True, 0, mode)

    async def _standings(
        self,
        sql: str,
        guild_id: str,
        limit: int,
        offset: int,
        vs_bot: bool,
        provisional_below: int,
        mode: str,
    ) -> tuple[list[LeaderRow], int]:
        params = q.standings_params(guild_id, limit, offset, vs_bot, provisional_below, mode)
        async with self._exclusive() as conn:
            rows = await conn.execute_fetchall(sql, params)
            total = _first(await conn.execute_fetchall(q.STANDINGS_SIZE, params))
        return [codec.leader_row(r) for r in rows], 0 if total is None else int(total[0])

    async def history(
        self, guild_id: str, user_id: str, limit: int, offset: int, mode: str = CLASSIC
    ) -> tuple[list[HistoryRow], int]:
        """One page of a player's finished matches of one mode (against the bot too), newest
        first, and how many there are in all."""
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must not be negative")
        page = (guild_id, user_id, mode, limit, offset)
        async with self._exclusive() as conn:
            rows = await conn.execute_fetchall(q.HISTORY, page)
            total = _first(await conn.execute_fetchall(q.HISTORY_SIZE, page[:3]))
        return [codec.history_row(r) for r in rows], 0 if total is None else int(total[0])

    async def player_stats(
        self, guild_id: str, user_id: str, mode: str = CLASSIC
    ) -> PlayerStats | None:
        """A player's record in a guild and mode, or None if they have not finished a match
        of that mode there.

        Two queries whatever the number of matches: the totals, and the won column in
        order for the streaks.
        """
        async with self._exclusive() as conn:
            params = {"guild": guild_id, "user": user_id, "mode": mode}
            r = _first(await conn.execute_fetchall(q.PLAYER_STATS, params))
            if r is None or r["played"] == 0:
                return None
            won = await conn.execute_fetchall(q.WON_SEQUENCE, (guild_id, user_id, mode))
        return codec.player_stats(user_id, r, (row[0] for row in won))

    async def counts(self) -> dict[str, int]:
        """Rows per table, for tests and diagnostics."""
        row = await self._one(q.COUNTS)
        assert row is not None
        return {key: int(row[key]) for key in row.keys()}  # noqa: SIM118 (sqlite3.Row)

    async def watch(self, on_change: TableChanged) -> bool:
        """One process has a SQLite file to itself: nobody else changes its tables."""
        return False


class _SqliteTableLock:
    """``TableLock`` inside ``SqliteStore.lock_table``'s transaction."""

    def __init__(self, db: sqlite3.Connection, table: TableRow) -> None:
        self._db = db
        self._table = table
        self._status: str = table.status
        self._count = table.move_count
        self.written = 0

    @property
    def table(self) -> TableRow:
        return self._table

    async def record_move(self, move: MoveRecord) -> None:
        encoded = writes.encode(move)
        writes.check_next(move, self._status, self._count)
        error = writes.write_saved(self._db, encoded)
        if error is not None:
            raise error
        self._count, self.written = move.seq, self.written + 1
        if move.finished is not None:
            self._status = move.finished.status

    async def end_match(
        self,
        state: JsonObject | None,
        end: MatchEnd,
        now: str,
        *,
        ratings: tuple[RatingRow, ...] = (),
    ) -> None:
        text = None if state is None else codec.dump(state)
        self._db.execute("SAVEPOINT finish")
        try:
            writes.finish(self._db, self._table.id, text, end, now, ratings)
        except BaseException:
            self._db.execute("ROLLBACK TO finish")
            self._db.execute("RELEASE finish")
            raise
        self._db.execute("RELEASE finish")
        self._status, self.written = end.status, self.written + 1

    async def set_display(self, display: JsonObject, now: str) -> None:
        self._db.execute(q.SET_DISPLAY, (codec.dump(display), now, self._table.id)).fetchall()
        self.written += 1

    async def set_deadline(self, deadline: str | None, now: str) -> None:
        row = self._db.execute(q.SET_DEADLINE, (deadline, now, self._table.id)).fetchone()
        if row is None and deadline is not None:
            raise StaleMove(self._table.id, "not an open table")
        self.written += 1


def _check_worker(db: sqlite3.Connection) -> None:
    """What the store relies on from ``run_in_worker``: the live connection, usable there."""
    db.execute("SELECT 1").fetchall()


def _settle(future: asyncio.Future[None], outcome: BaseException | None) -> None:
    if future.done():
        return  # its caller was cancelled and dropped it
    if outcome is None:
        future.set_result(None)
    else:
        future.set_exception(outcome)


def _satisfies_store(store: SqliteStore) -> Store:
    """Never called: mypy checks here that this class still implements the interface."""
    return store


def _first(rows: Iterable[sqlite3.Row]) -> sqlite3.Row | None:
    return next(iter(rows), None)


def _is_special(path: str | Path) -> bool:
    text = str(path)
    return text == ":memory:" or text == "" or text.startswith("file:")


def _reason(error: BaseException) -> str:
    """What the system said, without the path (the caller names it)."""
    return getattr(error, "strerror", None) or str(error)
