"""Closing a channel's table with no result: for members who may manage its messages."""

from __future__ import annotations

from functools import partial
from typing import Any

import discord

from bot.i18n import speaking, tr
from bot.render.common import Panel
from bot.tables import Table, TableError, TableService
from cogs.gin.after import After
from cogs.gin.errors import send
from cogs.gin.lobby import Lobbies
from cogs.gin.origin import DISCORD
from cogs.gin.people import name_of
from cogs.gin.views import embed


def closed_text(table: Table, moderator: str) -> str:
    """Who closed the table and whose match ends, everyone seated named, in the language in
    force."""
    people = [p.id for seat, p in enumerate(table.players) if seat in table.human_seats]
    if len(table.players) == 2:
        a, b = table.players
        return tr(
            "{moderator} closed this table. The match between <@{challenger}> and "
            "<@{opponent}> ends with no result.",
            moderator=moderator,
            challenger=a.id,
            opponent=b.id,
        )
    # TRANSLATORS: {players} lists the people seated at a table of more than two.
    return tr(
        "{moderator} closed this table. The match of {players} ends with no result.",
        moderator=moderator,
        # TRANSLATORS: what separates the names in a list of players.
        players=tr(", ").join(f"<@{user}>" for user in people),
    )


class Moderation:
    """`/gin end`."""

    def __init__(self, service: TableService, after: After, lobbies: Lobbies) -> None:
        self.service = service
        self.after = after
        self.screens = after.screens
        self.lobbies = lobbies

    async def end(self, interaction: discord.Interaction[Any]) -> None:
        if not interaction.permissions.manage_messages:
            raise TableError(
                "Only members who can manage messages in this channel can end a table. "
                "Players can leave a match with `/gin resign`."
            )
        async with self.after.flow(interaction) as flow:
            table = self.service.require_table(str(interaction.channel_id))
            lobby = table.is_lobby  # before it closes: a lobby's message shows it closed
            await self.service.end(table, origin=DISCORD)
            moderator = name_of(interaction.user)
            with speaking(self.screens.languages.of_channel(table)):
                text = closed_text(table, moderator)
                challenge = self.lobbies.payload(table)[0] if lobby else None
            flow.committed(
                tr("The table is closed, with no result."),
                then=partial(
                    self.screens.close, table, lambda: closed_text(table, moderator), challenge
                ),
            )
            # TRANSLATORS: the title of the message when a moderator ends a table.
            panel = Panel(tr("Table closed"), text)
            await send(interaction, embeds=[embed(panel)], ephemeral=False)
