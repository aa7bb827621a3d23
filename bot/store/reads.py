"""What both backends read alike: the same SQL (``queries``) through each one's ``_one`` and
``_all``, the same rows out of ``codec`` (SQLite's and asyncpg's rows are read by column name
or by index alike). A backend gives ``open``, ``close``, ``_one`` and ``_all``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Self

from bot.store import codec
from bot.store import queries as q
from bot.store.rows import CLASSIC, HandRow, JsonObject, MoveRow, RatingRow, ResultRow

Params = Sequence[Any] | Mapping[str, Any]


class SharedReads:
    """The reads the SQLite and PostgreSQL stores share, and their ``async with``."""

    async def open(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def _one(self, sql: str, params: Params = ()) -> Any:
        raise NotImplementedError

    async def _all(self, sql: str, params: Params = ()) -> Sequence[Any]:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def get_guild_settings(self, guild_id: str) -> JsonObject | None:
        """A guild's settings as last saved, or None if it never saved any."""
        row = await self._one(q.GET_GUILD_SETTINGS, (guild_id,))
        return None if row is None else codec.load(row[0])

    async def due_deadlines(self, now: str) -> list[tuple[int, str]]:
        """(match id, deadline) of open tables whose deadline is at or before ``now`` and not
        claimed by a process (``claim_deadline``) whose claim still holds, earliest first.
        Times compare as text, so every time must be written in the same format."""
        rows = await self._all(q.DUE_DEADLINES, {"now": now})
        return [(int(r[0]), str(r[1])) for r in rows]

    async def next_deadline(self) -> str | None:
        """The earliest deadline of any open table, so a scheduler knows how long to sleep."""
        row = await self._one(q.NEXT_DEADLINE)
        return None if row is None or row[0] is None else str(row[0])

    async def get_ratings(
        self, guild_id: str, user_ids: Sequence[str], mode: str = CLASSIC
    ) -> dict[str, RatingRow]:
        """Current ratings in one mode by user id; players without a rating are left out."""
        wanted = list(dict.fromkeys(user_ids))
        if not wanted:
            return {}
        rows = await self._all(q.get_ratings(len(wanted)), (guild_id, mode, *wanted))
        return {r["user_id"]: codec.rating_row(r) for r in rows}

    async def moves(self, match_id: int) -> list[MoveRow]:
        return [codec.move_row(r) for r in await self._all(q.MOVES, (match_id,))]

    async def hands(self, match_id: int) -> list[HandRow]:
        """The finished hands by number, the boards of one number in order."""
        return [codec.hand_row(r) for r in await self._all(q.HANDS, (match_id,))]

    async def results(self, match_id: int) -> list[ResultRow]:
        return [codec.result_row(r) for r in await self._all(q.RESULTS, (match_id,))]
