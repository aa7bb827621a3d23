"""The tables' deadlines: a challenge or lobby expires; each turn has two, halfway the player
is reminded and at the end they forfeit. Deadlines are stored with the table, so a restart
resumes them; one that passed while the bot was down fires at start-up. With other processes
on the database, a deadline is claimed before it is acted on: of those that saw it come, one
acts."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.gin.match import EndReason
from bot.store import StaleMove
from bot.tables import clock
from bot.tables.commits import Commits, Given
from bot.tables.core import Core
from bot.tables.events import DeadlineMoved
from bot.tables.fleet import CLAIM_SECONDS
from bot.tables.model import Status, Table, TimerEvent, TimerKind


class Deadlines:
    """When the next deadline comes, which tables are due, and what firing one does."""

    def __init__(self, core: Core, commits: Commits) -> None:
        self.core = core
        self.commits = commits

    def next_deadline(self) -> datetime | None:
        tables = self.core.registry.tables()
        deadlines = [self._due_at(t) for t in tables if t.deadline is not None]
        return min(deadlines) if deadlines else None

    def due(self, now: datetime) -> list[Table]:
        return sorted(
            (
                t
                for t in self.core.registry.tables()
                if t.deadline is not None and self._due_at(t) <= now
            ),
            key=lambda t: t.deadline or now,
        )

    def _due_at(self, table: Table) -> datetime:
        """When to look at the table's deadline: at it, or, while another process holds
        its claim, when that claim lapses (its change, heard first, clears the claim)."""
        assert table.deadline is not None
        claimed = self.core.claimed.get(table.id)
        return table.deadline if claimed is None else max(table.deadline, claimed)

    async def fire(self, table: Table, *, origin: str = "") -> list[TimerEvent]:
        """Handle a table whose deadline has come: expire it, or remind or forfeit the players
        whose clocks ran."""
        core = self.core
        async with table.lock:
            now = core.clock()
            if table.deadline is None or table.deadline > now or not core.registry.holds(table):
                return []
            if core.fleet is not None:
                until = now + timedelta(seconds=CLAIM_SECONDS)
                claimed = await core.store.claim_deadline(
                    table.id,
                    table.deadline.isoformat(),
                    core.fleet.name,
                    now.isoformat(),
                    until.isoformat(),
                )
                if not claimed:  # another process acts on it (or it moved on meanwhile)
                    core.claimed[table.id] = until
                    return []
            if table.status is Status.CHALLENGE:
                try:
                    await core.store.close_challenge(table.id, "expired", core.now())
                except StaleMove:
                    return []  # answered elsewhere in the meantime
                core.close(table, Status.EXPIRED, origin=origin)
                return [TimerEvent(TimerKind.EXPIRED, table, None)]
            return await self.commits.with_ratings(
                table, lambda given: self._fire(table, given, origin)
            )

    async def _fire(self, table: Table, given: Given, origin: str) -> list[TimerEvent]:
        """The turn clocks that ran, under the row lock: a forfeit, or reminders."""
        core = self.core
        async with core.lock(table) as locked:
            core.catch_up_locked(table, locked)
            now = core.clock()
            if table.deadline is None or table.deadline > now or not core.registry.holds(table):
                return []
            match = core.match(table)
            seconds = table.server.turn_seconds
            timers = clock.timers_of(table.display, match)
            due = sorted(
                (key, timer) for key, timer in timers.items() if clock.due_at(timer, seconds) <= now
            )
            for _, timer in due:  # a forfeit first: its move resets every clock
                if timer.get("reminded") or now >= clock.ends_at(timer, seconds):
                    seat = int(timer["seat"])
                    result, done = await self.commits.concede(
                        table, locked, seat, EndReason.FORFEIT, given, origin
                    )
                    break
            else:
                events: list[TimerEvent] = []
                for key, timer in due:
                    timers[key] = {**timer, "reminded": True}
                    end = clock.ends_at(timer, seconds)
                    events.append(TimerEvent(TimerKind.REMINDER, table, int(timer["seat"]), end))
                base = table.display if core.shows(table) else locked.table.display
                display = {k: v for k, v in base.items() if k != "timer"}
                display["timers"] = timers
                deadline = clock.earliest(timers, seconds)
                await locked.set_display(display, core.now())
                await locked.set_deadline(
                    None if deadline is None else deadline.isoformat(), core.now()
                )
                seat = -1
        if seat < 0:
            if core.shows(table):
                table.meta.set_timers(timers)
            else:
                table.load_display(display)
            table.deadline = deadline
            core.claimed.pop(table.id, None)
            core.events.publish(DeadlineMoved(table=table, origin=origin))
            return events
        done()
        return [TimerEvent(TimerKind.FORFEIT, table, seat, result=result)]
