"""Other processes' changes: with several processes on one database (see ``fleet``), each
hears of the tables the others changed and catches up with them, one table at a time; a plain
move that follows our copy is made here too (what it did, for the messages), anything else
is read again from the store. Everyone is told with a ``ChangedElsewhere``."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from bot.gin.hand import Action, ActionKind
from bot.store import OPEN_STATUSES, TableChange, codec
from bot.tables.core import Core
from bot.tables.events import ELSEWHERE, ChangedElsewhere, DeadlineMoved
from bot.tables.loading import keep_last_hand, restore, snapshot, table_from_row
from bot.tables.model import HeardOutcome, MoveOutcome, Status, Table

log = logging.getLogger(__name__)


class Elsewhere:
    """Catches up with the tables other processes changed."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._stale: dict[int, list[TableChange]] = {}  # heard changed elsewhere, in order
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._following: set[asyncio.Task[None]] = set()

    async def watch(self) -> None:
        """Hear of tables changed by the other processes sharing the database."""
        if self.core.fleet is not None:
            await self.core.store.watch(self._heard)

    def _heard(self, change: TableChange) -> None:
        """Another process changed a table: catch up with it soon, one table at a time."""
        core = self.core
        if change.table_id == 0:  # news may have been missed: every table may have changed
            for table_id in core.registry.ids():
                self._heard(TableChange(table_id, -1, ""))
            return
        changed = change.table_id
        receives_dms = core.fleet is not None and core.fleet.receives_dms
        if core.registry.by_id(changed) is None and not receives_dms:
            # Not ours to keep (read again if ever needed, ``find``), unless it just started
            # in a channel someone has open in the Activity here.
            if change.count == 0 and change.status in OPEN_STATUSES and core.presence.watching():
                task = asyncio.ensure_future(self._follow_if_watched(changed))
                self._following.add(task)
                task.add_done_callback(self._following.discard)
            return
        self._stale.setdefault(changed, []).append(change)
        if changed not in self._refreshing:
            task = asyncio.ensure_future(self._catch_up_soon(changed))
            self._refreshing[changed] = task

    async def _follow_if_watched(self, table_id: int) -> None:
        """A table started by another process: followed here if a page here shows its
        channel (it had no table to show), so the page sees it without reconnecting."""
        core = self.core
        try:
            row = await core.store.get_table(table_id)
            if row is None or row.status not in OPEN_STATUSES:
                return
            channel = row.channel_id
            if not core.presence.watches(channel) or core.registry.in_channel(channel):
                return  # nobody looks at it here, or it is held here already
            table = await table_from_row(core.store, row)
            if core.registry.in_channel(channel) is not None:
                return  # loaded meanwhile (a page's look-up), and shown then
            core.registry.register(table)
            core.events.publish(ChangedElsewhere(table=table, origin=ELSEWHERE, seat=None))
        except Exception:
            log.exception("could not follow table %s opened elsewhere", table_id)

    async def _catch_up_soon(self, table_id: int) -> None:
        try:
            while table_id in self._stale:
                changes = self._stale.pop(table_id)
                try:
                    table, made = await self._catch_up_with(table_id, changes)
                except Exception:
                    log.exception("could not reload table %s changed elsewhere", table_id)
                    continue
                if table is not None:
                    seat = changes[-1].seat
                    moved = None if seat < 0 else seat
                    heard = ChangedElsewhere(
                        table=table, origin=ELSEWHERE, seat=moved, made=tuple(made)
                    )
                    self.core.events.publish(heard)
        finally:
            self._refreshing.pop(table_id, None)

    async def _catch_up_with(
        self, table_id: int, changes: list[TableChange]
    ) -> tuple[Table | None, list[HeardOutcome]]:
        """Make the moves heard of here when they are plain moves that follow our copy and
        leave the state the other process stored (what they did, for the messages);
        otherwise read the table again."""
        table = self.core.registry.by_id(table_id)
        made: list[HeardOutcome] = []
        if table is not None:
            async with table.lock:
                for change in changes:
                    if change.count > 0 and change.count <= table.move_count:
                        continue  # made here already (read with a later change)
                    outcome = self._make_heard(table, change)
                    if outcome is None:
                        break
                    made.append(outcome)
                else:
                    return table, made
        return await self.refresh(table_id), made

    def _make_heard(self, table: Table, change: TableChange) -> HeardOutcome | None:
        """Another process's plain move, made on our copy of the table (under its lock):
        None, and the copy as it was, unless the move follows our copy and the state it
        leaves matches the one stored."""
        heard, match = change.move, table.match
        if heard is None or match is None or table.status is not Status.PLAYING:
            return None
        if change.count != table.move_count + 1:
            return None
        before = snapshot(table, match)
        try:
            action = Action.from_dict(heard.action)
            board_index = match.board_index(action.seat)
            board = match.board_of(action.seat)
            report = match.apply(action)
            text = codec.dump(match.to_dict(history=False))
        except Exception:  # a move our copy refuses: it is not the copy the other one had
            table.match = restore(*before)
            return None
        if report.finished_hand is not None or codec.state_check(text) != heard.state_check:
            table.match = restore(*before)
            return None
        drawn = None
        if board is not None and action.kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
            drawn = board.last_drawn
        table.committed = text
        table.move_count = change.count
        keep_last_hand(match)
        if heard.timers is not None:
            table.meta.set_timers(heard.timers)
        if heard.change_deadline:
            deadline = heard.deadline
            table.deadline = None if deadline is None else datetime.fromisoformat(deadline)
            self.core.claimed.pop(table.id, None)
            self.core.events.publish(DeadlineMoved(table=table, origin=ELSEWHERE))
        outcome = MoveOutcome(
            table, action.seat, action, drawn, report, table.move_count, board_index or 0
        )
        return HeardOutcome(outcome, heard.shown_message, heard.mover_language)

    async def find(self, table_id: int) -> Table | None:
        """The open table with this id: the one in memory or, with other processes on the
        database, one opened elsewhere, read from the store."""
        table = self.core.registry.by_id(table_id)
        if table is not None or self.core.fleet is None:
            return table
        return await self.refresh(table_id)

    async def refresh(self, table_id: int) -> Table | None:
        """Reload a table from the store (another process changed it); None if it is not
        open and was not in memory either."""
        core = self.core
        store, registry = core.store, core.registry
        table = registry.by_id(table_id)
        if table is None:
            row = await store.get_table(table_id)
            if row is None or row.status not in OPEN_STATUSES:
                return None
            table = registry.by_id(table_id)
            if table is None:  # nobody loaded it meanwhile
                table = await table_from_row(store, row)
                registry.register(table)
                return table
        async with table.lock:
            row = await store.get_table(table_id)
            if row is None:
                return None
            history = None
            if row.state is not None and (
                table.match is None or row.state.get("hand_number") != table.match.hand_number
            ):
                history = [hand.result for hand in await store.hands(table_id)]
            core.catch_up(table, row, history)
        followed = core.presence.followed(table.id)  # open in the Activity here
        if core.fleet is not None and not core.fleet.keeps(table) and not followed:
            registry.unregister(table)
        return table
