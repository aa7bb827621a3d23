"""A server's settings, shown to anyone and changed by members who may manage the server."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import tr
from bot.render.challenges import rules_panel, settings_panel
from bot.render.common import Panel
from bot.tables import TableError, TableService
from cogs.gin.errors import send
from cogs.gin.views import embed


class ServerSettingsFlow:
    """`/gin rules`, `/gin settings show` and `/gin settings set`."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """`/gin rules`: the rules at the channel's table, or the server's."""
        table = self.service.in_channel(str(interaction.channel_id))
        if table is not None:
            settings = table.settings
        else:
            settings = (await self.service.server_settings(str(interaction.guild_id))).rules
        await send(interaction, embeds=[embed(rules_panel(settings))])

    async def show(self, interaction: discord.Interaction[Any]) -> None:
        server = await self.service.server_settings(str(interaction.guild_id))
        await send(interaction, embeds=[embed(settings_panel(server))])

    async def change(
        self,
        interaction: discord.Interaction[Any],
        changes: dict[str, Any],
        *,
        language: str | None,
        turn_minutes: int | None,
        challenge_minutes: int | None,
    ) -> None:
        """Save the settings given (``changes``: the options set, by their setting names)."""
        if not interaction.permissions.manage_guild:
            raise TableError(
                "Only members with the Manage Server permission can change these settings. "
                "Anyone can see them with `/gin settings show`."
            )
        changes = dict(changes)
        if language is not None:
            changes["language"] = "" if language == "auto" else language
        if turn_minutes is not None:
            changes["turn_seconds"] = turn_minutes * 60
        if challenge_minutes is not None:
            changes["challenge_seconds"] = challenge_minutes * 60
        if not changes:
            raise TableError(
                "Nothing to change: pick at least one setting, e.g. `/gin settings set target:150`."
            )
        server = await self.service.change_server_settings(str(interaction.guild_id), **changes)
        panel = settings_panel(server)
        done = Panel(
            # TRANSLATORS: the title of the answer to /gin settings set.
            tr("Settings saved"),
            panel.body,
            tr("New matches use them; matches in play keep theirs."),
        )
        await send(interaction, embeds=[embed(done)])
