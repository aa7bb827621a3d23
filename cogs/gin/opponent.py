"""Plays the bot's own turns at tables where someone plays against it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from typing import Protocol

from bot.tables import MoveOutcome, Table, TableService
from cogs.gin.origin import DISCORD

log = logging.getLogger(__name__)


class Shows(Protocol):
    """What follows each of the bot's moves (``After``)."""

    async def changed(self, table: Table, outcome: MoveOutcome | None = None) -> None: ...


class BotOpponent:
    """One task per table while it is the bot's turn: a short pause, a move, the messages."""

    def __init__(self, service: TableService, after: Shows, delay: float) -> None:
        self.service = service
        self.after = after
        self.delay = delay
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._rngs: dict[int, random.Random] = {}

    def nudge(self, table: Table) -> None:
        """Start playing the bot's turns at this table if it is to act and not already playing."""
        if not table.bot_to_act() or not self.service.shows(table):
            return  # (the process that shows a table plays its bot: see bot.tables.fleet)
        running = self._tasks.get(table.id)
        if running is not None and not running.done():
            return
        self._tasks[table.id] = asyncio.create_task(self._play(table), name=f"gin-bot-{table.id}")

    async def _play(self, table: Table) -> None:
        rng = self._rngs.setdefault(table.id, random.Random(secrets.randbits(64)))
        try:
            while table.bot_to_act():
                await asyncio.sleep(self.delay)
                outcome = await self.service.bot_turn(table, rng, origin=DISCORD)
                if outcome is None:
                    break
                await self.after.changed(table, outcome)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bot could not play its turn at table %s", table.id)
        finally:
            if not table.is_open:
                self._rngs.pop(table.id, None)

    async def stop(self) -> None:
        """Stop playing; a move cut short rolls back, and resumes after a restart."""
        tasks = [t for t in self._tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
