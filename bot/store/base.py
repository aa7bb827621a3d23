"""The store interface, so the bot can move from SQLite to PostgreSQL without changes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from bot.store.rows import (
    CLASSIC,
    ClosedChallenge,
    HandRow,
    HistoryRow,
    JsonObject,
    LeaderRow,
    LeaderSort,
    MatchEnd,
    MoveRecord,
    MoveRow,
    PlayerStats,
    RatingRow,
    ResultRow,
    ReviewKey,
    ReviewState,
    SeatRow,
    StartClocks,
    TableChange,
    TableRow,
)


class TableLock(Protocol):
    """One table held by ``Store.lock_table`` for the length of a transaction."""

    @property
    def table(self) -> TableRow:
        """The table as it stood when the lock was taken (nobody else can change it since)."""
        ...

    async def record_move(self, move: MoveRecord) -> None:
        """``Store.record_move`` inside the held transaction: ``StaleMove`` unless ``move``
        is the next move of a match in play, counting the moves recorded through this lock.
        A move refused or failing undoes itself alone; the rest of the block goes on."""
        ...

    async def end_match(
        self,
        state: JsonObject | None,
        end: MatchEnd,
        now: str,
        *,
        ratings: tuple[RatingRow, ...] = (),
    ) -> None:
        """``Store.end_match`` inside the held transaction."""
        ...

    async def set_display(self, display: JsonObject, now: str) -> None:
        """``Store.set_display`` inside the held transaction."""
        ...

    async def set_deadline(self, deadline: str | None, now: str) -> None:
        """``Store.set_deadline`` inside the held transaction (its claim goes with it)."""
        ...


# Called with what a process hears of a table another process changed (``TableChange``).
TableChanged = Callable[[TableChange], None]


class Store(Protocol):
    """Persistence for tables, moves and results. Times are ISO-8601 UTC text from the caller.

    Every write is committed before the method returns, so a player may be told. The store
    never reads a clock: deadlines compare as text against the ``now`` given, so all times
    must be written in one format.

    Every match has a mode ("classic", the two-player game, by default); standings, history,
    stats and ratings are kept per mode. A started match has seats numbered from 0.
    """

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def upsert_player(self, user_id: str, name: str, now: str) -> None: ...

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
    ) -> int: ...

    async def set_display(self, match_id: int, display: JsonObject, now: str) -> None: ...

    async def start_match(
        self,
        match_id: int,
        state: JsonObject,
        now: str,
        *,
        seats: Sequence[SeatRow] = (),
        clocks: StartClocks | None = None,
    ) -> None: ...

    async def close_challenge(self, match_id: int, status: ClosedChallenge, now: str) -> None: ...

    async def record_move(self, move: MoveRecord) -> None: ...

    def lock_table(self, match_id: int) -> AbstractAsyncContextManager[TableLock]:
        """``async with store.lock_table(id) as locked:`` holds the table's row until the
        block ends, so the moves made in it may be worked out from ``locked.table`` with no
        other writer of that table in between, in this process or another.

        On PostgreSQL the row is locked (``SELECT ... FOR UPDATE``), so another writer of
        the same table waits; on SQLite the whole database is, for this process's writes as
        for other processes'. Keep the block short and call the store only through
        ``locked`` inside it. Moves recorded through ``locked`` are committed when the block
        ends without an exception and undone with it otherwise. ``StaleMove`` if there is
        no such match.
        """
        ...

    async def end_match(
        self,
        match_id: int,
        state: JsonObject | None,
        end: MatchEnd,
        now: str,
        *,
        ratings: tuple[RatingRow, ...] = (),
    ) -> None: ...

    async def set_deadline(self, match_id: int, deadline: str | None, now: str) -> None: ...

    async def due_deadlines(self, now: str) -> list[tuple[int, str]]: ...

    async def claim_deadline(
        self, match_id: int, deadline: str, claimant: str, now: str, until: str
    ) -> bool:
        """Claim an open table's due ``deadline`` for ``claimant`` until ``until``: True for
        exactly one of the processes that saw it due. A claim lapses at ``until`` and goes
        with any new deadline; see ``SqliteStore.claim_deadline``."""
        ...

    async def next_deadline(self) -> str | None: ...

    async def claim_review(self, key: ReviewKey, now: str, lapses: str) -> ReviewState | None:
        """Claim a hand's review for the caller that will make it: None when claimed (no
        claim yet, or one whose maker died and let it lapse at its ``lapses``), else the
        review's state ("working" while another caller makes it, "sent")."""
        ...

    async def settle_review(self, key: ReviewKey, sent: bool) -> None:
        """A claimed review sent (it is never made again), or not sent (the claim is
        dropped, so a later press makes it)."""
        ...

    async def get_guild_settings(self, guild_id: str) -> JsonObject | None: ...

    async def set_guild_settings(self, guild_id: str, data: JsonObject, now: str) -> None: ...

    async def get_ratings(
        self, guild_id: str, user_ids: Sequence[str], mode: str = CLASSIC
    ) -> dict[str, RatingRow]: ...

    async def open_tables(self) -> list[TableRow]: ...

    async def get_table(self, match_id: int) -> TableRow | None: ...

    async def moves(self, match_id: int) -> list[MoveRow]: ...

    async def hands(self, match_id: int) -> list[HandRow]: ...

    async def results(self, match_id: int) -> list[ResultRow]: ...

    async def leaderboard(
        self,
        guild_id: str,
        limit: int,
        offset: int,
        *,
        sort: LeaderSort = "wins",
        provisional_below: int = 0,
        mode: str = CLASSIC,
    ) -> tuple[list[LeaderRow], int]: ...

    async def bot_records(
        self, guild_id: str, limit: int, offset: int, mode: str = CLASSIC
    ) -> tuple[list[LeaderRow], int]: ...

    async def history(
        self, guild_id: str, user_id: str, limit: int, offset: int, mode: str = CLASSIC
    ) -> tuple[list[HistoryRow], int]: ...

    async def player_stats(
        self, guild_id: str, user_id: str, mode: str = CLASSIC
    ) -> PlayerStats | None: ...

    async def counts(self) -> dict[str, int]: ...

    async def watch(self, on_change: TableChanged) -> bool:
        """Call ``on_change`` whenever another process changes a table (PostgreSQL's
        ``LISTEN``); False where no other process can (SQLite), and nothing is called."""
        ...
