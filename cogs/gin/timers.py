"""Runs the tables' timers: challenge expiry, the halfway turn reminder, and forfeits."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.i18n import speaking, tr
from bot.server_settings import duration
from bot.tables import Table, TableService, TimerEvent, TimerKind
from bot.tables.events import DeadlineMoved
from bot.waiting import woken
from cogs.gin.after import After
from cogs.gin.origin import DISCORD

log = logging.getLogger(__name__)

IDLE_WAIT = 3600.0  # seconds to sleep when no deadline is pending (woken early on change)


class TimerRunner:
    """One task sleeps until the earliest deadline of any table, fires it, and sleeps again."""

    def __init__(self, service: TableService, after: After) -> None:
        self.service = service
        self.after = after
        self.screens = after.screens
        self.wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def woken(self, event: DeadlineMoved) -> None:
        """A deadline moved: look again at which comes first."""
        self.wake.set()

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
            for table in self.service.deadlines.due(self.service.clock()):
                try:
                    for event in await self.service.deadlines.fire(table, origin=DISCORD):
                        await self.announce(event)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("timer of table %s failed", table.id)
            upcoming = self.service.deadlines.next_deadline()
            wait = IDLE_WAIT
            if upcoming is not None:
                wait = max(0.0, min(IDLE_WAIT, (upcoming - self.service.clock()).total_seconds()))
            await woken(self.wake, wait)

    async def announce(self, event: TimerEvent) -> None:
        """Say in the channel what a timer did, in the channel's language."""
        with speaking(self.screens.languages.of_channel(event.table)):
            await self._announce(event)

    async def _announce(self, event: TimerEvent) -> None:
        table = event.table
        if event.kind is TimerKind.EXPIRED:
            waited = duration(table.server.challenge_seconds)
            if table.mode.opens_a_lobby:
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
            await self.screens.expired(table, text)
            return
        assert event.seat is not None
        if event.kind is TimerKind.REMINDER:
            with speaking(self.screens.languages.of_player(table, event.seat)):  # theirs
                left = duration(round(table.server.turn_seconds / 2))
                text = _reminder(table, self.screens.where(table), left)
            key = f"rem{table.token(event.seat)}:{event.seat}"
            await self.screens.remind(table, event.seat, text, key)
            return
        await self.after.changed(table)
        if not table.mode.leaving_ends_match and event.result is None:
            with speaking(self.screens.languages.of_player(table, event.seat)):  # theirs
                where = self.screens.where(table)
                text = tr(
                    "⌛ You ran out of time at {where}: you are out of the match.", where=where
                )
            await self.screens.tell(table, event.seat, text)
        # Otherwise the match is over: its result, by DM to each player (a mention in the
        # channel for closed DMs), says who ran out of time; nothing more to say.


def _reminder(table: Table, where: str, left: str) -> str:
    """The halfway reminder: where it is the player's turn, the time left, and what running
    out of it costs in this mode."""
    if not table.mode.leaving_ends_match:
        return tr(
            "⏰ It's your turn at {where}. {left} left, or you are out of the match.",
            where=where,
            left=left,
        )
    if table.mode.team_play:
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
