"""Persistence for tables, moves and results behind a small interface: SQLite or PostgreSQL."""

from pathlib import Path

from bot.store.base import Store, TableLock
from bot.store.errors import ChannelBusy, StaleMove, StoreError, StoreUnavailable
from bot.store.postgres import POOL_SIZE, PostgresStore, is_postgres_url
from bot.store.rows import (
    CLASSIC,
    OPEN_STATUSES,
    ClosedChallenge,
    HandOutcome,
    HandRow,
    HeardMove,
    HistoryRow,
    JsonObject,
    LeaderRow,
    LeaderSort,
    MatchEnd,
    MatchStatus,
    MoveRecord,
    MoveRow,
    PlayerStats,
    RatingRow,
    ResultReason,
    ResultRow,
    ReviewKey,
    ReviewState,
    SeatResult,
    SeatRow,
    StartClocks,
    TableChange,
    TableRow,
)
from bot.store.sqlite import SqliteStore


def store_for(location: str | Path) -> Store:
    """The store ``GIN_DB`` names, not opened yet: PostgreSQL for a ``postgresql://`` (or
    ``postgres://``) URL, else SQLite on that file path."""
    if is_postgres_url(location):
        return PostgresStore(str(location), min_size=POOL_SIZE, max_size=POOL_SIZE)
    return SqliteStore(location)


__all__ = [
    "CLASSIC",
    "OPEN_STATUSES",
    "ChannelBusy",
    "ClosedChallenge",
    "HandOutcome",
    "HandRow",
    "HeardMove",
    "HistoryRow",
    "JsonObject",
    "LeaderRow",
    "LeaderSort",
    "MatchEnd",
    "MatchStatus",
    "MoveRecord",
    "MoveRow",
    "PlayerStats",
    "PostgresStore",
    "RatingRow",
    "ResultReason",
    "ResultRow",
    "ReviewKey",
    "ReviewState",
    "SeatResult",
    "SeatRow",
    "SqliteStore",
    "StaleMove",
    "StartClocks",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TableChange",
    "TableLock",
    "TableRow",
    "store_for",
]
