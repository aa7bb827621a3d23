"""Runs the tables' timers: challenge expiry, the halfway turn reminder, and forfeits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.i18n import speaking, tr
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
        """Say in the channel what a timer did, in the channel's language."""
        with speaking(self.display.languages.of_channel(event.table)):
            await self._announce(event)

    async def _announce(self, event: TimerEvent) -> None:
        table = event.table
        if event.kind is TimerKind.EXPIRED:
            waited = duration(table.server.challenge_seconds)
            if table.mode_name != "classic":  # a lobby
                text = tr(
                    "Nobody started this table in {waited}. The channel is free again.",
                    waited=waited,
                )
            else:
                text = tr(
                    "{opponent} didn't answer {challenger}'s challenge in {waited}. "
                    "The channel is free again.",
                    opponent=table.opponent.name,
                    challenger=table.challenger.name,
                    waited=waited,
                )
            await self.display.expired(table, text)
            return
        assert event.seat is not None
        where = self.display.where(table)
        if event.kind is TimerKind.REMINDER:
            left = duration(round(table.server.turn_seconds / 2))
            await self.display.tell(table, event.seat, _reminder(table, where, left))
            return
        loser = table.players[event.seat].name
        await self.display.sync(table)
        if table.mode_name == "elimination" and event.result is None:
            await self.display.tell(
                table,
                event.seat,
                tr("⌛ You ran out of time at {where}: you are out of the match.", where=where),
            )
            return
        await self.display.tell(
            table,
            event.seat,
            tr("⌛ You ran out of time at {where}: the match is lost.", where=where),
        )
        match = table.match
        for seat in range(len(table.players)):
            if seat == event.seat or match is None:
                continue
            won = event.result is not None and event.result.placings[seat] == 1
            if won:
                text = tr(
                    "🏆 {loser} ran out of time ({where}): you win the match!",
                    loser=loser,
                    where=where,
                )
            else:
                text = tr(
                    "🏆 {loser} ran out of time ({where}): the match is over.",
                    loser=loser,
                    where=where,
                )
            await self.display.tell(table, seat, text)


def _reminder(table: Table, where: str, left: str) -> str:
    """The halfway reminder: where it is the player's turn, the time left, and what running
    out of it costs in this mode."""
    if table.mode_name == "elimination":
        return tr(
            "⏰ It's your turn at {where}. {left} left, or you are out of the match.",
            where=where,
            left=left,
        )
    if table.mode_name == "teams":
        return tr(
            "⏰ It's your turn at {where}. {left} left, or you forfeit the match for your team.",
            where=where,
            left=left,
        )
    return tr(
        "⏰ It's your turn at {where}. {left} left, or you forfeit the match.",
        where=where,
        left=left,
    )
