"""The open tables this process keeps, by channel and by id, and the locks of the channels
where a table is being opened (kept only while someone holds or waits for one)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from bot.tables.model import Table


class Registry:
    """One open table per channel; closed tables leave it."""

    def __init__(self) -> None:
        self._by_channel: dict[str, Table] = {}
        self._by_id: dict[int, Table] = {}
        self._channel_locks: dict[str, tuple[asyncio.Lock, int]] = {}  # lock, its users

    def register(self, table: Table) -> None:
        self._by_channel[table.channel_id] = table
        self._by_id[table.id] = table

    def unregister(self, table: Table) -> None:
        if self._by_channel.get(table.channel_id) is table:
            del self._by_channel[table.channel_id]
        self._by_id.pop(table.id, None)

    def holds(self, table: Table) -> bool:
        """Whether the table is open here (not closed, nor dropped as another's)."""
        return table.id in self._by_id

    def in_channel(self, channel_id: str) -> Table | None:
        return self._by_channel.get(channel_id)

    def by_id(self, table_id: int) -> Table | None:
        return self._by_id.get(table_id)

    def tables(self) -> list[Table]:
        return list(self._by_id.values())

    def ids(self) -> list[int]:
        return list(self._by_id)

    def tables_of(self, user_id: str) -> list[Table]:
        return [t for t in self._by_id.values() if t.seat_of(user_id) is not None]

    @contextlib.asynccontextmanager
    async def opening(self, channel_id: str) -> AsyncIterator[None]:
        """Held while a table is opened in the channel: two openings there queue, and the
        second finds the first's table. The lock is dropped once nobody holds or awaits it."""
        lock, users = self._channel_locks.get(channel_id, (asyncio.Lock(), 0))
        self._channel_locks[channel_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._channel_locks[channel_id]
            if users == 1:
                del self._channel_locks[channel_id]
            else:
                self._channel_locks[channel_id] = (lock, users - 1)

    @property
    def channels_opening(self) -> int:
        """How many channels have a lock now (none once every opening has ended)."""
        return len(self._channel_locks)
