"""What a server's finished matches add up to, read for the record pages: the leaderboard,
a player's history and statistics, a match hand by hand. The Discord layer reads records
here, never from the store, so the service stays the one door to what is saved."""

from __future__ import annotations

from bot.store import Store
from bot.store.rows import (
    CLASSIC,
    HandRow,
    HistoryRow,
    LeaderRow,
    LeaderSort,
    PlayerStats,
    ReviewKey,
    ReviewState,
    TableRow,
)

__all__ = [
    "HandRow",
    "HistoryRow",
    "LeaderRow",
    "LeaderSort",
    "PlayerStats",
    "Records",
    "ReviewKey",
    "ReviewState",
    "TableRow",
]


class Records:
    """Read-only questions about finished (and open) matches."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def match(self, match_id: int) -> TableRow | None:
        """A match as saved (open or finished), or None."""
        return await self._store.get_table(match_id)

    async def hands(self, match_id: int) -> list[HandRow]:
        """Every scored hand of a match, in order."""
        return await self._store.hands(match_id)

    async def leaderboard(
        self,
        guild_id: str,
        limit: int,
        offset: int,
        *,
        sort: LeaderSort = "wins",
        provisional_below: int = 0,
        mode: str = CLASSIC,
    ) -> tuple[list[LeaderRow], int]:
        return await self._store.leaderboard(
            guild_id, limit, offset, sort=sort, provisional_below=provisional_below, mode=mode
        )

    async def bot_records(
        self, guild_id: str, limit: int, offset: int, mode: str = CLASSIC
    ) -> tuple[list[LeaderRow], int]:
        return await self._store.bot_records(guild_id, limit, offset, mode)

    async def history(
        self, guild_id: str, user_id: str, limit: int, offset: int, mode: str = CLASSIC
    ) -> tuple[list[HistoryRow], int]:
        return await self._store.history(guild_id, user_id, limit, offset, mode)

    async def player_stats(
        self, guild_id: str, user_id: str, mode: str = CLASSIC
    ) -> PlayerStats | None:
        return await self._store.player_stats(guild_id, user_id, mode)
