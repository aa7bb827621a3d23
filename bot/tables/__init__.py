"""The table service and what it keeps: tables, seats, lobbies, moves, turn clocks."""

from bot.tables.model import (
    KEPT_HANDS,
    MoveOutcome,
    Seat,
    StaleButton,
    Status,
    Table,
    TableError,
    TimerEvent,
    TimerKind,
)
from bot.tables.service import TableService

__all__ = [
    "KEPT_HANDS",
    "MoveOutcome",
    "Seat",
    "StaleButton",
    "Status",
    "Table",
    "TableError",
    "TableService",
    "TimerEvent",
    "TimerKind",
]
