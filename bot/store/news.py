"""News of changed tables between the processes sharing a PostgreSQL database: each change
is announced with ``NOTIFY`` in the transaction that makes it (a plain move comes with the move
itself, so a listener can make it too), and heard with ``LISTEN`` on a connection of its own."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING, Any, TypeAlias

import asyncpg
import orjson

from bot.store.base import TableChanged
from bot.store.rows import HeardMove, TableChange

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

log = logging.getLogger(__name__)

# PostgreSQL refuses a notice's text from 8,000 bytes; a move's one stays well below that.
NOTICE_BYTES = 7900
# Not subscriptable at run time, only in the type stubs.
Connection: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"


class TableNews:
    """Tells the other processes which tables changed, and hears what they changed."""

    def __init__(self, url: str) -> None:
        self.url = url
        # Who sends this store's notifications, so it can skip its own; and where they go.
        self.origin = secrets.token_hex(6)
        self.channel = "gin_tables"
        # A process alone on its database (no other shards' processes) has nobody to tell:
        # it turns this off and saves a statement per move.
        self.announce = True
        self._listener: asyncpg.Connection[asyncpg.Record] | None = None
        self._on_change: TableChanged | None = None
        self._relisten: asyncio.Task[None] | None = None

    def hear_schema(self, schema: str) -> None:
        """Schemas of one database share its channels: each store hears its own only."""
        self.channel = f"gin_tables.{schema}"[:63]

    async def close(self) -> None:
        self._on_change = None
        if self._relisten is not None:
            self._relisten.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._relisten
        listener, self._listener = self._listener, None
        if listener is not None and not listener.is_closed():
            with contextlib.suppress(Exception):
                await listener.close(timeout=2)

    async def watch(self, on_change: TableChanged) -> None:
        """``LISTEN`` on a connection of its own, connected again (with the tables then all
        reported changed, id 0) if it drops."""
        self._on_change = on_change
        await self._listen()

    async def _listen(self) -> None:
        listener = await asyncpg.connect(self.url)
        await listener.add_listener(self.channel, self._heard)
        listener.add_termination_listener(self._lost)
        self._listener = listener

    def _heard(self, conn: Any, pid: int, channel: str, payload: object) -> None:
        on_change = self._on_change
        if on_change is None:
            return
        try:
            news = orjson.loads(str(payload))
            if news["origin"] == self.origin:
                return
            heard = news.get("move")
            move = None if heard is None else HeardMove(**heard)
            change = TableChange(news["table"], news["count"], news["status"], news["seat"], move)
        except (orjson.JSONDecodeError, KeyError, TypeError) as error:
            log.warning("a change notice could not be read (%r): all tables reloaded", error)
            change = TableChange(0, -1, "")
        on_change(change)

    def _lost(self, conn: Any) -> None:
        if self._on_change is None:
            return  # closing
        log.warning("lost the PostgreSQL connection that listens for changes; reconnecting")
        self._relisten = asyncio.ensure_future(self._listen_again())

    async def _listen_again(self) -> None:
        delay = 0.5
        while self._on_change is not None:
            try:
                await self._listen()
            except (OSError, asyncpg.PostgresError) as error:
                log.warning("listening for changes failed (%r); again in %.1f s", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)
                continue
            self._on_change(TableChange(0, -1, ""))  # what was said meanwhile was missed
            return

    async def notify(self, conn: Connection, change: TableChange) -> None:
        """Tell the other processes, once this transaction commits, that a table changed."""
        if not self.announce:
            return
        await conn.execute("SELECT pg_notify($1, $2)", self.channel, self.payload(change))

    def payload(self, change: TableChange) -> str:
        """A change as a notice's JSON text; past PostgreSQL's limit on a notice, without
        the move (whoever hears it reads the table instead)."""
        news: dict[str, Any] = {
            "table": change.table_id,
            "count": change.count,
            "status": change.status,
            "seat": change.seat,
            "origin": self.origin,
        }
        if change.move is not None:
            move = change.move
            news["move"] = {
                "action": move.action,
                "timers": move.timers,
                "change_deadline": move.change_deadline,
                "deadline": move.deadline,
                "state_check": move.state_check,
                "shown_message": move.shown_message,
                "mover_language": move.mover_language,
            }
            text = orjson.dumps(news).decode()
            if len(text.encode()) <= NOTICE_BYTES:
                return text
            del news["move"]
        return orjson.dumps(news).decode()
