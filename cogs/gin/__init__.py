"""The Gin Rummy extension: slash commands, buttons and the upkeep of every table's messages."""

from __future__ import annotations

from discord.ext import commands

from bot.tables import Table
from cogs.gin.cog import GinCog


async def setup(bot: commands.Bot) -> None:
    cog = GinCog(bot)
    await bot.add_cog(cog)

    def changed_elsewhere(table: Table, seat: int | None) -> None:
        """Another process changed the table: show it, and play the bot's turn if it is
        ours (``sync`` and ``nudge`` do nothing for a table another process shows)."""
        if seat is not None:
            cog.display.acted(table, seat)  # they moved moments ago: they are looking
        cog.display.sync_soon(table)
        cog.opponent.nudge(table)

    cog.service.changed_elsewhere = changed_elsewhere
