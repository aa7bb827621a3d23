"""News from the gateway that a permission may have come back: a channel or thread changed,
a role changed, or the bot's own member did. The channels that refused the bot a write
(``screens.refusals``) are asked again after it."""

from __future__ import annotations

import discord
from discord.ext import commands

from cogs.gin.screens.refusals import Refusals


class Permissions(commands.Cog):
    """Forgets a channel's refusals when what decides its permissions changes."""

    def __init__(self, client: discord.Client, refusals: Refusals) -> None:
        self.client = client
        self.refusals = refusals

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, _before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        self.refusals.channel_changed(after.id)

    @commands.Cog.listener()
    async def on_thread_update(self, _before: discord.Thread, after: discord.Thread) -> None:
        self.refusals.channel_changed(after.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, _before: discord.Role, _after: discord.Role) -> None:
        self.refusals.permissions_changed()

    @commands.Cog.listener()
    async def on_member_update(self, _before: discord.Member, after: discord.Member) -> None:
        me = self.client.user
        if me is not None and after.id == me.id:
            self.refusals.permissions_changed()
