"""The Gin Rummy extension: slash commands, buttons and the upkeep of every table's messages."""

from __future__ import annotations

from discord.ext import commands

from cogs.gin.cog import GinCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GinCog(bot))
