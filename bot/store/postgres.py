"""The PostgreSQL store: a pool of asyncpg connections, for several bot processes on one
database.

It implements ``Store`` with the statements of ``queries.py`` (as ``dialect`` spells them
for PostgreSQL) and the checks of ``writes.py``, so both backends refuse and accept alike.

A move is one transaction that locks its table's row (``SELECT ... FOR UPDATE``), checks
that it is the next move, writes it and commits: writers of the same table, in this process
or another, queue on the row and each sees what the one before committed, so a move is
applied exactly once. Moves of different tables run side by side, one pool connection each.

A write, once sent, is seen through: a caller cancelled meanwhile waits for its transaction
to end before the cancellation goes on, so the write is then committed or not made at all
(``get_table`` tells which), and the connection goes back to the pool clean.

News of a change: every write that changes a table's row also sends ``NOTIFY`` on the
schema's channel (in the same transaction, so it is heard only once committed), saying the
table's id, its move count and status, and which store sent it; ``watch`` listens on a
connection of its own and tells the caller of other processes' changes.

Connecting: ``GIN_DB=postgresql://user:password@host:5432/database``; asyncpg passes query
parameters it does not know to the server as settings, so ``?search_path=gin`` keeps the
bot's tables in a schema of their own (which must exist).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from importlib.resources.abc import Traversable
from typing import Any, TypeAlias, TypeVar, get_args
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store import codec, writes
from bot.store import queries as q
from bot.store.base import Store, TableChanged, TableLock
from bot.store.dialect import (
    ADVANCE_AND_INSERT_MOVE,
    ADVANCE_INSERT_AND_NOTIFY,
    ADVANCE_MATCH,
    LOCK_MATCH,
    LOCK_TABLE,
    postgres_query,
)
from bot.store.errors import ChannelBusy, StaleMove, StoreClosed
from bot.store.migrate import apply_postgres_migrations
from bot.store.news import TableNews
from bot.store.reads import Params
from bot.store.rows import (
    CLASSIC,
    ClosedChallenge,
    HeardMove,
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
    TableChange,
    TableRow,
    review_state,
)
from bot.store.tournaments import PostgresTournaments

log = logging.getLogger(__name__)

T = TypeVar("T")
# Not subscriptable at run time, only in the type stubs.
Connection: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

SCHEMES = ("postgresql://", "postgres://")
# The connections a bot process keeps open: a move holds one for a few milliseconds, so ten
# carry a thousand moves a second; opened at start-up, so a burst never waits for a connect.
POOL_SIZE = 10


def is_postgres_url(location: object) -> bool:
    """Whether a ``GIN_DB`` value names a PostgreSQL database rather than a SQLite file."""
    return isinstance(location, str) and location.startswith(SCHEMES)


def redact(url: str) -> str:
    """The URL without its password, for logs and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def with_search_path(url: str, schema: str) -> str:
    """``url`` with its connections' ``search_path`` set to ``schema``."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    query.append(("search_path", schema))
    return urlunsplit(parts._replace(query=urlencode(query)))


@asynccontextmanager
async def scratch_schema(url: str, prefix: str = "gin_scratch") -> AsyncIterator[str]:
    """A new, empty schema with a random name, dropped with everything in it afterwards;
    yields ``url`` pointing its connections there. For tests and benchmarks."""
    schema = f"{prefix}_{secrets.token_hex(6)}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()
    try:
        yield with_search_path(url, schema)
    finally:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
        finally:
            await conn.close()


class PostgresStore(PostgresTournaments):
    """``Store`` on a PostgreSQL database, through a pool of ``min_size`` to ``max_size``
    connections (``store_for`` gives the bot ``POOL_SIZE`` of them from the start)."""

    def __init__(
        self,
        url: str,
        *,
        migrations: Traversable | None = None,
        min_size: int = 1,
        max_size: int = 10,
    ) -> None:
        self.url = url
        self._migrations = migrations
        self._min_size = min_size
        self._max_size = max_size
        self._pool: asyncpg.Pool[asyncpg.Record] | None = None
        self._writes: set[asyncio.Future[Any]] = set()
        # Calls of close(): an open() that a close() overtook gives its pool up.
        self._closes = 0
        self._turns = _Turns()
        # Transactions that wrote moves, for diagnostics (one per move here).
        self.move_transactions = 0
        # The news of changed tables, told to and heard from the other processes.
        self.news = TableNews(url)

    # -- lifecycle -------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect and apply pending migrations; a second call does nothing."""
        if self._pool is not None:
            return
        closes = self._closes
        pool = await asyncpg.create_pool(self.url, min_size=self._min_size, max_size=self._max_size)
        try:
            async with pool.acquire() as conn:
                await apply_postgres_migrations(conn, self._migrations)
                schema = await conn.fetchval("SELECT current_schema()")
            if self._closes != closes:  # closed while opening: a stop during start-up
                raise StoreClosed("the store was closed while it opened")
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        self.news.hear_schema(schema)

    async def close(self) -> None:
        """Let the writes under way finish, then close the pool; safe to call twice or before
        ``open``, or while it opens."""
        self._closes += 1
        while self._writes:
            await asyncio.wait(list(self._writes))
        await self.news.close()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    # -- plumbing --------------------------------------------------------------------------

    def _opened(self) -> asyncpg.Pool[asyncpg.Record]:
        if self._pool is None:
            raise RuntimeError("the store is not open")
        return self._pool

    async def _one(self, sql: str, params: Params = ()) -> asyncpg.Record | None:
        query = postgres_query(sql)
        async with self._opened().acquire() as conn:
            return await conn.fetchrow(query.text, *query.args(params))

    async def _all(self, sql: str, params: Params = ()) -> list[asyncpg.Record]:
        query = postgres_query(sql)
        async with self._opened().acquire() as conn:
            return await conn.fetch(query.text, *query.args(params))

    async def _write(
        self, work: Callable[[Connection], Awaitable[T]], *, transaction: bool = True
    ) -> T:
        """``work`` on a connection of its own (in a transaction unless told otherwise),
        seen through to its end even if the caller is cancelled meanwhile."""
        pool = self._opened()

        async def run() -> T:
            async with pool.acquire() as conn:
                if not transaction:
                    return await work(conn)
                async with conn.transaction():
                    return await work(conn)

        task = asyncio.ensure_future(run())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                await asyncio.wait([task])
            if not task.cancelled():
                task.exception()  # retrieved: the caller was cancelled, not told
            raise

    async def _write_one(self, sql: str, params: Params) -> asyncpg.Record | None:
        """One statement on its own, which PostgreSQL commits by itself."""
        query = postgres_query(sql)
        args = query.args(params)
        return await self._write(lambda conn: conn.fetchrow(query.text, *args), transaction=False)

    # -- writes ----------------------------------------------------------------------------

    async def upsert_player(self, user_id: str, name: str, now: str) -> None:
        await self._write_one(q.UPSERT_PLAYER, (user_id, name, now))

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
        """``SqliteStore.create_challenge``: ``ChannelBusy`` if the channel has an open
        table."""
        params = writes.challenge_params(
            guild_id, channel_id, challenger_id, opponent_id, settings, now, vs_bot, mode
        )
        try:
            row = await self._write_one(q.CREATE_CHALLENGE, params)
        except asyncpg.UniqueViolationError as error:
            if error.constraint_name != "matches_open_channel":
                raise
            busy = await self._one(q.OPEN_MATCH_IN_CHANNEL, (channel_id,))
            raise ChannelBusy(channel_id, None if busy is None else busy[0]) from None
        assert row is not None
        return int(row[0])

    async def set_display(self, match_id: int, display: JsonObject, now: str) -> None:
        if await self._write_one(q.SET_DISPLAY, (codec.dump(display), now, match_id)) is None:
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
        """``SqliteStore.start_match``: the first state, the seats and the clocks in one
        transaction, so another process never reads the started table without its clocks."""
        text = codec.dump(state)
        chosen = tuple(seats)

        async def work(conn: Connection) -> None:
            match = await _fetchrow(conn, q.START_MATCH, (text, now, match_id))
            rows = writes.seats_to_start(match_id, match, chosen)
            await _executemany(conn, q.INSERT_SEAT, [codec.seat_params(match_id, s) for s in rows])
            for sql, params in writes.clocks_writes(match_id, clocks, now):
                await _fetchrow(conn, sql, params)
            await self.news.notify(conn, TableChange(match_id, 0, "playing"))

        await self._write(work)

    async def close_challenge(self, match_id: int, status: ClosedChallenge, now: str) -> None:
        if status not in get_args(ClosedChallenge):
            raise ValueError(f"a challenge cannot close as {status!r}")
        query = postgres_query(q.CLOSE_CHALLENGE)

        async def work(conn: Connection) -> asyncpg.Record | None:
            row = await conn.fetchrow(query.text, status, now, now, match_id)
            if row is not None:
                await self.news.notify(conn, TableChange(match_id, 0, status))
            return row

        if await self._write(work) is None:
            raise StaleMove(match_id, "not an open challenge")

    async def record_move(self, move: MoveRecord) -> None:
        """``SqliteStore.record_move``, in a transaction of its own that locks the table's
        row, checks the move is the next one, writes it and commits.

        Writers of the same table, here or in another process, wait for the row in turn; a
        repeated move finds the count moved on and raises ``StaleMove`` (nothing written).
        Within this process the moves of a table queue before taking a connection, in the
        order of the calls. Cancelled while queued, the move is dropped; once its transaction
        is under way, the call waits for it to end (see the module's docstring).
        """
        encoded = writes.encode(move)
        if encoded.hand is None and move.finished is None:
            await self._record_plain_move(encoded)
            return

        async def work(conn: Connection) -> None:
            row = await conn.fetchrow(LOCK_MATCH, move.match_id)
            writes.check_next(
                move,
                None if row is None else row["status"],
                None if row is None else row["move_count"],
            )
            await _write_move(conn, encoded)
            await self.news.notify(
                conn, TableChange(move.match_id, move.seq, _status_after(move), move.seat)
            )

        self._opened()
        async with self._turns.of(move.match_id):
            self.move_transactions += 1
            await self._write(work)

    async def _record_plain_move(self, encoded: writes.EncodedMove) -> None:
        """A move that ends no hand: advanced, written and (with other processes on the
        database) announced in one statement, the round trips of a transaction saved; the
        announcement carries the move, so the others can make it themselves rather than
        read the table again. Refused, it is checked again to say why, as ``record_move``
        would."""
        move = encoded.move
        params = {
            **encoded.advance,
            "hand_number": move.hand_number,
            "seat": move.seat,
            "action": encoded.row[4],
        }
        if self.news.announce:
            heard = HeardMove(
                action=move.action,
                timers=move.timers,
                change_deadline=move.change_deadline,
                deadline=move.deadline,
                state_check=codec.state_check(encoded.advance["state"]),
                shown_message=move.shown_message,
                mover_language=move.mover_language,
            )
            change = TableChange(move.match_id, move.seq, "playing", move.seat, heard)
            params |= {"channel": self.news.channel, "payload": self.news.payload(change)}
            query = postgres_query(ADVANCE_INSERT_AND_NOTIFY)
        else:
            query = postgres_query(ADVANCE_AND_INSERT_MOVE)

        async def work(conn: Connection) -> asyncpg.Record | None:
            return await conn.fetchrow(query.text, *query.args(params))

        self._opened()
        async with self._turns.of(move.match_id):
            self.move_transactions += 1
            written = await self._write(work, transaction=False)
        if written is not None:
            return
        row = await self._one(q.MATCH_STATUS, (move.match_id,))
        writes.check_next(
            move,
            None if row is None else row["status"],
            None if row is None else row["move_count"],
        )
        raise StaleMove(move.match_id, f"move {move.seq} is not the next move")

    @asynccontextmanager
    async def lock_table(self, match_id: int) -> AsyncIterator[TableLock]:
        """``Store.lock_table``: the table's row locked ``FOR UPDATE`` in a transaction on a
        connection of the pool for the block; writers of other tables go on meanwhile."""
        pool = self._opened()
        async with self._turns.of(match_id), pool.acquire() as conn, conn.transaction():
            row = await _fetchrow(conn, LOCK_TABLE, (match_id,))
            if row is None:
                raise StaleMove(match_id, "no such match")
            seats = await _fetch(conn, q.SEATS, (match_id,))
            locked = _PostgresTableLock(
                conn, codec.table_row(row, [codec.seat_row(s) for s in seats])
            )
            yield locked
            if locked.changed:
                change = TableChange(match_id, locked.count, locked.status, locked.seat)
                await self.news.notify(conn, change)

    async def end_match(
        self,
        match_id: int,
        state: JsonObject | None,
        end: MatchEnd,
        now: str,
        *,
        ratings: tuple[RatingRow, ...] = (),
    ) -> None:
        """``SqliteStore.end_match``, in one transaction."""
        text = None if state is None else codec.dump(state)

        async def work(conn: Connection) -> None:
            await _finish(conn, match_id, text, end, now, ratings)
            await self.news.notify(conn, TableChange(match_id, -1, end.status))

        await self._write(work)

    async def set_deadline(self, match_id: int, deadline: str | None, now: str) -> None:
        """``SqliteStore.set_deadline``."""
        if await self._write_one(q.SET_DEADLINE, (deadline, now, match_id)) is not None:
            return
        exists = await self._one(q.MATCH_EXISTS, (match_id,))
        if deadline is not None or exists is None:
            raise StaleMove(match_id, "not an open table")

    async def claim_deadline(
        self, match_id: int, deadline: str, claimant: str, now: str, until: str
    ) -> bool:
        """``SqliteStore.claim_deadline``: of racing claims, on any connection or process,
        the row's lock lets one through and the guard turns the others away."""
        params = {
            "claimant": claimant,
            "until": until,
            "id": match_id,
            "deadline": deadline,
            "now": now,
        }
        return await self._write_one(q.CLAIM_DEADLINE, params) is not None

    async def claim_review(self, key: ReviewKey, now: str, lapses: str) -> ReviewState | None:
        """``Store.claim_review``: the row's primary key lets one of racing claims in."""
        if await self._write_one(q.CLAIM_REVIEW, key.claim_params(now, lapses)) is not None:
            return None
        row = await self._one(q.REVIEW_STATE, key.params())
        return review_state(None if row is None else row[0])

    async def settle_review(self, key: ReviewKey, sent: bool) -> None:
        await self._write_one(q.REVIEW_SENT if sent else q.REVIEW_DROPPED, key.params())

    async def set_guild_settings(self, guild_id: str, data: JsonObject, now: str) -> None:
        await self._write_one(q.SET_GUILD_SETTINGS, (guild_id, codec.dump(data), now))

    # -- reads -----------------------------------------------------------------------------

    async def open_tables(self) -> list[TableRow]:
        async with (
            self._opened().acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            tables = await _fetch(conn, q.OPEN_TABLES)
            seat_rows = await _fetch(conn, q.OPEN_SEATS)
        seats: dict[int, list[SeatRow]] = {}
        for r in seat_rows:
            seats.setdefault(r["match_id"], []).append(codec.seat_row(r))
        rows = [codec.table_row(r, seats.get(r["id"], ())) for r in tables]
        return sorted(rows, key=lambda row: row.id)

    async def get_table(self, match_id: int) -> TableRow | None:
        async with (
            self._opened().acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            row = await _fetchrow(conn, q.GET_TABLE, (match_id,))
            seats = await _fetch(conn, q.SEATS, (match_id,))
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
        """``SqliteStore.leaderboard``."""
        order = q.LEADERBOARD.get(sort)
        if order is None:
            raise ValueError(f"unknown leaderboard sort {sort!r}")
        params = q.standings_params(guild_id, limit, offset, False, provisional_below, mode)
        return await self._standings(order, params)

    async def bot_records(
        self, guild_id: str, limit: int, offset: int, mode: str = CLASSIC
    ) -> tuple[list[LeaderRow], int]:
        params = q.standings_params(guild_id, limit, offset, True, 0, mode)
        return await self._standings(q.LEADERBOARD["wins"], params)

    async def _standings(self, sql: str, params: dict[str, object]) -> tuple[list[LeaderRow], int]:
        async with (
            self._opened().acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            rows = await _fetch(conn, sql, params)
            total = await _fetchrow(conn, q.STANDINGS_SIZE, params)
        return [codec.leader_row(r) for r in rows], 0 if total is None else int(total[0])

    async def history(
        self, guild_id: str, user_id: str, limit: int, offset: int, mode: str = CLASSIC
    ) -> tuple[list[HistoryRow], int]:
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must not be negative")
        page = (guild_id, user_id, mode, limit, offset)
        async with (
            self._opened().acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            rows = await _fetch(conn, q.HISTORY, page)
            total = await _fetchrow(conn, q.HISTORY_SIZE, page[:3])
        return [codec.history_row(r) for r in rows], 0 if total is None else int(total[0])

    async def player_stats(
        self, guild_id: str, user_id: str, mode: str = CLASSIC
    ) -> PlayerStats | None:
        params = {"guild": guild_id, "user": user_id, "mode": mode}
        async with (
            self._opened().acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            r = await _fetchrow(conn, q.PLAYER_STATS, params)
            if r is None or r["played"] == 0:
                return None
            won = await _fetch(conn, q.WON_SEQUENCE, (guild_id, user_id, mode))
        return codec.player_stats(user_id, r, (row[0] for row in won))

    async def watch(self, on_change: TableChanged) -> bool:
        """``Store.watch``: hear the other processes' news (``news``)."""
        self._opened()
        await self.news.watch(on_change)
        return True

    async def counts(self) -> dict[str, int]:
        """Rows per table, for tests and diagnostics."""
        row = await self._one(q.COUNTS)
        assert row is not None
        return {key: int(value) for key, value in row.items()}


class _Turns:
    """A queue per table within this process, so one table's writers take a pool
    connection one at a time and in the order they came (``asyncio.Lock`` is first come,
    first served); a table's queue goes away with its last writer."""

    def __init__(self) -> None:
        self._queues: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def of(self, match_id: int) -> AsyncIterator[None]:
        lock, users = self._queues.get(match_id, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._queues[match_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._queues[match_id]
            if users == 1:
                del self._queues[match_id]
            else:
                self._queues[match_id] = (lock, users - 1)


class _PostgresTableLock:
    """``TableLock`` inside ``PostgresStore.lock_table``'s transaction."""

    def __init__(self, conn: Connection, table: TableRow) -> None:
        self._conn = conn
        self._table = table
        self.status: str = table.status
        self.count = table.move_count
        self.changed = False  # the others hear of it when the block commits
        self.seat = -1  # the seat of the last move recorded

    @property
    def table(self) -> TableRow:
        return self._table

    async def record_move(self, move: MoveRecord) -> None:
        encoded = writes.encode(move)
        writes.check_next(move, self.status, self.count)
        async with self._conn.transaction():  # a savepoint: a failing move undoes itself
            await _write_move(self._conn, encoded)
        self.count, self.status, self.changed = move.seq, _status_after(move), True
        self.seat = move.seat

    async def end_match(
        self,
        state: JsonObject | None,
        end: MatchEnd,
        now: str,
        *,
        ratings: tuple[RatingRow, ...] = (),
    ) -> None:
        text = None if state is None else codec.dump(state)
        async with self._conn.transaction():
            await _finish(self._conn, self._table.id, text, end, now, ratings)
        self.status, self.changed = end.status, True

    async def set_display(self, display: JsonObject, now: str) -> None:
        await _fetchrow(self._conn, q.SET_DISPLAY, (codec.dump(display), now, self._table.id))

    async def set_deadline(self, deadline: str | None, now: str) -> None:
        row = await _fetchrow(self._conn, q.SET_DEADLINE, (deadline, now, self._table.id))
        if row is None and deadline is not None:
            raise StaleMove(self._table.id, "not an open table")
        self.changed = True


def _status_after(move: MoveRecord) -> str:
    return "playing" if move.finished is None else move.finished.status


async def _fetchrow(conn: Connection, sql: str, params: Params = ()) -> asyncpg.Record | None:
    query = postgres_query(sql)
    return await conn.fetchrow(query.text, *query.args(params))


async def _fetch(conn: Connection, sql: str, params: Params = ()) -> list[asyncpg.Record]:
    query = postgres_query(sql)
    return await conn.fetch(query.text, *query.args(params))


async def _executemany(conn: Connection, sql: str, rows: Sequence[Sequence[Any]]) -> None:
    if rows:
        await conn.executemany(postgres_query(sql).text, rows)


async def _write_move(conn: Connection, encoded: writes.EncodedMove) -> None:
    """``writes._write`` for PostgreSQL: the guarded advance, the move, its hand, its end."""
    move = encoded.move
    if await _fetchrow(conn, ADVANCE_MATCH, encoded.advance) is None:
        raise StaleMove(move.match_id, f"move {move.seq} is not the next move")
    await _fetchrow(conn, q.INSERT_MOVE, encoded.row)
    if encoded.hand is not None:
        await _fetchrow(conn, q.INSERT_HAND, encoded.hand)
    if move.finished is not None:
        await _finish(conn, move.match_id, None, move.finished, move.now, move.ratings)


async def _finish(
    conn: Connection,
    match_id: int,
    state: str | None,
    end: MatchEnd,
    now: str,
    ratings: tuple[RatingRow, ...] = (),
) -> None:
    """``writes.finish`` for PostgreSQL, inside the caller's transaction."""
    params = (end.status, state, end.winner_id, end.reason, now, now, match_id)
    match = await _fetchrow(conn, q.END_MATCH, params)
    if match is None:
        raise StaleMove(match_id, "not a match in play")
    if end.status != "finished":
        return
    seat_rows = await _fetch(conn, q.SEATS, (match_id,))
    rated, results = writes.finished_rows(match_id, match, seat_rows, end, now, ratings)
    await _executemany(conn, q.UPSERT_RATING, rated)
    await _executemany(conn, q.INSERT_RESULT, results)


def _satisfies_store(store: PostgresStore) -> Store:
    """Never called: mypy checks here that this class still implements the interface."""
    return store
