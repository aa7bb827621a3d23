"""Tournaments and seasons in either store: the methods of ``TournamentStore`` written once,
over a transaction each backend opens its own way.

SQLite: the connection's lock and ``BEGIN IMMEDIATE`` (the whole database, this process's
other writers and any other process wait), on the event loop's own thread like
``SqliteStore.lock_table``. PostgreSQL: a pool connection's transaction, the tournament's row
locked ``FOR UPDATE`` by ``lock_tournament``, so writers of one tournament, in any process,
take turns and each reads what the one before committed. Every write is one transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, ClassVar, Protocol

import aiosqlite
import asyncpg

from bot.store import codec, writes
from bot.store import queries as q
from bot.store import tournament_queries as tq
from bot.store.checkpoint import Checkpointer
from bot.store.dialect import postgres_query
from bot.store.reads import Params, SharedReads
from bot.store.rows import CLASSIC, JsonObject, LeaderRow, LeaderSort
from bot.store.tournament_base import LockedTournament, NoSuchTournament, TournamentBusy
from bot.store.tournament_rows import (
    DecidedBy,
    EntrantStatus,
    PairingRow,
    PostKind,
    ScheduleRow,
    SeasonPostRow,
    SeasonSettingsRow,
    TournamentEntry,
    TournamentFormat,
    TournamentRecord,
    TournamentRow,
    TournamentState,
    entrant_row,
    entry_row,
    pairing_row,
    round_row,
    schedule_row,
    season_post_row,
    season_settings_row,
    tournament_row,
)
from bot.store.worker import loop_connection


class Statements(Protocol):
    """The statements of one transaction (or one consistent read)."""

    async def one(self, sql: str, params: Params = ()) -> Any: ...

    async def all(self, sql: str, params: Params = ()) -> list[Any]: ...


class TournamentTables(SharedReads):
    """``TournamentStore`` for a store that opens ``_transaction`` and ``_snapshot``."""

    # What follows the statement that locks a tournament's row.
    _FOR_UPDATE: ClassVar[str] = ""

    def _transaction(self) -> AbstractAsyncContextManager[Statements]:
        raise NotImplementedError

    def _snapshot(self) -> AbstractAsyncContextManager[Statements]:
        """Reads that see one state of the database."""
        raise NotImplementedError

    # -- tournaments -------------------------------------------------------------------------

    async def create_tournament(
        self,
        guild_id: str,
        channel_id: str,
        organiser_id: str,
        format: TournamentFormat,
        settings: JsonObject,
        now: str,
        *,
        signup_closes_at: str | None = None,
    ) -> int:
        params = (
            guild_id,
            channel_id,
            organiser_id,
            format,
            codec.dump(settings),
            signup_closes_at,
            signup_closes_at,
            now,
            now,
        )
        try:
            async with self._transaction() as tx:
                busy = await tx.one(tq.OPEN_IN_CHANNEL, (channel_id,))
                if busy is not None:
                    raise TournamentBusy(channel_id, int(busy["id"]))
                row = await tx.one(tq.CREATE_TOURNAMENT, params)
        except (sqlite3.IntegrityError, asyncpg.UniqueViolationError) as error:
            if not _unique_violation(error):
                raise
            # Another process opened one in the channel at the same moment.
            open_now = await self.tournament_in_channel(channel_id)
            raise TournamentBusy(channel_id, None if open_now is None else open_now.id) from None
        return int(row[0])

    @asynccontextmanager
    async def lock_tournament(self, tournament_id: int) -> AsyncIterator[LockedTournament]:
        async with self._transaction() as tx:
            row = await tx.one(tq.GET_TOURNAMENT + self._FOR_UPDATE, (tournament_id,))
            if row is None:
                raise NoSuchTournament(tournament_id)
            yield _Locked(tx, tournament_id)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        async with self._snapshot() as tx:
            return await _record(tx, tournament_id)

    async def tournament_in_channel(self, channel_id: str) -> TournamentRow | None:
        row = await self._one(tq.OPEN_IN_CHANNEL, (channel_id,))
        return None if row is None else tournament_row(row)

    async def open_tournaments(self) -> list[TournamentRow]:
        rows = [tournament_row(r) for r in await self._all(tq.OPEN_TOURNAMENTS)]
        return sorted(rows, key=lambda t: t.id)

    async def pairing_of_table(self, table_id: int) -> PairingRow | None:
        row = await self._one(tq.PAIRING_OF_TABLE, (table_id,))
        return None if row is None else pairing_row(row)

    async def due_tournament_deadlines(self, now: str) -> list[tuple[int, str]]:
        rows = await self._all(tq.DUE_DEADLINES, {"now": now})
        return [(int(r[0]), str(r[1])) for r in rows]

    async def claim_tournament_deadline(
        self, tournament_id: int, deadline: str, claimant: str, now: str, until: str
    ) -> bool:
        params = {
            "claimant": claimant,
            "until": until,
            "id": tournament_id,
            "deadline": deadline,
            "now": now,
        }
        async with self._transaction() as tx:
            return await tx.one(tq.CLAIM_DEADLINE, params) is not None

    async def next_tournament_deadline(self) -> str | None:
        row = await self._one(tq.NEXT_DEADLINE)
        return None if row is None or row[0] is None else str(row[0])

    async def guild_tournaments(
        self, guild_id: str, limit: int, offset: int
    ) -> tuple[list[TournamentRow], int]:
        _check_page(limit, offset)
        async with self._snapshot() as tx:
            rows = await tx.all(tq.GUILD_TOURNAMENTS, (guild_id, limit, offset))
            total = await tx.one(tq.GUILD_TOURNAMENTS_SIZE, (guild_id,))
        return [tournament_row(r) for r in rows], int(total[0])

    async def player_tournaments(
        self, guild_id: str, user_id: str, limit: int, offset: int
    ) -> tuple[list[TournamentEntry], int]:
        _check_page(limit, offset)
        async with self._snapshot() as tx:
            rows = await tx.all(tq.PLAYER_TOURNAMENTS, (guild_id, user_id, limit, offset))
            total = await tx.one(tq.PLAYER_TOURNAMENTS_SIZE, (guild_id, user_id))
        return [entry_row(r) for r in rows], int(total[0])

    # -- seasons -----------------------------------------------------------------------------

    async def season_schedules(self, guild_id: str) -> list[ScheduleRow]:
        return [schedule_row(r) for r in await self._all(tq.SEASON_SCHEDULES, (guild_id,))]

    async def add_season_schedule(self, row: ScheduleRow) -> None:
        params = (row.guild_id, row.effective_from, row.cadence, row.length_days, row.anchor)
        async with self._transaction() as tx:
            await tx.one(tq.ADD_SEASON_SCHEDULE, params)

    async def get_season_settings(self, guild_id: str) -> SeasonSettingsRow | None:
        row = await self._one(tq.GET_SEASON_SETTINGS, (guild_id,))
        return None if row is None else season_settings_row(row)

    async def set_season_settings(self, row: SeasonSettingsRow, now: str) -> None:
        params = (
            row.guild_id,
            row.post_channel_id,
            row.post_weekday,
            row.post_hour,
            row.posts_since,
            row.divisions,
            row.promote,
            row.relegate,
            now,
        )
        async with self._transaction() as tx:
            await tx.one(tq.SET_SEASON_SETTINGS, params)

    async def posting_guilds(self) -> list[SeasonSettingsRow]:
        return [season_settings_row(r) for r in await self._all(tq.POSTING_GUILDS)]

    async def season_leaderboard(
        self,
        guild_id: str,
        since: str,
        until: str,
        limit: int,
        offset: int,
        *,
        sort: LeaderSort = "wins",
        provisional_below: int = 0,
        mode: str = CLASSIC,
        division: tuple[str, int] | None = None,
    ) -> tuple[list[LeaderRow], int]:
        sql = tq.SEASON_LEADERBOARD.get(sort)
        if sql is None:
            raise ValueError(f"unknown leaderboard sort {sort!r}")
        params = q.standings_params(guild_id, limit, offset, False, provisional_below, mode)
        params |= {
            "since": since,
            "until": until,
            "season": None if division is None else division[0],
            "division": None if division is None else division[1],
        }
        async with self._snapshot() as tx:
            rows = await tx.all(sql, params)
            total = await tx.one(tq.SEASON_STANDINGS_SIZE, params)
        return [codec.leader_row(r) for r in rows], 0 if total is None else int(total[0])

    async def first_result_at(self, guild_id: str) -> str | None:
        row = await self._one(tq.FIRST_RESULT, (guild_id,))
        return None if row is None or row[0] is None else str(row[0])

    async def division_members(self, guild_id: str, season: str) -> dict[str, int]:
        rows = await self._all(tq.DIVISION_MEMBERS, (guild_id, season))
        return {str(r["user_id"]): int(r["division"]) for r in rows}

    async def set_division_members(
        self, guild_id: str, season: str, members: Mapping[str, int]
    ) -> bool:
        async with self._transaction() as tx:
            held = await tx.one(tq.HAS_DIVISIONS, (guild_id, season))
            if int(held[0]):
                return False
            for user, division in sorted(members.items()):
                await tx.one(tq.ADD_DIVISION_MEMBER, (guild_id, season, user, division))
        return True

    async def last_division_season(self, guild_id: str, before: str) -> str | None:
        row = await self._one(tq.LAST_DIVISION_SEASON, (guild_id, before))
        return None if row is None or row[0] is None else str(row[0])

    async def claim_season_post(
        self, guild_id: str, kind: PostKind, slot: str, claimant: str, now: str, until: str
    ) -> bool:
        params = {
            "guild": guild_id,
            "kind": kind,
            "slot": slot,
            "claimant": claimant,
            "until": until,
            "now": now,
        }
        async with self._transaction() as tx:
            return await tx.one(tq.CLAIM_POST, params) is not None

    async def season_post_made(
        self, guild_id: str, kind: PostKind, slot: str, claimant: str, message_id: str, now: str
    ) -> bool:
        params = (now, message_id, guild_id, kind, slot, claimant)
        async with self._transaction() as tx:
            return await tx.one(tq.POST_MADE, params) is not None

    async def get_season_post(
        self, guild_id: str, kind: PostKind, slot: str
    ) -> SeasonPostRow | None:
        row = await self._one(tq.GET_POST, (guild_id, kind, slot))
        return None if row is None else season_post_row(row)


class _Locked:
    """``LockedTournament`` over the transaction ``lock_tournament`` holds."""

    def __init__(self, tx: Statements, tournament_id: int) -> None:
        self._tx = tx
        self._id = tournament_id

    @property
    def id(self) -> int:
        return self._id

    async def read(self) -> TournamentRecord:
        record = await _record(self._tx, self._id)
        assert record is not None  # locked, so still there
        return record

    async def set_state(self, state: TournamentState, now: str) -> None:
        started = now if state == "running" else None
        ended = now if state in ("finished", "cancelled") else None
        await self._tx.one(tq.SET_STATE, (state, started, ended, now, self._id))

    async def set_round(self, number: int, now: str) -> None:
        await self._tx.one(tq.SET_ROUND, (number, now, self._id))

    async def set_settings(self, settings: JsonObject, now: str) -> None:
        await self._tx.one(tq.SET_SETTINGS, (codec.dump(settings), now, self._id))

    async def set_deadline(self, deadline: str | None, now: str) -> None:
        await self._tx.one(tq.SET_DEADLINE, (deadline, now, self._id))

    async def join(self, user_id: str, now: str, name: str | None = None) -> bool:
        return await self._tx.one(tq.JOIN, (self._id, user_id, now, name)) is not None

    async def set_status(
        self, user_id: str, status: EntrantStatus, was: EntrantStatus, now: str
    ) -> bool:
        params = (status, now, self._id, user_id, was)
        return await self._tx.one(tq.SET_ENTRANT_STATUS, params) is not None

    async def set_seeds(self, seeds: Mapping[str, int]) -> None:
        for user, seed in seeds.items():
            await self._tx.one(tq.SET_SEED, (seed, self._id, user))

    async def set_places(self, places: Mapping[str, int]) -> None:
        for user, place in places.items():
            await self._tx.one(tq.SET_PLACE, (place, self._id, user))

    async def add_round(
        self, number: int, seed: str | None, deadline: str | None, now: str
    ) -> None:
        await self._tx.one(tq.ADD_ROUND, (self._id, number, seed, deadline, now))

    async def finish_round(self, number: int, now: str) -> bool:
        return await self._tx.one(tq.FINISH_ROUND, (now, self._id, number)) is not None

    async def add_pairings(self, pairings: Sequence[PairingRow]) -> None:
        for p in pairings:
            if p.tournament_id != self._id:
                raise ValueError("a pairing of another tournament")
            await self._tx.one(
                tq.ADD_PAIRING,
                (
                    self._id,
                    p.round,
                    p.board,
                    p.player_a,
                    p.player_b,
                    1 if p.player_b is None else 0,
                    p.table_id,
                    p.state,
                    p.winner_id,
                    p.decided_by,
                    p.score_a,
                    p.score_b,
                    codec.dump(p.detail or {}),
                    p.decided_at,
                ),
            )

    async def set_table(self, round_number: int, board: int, table_id: int) -> bool:
        params = (table_id, self._id, round_number, board)
        return await self._tx.one(tq.SET_PAIRING_TABLE, params) is not None

    async def decide(
        self,
        round_number: int,
        board: int,
        winner_id: str | None,
        decided_by: DecidedBy,
        scores: tuple[int | None, int | None],
        detail: JsonObject,
        now: str,
    ) -> bool:
        params = (
            winner_id,
            decided_by,
            scores[0],
            scores[1],
            codec.dump(detail),
            now,
            self._id,
            round_number,
            board,
        )
        return await self._tx.one(tq.DECIDE_PAIRING, params) is not None


async def _record(tx: Statements, tournament_id: int) -> TournamentRecord | None:
    row = await tx.one(tq.GET_TOURNAMENT, (tournament_id,))
    if row is None:
        return None
    return TournamentRecord(
        tournament=tournament_row(row),
        entrants=tuple(entrant_row(r) for r in await tx.all(tq.ENTRANTS, (tournament_id,))),
        rounds=tuple(round_row(r) for r in await tx.all(tq.ROUNDS, (tournament_id,))),
        pairings=tuple(pairing_row(r) for r in await tx.all(tq.PAIRINGS, (tournament_id,))),
    )


def _check_page(limit: int, offset: int) -> None:
    if limit < 0 or offset < 0:
        raise ValueError("limit and offset must not be negative")


def _unique_violation(error: Exception) -> bool:
    if isinstance(error, sqlite3.IntegrityError):
        return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_CONSTRAINT_UNIQUE
    return getattr(error, "constraint_name", None) == "tournaments_open_channel"


# -- the two backends ----------------------------------------------------------------------


class _SqliteStatements:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    async def one(self, sql: str, params: Params = ()) -> Any:
        return self._db.execute(sql, params).fetchone()

    async def all(self, sql: str, params: Params = ()) -> list[Any]:
        return self._db.execute(sql, params).fetchall()


class SqliteTournaments(TournamentTables):
    """The SQLite store's part: statements on the event loop's thread under its lock."""

    _checkpointer: Checkpointer | None

    def _exclusive(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        raise NotImplementedError

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Statements]:
        async with self._exclusive() as conn:
            db = loop_connection(conn)
            with writes.transaction(db):
                yield _SqliteStatements(db)
            if self._checkpointer is not None:
                self._checkpointer.written(1)

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[Statements]:
        # The lock keeps this process's writers out; nobody else writes a SQLite file.
        async with self._exclusive() as conn:
            yield _SqliteStatements(loop_connection(conn))


class _PostgresStatements:
    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def one(self, sql: str, params: Params = ()) -> Any:
        query = postgres_query(sql)
        return await self._conn.fetchrow(query.text, *query.args(params))

    async def all(self, sql: str, params: Params = ()) -> list[Any]:
        query = postgres_query(sql)
        return list(await self._conn.fetch(query.text, *query.args(params)))


class PostgresTournaments(TournamentTables):
    """The PostgreSQL store's part: a pool connection's transaction per call."""

    _FOR_UPDATE = " FOR UPDATE"

    def _opened(self) -> asyncpg.Pool[asyncpg.Record]:
        raise NotImplementedError

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Statements]:
        async with self._opened().acquire() as conn, conn.transaction():
            yield _PostgresStatements(conn)

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[Statements]:
        async with (
            self._opened().acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield _PostgresStatements(conn)
