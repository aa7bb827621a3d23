"""Runs the tables' timers: challenge expiry, the halfway turn reminder, and forfeits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.server_settings import duration
from bot.tables import Table, TableService, TimerEvent, TimerKind

if TYPE_CHECKING:
    from cogs.gin.display import TableDisplay

log = logging.getLogger(__name__)

IDLE_WAIT = 3600.0  # seconds to sleep when no deadline is pending (woken early on change)


class TimerRunner:
    """One task sleeps until the earliest deadline of any table, fires it, and sleeps again."""

    def __init__(self, service: TableService, display: TableDisplay) -> None:
        self.service = service
        self.display = display
        self.wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        service.deadline_changed = self.wake

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="gin-timers")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            self.wake.clear()
            for table in self.service.due(self.service.clock()):
                try:
                    for event in await self.service.fire_timer(table):
                        await self.announce(event)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("timer of table %s failed", table.id)
            upcoming = self.service.next_deadline()
            wait = IDLE_WAIT
            if upcoming is not None:
                wait = max(0.0, min(IDLE_WAIT, (upcoming - self.service.clock()).total_seconds()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=wait)

    async def announce(self, event: TimerEvent) -> None:
        table = event.table
        if event.kind is TimerKind.EXPIRED:
            if table.mode_name != "classic":  # a lobby
                text = (
                    f"Nobody started this table in {duration(table.server.challenge_seconds)}. "
                    "The channel is free again."
                )
            else:
                text = (
                    f"{table.opponent.name} didn't answer {table.challenger.name}'s challenge in "
                    f"{duration(table.server.challenge_seconds)}. The channel is free again."
                )
            await self.display.expired(table, text)
            return
        assert event.seat is not None
        where = self.display.where(table)
        if event.kind is TimerKind.REMINDER:
            left = duration(round(table.server.turn_seconds / 2))
            await self.display.tell(
                table,
                event.seat,
                f"⏰ It's your turn at {where}. {left} left, or you {_forfeit_word(table)}.",
            )
            return
        loser = table.players[event.seat].name
        await self.display.sync(table)
        if table.mode_name == "elimination" and event.result is None:
            await self.display.tell(
                table, event.seat, f"⌛ You ran out of time at {where}: you are out of the match."
            )
            return
        await self.display.tell(
            table, event.seat, f"⌛ You ran out of time at {where}: the match is lost."
        )
        match = table.match
        for seat in range(len(table.players)):
            if seat == event.seat or match is None:
                continue
            won = event.result is not None and event.result.placings[seat] == 1
            text = f"🏆 {loser} ran out of time ({where})"
            text += ": you win the match!" if won else ": the match is over."
            await self.display.tell(table, seat, text)


def _forfeit_word(table: Table) -> str:
    if table.mode_name == "elimination":
        return "are out of the match"
    if table.mode_name == "teams":
        return "forfeit the match for your team"
    return "forfeit the match"
