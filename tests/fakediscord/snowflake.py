"""Snowflake ids shaped like Discord's, so discord.py's time helpers work on them."""

from __future__ import annotations

import datetime
import os
import time

DISCORD_EPOCH_MS = 1420070400000


class SnowflakeFactory:
    """Hands out strictly increasing snowflakes whose timestamps follow the wall clock."""

    def __init__(self, worker: int = 1) -> None:
        self._worker = worker & 0x1F
        self._process = os.getpid() & 0x1F
        self._last = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (self._worker << 17) | (self._process << 12)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake that Discord's sharding, ``(id >> 22) % shard_count``, sends
        to ``shard_id``: a guild id on that shard (a millisecond or a few ahead at most)."""
        value = self.next()
        ms = value >> 22
        ahead = (shard_id - ms) % shard_count
        if ahead:
            value = ((ms + ahead) << 22) | (self._worker << 17) | (self._process << 12)
            self._last = value
        return value


def snowflake_time(snowflake: int) -> datetime.datetime:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)


def iso_time(snowflake: int) -> str:
    return snowflake_time(snowflake).isoformat()


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()
