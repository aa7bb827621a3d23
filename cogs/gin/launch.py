"""Opening the Activity from Discord, when the bot's web side is set up (``GIN_WEB_PORT``):
the public table's Play at the table button and ``/gin play``, both answered with Discord's
LAUNCH_ACTIVITY; and the app's Entry Point command, kept in every global command sync."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_
from cogs.gin.views.table import LaunchButton

PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCHES = 2  # the Entry Point's handler: Discord opens the Activity by itself

# The Entry Point command (the App Launcher's "launch"): Discord requires a bulk sync of an
# app with Activities to keep it, and answers it itself by opening the Activity.
ENTRY_POINT: dict[str, Any] = {
    "name": "launch",
    "description": "Play Gin Rummy at this channel's table",
    "type": PRIMARY_ENTRY_POINT,
    "handler": DISCORD_LAUNCHES,
    "integration_types": [0],
    "contexts": [0],
}


async def play(interaction: discord.Interaction[Any]) -> None:
    """/gin play: the Activity, opened at this channel's table (its errors, like every
    command's, answered by the command tree's handler)."""
    await interaction.response.launch_activity()


def add_launch(bot: commands.Bot, gin: app_commands.Group, channel_screens: Any) -> None:
    """The ways to open the Activity from Discord (before the cog is added)."""
    bot.add_dynamic_items(LaunchButton)
    gin.add_command(
        app_commands.Command(
            name="play",
            description=N_("Open the card table here: play or watch this channel's game"),
            callback=play,
        )
    )
    channel_screens.launch = True


ENTRY_POINT_KEPT = 50240  # Discord refused a sync that would drop the Entry Point command


async def sync_keeping_entry_point(tree: app_commands.CommandTree[Any], application_id: int) -> int:
    """The global commands synced as discord.py syncs them, unless the application has an
    Entry Point command (Activities turned on in the portal, or another of the bot's
    processes serving the Activity): then synced with that command kept, as Discord asks."""
    try:
        return len(await tree.sync())
    except discord.HTTPException as error:
        if error.code != ENTRY_POINT_KEPT:
            raise
    held = await tree.client.http.get_global_commands(application_id)
    kept = next((c for c in held if int(c.get("type", 1)) == PRIMARY_ENTRY_POINT), ENTRY_POINT)
    shown = ("name", "description", "type", "handler", "integration_types", "contexts")
    return await sync_with_entry_point(
        tree, application_id, {k: kept[k] for k in shown if k in kept}
    )


async def sync_with_entry_point(
    tree: app_commands.CommandTree[Any],
    application_id: int,
    entry_point: dict[str, Any] | None = None,
) -> int:
    """Sync the global commands with the Entry Point command among them (discord.py's own
    sync knows no command of type 4); how many Discord holds now."""
    translator = tree.translator
    payload = []
    for command in tree.get_commands():
        if translator is not None:
            payload.append(await command.get_translated_payload(tree, translator))
        else:
            payload.append(command.to_dict(tree))
    payload.append(ENTRY_POINT if entry_point is None else entry_point)
    synced = await tree.client.http.bulk_upsert_global_commands(application_id, payload=payload)
    return len(synced)
