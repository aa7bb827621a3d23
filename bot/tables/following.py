"""The open table of a channel for a front end of this process (the Activity's page), also
where another process shows it: with several processes on one database, a process keeps in
memory only the tables it shows or gets DMs for, so it looks the channel's table up in the
store, and keeps following it while someone has it open in the Activity here
(``Presence.followed``: other processes' changes to it are then heard and made here)."""

from __future__ import annotations

from bot.tables.model import Table
from bot.tables.service import TableService


async def table_in_channel(service: TableService, channel_id: str) -> Table | None:
    """The channel's open table: the one in memory, or (other processes on the database)
    the one the store has, read into memory."""
    table = service.in_channel(channel_id)
    if table is not None or service.fleet is None:
        return table
    for row in await service.core.store.open_tables():
        if row.channel_id == channel_id:
            return await service.find(row.id)
    return None
