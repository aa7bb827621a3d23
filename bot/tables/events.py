"""What happens to a table, told after the commit to everyone who listens.

The table service publishes; the front ends (the Discord screens, a web page) and the sibling
services (tournaments, the timers) subscribe where the application is put together. One
mechanism for all of them: nobody assigns a hook on the service, and a subscriber that fails is
logged and never breaks the move that was made, nor the other subscribers.

Each event names the front end that asked for the change (``origin``): that front end answered
the person who asked and follows the change with its own screens; every other one shows it as
news. A change heard from another process sharing the database has the origin ``ELSEWHERE``
(and comes with a ``ChangedElsewhere``); one nobody asked for through a front end has the empty
origin, as has a change made by a test.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.gin.match import MatchResult
from bot.tables.model import HeardOutcome, MoveOutcome, Status, Table

__all__ = [
    "ELSEWHERE",
    "ChangedElsewhere",
    "DeadlineMoved",
    "EventHub",
    "MatchStarted",
    "MoveMade",
    "SeatsChanged",
    "Status",
    "TableClosed",
    "TableEvent",
    "TableOpened",
]

log = logging.getLogger(__name__)

ELSEWHERE = "elsewhere"
"""The origin of a change another process made, heard here."""

E = TypeVar("E")
Handler = Callable[[E], Awaitable[None] | None]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableEvent:
    """Something that happened to ``table``, asked for through the front end ``origin``."""

    table: Table
    origin: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableOpened(TableEvent):
    """A challenge or a lobby opened in the table's channel (or a match that starts at once:
    ``MatchStarted`` follows)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatsChanged(TableEvent):
    """Someone took or gave up a seat in a lobby that is still filling."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchStarted(TableEvent):
    """The first hand was dealt: the challenge was accepted, or the lobby started."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveMade(TableEvent):
    """A move was committed in this process (a person's, the bot's, or a seat leaving)."""

    outcome: MoveOutcome


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangedElsewhere(TableEvent):
    """Another process sharing the database changed the table, and this one caught up: the
    seat that moved (None: not a move, or not known) and the moves made here from what was
    heard (none when the table was read again instead)."""

    seat: int | None
    made: tuple[HeardOutcome, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class TableClosed(TableEvent):
    """The table closed: finished (with ``result`` when this process ended the match),
    declined, expired, cancelled or ended by a moderator; here or heard from elsewhere."""

    status: Status
    result: MatchResult | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DeadlineMoved(TableEvent):
    """A table's next deadline (a challenge's expiry, a turn's reminder or forfeit) moved."""


class EventHub:
    """Subscribers by event type (a subscriber to a class hears its subclasses too); events
    handed to each in the order they subscribed. A subscriber may be a coroutine function:
    it then runs as a task of its own, kept until it ends, so shutdown can wait for it."""

    def __init__(self) -> None:
        self._handlers: list[tuple[type[Any], Handler[Any]]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    def subscribe(self, kind: type[E], handler: Handler[E]) -> Callable[[], None]:
        """Hear every event of ``kind``; the answer unsubscribes."""
        entry: tuple[type[Any], Handler[Any]] = (kind, handler)
        self._handlers.append(entry)

        def unsubscribe() -> None:
            if entry in self._handlers:
                self._handlers.remove(entry)

        return unsubscribe

    def publish(self, event: object) -> None:
        """Tell every subscriber of the event's type; never raises."""
        for kind, handler in list(self._handlers):
            if not isinstance(event, kind):
                continue
            try:
                result = handler(event)
                if inspect.isawaitable(result):
                    self._track(result, event)
            except Exception:
                log.exception("a subscriber to %s failed: %r", type(event).__name__, handler)

    def _track(self, work: Awaitable[None], event: object) -> None:
        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a subscriber to %s failed", type(event).__name__)

        task = asyncio.ensure_future(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self, timeout: float = 5.0) -> None:
        """Let the subscribers' tasks finish (at shutdown); cancel what outlasts ``timeout``."""
        pending = {task for task in self._tasks if not task.done()}
        if not pending:
            return
        _, late = await asyncio.wait(pending, timeout=timeout)
        for task in late:
            task.cancel()
