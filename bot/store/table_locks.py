"""``TableLock``s that take no row lock, for the table service's two lighter ways to write.

A process alone on its database needs no row lock: its tables in memory are the truth, and
each write is the store's own transaction (``alone``). A process sharing the database first
tries a move as if its copy were the stored table (``hopeful``): the move is recorded only if
it is the next one of the stored table, else ``MovedElsewhere`` and nothing is written.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from bot.store.base import Store, TableLock
from bot.store.errors import StaleMove
from bot.store.rows import JsonObject, MatchEnd, MoveRecord, RatingRow, TableRow


class MovedElsewhere(Exception):
    """The stored table was not our copy of it: another process changed it first."""


class Alone:
    """``TableLock`` for a process alone on its database: each write is the store's own
    transaction, and the table in memory is the truth (``table`` is never read)."""

    def __init__(self, store: Store, match_id: int) -> None:
        self._store = store
        self._id = match_id

    @property
    def table(self) -> TableRow:
        raise RuntimeError("alone on its database, a table is read from memory")

    async def record_move(self, move: MoveRecord) -> None:
        await self._store.record_move(move)

    async def end_match(
        self,
        state: JsonObject | None,
        end: MatchEnd,
        now: str,
        *,
        ratings: tuple[RatingRow, ...] = (),
    ) -> None:
        await self._store.end_match(self._id, state, end, now, ratings=ratings)

    async def set_display(self, display: JsonObject, now: str) -> None:
        await self._store.set_display(self._id, display, now)

    async def set_deadline(self, deadline: str | None, now: str) -> None:
        await self._store.set_deadline(self._id, deadline, now)


class Hopeful(Alone):
    """``TableLock`` for a move made on our copy of a table while other processes share the
    database: recorded only if it is the next move of the stored table (the store's guarded
    write), else ``MovedElsewhere`` and nothing written."""

    async def record_move(self, move: MoveRecord) -> None:
        try:
            await self._store.record_move(move)
        except StaleMove:
            raise MovedElsewhere(move.match_id) from None


@contextlib.asynccontextmanager
async def alone(store: Store, match_id: int) -> AsyncIterator[TableLock]:
    yield Alone(store, match_id)


@contextlib.asynccontextmanager
async def hopeful(store: Store, match_id: int) -> AsyncIterator[TableLock]:
    yield Hopeful(store, match_id)
