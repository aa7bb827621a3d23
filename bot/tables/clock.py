"""Turn clocks: one per board whose player to act is a person; the table's deadline is the
earliest of them. Pure functions of the table, the match and the time, so the service can
write a move and its clocks together.

Each clock runs from the start of a turn: halfway the player is reminded, at the end they
forfeit (two-player hands: their side loses; elimination: they are out). A clock is keyed by
where its turn began, so a move by the same player (draw, then discard) does not restart it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.gin.match import Match
from bot.tables.model import Table

Timers = dict[str, dict[str, Any]]


def turn_key(match: Match, board: int) -> str:
    """Identifies a turn: the hand, the board, and the move at which this player's turn began."""
    hand = match.boards[board]
    start = len(hand.actions)
    while start > 0 and hand.actions[start - 1].seat == hand.turn:
        start -= 1
    return f"{match.hand_number}:{board}:{hand.turn}:{start}"


def timers_of(display: dict[str, Any], match: Match | None) -> Timers:
    """The clocks a table's display holds (one saved by a version with a single clock reads
    as board 0's)."""
    timers = display.get("timers")
    if timers is not None:
        return dict(timers)
    old = display.get("timer")
    if old and match is not None:
        return {"0": {**old, "seat": match.hand.turn}}
    return {}


def next_timers(match: Match, current: Timers, bots: set[int], now: datetime) -> Timers:
    """The clocks after a change: one per board being played by a person to act, kept when
    the same turn goes on, started now when a new turn began."""
    timers: Timers = {}
    if match.is_over:
        return timers
    for index, board in enumerate(match.boards):
        if board.is_over or board.turn in bots:
            continue
        key = turn_key(match, index)
        old = current.get(str(index))
        if old is not None and old.get("key") == key:
            timers[str(index)] = old
        else:
            timers[str(index)] = {
                "key": key,
                "seat": board.turn,
                "started": now.isoformat(),
                "reminded": False,
            }
    return timers


def due_at(timer: dict[str, Any], turn_seconds: int) -> datetime:
    """When a clock fires next: halfway (the reminder), or at the end once reminded."""
    started = datetime.fromisoformat(timer["started"])
    share = 1.0 if timer.get("reminded") else 0.5
    return started + timedelta(seconds=turn_seconds * share)


def earliest(timers: Timers, turn_seconds: int) -> datetime | None:
    """The table's deadline: the earliest clock's next event."""
    times = [due_at(t, turn_seconds) for t in timers.values()]
    return min(times) if times else None


def ends_at(timer: dict[str, Any], turn_seconds: int) -> datetime:
    return datetime.fromisoformat(timer["started"]) + timedelta(seconds=turn_seconds)


def turn_timers(table: Table, match: Match, now: datetime) -> tuple[Timers, datetime | None]:
    """The table's clocks after a change, and its deadline from them."""
    current = timers_of(table.display, match)
    timers = next_timers(match, current, set(table.bot_seats), now)
    return timers, earliest(timers, table.server.turn_seconds)


def turn_ends(table: Table, seat: int) -> int | None:
    """When the seat's turn times out (Unix seconds), if a clock runs for it."""
    for timer in timers_of(table.meta.to_dict(), table.match).values():
        if timer.get("seat") == seat and timer.get("started"):
            return int(ends_at(timer, table.server.turn_seconds).timestamp())
    return None
