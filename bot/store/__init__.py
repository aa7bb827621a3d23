"""Persistence for tables, moves and results behind a small interface (SQLite today)."""

from bot.store.base import Store
from bot.store.errors import ChannelBusy, StaleMove, StoreError
from bot.store.rows import (
    OPEN_STATUSES,
    ClosedChallenge,
    HandOutcome,
    HandRow,
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
    "HistoryRow",
    "JsonObject",
    "LeaderRow",
    "LeaderSort",
    "MatchEnd",
    "MatchStatus",
    "MoveRecord",
    "MoveRow",
    "PlayerStats",
    "RatingRow",
    "ResultReason",
    "ResultRow",
    "SeatResult",
    "SqliteStore",
    "StaleMove",
    "Store",
    "StoreError",
    "TableRow",
]
