"""Persistence for tables, moves and results behind a small interface (SQLite today)."""

from bot.store.base import Store
from bot.store.errors import ChannelBusy, StaleMove, StoreError
from bot.store.rows import (
    OPEN_STATUSES,
    ClosedChallenge,
    HandOutcome,
    HandRow,
    JsonObject,
    LeaderRow,
    MatchEnd,
    MatchStatus,
    MoveRecord,
    MoveRow,
    PlayerStats,
    ResultReason,
    ResultRow,
    SeatResult,
    TableRow,
)
from bot.store.sqlite import SqliteStore

__all__ = [
    "OPEN_STATUSES",
    "ChannelBusy",
    "ClosedChallenge",
    "HandOutcome",
    "HandRow",
    "JsonObject",
    "LeaderRow",
    "MatchEnd",
    "MatchStatus",
    "MoveRecord",
    "MoveRow",
    "PlayerStats",
    "ResultReason",
    "ResultRow",
    "SeatResult",
    "SqliteStore",
    "StaleMove",
    "Store",
    "StoreError",
    "TableRow",
]
