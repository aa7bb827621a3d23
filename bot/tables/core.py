"""What every part of the table service shares: the store, the clock, the other processes on
the database, the events, the open tables; and the few things each part does to a table the
same way (write under its lock, catch up with the store, close it, move its deadline).

With several processes on one database (see ``fleet``), another may have moved since this
process last looked: a move is first recorded only if it is the next move of the stored table
(``bot.store.table_locks.hopeful``), and failing that made again inside the store's lock on
the table's row (``Store.lock_table``), where the stored move count is compared with ours and
the table reloaded from the row if they differ (``catch_up_locked``). A process alone on its
database needs no row lock: its tables in memory are the truth, so each write is the store's
own transaction (on SQLite, moves of many tables share group commits; ``table_locks.alone``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

import orjson

from bot.gin.match import Match, MatchResult
from bot.store import OPEN_STATUSES, Store, TableLock, TableRow
from bot.store.table_locks import Alone, alone
from bot.tables.events import ELSEWHERE, DeadlineMoved, EventHub, TableClosed
from bot.tables.fleet import Fleet
from bot.tables.loading import keep_last_hand, loaded_seats
from bot.tables.model import Status, Table, TableError, TableMeta, screens_part
from bot.tables.presence import Presence
from bot.tables.registry import Registry

log = logging.getLogger(__name__)

# The display keys that belong to the game (the turn clocks), not to the messages shown.
CLOCK_KEYS = ("timers", "timer")


class Core:
    """The service's shared ground (one per ``TableService``)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime],
        fleet: Fleet | None,
        events: EventHub,
    ) -> None:
        self.store = store
        self.clock = clock
        self.fleet = fleet  # None: this process is the only one on its database
        self.events = events
        self.registry = Registry()
        self.claimed: dict[int, datetime] = {}  # table -> until when another process acts
        # Who has a table open in the Activity: this process keeps following those tables
        # even where another process shows them (``elsewhere``).
        self.presence = Presence()

    def now(self) -> str:
        return self.clock().isoformat()

    def shows(self, table: Table) -> bool:
        """Whether this process posts and edits the table's messages (see ``fleet``)."""
        return self.fleet is None or self.fleet.shows(table)

    @staticmethod
    def match(table: Table) -> Match:
        if table.match is None:
            raise TableError("The game hasn't started yet.")
        return table.match

    def lock(self, table: Table) -> contextlib.AbstractAsyncContextManager[TableLock]:
        """The table's row lock while other processes share the database; alone on it, the
        store's own transactions."""
        if self.fleet is None:
            return alone(self.store, table.id)
        return self.store.lock_table(table.id)

    def shut(self, table: Table, status: Status) -> None:
        """The table in memory closed: no longer open here, no deadline."""
        table.status = status
        table.deadline = None
        self.registry.unregister(table)

    def close(
        self,
        table: Table,
        status: Status,
        *,
        origin: str = "",
        result: MatchResult | None = None,
    ) -> None:
        """Close the table in memory (its end committed) and tell everyone."""
        self.shut(table, status)
        self.events.publish(TableClosed(table=table, origin=origin, status=status, result=result))

    async def set_deadline(self, table: Table, deadline: datetime | None) -> None:
        table.deadline = deadline
        await self.store.set_deadline(
            table.id, None if deadline is None else deadline.isoformat(), self.now()
        )
        self.events.publish(DeadlineMoved(table=table))

    async def save_display(self, table: Table) -> None:
        """Persist the Discord message ids a table needs to keep editing after a restart.

        With other processes on the database, the turn clocks are kept as stored (whoever
        moved last, or started the match, wrote them under the row lock)."""
        if self.fleet is None:
            await self.store.set_display(table.id, table.display, self.now())
            return
        async with self.lock(table) as locked:
            display = dict(table.display)
            for key in CLOCK_KEYS:
                if key in locked.table.display:
                    display[key] = locked.table.display[key]
                else:
                    display.pop(key, None)
            await locked.set_display(display, self.now())

    def catch_up(
        self, table: Table, row: TableRow, history: list[dict[str, Any]] | None = None
    ) -> None:
        """Make the table in memory what the store has (another process changed it): its
        state, moves, seats and clocks; the messages' ids stay ours if we show it."""
        kept = [] if table.match is None else list(table.match.history)
        if row.state is not None:
            match = Match.from_dict({**row.state, "history": history or []})
            if history is None:
                match.history = kept
            keep_last_hand(match)
            table.match = match
            table.committed = orjson.dumps(row.state).decode()
        table.move_count = row.move_count
        # The service's keys are the stored ones; the message ids too, unless this process
        # shows the table (then its own are the newest).
        table.meta = TableMeta.from_dict(row.display)
        if not (self.shows(table) and table.screen_ids):
            table.screen_ids = screens_part(row.display)
        table.seats = loaded_seats(row, row.display, table.match)
        table.host = str(row.display.get("host", row.challenger_id))
        table.deadline = None if row.deadline is None else datetime.fromisoformat(row.deadline)
        self.claimed.pop(table.id, None)
        status = Status(row.status)
        if row.status in OPEN_STATUSES:
            table.status = status
            self.registry.register(table)
        elif table.status is not status or self.registry.holds(table):
            self.close(table, status, origin=ELSEWHERE)
        self.events.publish(DeadlineMoved(table=table, origin=ELSEWHERE))

    def catch_up_locked(self, table: Table, locked: TableLock) -> None:
        """Under the row lock: reload the table if the store has moved past our copy."""
        if self.fleet is None or isinstance(locked, Alone):
            return  # alone on the database (nobody else moves its tables), or no row read
        row = locked.table
        if row.move_count != table.move_count or row.status != table.status.value:
            log.info(
                "table %s changed elsewhere (move %s, we had %s): reloaded",
                table.id,
                row.move_count,
                table.move_count,
            )
            self.catch_up(table, row)
